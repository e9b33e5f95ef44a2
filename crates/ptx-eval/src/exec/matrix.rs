//! Warp-wide matrix instructions: `ldmatrix`/`stmatrix.sync.aligned.m8n8.
//! {x1,x2,x4}{.trans}.shared.b16` and `mma.sync.aligned` for `m16n8k16` (f16 or
//! bf16 inputs, f32 accumulators) and `m16n8k32` (s8/u8 inputs, s32
//! accumulators), with the fragment layouts of the PTX ISA (§9.7.14.4,
//! §9.7.14.5.8 and .10).
//!
//! In a fragment, lane `l` belongs to group `g = l / 4` at position
//! `t = l % 4`. All 32 lanes must execute these instructions together (the
//! ISA leaves anything else undefined; the evaluator reports it).
//! f32 results are the dot product plus the accumulator summed in double
//! precision (exact unless the terms span more than 53 bits) and rounded
//! once to f32: the ISA does not specify the hardware's internal order.

use super::minifloat::{Round, BF16, F16, F32};
use super::*;

/// This family's instructions; `Flow::NotMine` for any other.
pub(super) fn step(
    c: &Ctx,
    cta: &mut Cta,
    w: &mut Warp,
    m: &mut Machine,
    _results: &mut [u64; 32],
) -> Result<Flow, EvalError> {
    if c.info.opcode != Opcode::Other {
        return Ok(Flow::NotMine);
    }
    match &*c.info.mnemonic {
        "ldmatrix" => ldmatrix(c, cta, w, m).map(|()| Flow::Done),
        "stmatrix" => stmatrix(c, cta, w, m).map(|()| Flow::Done),
        "mma" => mma(c, cta, w, m).map(|()| Flow::Done),
        _ => Ok(Flow::NotMine),
    }
}

fn whole_warp(c: &Ctx, what: &str) -> Result<(), EvalError> {
    if c.run != u32::MAX {
        return Err(EvalError::new(
            c.pos,
            format!(
                "{what}: lanes 0x{:08x} do not execute it; all 32 must (undefined otherwise)",
                !c.run
            ),
        ));
    }
    Ok(())
}

/// `.m8n8.{x1,x2,x4}{.trans}.b16` of ldmatrix/stmatrix, for the whole
/// warp: how many matrices, and whether transposed.
fn m8n8_shape(c: &Ctx, what: &str) -> Result<(usize, bool), EvalError> {
    whole_warp(c, what)?;
    let n = [("x1", 1), ("x2", 2), ("x4", 4)]
        .into_iter()
        .find(|(x, _)| c.word(x))
        .map_or(1, |x| x.1);
    if !c.word("m8n8") || c.info.last_type() != Some(Type::B16) {
        return Err(c.unsupported());
    }
    Ok((n, c.word("trans")))
}

/// The registers of a vector operand (or the one register).
fn regs(o: &Operand) -> &[Operand] {
    match o {
        Operand::Vector(v) => v,
        o => std::slice::from_ref(o),
    }
}

/// ldmatrix: matrix j's row r comes from the address lane 8j + r gives;
/// lane l receives row g, elements 2t and 2t+1 (with .trans: column g,
/// rows 2t and 2t+1), the lower-indexed element in the low half.
#[allow(clippy::needless_range_loop)]
fn ldmatrix(c: &Ctx, cta: &mut Cta, w: &mut Warp, m: &mut Machine) -> Result<(), EvalError> {
    let (n, trans) = m8n8_shape(c, "ldmatrix")?;
    let (Some(dst), Some(Operand::Addr(a))) = (c.d.operands.first(), c.d.operands.get(1)) else {
        return Err(c.unsupported());
    };
    let dst = regs(dst);
    if dst.len() != n {
        return Err(c.unsupported());
    }
    let base = src(c.k, cta, w, m, &a.base, Type::U64, c.pos)?;
    let space = c.info.space().or(Some(Space::Shared));
    for (j, d) in dst.iter().enumerate() {
        // The 8×8 matrix of 16-bit elements.
        let mut e = [[0u64; 8]; 8];
        for (r, row) in e.iter_mut().enumerate() {
            let lane = 8 * j + r;
            let at = base.v[lane].wrapping_add(a.offset as u64);
            let bytes = mem_access(cta, w, m, space, at, 16, lane, None, c.pos)?;
            for (col, x) in row.iter_mut().enumerate() {
                *x = ((bytes >> (16 * col)) & 0xffff) as u64;
            }
        }
        let mut vals = [0u64; 32];
        for lane in 0..32 {
            let (g, t) = (lane / 4, lane % 4);
            let (lo, hi) = if trans {
                (e[2 * t][g], e[2 * t + 1][g])
            } else {
                (e[g][2 * t], e[g][2 * t + 1])
            };
            vals[lane] = hi << 16 | lo;
        }
        set_result(w, c.f, d, &vals, c.run);
    }
    Ok(())
}

