//! `cvt` (PTX ISA 9.7.9.21) between every integer and float type: integer
//! rounding (`.rni .rzi .rmi .rpi`, also float to float of one size),
//! float rounding (`.rn .rz .rm .rp`), `.sat` (integers to the destination
//! range, floats to [0, 1]), `.ftz`, `.relu`, `.satfinite`, the packing
//! forms `.f16x2/.bf16x2` from two f32, and the fp8 pairs `.e4m3x2` and
//! `.e5m2x2` from two f32 or an f16x2, and back to f16x2.
//!
//! Every result is the correctly rounded value of the exact input (one
//! rounding, through [`minifloat`](super::minifloat)); NaN results are the
//! format's canonical NaN, as the GPU gives them for f32.

use super::minifloat::{self, Round, BF16, E4M3, E5M2, F16, F32};
use super::*;

fn format_of(t: Type) -> Option<minifloat::Format> {
    match t {
        Type::F32 => Some(F32),
        Type::F16 | Type::F16x2 => Some(F16),
        Type::BF16 | Type::BF16x2 => Some(BF16),
        _ => None,
    }
}

/// The exact value of integer bits `x` of type `t` (|x| < 2^64).
fn int_value(x: u64, t: Type) -> i128 {
    if t.is_signed() {
        sext(x, t.bits()) as i128
    } else {
        (x & mask_bits(t)) as i128
    }
}

/// An integer as an f64 that rounds like it in any narrower format: exact
/// below 2^53, else rounded to odd (a sticky last bit), which keeps the
/// second rounding to ≤ 51 mantissa bits correct.
fn int_to_f64_sticky(v: i128) -> f64 {
    let mag = v.unsigned_abs();
    let bits = 128 - mag.leading_zeros();
    let f = if bits <= 53 {
        mag as f64
    } else {
        let shift = bits - 53;
        let mut top = mag >> shift;
        if mag & ((1u128 << shift) - 1) != 0 {
            top |= 1;
        }
        top as f64 * 2f64.powi(shift as i32)
    };
    if v < 0 {
        -f
    } else {
        f
    }
}

/// An integer to f64 in `mode` (exact below 2^53).
fn int_to_f64(v: i128, mode: Round) -> u64 {
    let near = v as f64;
    let back = near as i128;
    let step = |x: f64, up: bool| -> f64 {
        let b = x.to_bits();
        let toward_larger = (x >= 0.0) == up;
        f64::from_bits(if toward_larger { b + 1 } else { b - 1 })
    };
    let r = match mode {
        Round::Nearest => near,
        _ if back == v || near.is_infinite() => near,
        Round::Zero if back.abs() > v.abs() => step(near, near < 0.0),
        Round::Down if back > v => step(near, false),
        Round::Up if back < v => step(near, true),
        _ => near,
    };
    r.to_bits()
}

/// The value `x` rounded to an integer in `mode`.
fn round_integral(x: f64, mode: Round) -> f64 {
    match mode {
        Round::Nearest => x.round_ties_even(),
        Round::Zero => x.trunc(),
        Round::Down => x.floor(),
        Round::Up => x.ceil(),
    }
}

