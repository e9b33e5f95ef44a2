//! Integer and floating-point arithmetic: add/sub/mul/mad and their
//! `.hi`/`.wide`/`.sat` forms, the carry chains, two- and three-input
//! min/max, neg/abs/not, div/rem, fma,
//! mul24, sad, dp2a/dp4a, popc/clz/brev, bfind, copysign and bmsk.

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
        mb,
        run,
        i,
        dest,
        ..
    } = *c;
    let s = |n: usize, t: Type, w: &Warp, cta: &Cta, m: &Machine| c.operand(n, t, w, cta, m);
    let word = |x: &str| c.word(x);
    let has_cmp = |cmp: CmpOp| c.has_cmp(cmp);
    let unsupported = || c.unsupported();
    let out = results;
    match info.opcode {
        // Extended-precision arithmetic (ISA 9.7.2): `add.cc`, `addc{.cc}`,
        // `sub.cc`, `subc{.cc}` (CC.CF is the borrow: d = a - (b + CF)),
        // `mad{.lo,.hi}.cc` and `madc{.lo,.hi}{.cc}` (the carry of adding c);
        // `.cc` writes CC.CF, the `…c` forms read it.
        Opcode::Add | Opcode::Sub | Opcode::Mad if word("cc") => {
            return carry_op(k, cta, w, m, i, run, info.opcode, false).map(|()| Flow::Done);
        }
        Opcode::Other if matches!(&*info.mnemonic, "addc" | "subc" | "madc") => {
            let opcode = match &*info.mnemonic {
                "addc" => Opcode::Add,
                "subc" => Opcode::Sub,
                _ => Opcode::Mad,
            };
            return carry_op(k, cta, w, m, i, run, opcode, true).map(|()| Flow::Done);
        }
        // Three-input min/max (PTX 8.8, sm_100+): the two-input rule applied
        // twice, min(min(a, b), c); NaN inputs are ignored (or win under
        // `.NaN`) either way.
        Opcode::Min | Opcode::Max
            if d.operands.len() == 4
                && info.checks.first_of_two.is_none()
                && (ty == Type::F32 || matches!(ty, Type::S32 | Type::U32))
                && !info.mods.iter().any(|mm| {
                    matches!(mm, Mod::Word(_))
                        && !f.ops.is_word(*mm, "ftz")
                        && !f.ops.is_word(*mm, "NaN")
                }) =>
        {
            let (a, b, c) = (
                s(1, ty, w, cta, m)?,
                s(2, ty, w, cta, m)?,
                s(3, ty, w, cta, m)?,
            );
            let max = info.opcode == Opcode::Max;
            let (ftz, nan_wins) = (word("ftz"), word("NaN"));
            let pair = |x: u64, y: u64| -> u64 {
                if ty == Type::F32 {
                    let (x, y) = if ftz {
                        (flush_f32(x), flush_f32(y))
                    } else {
                        (x, y)
                    };
                    let r = float_min_max(x & mb, y & mb, ty, max, nan_wins);
                    if ftz {
                        flush_f32(r)
                    } else {
                        r
                    }
                } else if ty == Type::S32 {
                    let (sx, sy) = (sext(x & mb, 32), sext(y & mb, 32));
                    (if max { sx.max(sy) } else { sx.min(sy) }) as u64 & mb
                } else if max {
                    (x & mb).max(y & mb)
                } else {
                    (x & mb).min(y & mb)
                }
            };
            for lane in 0..32 {
                out[lane] = pair(pair(a.v[lane], b.v[lane]), c.v[lane]);
            }
        }
        Opcode::Add
        | Opcode::Sub
        | Opcode::Mul
        | Opcode::Min
        | Opcode::Max
        | Opcode::And
        | Opcode::Or
        | Opcode::Xor
        | Opcode::Shl
        | Opcode::Shr => {
            // Three-input min/max and mixed-precision add/sub have no
            // semantics here yet.
            if d.operands.len() > 3 || info.checks.first_of_two.is_some() {
                return Err(unsupported());
            }
            let (a, b) = (
                s(1, ty, w, cta, m)?,
                s(
                    2,
                    if matches!(info.opcode, Opcode::Shl | Opcode::Shr) {
                        Type::U32
                    } else {
                        ty
                    },
                    w,
                    cta,
                    m,
                )?,
            );
            // Most executions carry no modifier words: skip the lookups.
            let words = info.mods.iter().any(|m| matches!(m, Mod::Word(_)));
            let word = |x: &str| words && word(x);
            let simd = if word("u16x2") {
                Some(false)
            } else if word("s16x2") {
                Some(true)
            } else {
                None
            };
            if let Some(signed) = simd {
                // add/sub/min/max{.relu}.{u16x2,s16x2}: each half-word on
                // its own (PTX 8.0, sm_90).
                if !matches!(
                    info.opcode,
                    Opcode::Add | Opcode::Sub | Opcode::Min | Opcode::Max
                ) {
                    return Err(unsupported());
                }
                let relu = word("relu");
                for lane in 0..32 {
                    let mut r = 0u64;
                    for h in 0..2 {
                        let (x, y) = (
                            (a.v[lane] >> (16 * h)) & 0xffff,
                            (b.v[lane] >> (16 * h)) & 0xffff,
                        );
                        let (sx, sy) = (x as u16 as i16 as i64, y as u16 as i16 as i64);
                        let v = match info.opcode {
                            Opcode::Add => x.wrapping_add(y),
                            Opcode::Sub => x.wrapping_sub(y),
                            Opcode::Min if signed => sx.min(sy) as u64,
                            Opcode::Max if signed => sx.max(sy) as u64,
                            Opcode::Min => x.min(y),
                            _ => x.max(y),
                        } & 0xffff;
                        let v = if relu && v & 0x8000 != 0 { 0 } else { v };
                        r |= v << (16 * h);
                    }
                    out[lane] = r;
                }
                if let Some(o) = dest {
                    set_result(w, f, o, out, run);
                }
                return Ok(Flow::Done);
            }
            let wide = word("wide");
            let hi = has_cmp(CmpOp::Hi);
            let (ftz, sat, nan_wins) = (word("ftz"), word("sat"), word("NaN"));
            // Float add/sub/mul: IEEE arithmetic in the instruction's
            // rounding mode (`.rn` when it names none).
            let (fmt, mode) = if ty.is_float() {
                (ieee_format(ty), c.rounding())
            } else {
                (None, minifloat::Round::Nearest)
            };
            for lane in 0..32 {
                let (mut x, mut y) = (a.v[lane] & mb, b.v[lane]);
                if ftz && ty == Type::F32 {
                    (x, y) = (flush_f32(x), flush_f32(y));
                }
                if ty.is_float() && matches!(info.opcode, Opcode::Min | Opcode::Max) {
                    out[lane] = float_min_max(x, y & mb, ty, info.opcode == Opcode::Max, nan_wins);
                    if ftz && ty == Type::F32 {
                        out[lane] = flush_f32(out[lane]);
                    }
                    continue;
                }
                if sat && ty == Type::S32 && matches!(info.opcode, Opcode::Add | Opcode::Sub) {
                    let (sx, sy) = (sext(x, 32), sext(y & mb, 32));
                    let r = if info.opcode == Opcode::Add {
                        sx + sy
                    } else {
                        sx - sy
                    };
                    out[lane] = r.clamp(i32::MIN as i64, i32::MAX as i64) as u64 & mb;
                    continue;
                }
                out[lane] = if ty.is_float() {
                    let Some(fmt) = fmt else {
                        return Err(unsupported());
                    };
                    let y = y & mb;
                    let r = match info.opcode {
                        Opcode::Add => ieee::add(x, y, fmt, mode),
                        Opcode::Sub => ieee::add(x, y ^ (1 << (bits - 1)), fmt, mode),
                        Opcode::Mul => ieee::mul(x, y, fmt, mode),
                        _ => return Err(unsupported()),
                    };
                    if ty == Type::F32 {
                        let r = nan_result(r, ty, &[]);
                        let r = if ftz { flush_f32(r) } else { r };
                        if sat {
                            saturate_f32(r)
                        } else {
                            r
                        }
                    } else {
                        nan_result(r, ty, &[x, y])
                    }
                } else {
                    let y = y & mb;
                    match info.opcode {
                        Opcode::Add => x.wrapping_add(y),
                        Opcode::Sub => x.wrapping_sub(y),
                        Opcode::Mul if wide || hi => {
                            let p = full_product(x, y, ty);
                            if wide {
                                p as u64
                            } else {
                                (p >> bits) as u64
                            }
                        }
                        Opcode::Mul => x.wrapping_mul(y),
                        Opcode::And => x & y,
                        Opcode::Or => x | y,
                        Opcode::Xor => x ^ y,
                        Opcode::Shl => {
                            if b.v[lane] >= bits as u64 {
                                0
                            } else {
                                x << b.v[lane]
                            }
                        }
                        Opcode::Shr if ty.is_signed() => {
                            (sext(x, bits) >> b.v[lane].min(bits as u64 - 1)) as u64
                        }
                        Opcode::Shr => {
                            if b.v[lane] >= bits as u64 {
                                0
                            } else {
                                x >> b.v[lane]
                            }
                        }
                        Opcode::Min if ty.is_signed() => {
                            if sext(x, bits) <= sext(y, bits) {
                                x
                            } else {
                                y
                            }
                        }
                        Opcode::Max if ty.is_signed() => {
                            if sext(x, bits) >= sext(y, bits) {
                                x
                            } else {
                                y
                            }
                        }
                        Opcode::Min => x.min(y),
                        _ => x.max(y),
                    }
                };
            }
        }
        // mad.rnd.f32/f64 is fma.rnd.
        Opcode::Mad if ty.is_float() => return float_fma(c, cta, w, m, out),
        Opcode::Mad => {
            let (a, b, c) = (
                s(1, ty, w, cta, m)?,
                s(2, ty, w, cta, m)?,
                s(3, ty, w, cta, m)?,
            );
            let wide = word("wide");
            for lane in 0..32 {
                let (x, y) = (a.v[lane] & mb, b.v[lane] & mb);
                out[lane] = if ty.is_float() {
                    nan_result(
                        if ty == Type::F32 {
                            f32::from_bits(x as u32)
                                .mul_add(f32::from_bits(y as u32), f32::from_bits(c.v[lane] as u32))
                                .to_bits() as u64
                        } else {
                            f64::from_bits(x)
                                .mul_add(f64::from_bits(y), f64::from_bits(c.v[lane]))
                                .to_bits()
                        },
                        ty,
                        &[x, y, c.v[lane]],
                    )
                } else if wide {
                    (full_product(x, y, ty) as u64).wrapping_add(c.v[lane])
                } else if has_cmp(CmpOp::Hi) {
                    ((full_product(x, y, ty) >> bits) as u64).wrapping_add(c.v[lane])
                } else {
                    x.wrapping_mul(y).wrapping_add(c.v[lane])
                };
            }
        }
        Opcode::Neg | Opcode::Not | Opcode::Cnot | Opcode::Abs => {
            let a = s(1, ty, w, cta, m)?;
            let half_float = matches!(ty, Type::F16 | Type::BF16 | Type::F16x2 | Type::BF16x2);
            for lane in 0..32 {
                let x = a.v[lane] & mb;
                out[lane] = match info.opcode {
                    // 16-bit floats (and each half of an x2): the sign bit
                    // of every half.
                    Opcode::Neg if half_float => x ^ if bits == 32 { 0x8000_8000 } else { 0x8000 },
                    Opcode::Abs if half_float => x & !if bits == 32 { 0x8000_8000 } else { 0x8000 },
                    // Sign-bit operations, but an f32 NaN comes out canonical
                    // and an f64 NaN quieted, its sign kept (both measured).
                    Opcode::Neg | Opcode::Abs if ty.is_float() && to_f64(x, ty).is_nan() => {
                        if ty == Type::F32 {
                            CANON_NAN_F32
                        } else {
                            x | QUIET_F64
                        }
                    }
                    Opcode::Neg if ty.is_float() => x ^ (1 << (bits - 1)),
                    Opcode::Abs if ty.is_float() => x & !(1 << (bits - 1)),
                    Opcode::Neg => x.wrapping_neg(),
                    Opcode::Not => !x,
                    Opcode::Cnot => (x == 0) as u64,
                    _ => sext(x, bits).unsigned_abs(),
                };
            }
        }
        // div, sqrt and rcp in an IEEE rounding mode (the .approx and
        // .full forms are the approximate family's).
        Opcode::Other
            if matches!(&*info.mnemonic, "div" | "sqrt" | "rcp") && ieee_format(ty).is_some() =>
        {
            let fmt = ieee_format(ty).expect("checked by the guard");
            if !(word("rn") || word("rz") || word("rm") || word("rp")) {
                return Err(unsupported());
            }
            let mode = c.rounding();
            let ftz = word("ftz") && ty == Type::F32;
            let flush = |x: u64| if ftz { flush_f32(x) } else { x };
            let op = &*info.mnemonic;
            let a = s(1, ty, w, cta, m)?;
            let b = if op == "div" {
                Some(s(2, ty, w, cta, m)?)
            } else {
                None
            };
            let one = if ty == Type::F32 {
                1f32.to_bits() as u64
            } else {
                1f64.to_bits()
            };
            for lane in 0..32 {
                let x = flush(a.v[lane] & mb);
                let (r, inputs) = match (op, &b) {
                    ("div", Some(b)) => {
                        let y = flush(b.v[lane] & mb);
                        (ieee::div(x, y, fmt, mode), [y, x])
                    }
                    ("sqrt", _) => (ieee::sqrt(x, fmt, mode), [0, x]),
                    _ => (ieee::div(one, x, fmt, mode), [0, x]),
                };
                // div.rn.f64 (a software sequence on the GPU) passes on
                // the dividend's NaN first: the reverse of add/mul.
                out[lane] = flush(nan_result(r, ty, &inputs));
            }
        }
        Opcode::Other if &*info.mnemonic == "fma" && ty.is_float() => {
            return float_fma(c, cta, w, m, out);
        }
        Opcode::Other if &*info.mnemonic == "bfind" => {
            // Position of the most significant bit that differs from the
            // sign (unsigned: the most significant 1); all ones if none.
            let a = s(1, ty, w, cta, m)?;
            let shiftamt = info.mods.iter().any(|mm| f.ops.is_word(*mm, "shiftamt"));
            for lane in 0..32 {
                let mut x = a.v[lane] & mb;
                if ty.is_signed() && x >> (bits - 1) & 1 == 1 {
                    x = !x & mb;
                }
                out[lane] = if x == 0 {
                    0xffff_ffff
                } else {
                    let msb = 63 - x.leading_zeros() as u64;
                    if shiftamt {
                        bits as u64 - 1 - msb
                    } else {
                        msb
                    }
                };
            }
        }
        Opcode::Other if &*info.mnemonic == "sad" && !ty.is_float() => {
            // d = c + |a - b|, the difference exact at the type's width.
            let (a, b, c) = (
                s(1, ty, w, cta, m)?,
                s(2, ty, w, cta, m)?,
                s(3, ty, w, cta, m)?,
            );
            for lane in 0..32 {
                let (x, y) = (a.v[lane] & mb, b.v[lane] & mb);
                let diff = if ty.is_signed() {
                    sext(x, bits).abs_diff(sext(y, bits))
                } else {
                    x.abs_diff(y)
                };
                out[lane] = c.v[lane].wrapping_add(diff) & mb;
            }
        }
        Opcode::Other if matches!(&*info.mnemonic, "dp2a" | "dp4a") => {
            // d = c + the products of a's parts (half-words for dp2a,
            // bytes for dp4a) and b's bytes (dp2a: bytes 0, 1, or 2, 3
            // under `.hi`), each extended by its operand's type, in 32
            // bits.
            let tys: Vec<Type> = info.types().collect();
            let [aty, bty] = tys[..] else {
                return Err(unsupported());
            };
            let (a, b, c) = (
                s(1, Type::U32, w, cta, m)?,
                s(2, Type::U32, w, cta, m)?,
                s(3, Type::U32, w, cta, m)?,
            );
            let two = &*info.mnemonic == "dp2a";
            // `.hi` parses as the compare operator `hi`.
            let first_byte = if two && info.mods.contains(&Mod::Cmp(CmpOp::Hi)) {
                2
            } else {
                0
            };
            let part = |x: u64, width: u32, k: u32, ty: Type| -> i64 {
                let v = (x >> (width * k)) & ((1 << width) - 1);
                if ty.is_signed() {
                    sext(v, width)
                } else {
                    v as i64
                }
            };
            for lane in 0..32 {
                let (x, y) = (a.v[lane], b.v[lane]);
                let mut acc = c.v[lane] as i64;
                for k in 0..if two { 2 } else { 4 } {
                    let xa = if two {
                        part(x, 16, k, aty)
                    } else {
                        part(x, 8, k, aty)
                    };
                    acc = acc.wrapping_add(xa * part(y, 8, first_byte + k, bty));
                }
                out[lane] = acc as u64 & 0xffff_ffff;
            }
        }
        Opcode::Other if &*info.mnemonic == "mul24" => {
            // The 48-bit product of the low 24 bits; .lo keeps bits 0..31,
            // .hi bits 16..47.
            let (a, b) = (s(1, ty, w, cta, m)?, s(2, ty, w, cta, m)?);
            // `.hi` parses as the compare operator `hi`.
            let hi = info.mods.contains(&Mod::Cmp(CmpOp::Hi));
            for lane in 0..32 {
                let (x, y) = (a.v[lane] & 0xff_ffff, b.v[lane] & 0xff_ffff);
                let p = if ty.is_signed() {
                    (sext(x, 24).wrapping_mul(sext(y, 24))) as u64
                } else {
                    x * y
                };
                out[lane] = if hi { p >> 16 } else { p } & 0xffff_ffff;
            }
        }
        Opcode::Other if matches!(&*info.mnemonic, "popc" | "clz" | "brev") => {
            let a = s(1, ty, w, cta, m)?;
            for lane in 0..32 {
                let x = a.v[lane] & mb;
                out[lane] = match &*info.mnemonic {
                    "popc" => x.count_ones() as u64,
                    "clz" => (x.leading_zeros() - (64 - bits)) as u64,
                    _ => x.reverse_bits() >> (64 - bits),
                };
            }
        }
        Opcode::Other if matches!(&*info.mnemonic, "div" | "rem") && !ty.is_float() => {
            // Division by zero is undefined in PTX; the evaluator reports it.
            let (a, b) = (s(1, ty, w, cta, m)?, s(2, ty, w, cta, m)?);
            let rem = &*info.mnemonic == "rem";
            for lane in 0..32 {
                if run & (1 << lane) == 0 {
                    continue;
                }
                let (x, y) = (a.v[lane] & mb, b.v[lane] & mb);
                if y == 0 {
                    return Err(EvalError::new(pos, "integer division by zero"));
                }
                out[lane] = if ty.is_signed() {
                    let (x, y) = (sext(x, bits), sext(y, bits));
                    (if rem {
                        x.wrapping_rem(y)
                    } else {
                        x.wrapping_div(y)
                    }) as u64
                } else if rem {
                    x % y
                } else {
                    x / y
                };
            }
        }
        // copysign.{f32,f64} d, a, b: b's magnitude with a's sign, as bits
        // (a NaN's sign bit too).
        Opcode::Other if &*info.mnemonic == "copysign" && ty.is_float() => {
            let (a, b) = (s(1, ty, w, cta, m)?, s(2, ty, w, cta, m)?);
            let sign = 1u64 << (bits - 1);
            for lane in 0..32 {
                out[lane] = (b.v[lane] & !sign & mb) | (a.v[lane] & sign);
            }
        }
        // bmsk.{clamp,wrap}.b32 d, a, b: b ones from bit a up, cut at bit
        // 31. .wrap takes a and b modulo 32; .clamp caps them at 32.
        Opcode::Other if &*info.mnemonic == "bmsk" => {
            let (a, b) = (s(1, Type::U32, w, cta, m)?, s(2, Type::U32, w, cta, m)?);
            let wrap = word("wrap");
            for lane in 0..32 {
                let fit = |x: u64| {
                    if wrap {
                        x & 31
                    } else {
                        (x & 0xffff_ffff).min(32)
                    }
                };
                let (start, width) = (fit(a.v[lane]), fit(b.v[lane]));
                let ones = if width >= 64 {
                    u64::MAX
                } else {
                    (1u64 << width) - 1
                };
                out[lane] = (ones << start.min(63)) & 0xffff_ffff;
                if start >= 32 {
                    out[lane] = 0;
                }
            }
        }
        _ => return Ok(Flow::NotMine),
    }
    Ok(Flow::Write)
}