/// stmatrix: the inverse of ldmatrix, lane l's register j holding row g,
/// elements 2t and 2t+1 of matrix j (with .trans: column g), stored to
/// the row addresses lanes 8j..8j+7 give.
#[allow(clippy::needless_range_loop)]
fn stmatrix(c: &Ctx, cta: &mut Cta, w: &mut Warp, m: &mut Machine) -> Result<(), EvalError> {
    let (n, trans) = m8n8_shape(c, "stmatrix")?;
    let (Some(Operand::Addr(a)), Some(srcs)) = (c.d.operands.first(), c.d.operands.get(1)) else {
        return Err(c.unsupported());
    };
    let srcs = regs(srcs);
    if srcs.len() != n {
        return Err(c.unsupported());
    }
    let base = src(c.k, cta, w, m, &a.base, Type::U64, c.pos)?;
    let space = c.info.space().or(Some(Space::Shared));
    for (j, o) in srcs.iter().enumerate() {
        let v = src(c.k, cta, w, m, o, Type::B32, c.pos)?;
        let mut e = [[0u128; 8]; 8];
        for lane in 0..32 {
            let (g, t) = (lane / 4, lane % 4);
            let (lo, hi) = (
                (v.v[lane] & 0xffff) as u128,
                ((v.v[lane] >> 16) & 0xffff) as u128,
            );
            if trans {
                e[2 * t][g] = lo;
                e[2 * t + 1][g] = hi;
            } else {
                e[g][2 * t] = lo;
                e[g][2 * t + 1] = hi;
            }
        }
        for (r, row) in e.iter().enumerate() {
            let lane = 8 * j + r;
            let bytes = row
                .iter()
                .enumerate()
                .fold(0u128, |acc, (col, x)| acc | x << (16 * col));
            let at = base.v[lane].wrapping_add(a.offset as u64);
            mem_access(cta, w, m, space, at, 16, lane, Some(bytes), c.pos)?;
        }
    }
    Ok(())
}

