//! The dual half-word video instructions (vadd2 … vmax2).

use super::*;

/// This family's instructions; `Flow::NotMine` for any other.
pub(super) fn step(
    c: &Ctx,
    _cta: &mut Cta,
    w: &mut Warp,
    _m: &mut Machine,
    _results: &mut [u64; 32],
) -> Result<Flow, EvalError> {
    match c.info.opcode {
        Opcode::Vadd2
        | Opcode::Vsub2
        | Opcode::Vavrg2
        | Opcode::Vabsdiff2
        | Opcode::Vmin2
        | Opcode::Vmax2 => vop2(c.k, w, c.i, c.run).map(|()| Flow::Done),
        _ => Ok(Flow::NotMine),
    }
}

#[allow(clippy::needless_range_loop)]
/// The dual half-word video instructions (`vadd2` … `vmax2`), merge and
/// accumulate forms, as `../shared/docs/ptx-semantics.md` §6 defines them.
fn vop2(k: &Kernel, w: &mut Warp, i: Inst, run: u32) -> Result<(), EvalError> {
    let f = k.f;
    let d = f.inst(i);
    let info = f.op(i);
    let unsupported = || {
        EvalError::new(
            d.pos,
            format!("'{}' is not supported by the evaluator", info.text),
        )
    };
    let tys: Vec<Type> = info.types().collect();
    let [dty, aty, bty] = tys[..] else {
        return Err(unsupported());
    };
    let word = |x: &str| info.mods.iter().any(|mm| f.ops.is_word(*mm, x));
    let (sat, add) = (word("sat"), word("add"));
    // Register and selector digits of an operand (`.hXY`: lane 1 takes X).
    let split =
        |o: Option<&Operand>, default: [u32; 2]| -> Result<(ptx_ir::Value, [u32; 2]), EvalError> {
            match o {
                Some(Operand::Value(v)) => Ok((*v, default)),
                Some(Operand::Sel(v, s)) => {
                    let sel = f.ops.syms.get(*s).trim_start_matches('.');
                    let digits: Vec<u32> = sel
                        .strip_prefix('h')
                        .ok_or_else(unsupported)?
                        .chars()
                        .filter_map(|c| c.to_digit(10))
                        .collect();
                    match digits[..] {
                        [x, y] if x < 4 && y < 4 => Ok((*v, [y, x])),
                        [x] if x < 2 => Ok((*v, [x, x])),
                        _ => Err(unsupported()),
                    }
                }
                _ => Err(unsupported()),
            }
        };
    let (dv, dsel) = split(d.operands.first(), [0, 1])?;
    let lane_mask = match d.operands.first() {
        Some(Operand::Sel(..)) => {
            // `.h0`, `.h1` or `.h10` on the destination.
            let (a, b) = (dsel[0], dsel[1]);
            (1u32 << a) | (1u32 << b)
        }
        _ => 3,
    };
    let (av, asel) = split(d.operands.get(1), [0, 1])?;
    let (bv, bsel) = split(d.operands.get(2), [2, 3])?;
    let Some(Operand::Value(cv)) = d.operands.get(3) else {
        return Err(unsupported());
    };
    let ext = |h: u64, ty: Type| -> i64 {
        if ty.is_signed() {
            h as u16 as i16 as i64
        } else {
            h as i64
        }
    };
    let mut out = w.regs[dv.as_u32() as usize];
    for lane in 0..32 {
        if run & (1 << lane) == 0 {
            continue;
        }
        let (a, b, c) = (
            w.regs[av.as_u32() as usize][lane],
            w.regs[bv.as_u32() as usize][lane],
            w.regs[cv.as_u32() as usize][lane],
        );
        let pool = [
            a & 0xffff,
            (a >> 16) & 0xffff,
            b & 0xffff,
            (b >> 16) & 0xffff,
        ];
        let mut t = [0i64; 2];
        for h in 0..2 {
            let x = ext(pool[asel[h] as usize], aty);
            let y = ext(pool[bsel[h] as usize], bty);
            let mut r = match info.opcode {
                Opcode::Vadd2 => x + y,
                Opcode::Vsub2 => x - y,
                Opcode::Vavrg2 => {
                    let s = x + y;
                    if s >= 0 {
                        (s + 1) >> 1
                    } else {
                        s >> 1
                    }
                }
                Opcode::Vabsdiff2 => (x - y).abs(),
                Opcode::Vmin2 => x.min(y),
                _ => x.max(y),
            };
            if sat {
                r = if dty.is_signed() {
                    r.clamp(-32768, 32767)
                } else {
                    r.clamp(0, 65535)
                };
            }
            t[h] = r;
        }
        out[lane] = if add {
            let sum = (0..2)
                .filter(|h| lane_mask & (1 << h) != 0)
                .fold(c as i64, |acc, h| acc.wrapping_add(t[h]));
            sum as u64 & 0xffff_ffff
        } else {
            (0..2).fold(0u64, |acc, h| {
                let half = if lane_mask & (1 << h) != 0 {
                    t[h] as u64
                } else {
                    c >> (16 * h)
                };
                acc | (half & 0xffff) << (16 * h)
            })
        };
    }
    w.regs[dv.as_u32() as usize] = out;
    Ok(())
}