/// [`exec`] for the carry forms: `opcode` is the base operation, `with_in`
/// whether CC.CF is an input (`addc`, `subc`, `madc`).
#[allow(clippy::too_many_arguments, clippy::needless_range_loop)]
fn carry_op(
    k: &Kernel,
    cta: &mut Cta,
    w: &mut Warp,
    m: &mut Machine,
    i: Inst,
    run: u32,
    opcode: Opcode,
    with_in: bool,
) -> Result<(), EvalError> {
    let f = k.f;
    let d = f.inst(i);
    let info = f.op(i);
    let ty = info.last_type().unwrap_or(Type::U32);
    let bits = ty.bits();
    if !matches!(bits, 32 | 64) || !ty.is_integer() {
        return Err(EvalError::new(
            d.pos,
            format!("'{}' is not supported by the evaluator", info.text),
        ));
    }
    let writes = info.mods.iter().any(|mm| f.ops.is_word(*mm, "cc"));
    let hi = info.mods.contains(&Mod::Cmp(CmpOp::Hi));
    let n = if opcode == Opcode::Mad { 3 } else { 2 };
    let mut x = Vec::new();
    for k2 in 1..=n {
        let o = d
            .operands
            .get(k2)
            .ok_or_else(|| EvalError::new(d.pos, "missing operand"))?;
        x.push(src(k, cta, w, m, o, ty, d.pos)?);
    }
    let mb: u128 = if bits == 64 {
        u64::MAX as u128
    } else {
        (1u128 << bits) - 1
    };
    let mut out = [0u64; 32];
    let mut carry = w.carry;
    for lane in 0..32 {
        if run & (1 << lane) == 0 {
            continue;
        }
        let cf = u128::from(with_in && w.carry & (1 << lane) != 0);
        let a = x[0].v[lane] as u128 & mb;
        let b = x[1].v[lane] as u128 & mb;
        let (r, c_out) = match opcode {
            Opcode::Add => {
                let s = a + b + cf;
                (s & mb, s > mb)
            }
            Opcode::Sub => {
                let sub = b + cf;
                (a.wrapping_sub(sub) & mb, a < sub)
            }
            _ => {
                let p = if ty.is_signed() {
                    let sx = |v: u128| ((v as u64 as i64) << (64 - bits) >> (64 - bits)) as i128;
                    (sx(a) * sx(b)) as u128
                } else {
                    a * b
                };
                let part = if hi { (p >> bits) & mb } else { p & mb };
                let s = part + (x[2].v[lane] as u128 & mb) + cf;
                (s & mb, s > mb)
            }
        };
        out[lane] = r as u64;
        if writes {
            carry = (carry & !(1 << lane)) | (u32::from(c_out) << lane);
        }
    }
    w.carry = carry;
    if let Some(o) = d.operands.first() {
        set_result(w, f, o, &out, run);
    }
    Ok(())
}

