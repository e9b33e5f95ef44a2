//! Warp collectives: shfl.sync in every mode, redux.sync, match.any and
//! match.all, vote and activemask.
//!
//! The `.sync` forms name their lanes in a membermask: every lane it names
//! must execute the instruction and every executing lane must be named,
//! or the ISA leaves the result undefined; the evaluator reports that as a
//! located error rather than invent a value.

use super::*;

/// The membermask all executing lanes give (`mm`), checked against the
/// lanes that execute (`run`).
fn membermask(what: &str, pos: u32, run: u32, mm: &Lanes) -> Result<u32, EvalError> {
    let first = run.trailing_zeros() as usize;
    let members = mm.v[first] as u32;
    if (0..32).any(|l| run & (1 << l) != 0 && mm.v[l] as u32 != members) {
        return Err(EvalError::new(
            pos,
            format!("{what}: lanes disagree on the membermask"),
        ));
    }
    if run & !members != 0 {
        return Err(EvalError::new(
            pos,
            format!(
                "{what}: lanes 0x{:08x} execute it but the membermask 0x{members:08x} leaves them out (undefined)",
                run & !members
            ),
        ));
    }
    if members & !run != 0 {
        return Err(EvalError::new(
            pos,
            format!(
                "{what}: the membermask 0x{members:08x} names lanes 0x{:08x} that are exited or do not execute it (undefined)",
                members & !run
            ),
        ));
    }
    Ok(members)
}

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
        pos,
        run,
        mask,
        dest,
        ..
    } = *c;
    let s = |n: usize, t: Type, w: &Warp, cta: &Cta, m: &Machine| c.operand(n, t, w, cta, m);
    let word = |x: &str| c.word(x);
    let has_bool = |b: BoolOp| info.mods.contains(&Mod::Bool(b));
    let unsupported = || c.unsupported();
    let out = results;
    match info.opcode {
        Opcode::Other if &*info.mnemonic == "shfl" && word("sync") => {
            // shfl.sync.MODE.b32 d[|p], a, b, c, membermask (PTX ISA
            // 9.7.9.6): lane j's a, j from b (lane or offset, 5 bits) per
            // mode, within the segment c[12:8] masks and clamped by
            // c[4:0]; out of range, a thread reads its own a and p is
            // false. Every lane the membermask names must execute this
            // shfl and every executing lane must be named: otherwise the
            // ISA leaves it undefined, and the evaluator says so.
            let (a, b, c, mm) = (
                s(1, Type::B32, w, cta, m)?,
                s(2, Type::U32, w, cta, m)?,
                s(3, Type::U32, w, cta, m)?,
                s(4, Type::U32, w, cta, m)?,
            );
            membermask("shfl.sync", pos, run, &mm)?;
            let mode = ["up", "down", "bfly", "idx"]
                .into_iter()
                .find(|x| word(x))
                .ok_or_else(unsupported)?;
            let mut pred = [0u64; 32];
            for lane in 0..32 {
                if run & (1 << lane) == 0 {
                    continue;
                }
                let (bval, cval) = (b.v[lane] as i64 & 0x1f, c.v[lane] as i64 & 0x1f);
                let segmask = (c.v[lane] as i64 >> 8) & 0x1f;
                let l = lane as i64;
                let max_lane = (l & segmask) | (cval & !segmask);
                let min_lane = l & segmask;
                let (j, ok) = match mode {
                    "up" => (l - bval, l - bval >= max_lane),
                    "down" => (l + bval, l + bval <= max_lane),
                    "bfly" => (l ^ bval, (l ^ bval) <= max_lane),
                    _ => {
                        let j = min_lane | (bval & !segmask);
                        (j, j <= max_lane)
                    }
                };
                let src = if ok { j as usize } else { lane };
                out[lane] = a.v[src] & 0xffff_ffff;
                pred[lane] = u64::from(ok);
            }
            if let Some(Operand::Pair(d, p)) = dest {
                for (v, vals) in [(d, &*out), (p, &pred)] {
                    if let Some(v) = v {
                        set_result(w, f, &Operand::Value(*v), vals, run);
                    }
                }
                return Ok(Flow::Done);
            }
        }
        // redux.sync.OP.TYPE d, a, membermask (PTX ISA 9.7.13.10): every
        // member gets the reduction of all members' a: add (mod 2^32),
        // min/max (u32 or s32), and/or/xor (b32).
        Opcode::Other if &*info.mnemonic == "redux" && word("sync") => {
            let a = s(1, ty, w, cta, m)?;
            let mm = s(2, Type::U32, w, cta, m)?;
            let members = membermask("redux.sync", pos, run, &mm)?;
            let vals = (0..32)
                .filter(|l| members & (1 << l) != 0)
                .map(|l| a.v[l] & 0xffff_ffff);
            let signed = |x: u64| x as u32 as i32;
            let r = if word("add") {
                vals.fold(0u64, |acc, x| (acc + x) & 0xffff_ffff)
            } else if word("min") && ty.is_signed() {
                vals.map(signed).min().unwrap_or(0) as u32 as u64
            } else if word("max") && ty.is_signed() {
                vals.map(signed).max().unwrap_or(0) as u32 as u64
            } else if word("min") {
                vals.min().unwrap_or(0)
            } else if word("max") {
                vals.max().unwrap_or(0)
            } else if has_bool(BoolOp::And) {
                vals.fold(0xffff_ffff, |acc, x| acc & x)
            } else if has_bool(BoolOp::Or) {
                vals.fold(0, |acc, x| acc | x)
            } else if has_bool(BoolOp::Xor) {
                vals.fold(0, |acc, x| acc ^ x)
            } else {
                return Err(unsupported());
            };
            *out = [r; 32];
        }
        // match.any.sync.TYPE d, a, membermask: d is the mask of members
        // whose a equals this lane's; match.all.sync.TYPE d[|p], a,
        // membermask: d is the membermask when all members' a agree (p
        // true), else 0 (p false). TYPE is b32 or b64.
        Opcode::Other if &*info.mnemonic == "match" && word("sync") => {
            let a = s(1, ty, w, cta, m)?;
            let mm = s(2, Type::U32, w, cta, m)?;
            let members = membermask("match.sync", pos, run, &mm)?;
            let same = |lane: usize| -> u32 {
                (0..32)
                    .filter(|&l| members & (1 << l) != 0 && a.v[l] == a.v[lane])
                    .fold(0, |acc, l| acc | 1 << l)
            };
            let mut pred = [0u64; 32];
            for lane in 0..32 {
                if run & (1 << lane) == 0 {
                    continue;
                }
                if word("any") {
                    out[lane] = same(lane) as u64;
                } else if word("all") {
                    let all = same(lane) == members;
                    out[lane] = if all { members as u64 } else { 0 };
                    pred[lane] = u64::from(all);
                } else {
                    return Err(unsupported());
                }
            }
            if let Some(Operand::Pair(d, p)) = dest {
                for (v, vals) in [(d, &*out), (p, &pred)] {
                    if let Some(v) = v {
                        set_result(w, f, &Operand::Value(*v), vals, run);
                    }
                }
                return Ok(Flow::Done);
            }
        }
        Opcode::Activemask => *out = [mask as u64; 32],
        Opcode::Vote => {
            let sync = word("sync");
            let p = s(1, Type::Pred, w, cta, m)?;
            let mut members = run;
            if sync {
                let mm = s(2, Type::U32, w, cta, m)?;
                members &= mm.v[run.trailing_zeros() as usize] as u32;
            }
            let mut ballot = 0u32;
            for lane in 0..32 {
                if members & (1 << lane) != 0 && p.v[lane] != 0 {
                    ballot |= 1 << lane;
                }
            }
            let r = if word("ballot") {
                ballot as u64
            } else if word("any") {
                (ballot != 0) as u64
            } else if word("all") {
                (ballot == members) as u64
            } else if word("uni") {
                (ballot == 0 || ballot == members) as u64
            } else {
                return Err(unsupported());
            };
            *out = [r; 32];
        }
        _ => return Ok(Flow::NotMine),
    }
    Ok(Flow::Write)
}
