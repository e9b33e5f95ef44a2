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
//! infinite as the strings `"nan"`, `"inf"`, `"-inf"`). When the run's
//! effect depended on the order in which lanes were served (lanes storing
//! different values to one address, or reading back old values of one
//! address with `atom`), `"unordered": N` counts such instructions: the
//! buffers are then one valid outcome of several.

use crate::{form_of, param_layout, run, Bound, Launch, Limits, Machine, Tag, EXACT};
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
    pub fn encode(self, v: &Json) -> Result<u64, String> {
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
    pub fn decode(self, bits: u64) -> Json {
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
pub const DEFAULT_FUEL: u64 = Limits::DEFAULT.steps;

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

/// The error for case buffers that pass the memory limit.
fn buffers_over(name: &str, memory: u64) -> String {
    format!(
        "buffer '{name}': memory limit reached: the case's buffers take more than \
         {memory} bytes (raise it with ptx-eval --max-memory=BYTES)"
    )
}

/// One buffer of a case: its name, element type and initial elements (bit
/// patterns, truncated to the element's width).
#[derive(Clone, Debug, PartialEq)]
pub struct Buffer {
    /// The name params and the result refer to it by.
    pub name: String,
    /// Element type.
    pub elem: Elem,
    /// Initial elements.
    pub data: Vec<u64>,
}

impl Buffer {
    /// Size in bytes.
    pub fn byte_len(&self) -> u64 {
        self.data.len() as u64 * self.elem.size()
    }

    /// The initial contents, little-endian.
    pub fn bytes(&self) -> Vec<u8> {
        let n = self.elem.size() as usize;
        let mut out = Vec::with_capacity(self.data.len() * n);
        for v in &self.data {
            out.extend_from_slice(&v.to_le_bytes()[..n]);
        }
        out
    }

    /// The JSON array of `bytes` (contents after a run) in this buffer's type.
    pub fn decode(&self, bytes: &[u8]) -> Json {
        let n = self.elem.size() as usize;
        Json::Array(
            bytes
                .chunks(n)
                .map(|c| {
                    let mut w = [0u8; 8];
                    w[..c.len()].copy_from_slice(c);
                    self.elem.decode(u64::from_le_bytes(w))
                })
                .collect(),
        )
    }
}

/// One kernel parameter of a case.
#[derive(Clone, Debug, PartialEq)]
pub enum Param {
    /// The global address of the buffer with this index in [`Case::buffers`].
    Buffer(usize),
    /// A scalar: its type and bit pattern.
    Scalar(Elem, u64),
}

/// A parsed case: which kernel, the launch shape, buffers and parameters.
///
/// Both the evaluator and the GPU runner (`ptx-gpu-run`) read cases through
/// this type, so they agree on every detail of the format.
#[derive(Clone, Debug, PartialEq)]
pub struct Case {
    /// The kernel named by the case, if it names one.
    pub entry: Option<String>,
    /// Grid and block dimensions.
    pub launch: Launch,
    /// Buffers, in the order the case lists them.
    pub buffers: Vec<Buffer>,
    /// Parameters, in the kernel's order.
    pub params: Vec<Param>,
}

impl Case {
    /// Parses a case from its JSON text, within the default memory limit.
    pub fn parse(text: &str) -> Result<Case, String> {
        Case::parse_within(text, Limits::DEFAULT.memory)
    }

    /// Parses a case whose buffers may take at most `memory` bytes (the
    /// evaluator's memory limit): larger `zeros` are refused before
    /// anything is allocated.
    pub fn parse_within(text: &str, memory: u64) -> Result<Case, String> {
        let mut total = 0u64;
        let case: Json = serde_json::from_str(text).map_err(|e| format!("case: {e}"))?;
        let obj = case.as_object().ok_or("case: expected a JSON object")?;
        let entry = match obj.get("entry") {
            Some(e) => Some(
                e.as_str()
                    .ok_or("case: 'entry' must be a string")?
                    .to_string(),
            ),
            None => None,
        };
        let launch = Launch {
            grid: dims(obj.get("grid"), "grid")?,
            block: dims(obj.get("block"), "block")?,
        };
        let mut buffers: Vec<Buffer> = Vec::new();
        if let Some(b) = obj.get("buffers") {
            let b = b.as_object().ok_or("case: 'buffers' must be an object")?;
            for (name, spec) in b {
                let elem = spec
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
                        .map(|v| elem.encode(v).map_err(|e| format!("buffer '{name}': {e}")))
                        .collect::<Result<_, _>>()?,
                    (None, Some(z)) => {
                        let n = z
                            .as_u64()
                            .ok_or_else(|| format!("buffer '{name}': 'zeros' must be a count"))?;
                        // Elements are held as u64 while the case is set up.
                        total = total.saturating_add(n.saturating_mul(8));
                        if total > memory {
                            return Err(buffers_over(name, memory));
                        }
                        vec![0; n as usize]
                    }
                    _ => {
                        return Err(format!(
                            "buffer '{name}': give exactly one of 'data' and 'zeros'"
                        ))
                    }
                };
                buffers.push(Buffer {
                    name: name.clone(),
                    elem,
                    data,
                });
            }
        }
        let given: &[Json] = match obj.get("params") {
            Some(p) => p.as_array().ok_or("case: 'params' must be an array")?,
            None => &[],
        };
        let mut params = Vec::with_capacity(given.len());
        for (k, p) in given.iter().enumerate() {
            let po = p.as_object().filter(|o| o.len() == 1).ok_or_else(|| {
                format!("param {k}: expected {{\"buffer\": name}} or {{\"TYPE\": value}}")
            })?;
            let (key, v) = po.iter().next().expect("one entry");
            params.push(if key == "buffer" {
                let name = v
                    .as_str()
                    .ok_or_else(|| format!("param {k}: buffer name must be a string"))?;
                Param::Buffer(
                    buffers
                        .iter()
                        .position(|b| b.name == name)
                        .ok_or_else(|| format!("param {k}: no buffer named '{name}'"))?,
                )
            } else {
                let ty = Elem::from_name(key)
                    .ok_or_else(|| format!("param {k}: unknown type '{key}'"))?;
                Param::Scalar(ty, ty.encode(v).map_err(|e| format!("param {k}: {e}"))?)
            });
        }
        Ok(Case {
            entry,
            launch,
            buffers,
            params,
        })
    }

    /// The kernel the case runs: the one it names, or the module's only one.
    pub fn kernel<'m>(&self, module: &'m Module) -> Result<&'m ptx_ir::Function, String> {
        let entry = match &self.entry {
            Some(e) => e.clone(),
            None => {
                let kernels: Vec<&str> = module
                    .functions()
                    .filter(|f| f.kind == ptx_ir::FuncKind::Entry && f.has_body)
                    .map(|f| &*f.name)
                    .collect();
                if kernels.len() != 1 {
                    return Err(format!(
                        "case: 'entry' is required: the module has {} kernels",
                        kernels.len()
                    ));
                }
                kernels[0].to_string()
            }
        };
        module
            .functions()
            .find(|f| *f.name == *entry && f.has_body)
            .ok_or_else(|| format!("case: no kernel named '{entry}'"))
    }

    /// The kernel's param block as the CUDA driver lays it out, with each
    /// buffer parameter set to `addr_of(buffer index)`.
    pub fn param_block(
        &self,
        f: &ptx_ir::Function,
        addr_of: impl Fn(usize) -> u64,
    ) -> Result<Vec<u8>, String> {
        let (slots, size) = param_layout(f);
        if self.params.len() != slots.len() {
            return Err(format!(
                "case: kernel '{}' takes {} parameters, the case gives {}",
                f.name,
                slots.len(),
                self.params.len()
            ));
        }
        let mut block = vec![0u8; size as usize];
        for (k, (p, &(off, slot))) in self.params.iter().zip(&slots).enumerate() {
            let (bits, len) = match *p {
                Param::Buffer(b) => (addr_of(b), 8),
                Param::Scalar(ty, bits) => (bits, ty.size()),
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
        Ok(block)
    }

    /// The result JSON's `buffers` object, from each buffer's contents
    /// after the run.
    pub fn result_buffers(&self, mut contents: impl FnMut(usize) -> Vec<u8>) -> Json {
        let mut out = Map::new();
        for (k, b) in self.buffers.iter().enumerate() {
            out.insert(b.name.clone(), b.decode(&contents(k)));
        }
        Json::Object(out)
    }
}

/// Runs the case `case` (JSON text) on `module`; returns the result JSON.
pub fn run_case(module: &Module, case: &str, fuel: u64) -> Result<Json, String> {
    let limits = Limits {
        steps: fuel,
        ..Limits::DEFAULT
    };
    run_case_with(module, case, &limits, 0)
}

/// [`run_case`] with the buffers placed `skew` bytes further on in global
/// memory: a kernel whose result changes with `skew` computes with the
/// buffers' addresses, and no other machine can be expected to agree.
pub fn run_case_at(module: &Module, case: &str, fuel: u64, skew: u64) -> Result<Json, String> {
    let limits = Limits {
        steps: fuel,
        ..Limits::DEFAULT
    };
    run_case_with(module, case, &limits, skew)
}

/// [`run_case_at`] under the given limits.
pub fn run_case_with(
    module: &Module,
    case: &str,
    limits: &Limits,
    skew: u64,
) -> Result<Json, String> {
    let case = Case::parse_within(case, limits.memory)?;
    let f = case.kernel(module)?;
    let mut machine = Machine::with_limits(*limits);
    if skew > 0 {
        machine.global.alloc(skew);
    }
    let mut addrs = Vec::with_capacity(case.buffers.len());
    for b in &case.buffers {
        let addr = machine.global.alloc(b.byte_len());
        for (k, v) in b.data.iter().enumerate() {
            let size = b.elem.size();
            if machine
                .global
                .write(addr + k as u64 * size, size, *v as u128)
                .is_err()
            {
                return Err(buffers_over(&b.name, limits.memory));
            }
        }
        addrs.push(addr);
    }
    let block = case.param_block(f, |b| addrs[b])?;
    let stats = run(module, &f.name, &case.launch, &block, &mut machine).map_err(|e| {
        if e.pos == u32::MAX {
            e.message
        } else {
            format!("@{}: {}", e.pos, e.message)
        }
    })?;
    let buffers = case.result_buffers(|k| {
        let b = &case.buffers[k];
        let size = b.elem.size();
        let mut bytes = Vec::with_capacity(b.byte_len() as usize);
        for i in 0..b.data.len() as u64 {
            let v = machine.global.read(addrs[k] + i * size, size).unwrap_or(0) as u64;
            bytes.extend_from_slice(&v.to_le_bytes()[..size as usize]);
        }
        bytes
    });
    let mut out = json!({"buffers": buffers, "steps": stats.steps});
    if !machine.approx.is_empty() {
        // Elements holding `.approx` results (or values computed from
        // them), which another machine may give within a bound only.
        let mut notes = Map::new();
        for (k, b) in case.buffers.iter().enumerate() {
            let size = b.elem.size();
            let tags: Vec<Tag> = (0..b.data.len() as u64)
                .map(|i| machine.approx.global(addrs[k] + i * size, size))
                .collect();
            let runs = approx_runs(&tags);
            if !runs.is_empty() {
                notes.insert(b.name.clone(), Json::Array(runs));
            }
        }
        if !notes.is_empty() {
            out["approx"] = Json::Object(notes);
        }
    }
    if machine.unordered > 0 {
        // The result is one of several a GPU may give (see
        // `Machine::unordered`).
        out["unordered"] = json!(machine.unordered);
    }
    Ok(out)
}

/// The result JSON's `approx` entries of one buffer: each run of
/// consecutive elements with one tag, as `{"first", "count", "op",
/// "bound"}` for a direct result or `{"first", "count", "derived": true}`.
fn approx_runs(tags: &[Tag]) -> Vec<Json> {
    let mut runs = Vec::new();
    let mut i = 0;
    while i < tags.len() {
        let t = tags[i];
        let n = tags[i..].iter().take_while(|&&u| u == t).count();
        if t != EXACT {
            let mut run = json!({"first": i, "count": n});
            match form_of(t) {
                Some(form) => {
                    run["op"] = json!(form.name);
                    run["bound"] = bound_json(form.bound);
                }
                None => run["derived"] = json!(true),
            }
            runs.push(run);
        }
        i += n;
    }
    runs
}

/// A bound as the result JSON states it.
pub fn bound_json(b: Bound) -> Json {
    match b {
        Bound::Ulps(n) => json!({ "ulps": n }),
        Bound::Relative(e) => json!({"relative": 2f64.powf(e), "log2": e}),
        Bound::Absolute(e) => json!({"absolute": 2f64.powf(e), "log2": e}),
        Bound::Unstated => json!({"unstated": true}),
    }
}