/// mma.sync.aligned.m16n8k16.row.col.f32.{f16,bf16}.{f16,bf16}.f32 and
/// mma.sync.aligned.m16n8k32.row.col{.satfinite}.s32.{s8,u8}.{s8,u8}.s32:
/// D = A·B + C over the warp's fragments.
#[allow(clippy::needless_range_loop)]
fn mma(c: &Ctx, cta: &mut Cta, w: &mut Warp, m: &mut Machine) -> Result<(), EvalError> {
    whole_warp(c, "mma.sync")?;
    let tys: Vec<Type> = c.info.types().collect();
    let ops = &c.d.operands;
    if ops.len() != 4 || !c.word("row") || !c.word("col") {
        return Err(c.unsupported());
    }
    let (dr, ar, br, cr) = (regs(&ops[0]), regs(&ops[1]), regs(&ops[2]), regs(&ops[3]));
    if dr.len() != 4 || ar.len() != 4 || br.len() != 2 || cr.len() != 4 {
        return Err(c.unsupported());
    }
    let read =
        |w: &Warp, cta: &Cta, m: &Machine, rs: &[Operand]| -> Result<Vec<Lanes>, EvalError> {
            rs.iter()
                .map(|o| src(c.k, cta, w, m, o, Type::B32, c.pos))
                .collect()
        };
    let (a, b, acc) = (
        read(w, cta, m, ar)?,
        read(w, cta, m, br)?,
        read(w, cta, m, cr)?,
    );
    // The C/D layout: register i of lane l is row g (+8 for i ≥ 2),
    // column 2t + (i mod 2).
    let cd_at = |lane: usize, i: usize| (lane / 4 + 8 * (i / 2), 2 * (lane % 4) + i % 2);
    let mut out = vec![[0u64; 32]; 4];
    match tys.as_slice() {
        [Type::F32, x, y, Type::F32] if x == y && matches!(x, Type::F16 | Type::BF16) => {
            if !c.word("m16n8k16") {
                return Err(c.unsupported());
            }
            let fmt = if *x == Type::F16 { F16 } else { BF16 };
            let mut am = [[0f64; 16]; 16];
            let mut bm = [[0f64; 8]; 16];
            let mut cm = [[0f64; 8]; 16];
            for lane in 0..32 {
                let (g, t) = (lane / 4, lane % 4);
                for (i, reg) in a.iter().enumerate() {
                    // a0: row g, cols 2t..; a1: row g+8; a2: cols +8; a3: both.
                    let (row, col) = (g + 8 * (i % 2), 2 * t + 8 * (i / 2));
                    for h in 0..2 {
                        am[row][col + h] = fmt.decode((reg.v[lane] >> (16 * h)) & 0xffff);
                    }
                }
                for (i, reg) in b.iter().enumerate() {
                    // b0: rows 2t, 2t+1 of column g; b1: rows 2t+8, 2t+9.
                    for h in 0..2 {
                        bm[2 * t + 8 * i + h][g] = fmt.decode((reg.v[lane] >> (16 * h)) & 0xffff);
                    }
                }
                for (i, reg) in acc.iter().enumerate() {
                    let (row, col) = cd_at(lane, i);
                    cm[row][col] = F32.decode(reg.v[lane] & 0xffff_ffff);
                }
            }
            for lane in 0..32 {
                for i in 0..4 {
                    let (row, col) = cd_at(lane, i);
                    let dot: f64 = (0..16).map(|k| am[row][k] * bm[k][col]).sum();
                    out[i][lane] = F32.encode(dot + cm[row][col], Round::Nearest, false);
                }
            }
        }
        [Type::S32, x, y, Type::S32]
            if matches!(x, Type::S8 | Type::U8) && matches!(y, Type::S8 | Type::U8) =>
        {
            if !c.word("m16n8k32") {
                return Err(c.unsupported());
            }
            let byte = |v: u64, k: usize, t: &Type| -> i64 {
                let b = (v >> (8 * k)) & 0xff;
                if *t == Type::S8 {
                    b as u8 as i8 as i64
                } else {
                    b as i64
                }
            };
            let mut am = [[0i64; 32]; 16];
            let mut bm = [[0i64; 8]; 32];
            let mut cm = [[0i64; 8]; 16];
            for lane in 0..32 {
                let (g, t) = (lane / 4, lane % 4);
                for (i, reg) in a.iter().enumerate() {
                    let (row, col) = (g + 8 * (i % 2), 4 * t + 16 * (i / 2));
                    for k in 0..4 {
                        am[row][col + k] = byte(reg.v[lane], k, x);
                    }
                }
                for (i, reg) in b.iter().enumerate() {
                    for k in 0..4 {
                        bm[4 * t + 16 * i + k][g] = byte(reg.v[lane], k, y);
                    }
                }
                for (i, reg) in acc.iter().enumerate() {
                    let (row, col) = cd_at(lane, i);
                    cm[row][col] = reg.v[lane] as u32 as i32 as i64;
                }
            }
            let sat = c.word("satfinite");
            for lane in 0..32 {
                for i in 0..4 {
                    let (row, col) = cd_at(lane, i);
                    let r: i64 =
                        (0..32).map(|k| am[row][k] * bm[k][col]).sum::<i64>() + cm[row][col];
                    let r = if sat {
                        r.clamp(i32::MIN as i64, i32::MAX as i64)
                    } else {
                        r
                    };
                    out[i][lane] = r as u64 & 0xffff_ffff;
                }
            }
        }
        _ => return Err(c.unsupported()),
    }
    for (d, vals) in dr.iter().zip(&out) {
        let vals: [u64; 32] = *vals;
        set_result(w, c.f, d, &vals, c.run);
    }
    Ok(())
}
