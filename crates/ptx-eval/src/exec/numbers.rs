//! Number helpers shared by the families: integer and float comparison,
//! float decoding with `.ftz`, NaN rules, min/max, float-to-int rounding.

use super::*;

pub(super) fn cmp_int(c: CmpOp, a: u64, b: u64, ty: Type) -> bool {
    let bits = ty.bits();
    if ty.is_signed() {
        let (x, y) = (sext(a, bits), sext(b, bits));
        match c {
            CmpOp::Eq => x == y,
            CmpOp::Ne => x != y,
            CmpOp::Lt | CmpOp::Lo => x < y,
            CmpOp::Le | CmpOp::Ls => x <= y,
            CmpOp::Gt | CmpOp::Hi => x > y,
            _ => x >= y,
        }
    } else {
        match c {
            CmpOp::Eq => a == b,
            CmpOp::Ne => a != b,
            CmpOp::Lt | CmpOp::Lo => a < b,
            CmpOp::Le | CmpOp::Ls => a <= b,
            CmpOp::Gt | CmpOp::Hi => a > b,
            _ => a >= b,
        }
    }
}

pub(super) fn cmp_float(c: CmpOp, x: f64, y: f64) -> bool {
    let nan = x.is_nan() || y.is_nan();
    match c {
        CmpOp::Eq => !nan && x == y,
        CmpOp::Ne => !nan && x != y,
        CmpOp::Lt => !nan && x < y,
        CmpOp::Le => !nan && x <= y,
        CmpOp::Gt => !nan && x > y,
        CmpOp::Ge => !nan && x >= y,
        CmpOp::Equ => nan || x == y,
        CmpOp::Neu => nan || x != y,
        CmpOp::Ltu => nan || x < y,
        CmpOp::Leu => nan || x <= y,
        CmpOp::Gtu => nan || x > y,
        CmpOp::Geu => nan || x >= y,
        CmpOp::Num => !nan,
        CmpOp::Nan => nan,
        _ => false,
    }
}

/// A comparison operand as f64: f16, bf16, f32 or f64 bits, with `.ftz`
/// flushing a subnormal f32/f16 input to zero.
pub(super) fn float_in(v: u64, ty: Type, ftz: bool) -> f64 {
    match ty {
        Type::F16 => {
            let h = v as u16;
            let (e, m) = ((h >> 10) & 0x1f, f64::from(h & 0x3ff));
            let mag = match e {
                0 if ftz => 0.0,
                0 => m * 2f64.powi(-24),
                31 if m == 0.0 => f64::INFINITY,
                31 => f64::NAN,
                _ => (1024.0 + m) * 2f64.powi(i32::from(e) - 25),
            };
            if h >> 15 == 1 {
                -mag
            } else {
                mag
            }
        }
        Type::BF16 => f32::from_bits((v as u32 & 0xffff) << 16) as f64,
        Type::F32 => {
            let x = f32::from_bits(v as u32);
            if ftz && x.is_subnormal() {
                0.0
            } else {
                x as f64
            }
        }
        _ => f64::from_bits(v),
    }
}

pub(super) fn to_f64(v: u64, ty: Type) -> f64 {
    if ty == Type::F32 {
        f32::from_bits(v as u32) as f64
    } else {
        f64::from_bits(v)
    }
}

pub(super) fn from_f64(x: f64, ty: Type) -> u64 {
    if ty == Type::F32 {
        (x as f32).to_bits() as u64
    } else {
        x.to_bits()
    }
}

/// The canonical NaN NVIDIA GPUs produce for f32 arithmetic (measured on
/// an H200 by `scripts/gpu-campaign.sh`: add/sub/mul/fma/abs/neg/min/max
/// and division give `0x7fffffff` whatever the input NaN's payload).
pub(super) const CANON_NAN_F32: u64 = 0x7fff_ffff;

