//! Moves and conversions: mov (packing and unpacking vectors), cvt.pack,
//! cvta between address spaces; cvt itself is [`cvt`](super::cvt).

use super::*;

/// This family's instructions; `Flow::NotMine` for any other.
#[allow(clippy::needless_range_loop)]
pub(super) fn step(
    c: &Ctx,
    cta: &mut Cta,
    w: &mut Warp,
    m: &mut Machine,
    results: &mut [u64; 32],
) -> Result<Flow, EvalError> {
    let Ctx {
        k,
        f,
        d,
        info,
        pos,
        ty,
        bits,
        run,
        dest,
        ..
    } = *c;
    let s = |n: usize, t: Type, w: &Warp, cta: &Cta, m: &Machine| c.operand(n, t, w, cta, m);
    let word = |x: &str| c.word(x);
    let unsupported = || c.unsupported();
    let out = results;
    match info.opcode {
        // `mov.bN d, {a, b, …}` packs equal-width parts (the first lowest);
        // `mov.bN {a, b, …}, s` unpacks them.
        Opcode::Mov if matches!(d.operands.get(1), Some(Operand::Vector(_))) => {
            let Some(Operand::Vector(parts)) = d.operands.get(1) else {
                unreachable!("matched above")
            };
            let width = bits / parts.len().max(1) as u32;
            let part_ty = match width {
                8 => Type::B8,
                16 => Type::B16,
                32 => Type::B32,
                _ => return Err(unsupported()),
            };
            for (idx, p) in parts.iter().enumerate() {
                let x = src(k, cta, w, m, p, part_ty, pos)?;
                for lane in 0..32 {
                    out[lane] |= (x.v[lane] & mask_bits(part_ty)) << (width * idx as u32);
                }
            }
        }
        Opcode::Mov if matches!(dest, Some(Operand::Vector(_))) => {
            let Some(Operand::Vector(parts)) = dest else {
                unreachable!("matched above")
            };
            let a = s(1, ty, w, cta, m)?;
            let width = bits / parts.len().max(1) as u32;
            let part_mask = if width >= 64 {
                u64::MAX
            } else {
                (1u64 << width) - 1
            };
            for (idx, p) in parts.iter().enumerate() {
                let mut vals = [0u64; 32];
                for lane in 0..32 {
                    vals[lane] = (a.v[lane] >> (width * idx as u32)) & part_mask;
                }
                set_result(w, f, p, &vals, run);
            }
            return Ok(Flow::Done);
        }
        Opcode::Mov => {
            let a = s(1, ty, w, cta, m)?;
            *out = a.v;
        }
        Opcode::Cvta => {
            let a = s(1, Type::U64, w, cta, m)?;
            let space = info.space().ok_or_else(unsupported)?;
            let to = word("to");
            let base = match space {
                Space::Shared => SHARED_BASE,
                Space::Local => LOCAL_BASE,
                Space::Param => PARAM_BASE,
                _ => 0,
            };
            for lane in 0..32 {
                out[lane] = if to {
                    a.v[lane].wrapping_sub(base)
                } else {
                    a.v[lane].wrapping_add(base)
                };
            }
        }
        Opcode::Cvt if word("pack") => {
            // cvt.pack.sat.T.s32 d, a, b{, c}: a and b clamped to T, b in
            // the low bits and a above it; for the sub-16-bit types the
            // bits above come from c's low bits.
            let tys: Vec<Type> = info.types().collect();
            let (Some(&cty), true) = (tys.first(), word("sat")) else {
                return Err(unsupported());
            };
            let size = cty.bits();
            if !matches!(size, 8 | 16) || d.operands.len() != 3 + usize::from(size == 8) {
                return Err(unsupported());
            }
            let (lo, hi) = if cty.is_signed() {
                (-(1i64 << (size - 1)), (1i64 << (size - 1)) - 1)
            } else {
                (0, (1i64 << size) - 1)
            };
            let (a, b) = (s(1, Type::S32, w, cta, m)?, s(2, Type::S32, w, cta, m)?);
            let c = if size == 8 {
                Some(s(3, Type::B32, w, cta, m)?)
            } else {
                None
            };
            let field = (1u64 << size) - 1;
            for lane in 0..32 {
                let clamp = |x: u64| (sext(x, 32).clamp(lo, hi) as u64) & field;
                let packed = clamp(a.v[lane]) << size | clamp(b.v[lane]);
                let above = c.as_ref().map_or(0, |c| c.v[lane] << (2 * size));
                out[lane] = (packed | above) & 0xffff_ffff;
            }
        }
        Opcode::Cvt => return cvt::step(c, cta, w, m),
        _ => return Ok(Flow::NotMine),
    }
    Ok(Flow::Write)
}
