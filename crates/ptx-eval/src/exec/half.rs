//! Half-precision arithmetic: `add`, `sub`, `mul` and `fma` on `.f16`,
//! `.bf16` and their `x2` forms, each half rounded once (`.rn`, the only
//! mode these take) by `ieee`; `.ftz` (f16) flushes subnormal inputs and
//! results, `.sat` clamps to [0, 1], `.relu` clamps negative results to
//! zero. NaN results are the canonical `0x7fff` (as `cvt` gives them; the
//! GPU cross-check has not measured these instructions yet).

use super::ieee::{self, Fmt};
use super::*;

/// The canonical NaN of both 16-bit formats.
const NAN16: u64 = 0x7fff;

/// This family's instructions; `Flow::NotMine` for any other.
#[allow(clippy::needless_range_loop)]
pub(super) fn step(
    c: &Ctx,
    cta: &mut Cta,
    w: &mut Warp,
    m: &mut Machine,
    out: &mut [u64; 32],
) -> Result<Flow, EvalError> {
    let Ctx { d, info, ty, .. } = *c;
    let (fmt, halves) = match ty {
        Type::F16 => (ieee::F16, 1),
        Type::F16x2 => (ieee::F16, 2),
        Type::BF16 => (ieee::BF16, 1),
        Type::BF16x2 => (ieee::BF16, 2),
        _ => return Ok(Flow::NotMine),
    };
    let fma = info.opcode == Opcode::Other && &*info.mnemonic == "fma";
    let arith = matches!(info.opcode, Opcode::Add | Opcode::Sub | Opcode::Mul);
    // Mixed-precision forms (`add.f32.f16`) are another family's.
    if !(fma || arith) || info.checks.first_of_two.is_some() {
        return Ok(Flow::NotMine);
    }
    if d.operands.len() != if fma { 4 } else { 3 } {
        return Err(c.unsupported());
    }
    let ftz = c.word("ftz") && fmt == ieee::F16;
    let (sat, relu) = (c.word("sat"), c.word("relu"));
    let src: SmallVec<[Lanes; 3]> = (1..d.operands.len())
        .map(|n| c.operand(n, ty, w, cta, m))
        .collect::<Result<_, _>>()?;
    for lane in 0..32 {
        let mut r = 0u64;
        for h in 0..halves {
            let part = |k: usize| flush(ftz, (src[k].v[lane] >> (16 * h)) & 0xffff);
            let v = match info.opcode {
                Opcode::Add => ieee::add(part(0), part(1), fmt, minifloat::Round::Nearest),
                Opcode::Sub => ieee::add(part(0), part(1) ^ 0x8000, fmt, minifloat::Round::Nearest),
                Opcode::Mul => ieee::mul(part(0), part(1), fmt, minifloat::Round::Nearest),
                _ => ieee::fma(part(0), part(1), part(2), fmt, minifloat::Round::Nearest),
            };
            r |= finish(fmt, flush(ftz, v), sat, relu) << (16 * h);
        }
        out[lane] = r;
    }
    Ok(Flow::Write)
}

/// Whether 16-bit `v` is a NaN of `fmt`.
fn is_nan(fmt: Fmt, v: u64) -> bool {
    v & 0x7fff > ((1 << fmt.exp) - 1) << fmt.man
}

/// `.ftz` on an f16 half: a subnormal becomes a zero of its sign.
fn flush(ftz: bool, v: u64) -> u64 {
    if ftz && v & 0x7c00 == 0 {
        v & 0x8000
    } else {
        v
    }
}

/// The canonical NaN, then `.sat` or `.relu`.
fn finish(fmt: Fmt, v: u64, sat: bool, relu: bool) -> u64 {
    let one = (fmt.bias() as u64) << fmt.man;
    if is_nan(fmt, v) {
        return if sat { 0 } else { NAN16 };
    }
    let negative = v & 0x8000 != 0;
    if (sat || relu) && negative {
        0
    } else if sat && v & 0x7fff >= one {
        one
    } else {
        v
    }
}
