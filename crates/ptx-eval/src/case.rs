//! Test cases in JSON: buffers, parameters and a launch shape in, the
//! buffers' contents after the run out.
//!
//! ```json
//! {"entry": "k", "grid": [1,1,1], "block": [64,1,1],
//!  "buffers": {"in":  {"type": "u32", "data": [1, 2, 3]},
//!              "out": {"type": "u32", "zeros": 64}},
//!  "params": [{"buffer": "in"}, {"buffer": "out"}, {"u32": 7}]}
//! ```
//!
//! The result is `{"buffers": {"in": [...], "out": [...]}, "steps": N}`,
//! each buffer printed in its declared type (floats that are NaN or
//! infinite as the strings `"nan"`, `"inf"`, `"-inf"`).

use crate::{param_layout, run, Launch, Machine};
use ptx_ir::Module;
use serde_json::{json, Map, Value as Json};

/// Element type of a buffer or scalar parameter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Elem {
    /// An unsigned integer of this many bytes.
    U(u8),
    /// A signed integer of this many bytes.
    S(u8),
    /// `f32`.
    F32,
    /// `f64`.
    F64,
}

impl Elem {
    /// Parses `u8`..`u64`, `s8`..`s64`, `f32`, `f64`.
    pub fn from_name(s: &str) -> Option<Elem> {
        Some(match s {
            "u8" => Elem::U(1),
            "u16" => Elem::U(2),
            "u32" => Elem::U(4),
            "u64" => Elem::U(8),
            "s8" => Elem::S(1),
            "s16" => Elem::S(2),
            "s32" => Elem::S(4),
            "s64" => Elem::S(8),
            "f32" => Elem::F32,
            "f64" => Elem::F64,
            _ => return None,
        })
    }

    /// Size in bytes.
    pub fn size(self) -> u64 {
        match self {
            Elem::U(n) | Elem::S(n) => n as u64,
            Elem::F32 => 4,
            Elem::F64 => 8,
        }
    }

    /// The bit pattern of a JSON number (or `"nan"`/`"inf"`/`"-inf"`).
    fn encode(self, v: &Json) -> Result<u64, String> {
        let bad = || format!("{v} is not a valid {self:?} value");
        let float = || -> Option<f64> {
            match v.as_str() {
                Some("nan") => Some(f64::NAN),
                Some("inf") => Some(f64::INFINITY),
                Some("-inf") => Some(f64::NEG_INFINITY),
                _ => v.as_f64(),
            }
        };
        Ok(match self {
            Elem::F32 => (float().ok_or_else(bad)? as f32).to_bits() as u64,
            Elem::F64 => float().ok_or_else(bad)?.to_bits(),
            Elem::U(n) | Elem::S(n) => {
                let raw = if let Some(u) = v.as_u64() {
                    u
                } else if let Some(i) = v.as_i64() {
                    i as u64
                } else {
                    return Err(bad());
                };
                let bits = n as u32 * 8;
                let fits = match (self, v.as_i64(), v.as_u64()) {
                    (_, _, _) if bits == 64 => true,
                    (Elem::S(_), Some(i), _) => {
                        i >= -(1i64 << (bits - 1)) && i < (1i64 << (bits - 1))
                    }
                    (Elem::U(_), _, Some(u)) => u < (1u64 << bits),
                    // Negative values for unsigned and large for signed:
                    // accept any bit pattern that fits the width.
                    (_, Some(i), _) => i >= -(1i64 << (bits - 1)),
                    (_, _, Some(u)) => u < (1u64 << bits),
                    _ => false,
                };
                if !fits {
                    return Err(bad());
                }
                if bits == 64 {
                    raw
                } else {
                    raw & ((1u64 << bits) - 1)
                }
            }
        })
    }

    /// The JSON form of a bit pattern.
    fn decode(self, bits: u64) -> Json {
        let float = |x: f64| {
            if x.is_nan() {
                json!("nan")
            } else if x.is_infinite() {
                json!(if x > 0.0 { "inf" } else { "-inf" })
            } else {
                json!(x)
            }
        };
        match self {
            Elem::U(_) => json!(bits),
            Elem::S(n) => {
                let s = 64 - n as u32 * 8;
                json!(((bits << s) as i64) >> s)
            }
            Elem::F32 => float(f32::from_bits(bits as u32) as f64),
            Elem::F64 => float(f64::from_bits(bits)),
        }
    }
}

/// Default step budget for a case: ten billion thread-instructions.
pub const DEFAULT_FUEL: u64 = 10_000_000_000;

fn dims(v: Option<&Json>, what: &str) -> Result<[u32; 3], String> {
    let Some(v) = v else { return Ok([1, 1, 1]) };
    let arr = v
        .as_array()
        .ok_or_else(|| format!("'{what}' must be an array of up to 3 integers"))?;
    if arr.is_empty() || arr.len() > 3 {
        return Err(format!("'{what}' must be an array of 1 to 3 integers"));
    }
    let mut out = [1u32; 3];
    for (k, x) in arr.iter().enumerate() {
        out[k] = x
            .as_u64()
            .filter(|&n| (1..=u32::MAX as u64).contains(&n))
            .ok_or_else(|| format!("'{what}' entries must be positive integers"))?
            as u32;
    }
    Ok(out)
}