/// The IEEE format of a scalar f32 or f64 type.
fn ieee_format(ty: Type) -> Option<ieee::Fmt> {
    match ty {
        Type::F32 => Some(ieee::F32),
        Type::F64 => Some(ieee::F64),
        _ => None,
    }
}

/// `fma.rnd{.ftz}{.sat}.f32`, `fma.rnd.f64` and `mad.rnd` on floats: one
/// rounding in the instruction's mode; `.sat` clamps to [0, 1] (NaN to 0).
#[allow(clippy::needless_range_loop)]
fn float_fma(
    c: &Ctx,
    cta: &mut Cta,
    w: &mut Warp,
    m: &mut Machine,
    out: &mut [u64; 32],
) -> Result<Flow, EvalError> {
    let ty = c.ty;
    let Some(fmt) = ieee_format(ty) else {
        return Err(c.unsupported());
    };
    let mode = c.rounding();
    let ftz = c.word("ftz") && ty == Type::F32;
    let sat = c.word("sat") && ty == Type::F32;
    let flush = |x: u64| if ftz { flush_f32(x) } else { x };
    let (a, b, d) = (
        c.operand(1, ty, w, cta, m)?,
        c.operand(2, ty, w, cta, m)?,
        c.operand(3, ty, w, cta, m)?,
    );
    for lane in 0..32 {
        let (x, y, z) = (flush(a.v[lane]), flush(b.v[lane]), flush(d.v[lane]));
        let r = nan_result(ieee::fma(x, y, z, fmt, mode), ty, &[x, y, z]);
        let r = flush(r);
        out[lane] = if sat { saturate_f32(r) } else { r };
    }
    Ok(Flow::Write)
}

/// `.sat` on an f32 result: clamped to [0, 1], NaN to +0.
fn saturate_f32(r: u64) -> u64 {
    let v = f32::from_bits(r as u32);
    if v.is_nan() || v <= 0.0 {
        0
    } else if v >= 1.0 {
        1f32.to_bits() as u64
    } else {
        r
    }
}