/// Computes a `cvt` for the executing lanes and writes its destination.
#[allow(clippy::needless_range_loop)]
pub(super) fn step(
    c: &Ctx,
    cta: &mut Cta,
    w: &mut Warp,
    m: &mut Machine,
) -> Result<Flow, EvalError> {
    let word = |x: &str| c.word(x);
    let tys: Vec<Type> = c.info.types().collect();
    let irnd = [
        ("rni", Round::Nearest),
        ("rzi", Round::Zero),
        ("rmi", Round::Down),
        ("rpi", Round::Up),
    ]
    .into_iter()
    .find(|(r, _)| word(r))
    .map(|x| x.1);
    let frnd = c.rounding();
    let (sat, satfinite, relu, ftz) = (word("sat"), word("satfinite"), word("relu"), word("ftz"));
    let fp8 = [("e4m3x2", E4M3), ("e5m2x2", E5M2)]
        .into_iter()
        .find(|(n, _)| word(n));
    let mut out = [0u64; 32];
    // A float result: .relu, .sat, then the rounding into `fmt`.
    let finish = |v: f64, fmt: minifloat::Format| -> u64 {
        let v = if relu && v < 0.0 { 0.0 } else { v };
        let v = if sat {
            if v.is_nan() {
                0.0
            } else {
                v.clamp(0.0, 1.0)
            }
        } else {
            v
        };
        fmt.encode(v, frnd, satfinite)
    };
    if let Some((name, f8)) = fp8 {
        // Which side the fp8 pair is on: its word comes before the
        // other type when it is the destination.
        let at = |p: &dyn Fn(&Mod) -> bool| c.info.mods.iter().position(p);
        let word_at = at(&|mm| c.f.ops.is_word(*mm, name));
        let type_at = at(&|mm| matches!(mm, Mod::Type(_)));
        let to_fp8 = word_at < type_at;
        match tys.as_slice() {
            // cvt.rn.satfinite{.relu}.e4m3x2.f32 d, a, b: a above b.
            [Type::F32] if to_fp8 && c.d.operands.len() == 3 => {
                let a = c.operand(1, Type::F32, w, cta, m)?;
                let b = c.operand(2, Type::F32, w, cta, m)?;
                for lane in 0..32 {
                    let hi = finish(float_in(a.v[lane], Type::F32, false), f8);
                    let lo = finish(float_in(b.v[lane], Type::F32, false), f8);
                    out[lane] = hi << 8 | lo;
                }
            }
            // cvt.rn.satfinite{.relu}.e4m3x2.f16x2 d, a: per half.
            [Type::F16x2] if to_fp8 => {
                let a = c.operand(1, Type::B32, w, cta, m)?;
                for lane in 0..32 {
                    let half = |k: u32| finish(F16.decode((a.v[lane] >> (16 * k)) & 0xffff), f8);
                    out[lane] = half(1) << 8 | half(0);
                }
            }
            // cvt.rn{.relu}.f16x2.e4m3x2 d, a: each byte, exact in f16.
            [Type::F16x2] => {
                let a = c.operand(1, Type::B16, w, cta, m)?;
                for lane in 0..32 {
                    let byte = |k: u32| finish(f8.decode((a.v[lane] >> (8 * k)) & 0xff), F16);
                    out[lane] = byte(1) << 16 | byte(0);
                }
            }
            _ => return Err(c.unsupported()),
        }
        write(c, w, &out);
        return Ok(Flow::Done);
    }
    let (dty, sty) = match tys.as_slice() {
        [d, s] => (*d, *s),
        _ => return Err(c.unsupported()),
    };
    if matches!(dty, Type::F16x2 | Type::BF16x2) {
        let fmt = format_of(dty).expect("a half format");
        if sty != Type::F32 || c.d.operands.len() != 3 {
            return Err(c.unsupported());
        }
        // d = {a → upper half, b → lower half}.
        let a = c.operand(1, Type::F32, w, cta, m)?;
        let b = c.operand(2, Type::F32, w, cta, m)?;
        for lane in 0..32 {
            let hi = finish(float_in(a.v[lane], Type::F32, false), fmt);
            let lo = finish(float_in(b.v[lane], Type::F32, false), fmt);
            out[lane] = hi << 16 | lo;
        }
        write(c, w, &out);
        return Ok(Flow::Done);
    }
    let a = c.operand(1, sty, w, cta, m)?;
    for lane in 0..32 {
        let x = a.v[lane] & mask_bits(sty);
        out[lane] = match (dty.is_float(), sty.is_float()) {
            (false, false) => {
                let v = int_value(x, sty);
                if sat {
                    let (lo, hi) = if dty.is_signed() {
                        (
                            -(1i128 << (dty.bits() - 1)),
                            (1i128 << (dty.bits() - 1)) - 1,
                        )
                    } else {
                        (0, (1i128 << dty.bits()) - 1)
                    };
                    v.clamp(lo, hi) as u64
                } else {
                    v as u64
                }
            }
            (true, false) => {
                let v = int_value(x, sty);
                match format_of(dty) {
                    Some(fmt) if !sat => fmt.encode(int_to_f64_sticky(v), frnd, false),
                    Some(fmt) => finish(int_to_f64_sticky(v), fmt),
                    None if sat => from_f64(int_to_f64_sticky(v).clamp(0.0, 1.0), dty),
                    None => int_to_f64(v, frnd),
                }
            }
            (false, true) => {
                let v = float_in(x, sty, ftz && sty == Type::F32);
                let mode = match irnd.unwrap_or(Round::Zero) {
                    Round::Nearest => "rni",
                    Round::Zero => "rzi",
                    Round::Down => "rmi",
                    Round::Up => "rpi",
                };
                float_to_int(v, mode, dty)
            }
            (true, true) => {
                let v = float_in(x, sty, ftz && sty == Type::F32);
                let v = match irnd {
                    Some(r) if !v.is_nan() && !v.is_infinite() => round_integral(v, r),
                    _ => v,
                };
                match format_of(dty) {
                    Some(fmt) => {
                        let r = finish(v, fmt);
                        if ftz && dty == Type::F32 {
                            flush_f32(r)
                        } else {
                            r
                        }
                    }
                    None => {
                        let v = match (sat, v.is_nan()) {
                            (true, true) => 0.0,
                            (true, false) => v.clamp(0.0, 1.0),
                            _ => v,
                        };
                        from_f64(v, dty)
                    }
                }
            }
        };
    }
    write(c, w, &out);
    Ok(Flow::Done)
}

fn write(c: &Ctx, w: &mut Warp, out: &[u64; 32]) {
    if let Some(o) = c.dest {
        set_result(w, c.f, o, out, c.run);
    }
}