/// Runs the case `case` (JSON text) on `module`; returns the result JSON.
pub fn run_case(module: &Module, case: &str, fuel: u64) -> Result<Json, String> {
    let case: Json = serde_json::from_str(case).map_err(|e| format!("case: {e}"))?;
    let obj = case.as_object().ok_or("case: expected a JSON object")?;
    let kernels: Vec<&str> = module
        .functions()
        .filter(|f| f.kind == ptx_ir::FuncKind::Entry && f.has_body)
        .map(|f| &*f.name)
        .collect();
    let entry = match obj.get("entry") {
        Some(e) => e
            .as_str()
            .ok_or("case: 'entry' must be a string")?
            .to_string(),
        None if kernels.len() == 1 => kernels[0].to_string(),
        None => {
            return Err(format!(
                "case: 'entry' is required: the module has {} kernels",
                kernels.len()
            ))
        }
    };
    let f = module
        .functions()
        .find(|f| *f.name == *entry && f.has_body)
        .ok_or_else(|| format!("case: no kernel named '{entry}'"))?;
    let launch = Launch {
        grid: dims(obj.get("grid"), "grid")?,
        block: dims(obj.get("block"), "block")?,
    };
    let mut machine = Machine::new(fuel);
    // Buffers, in the order the case lists them.
    let mut buffers: Vec<(String, Elem, u64, u64)> = Vec::new();
    if let Some(b) = obj.get("buffers") {
        let b = b.as_object().ok_or("case: 'buffers' must be an object")?;
        for (name, spec) in b {
            let ty = spec
                .get("type")
                .and_then(Json::as_str)
                .and_then(Elem::from_name)
                .ok_or_else(|| {
                    format!("buffer '{name}': 'type' must be one of u8..u64, s8..s64, f32, f64")
                })?;
            let data: Vec<u64> = match (spec.get("data"), spec.get("zeros")) {
                (Some(d), None) => d
                    .as_array()
                    .ok_or_else(|| format!("buffer '{name}': 'data' must be an array"))?
                    .iter()
                    .map(|v| ty.encode(v).map_err(|e| format!("buffer '{name}': {e}")))
                    .collect::<Result<_, _>>()?,
                (None, Some(z)) => {
                    let n = z
                        .as_u64()
                        .filter(|&n| n <= 1 << 28)
                        .ok_or_else(|| format!("buffer '{name}': 'zeros' must be a count"))?;
                    vec![0; n as usize]
                }
                _ => {
                    return Err(format!(
                        "buffer '{name}': give exactly one of 'data' and 'zeros'"
                    ))
                }
            };
            let addr = machine.global.alloc(data.len() as u64 * ty.size());
            for (k, v) in data.iter().enumerate() {
                machine
                    .global
                    .write(addr + k as u64 * ty.size(), ty.size(), *v as u128);
            }
            buffers.push((name.clone(), ty, addr, data.len() as u64));
        }
    }
    // The param block.
    let (slots, size) = param_layout(f);
    let given: &[Json] = match obj.get("params") {
        Some(p) => p.as_array().ok_or("case: 'params' must be an array")?,
        None => &[],
    };
    if given.len() != slots.len() {
        return Err(format!(
            "case: kernel '{entry}' takes {} parameters, the case gives {}",
            slots.len(),
            given.len()
        ));
    }
    let mut block = vec![0u8; size as usize];
    for (k, (p, &(off, slot))) in given.iter().zip(&slots).enumerate() {
        let po = p.as_object().filter(|o| o.len() == 1).ok_or_else(|| {
            format!("param {k}: expected {{\"buffer\": name}} or {{\"TYPE\": value}}")
        })?;
        let (key, v) = po.iter().next().expect("one entry");
        let (bits, len) = if key == "buffer" {
            let name = v
                .as_str()
                .ok_or_else(|| format!("param {k}: buffer name must be a string"))?;
            let b = buffers
                .iter()
                .find(|b| b.0 == name)
                .ok_or_else(|| format!("param {k}: no buffer named '{name}'"))?;
            (b.2, 8)
        } else {
            let ty =
                Elem::from_name(key).ok_or_else(|| format!("param {k}: unknown type '{key}'"))?;
            (
                ty.encode(v).map_err(|e| format!("param {k}: {e}"))?,
                ty.size(),
            )
        };
        if len > slot {
            return Err(format!(
                "param {k}: {len} bytes do not fit the kernel's {slot}-byte parameter"
            ));
        }
        for b in 0..len {
            block[(off + b) as usize] = (bits >> (8 * b)) as u8;
        }
    }
    let stats = run(module, &entry, &launch, &block, &mut machine).map_err(|e| {
        if e.pos == u32::MAX {
            e.message
        } else {
            format!("@{}: {}", e.pos, e.message)
        }
    })?;
    let mut out = Map::new();
    for (name, ty, addr, n) in &buffers {
        let vals: Vec<Json> = (0..*n)
            .map(|k| {
                ty.decode(
                    machine
                        .global
                        .read(addr + k * ty.size(), ty.size())
                        .unwrap_or(0) as u64,
                )
            })
            .collect();
        out.insert(name.clone(), Json::Array(vals));
    }
    Ok(json!({"buffers": out, "steps": stats.steps}))
}