/// The NaN f64 arithmetic makes from non-NaN inputs (0/0, sqrt(-1), ...),
/// measured likewise; a NaN input is passed on instead (see `nan_result`).
pub(super) const DEFAULT_NAN_F64: u64 = 0xfff8_0000_0000_0000;

pub(super) const QUIET_F64: u64 = 1 << 51;

/// The NaN a float operation on `inputs` gives when its result `bits` is
/// a NaN (else `bits`): f32 always gives the canonical NaN; f64 passes on
/// a NaN input, made quiet, or gives the default NaN. Of several NaN
/// inputs the second operand's wins, then the first's, then the third's
/// (measured for add/sub/mul/fma; the third only by elimination).
pub(super) fn nan_result(bits: u64, ty: Type, inputs: &[u64]) -> u64 {
    match ty {
        Type::F32 if f32::from_bits(bits as u32).is_nan() => CANON_NAN_F32,
        Type::F64 if f64::from_bits(bits).is_nan() => [1, 0, 2]
            .iter()
            .filter_map(|&k| inputs.get(k))
            .find(|&&x| f64::from_bits(x).is_nan())
            .map_or(DEFAULT_NAN_F64, |&x| x | QUIET_F64),
        _ => bits,
    }
}

/// `.ftz`: an f32 subnormal becomes a zero of the same sign.
pub(super) fn flush_f32(bits: u64) -> u64 {
    if bits & 0x7f80_0000 == 0 {
        bits & 0x8000_0000
    } else {
        bits
    }
}

/// PTX `min`/`max` on floats: a NaN operand is ignored (`.NaN` makes it
/// win), and -0 is below +0.
pub(super) fn float_min_max(x: u64, y: u64, ty: Type, max: bool, nan_wins: bool) -> u64 {
    let (fx, fy) = (to_f64(x, ty), to_f64(y, ty));
    // Two NaNs: f32 gives the canonical NaN, f64 the second operand
    // (quieted), as measured on the GPU.
    let canon = if ty == Type::F32 {
        CANON_NAN_F32
    } else {
        y | QUIET_F64
    };
    match (fx.is_nan(), fy.is_nan()) {
        (true, true) => return canon,
        (true, false) | (false, true) if nan_wins && ty == Type::F32 => return canon,
        (true, false) | (false, true) if nan_wins => {
            return nan_result(f64::NAN.to_bits(), ty, &[x, y])
        }
        (true, false) => return y,
        (false, true) => return x,
        _ => {}
    }
    let key = |v: f64| (v, v.is_sign_positive());
    let (kx, ky) = (key(fx), key(fy));
    let x_first = match kx.0.partial_cmp(&ky.0) {
        Some(std::cmp::Ordering::Less) => true,
        Some(std::cmp::Ordering::Greater) => false,
        // Equal values: only ±0 differ; -0 is the smaller.
        _ => !kx.1 || ky.1,
    };
    if x_first != max {
        x
    } else {
        y
    }
}

/// Float to integer `cvt`: rounds by `.rni`/`.rzi`/`.rmi`/`.rpi`, clamps
/// to the destination's range, and gives 0 for NaN (the PTX ISA's rule,
/// confirmed on the GPU).
pub(super) fn float_to_int(v: f64, mode: &str, dty: Type) -> u64 {
    if v.is_nan() {
        return 0;
    }
    let r = match mode {
        "rni" => v.round_ties_even(),
        "rmi" => v.floor(),
        "rpi" => v.ceil(),
        _ => v.trunc(),
    };
    let bits = dty.bits();
    if dty.is_signed() {
        let (lo, hi) = (
            -(2f64.powi(bits as i32 - 1)),
            2f64.powi(bits as i32 - 1) - 1.0,
        );
        (r.clamp(lo, hi) as i64) as u64 & mask_bits(dty)
    } else {
        let hi = 2f64.powi(bits as i32) - 1.0;
        r.clamp(0.0, hi) as u64
    }
}
