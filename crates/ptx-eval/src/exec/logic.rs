//! Comparison, selection and bits: setp/set, selp, slct, lop3, prmt,
//! bfe, bfi and the funnel shift shf.

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
        f,
        info,
        ty,
        bits,
        mb,
        run,
        dest,
        ..
    } = *c;
    let s = |n: usize, t: Type, w: &Warp, cta: &Cta, m: &Machine| c.operand(n, t, w, cta, m);
    let word = |x: &str| c.word(x);
    let unsupported = || c.unsupported();
    let out = results;
    match info.opcode {
        Opcode::Setp | Opcode::Set => {
            let stype = if info.opcode == Opcode::Set {
                info.types().nth(1).unwrap_or(ty)
            } else {
                ty
            };
            let (a, b) = (s(1, stype, w, cta, m)?, s(2, stype, w, cta, m)?);
            let c = info.cmp().ok_or_else(unsupported)?;
            let boolop = info.bool_op();
            let q = if boolop.is_some() {
                Some(s(3, Type::Pred, w, cta, m)?)
            } else {
                None
            };
            // x2 sources compare each half on its own.
            let x2 = matches!(stype, Type::F16x2 | Type::BF16x2);
            let elem = match stype {
                Type::F16x2 => Type::F16,
                Type::BF16x2 => Type::BF16,
                t => t,
            };
            let ftz = word("ftz");
            let mut second = [0u64; 32];
            for lane in 0..32 {
                let apply = |x: bool| match (boolop, &q) {
                    (Some(op), Some(q)) => {
                        let qq = q.v[lane] != 0;
                        match op {
                            BoolOp::And => x && qq,
                            BoolOp::Or => x || qq,
                            BoolOp::Xor => x ^ qq,
                        }
                    }
                    _ => x,
                };
                let mut r = [false; 2];
                let mut u = [false; 2];
                for h in 0..1 + usize::from(x2) {
                    let (x, y) = if x2 {
                        (
                            (a.v[lane] >> (16 * h)) & 0xffff,
                            (b.v[lane] >> (16 * h)) & 0xffff,
                        )
                    } else {
                        (a.v[lane], b.v[lane])
                    };
                    let t = if elem.is_float() {
                        cmp_float(c, float_in(x, elem, ftz), float_in(y, elem, ftz))
                    } else {
                        cmp_int(c, x & mask_bits(elem), y & mask_bits(elem), elem)
                    };
                    r[h] = apply(t);
                    u[h] = apply(!t);
                }
                if info.opcode == Opcode::Set {
                    let dty = info.types().next().unwrap_or(Type::U32);
                    out[lane] = if x2 {
                        let one = match dty {
                            Type::F16x2 => 0x3c00,
                            Type::BF16x2 => 0x3f80,
                            _ => 0xffff,
                        };
                        (u64::from(r[0]) * one) | ((u64::from(r[1]) * one) << 16)
                    } else if r[0] {
                        match dty {
                            Type::F32 => 1.0f32.to_bits() as u64,
                            Type::F16 => 0x3c00,
                            Type::BF16 => 0x3f80,
                            _ => mask_bits(dty),
                        }
                    } else {
                        0
                    };
                } else {
                    // setp: p|q is (t, BoolOp(!t)) for scalars, the two
                    // halves for x2.
                    out[lane] = r[0] as u64;
                    second[lane] = if x2 { r[1] } else { u[0] } as u64;
                }
            }
            if info.opcode == Opcode::Setp {
                if let Some(Operand::Pair(p, q)) = dest {
                    for (v, vals) in [(p, &*out), (q, &second)] {
                        if let Some(v) = v {
                            set_result(w, f, &Operand::Value(*v), vals, run);
                        }
                    }
                    return Ok(Flow::Done);
                }
            }
        }
        Opcode::Selp => {
            let (a, b, c) = (
                s(1, ty, w, cta, m)?,
                s(2, ty, w, cta, m)?,
                s(3, Type::Pred, w, cta, m)?,
            );
            for lane in 0..32 {
                out[lane] = if c.v[lane] != 0 { a.v[lane] } else { b.v[lane] };
            }
        }
        Opcode::Slct => {
            // slct.dtype.ctype d, a, b, c: d = c >= 0 ? a : b. With an f32
            // c, NaN selects b, and .ftz flushes a subnormal c to zero first.
            let dty = info.types().next().unwrap_or(ty);
            let (a, b, c) = (
                s(1, dty, w, cta, m)?,
                s(2, dty, w, cta, m)?,
                s(3, ty, w, cta, m)?,
            );
            let ftz = word("ftz");
            for lane in 0..32 {
                let pick_a = if ty == Type::F32 {
                    let x = f32::from_bits(c.v[lane] as u32);
                    (ftz && x.is_subnormal()) || x >= 0.0
                } else {
                    c.v[lane] as u32 as i32 >= 0
                };
                out[lane] = if pick_a { a.v[lane] } else { b.v[lane] };
            }
        }
        Opcode::Lop3 => {
            let (a, b, c, lut) = (
                s(1, ty, w, cta, m)?,
                s(2, ty, w, cta, m)?,
                s(3, ty, w, cta, m)?,
                s(4, Type::U32, w, cta, m)?,
            );
            for lane in 0..32 {
                let (x, y, z, l) = (a.v[lane], b.v[lane], c.v[lane], lut.v[lane] & 0xff);
                let mut r = 0u64;
                for bit in 0..32 {
                    let idx = (((x >> bit) & 1) << 2) | (((y >> bit) & 1) << 1) | ((z >> bit) & 1);
                    r |= ((l >> idx) & 1) << bit;
                }
                out[lane] = r;
            }
            // lop3.BoolOp d|p, a, b, c, lut, q: p = (d != 0) BoolOp q.
            if let Some(op) = info.bool_op() {
                let q = s(5, Type::Pred, w, cta, m)?;
                let mut p = [0u64; 32];
                for lane in 0..32 {
                    let (t, qq) = (out[lane] as u32 != 0, q.v[lane] != 0);
                    p[lane] = match op {
                        BoolOp::And => t && qq,
                        BoolOp::Or => t || qq,
                        BoolOp::Xor => return Err(unsupported()),
                    } as u64;
                }
                let Some(Operand::Pair(dv, pv)) = dest else {
                    return Err(unsupported());
                };
                for (v, vals) in [(dv, &*out), (pv, &p)] {
                    if let Some(v) = v {
                        set_result(w, f, &Operand::Value(*v), vals, run);
                    }
                }
                return Ok(Flow::Done);
            }
        }
        Opcode::Prmt => {
            let (a, b, c) = (
                s(1, Type::B32, w, cta, m)?,
                s(2, Type::B32, w, cta, m)?,
                s(3, Type::B32, w, cta, m)?,
            );
            // Named modes pick d's bytes (b0..b3) by c[1:0] from this table.
            const MODES: [(&str, [[u8; 4]; 4]); 6] = [
                (
                    "f4e",
                    [[0, 1, 2, 3], [1, 2, 3, 4], [2, 3, 4, 5], [3, 4, 5, 6]],
                ),
                (
                    "b4e",
                    [[0, 7, 6, 5], [1, 0, 7, 6], [2, 1, 0, 7], [3, 2, 1, 0]],
                ),
                (
                    "rc8",
                    [[0, 0, 0, 0], [1, 1, 1, 1], [2, 2, 2, 2], [3, 3, 3, 3]],
                ),
                (
                    "ecl",
                    [[0, 1, 2, 3], [1, 1, 2, 3], [2, 2, 2, 3], [3, 3, 3, 3]],
                ),
                (
                    "ecr",
                    [[0, 0, 0, 0], [0, 1, 1, 1], [0, 1, 2, 2], [0, 1, 2, 3]],
                ),
                (
                    "rc16",
                    [[0, 1, 0, 1], [2, 3, 2, 3], [0, 1, 0, 1], [2, 3, 2, 3]],
                ),
            ];
            let mut mode = None;
            for mm in info.mods.iter().filter(|mm| matches!(mm, Mod::Word(_))) {
                if f.ops.is_word(*mm, "b32") {
                    continue;
                }
                let t = MODES.iter().find(|(n, _)| f.ops.is_word(*mm, n));
                mode = Some(t.ok_or_else(unsupported)?.1);
            }
            for lane in 0..32 {
                let bytes = (a.v[lane] & 0xffff_ffff) | ((b.v[lane] & 0xffff_ffff) << 32);
                if let Some(table) = mode {
                    let picks = table[(c.v[lane] & 3) as usize];
                    out[lane] =
                        (0..4).fold(0, |r, k| r | ((bytes >> (8 * picks[k])) & 0xff) << (8 * k));
                    continue;
                }
                let mut r = 0u64;
                for k in 0..4 {
                    let sel = (c.v[lane] >> (4 * k)) & 0xf;
                    let byte = (bytes >> (8 * (sel & 7))) & 0xff;
                    let byte = if sel & 8 != 0 {
                        if byte & 0x80 != 0 {
                            0xff
                        } else {
                            0
                        }
                    } else {
                        byte
                    };
                    r |= byte << (8 * k);
                }
                out[lane] = r;
            }
        }
        Opcode::Bfe => {
            let (a, b, c) = (
                s(1, ty, w, cta, m)?,
                s(2, Type::U32, w, cta, m)?,
                s(3, Type::U32, w, cta, m)?,
            );
            // The ISA's definition: result bit i is a[pos + i] for
            // i < len and pos + i <= msb, else the sign bit
            // a[min(pos + len - 1, msb)] (0 for unsigned or len 0).
            let low = |n: u64| if n >= 64 { u64::MAX } else { (1u64 << n) - 1 };
            for lane in 0..32 {
                let x = a.v[lane] & mb;
                let (pos, len) = (b.v[lane] & 0xff, c.v[lane] & 0xff);
                let msb = bits as u64 - 1;
                let sbit = ty.is_signed() && len > 0 && (x >> (pos + len - 1).min(msb)) & 1 == 1;
                let n = if pos > msb {
                    0
                } else {
                    len.min(bits as u64 - pos)
                };
                let field = if n == 0 { 0 } else { (x >> pos) & low(n) };
                out[lane] = if sbit { field | (mb & !low(n)) } else { field };
            }
        }
        Opcode::Bfi => {
            let (a, b, c, e) = (
                s(1, ty, w, cta, m)?,
                s(2, ty, w, cta, m)?,
                s(3, Type::U32, w, cta, m)?,
                s(4, Type::U32, w, cta, m)?,
            );
            for lane in 0..32 {
                let pos = (c.v[lane] & 0xff).min(bits as u64);
                let len = (e.v[lane] & 0xff).min(bits as u64 - pos);
                let fm = if len == 0 {
                    0
                } else if len >= 64 {
                    u64::MAX
                } else {
                    ((1u64 << len) - 1) << pos
                };
                out[lane] =
                    (b.v[lane] & !fm) | (a.v[lane].checked_shl(pos as u32).unwrap_or(0) & fm);
            }
        }
        Opcode::Shf => {
            // shf.{l,r}.{wrap,clamp}.b32 d, a, b, c: funnel shift of b:a.
            let (a, b, c) = (
                s(1, Type::B32, w, cta, m)?,
                s(2, Type::B32, w, cta, m)?,
                s(3, Type::U32, w, cta, m)?,
            );
            let left = word("l");
            for lane in 0..32 {
                let n = if word("wrap") {
                    c.v[lane] & 31
                } else {
                    c.v[lane].min(32)
                };
                let pair = (b.v[lane] & 0xffff_ffff) << 32 | (a.v[lane] & 0xffff_ffff);
                out[lane] = if left { (pair << n) >> 32 } else { pair >> n } & 0xffff_ffff;
            }
        }
        _ => return Ok(Flow::NotMine),
    }
    Ok(Flow::Write)
}
