//! Memory instructions: ld (with `.nc`, and `ldu`) and st of every width
//! and vector shape, the atomic atom and red, `cp.async` with its groups,
//! and the memory-ordering `membar`/`fence` (nothing to order in a machine
//! that runs one thread-instruction at a time).

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
        ..
    } = *c;
    let s = |n: usize, t: Type, w: &Warp, cta: &Cta, m: &Machine| c.operand(n, t, w, cta, m);
    let word = |x: &str| c.word(x);
    let unsupported = || c.unsupported();
    let out = results;
    let load = info.opcode == Opcode::Ld || &*info.mnemonic == "ldu";
    match info.opcode {
        Opcode::Other if matches!(&*info.mnemonic, "membar" | "fence") => return Ok(Flow::Done),
        Opcode::Other if &*info.mnemonic == "cp" && word("async") && !word("bulk") => {
            return cp_async(c, cta, w, m).map(|()| Flow::Done);
        }
        Opcode::Ld | Opcode::St | Opcode::Other if load || info.opcode == Opcode::St => {
            let vec_n = if word("v8") {
                8
            } else if word("v4") {
                4
            } else if word("v2") {
                2
            } else {
                1
            };
            let len = (bits as u64).div_ceil(8);
            let space = info.space();
            let (addr_op, val_op) = if load { (1, 0) } else { (0, 1) };
            let Some(Operand::Addr(a)) = d.operands.get(addr_op) else {
                return Err(unsupported());
            };
            let base = src(k, cta, w, m, &a.base, Type::U64, pos)?;
            let slots: &[Operand] = match &d.operands[val_op] {
                Operand::Vector(v) => v,
                o => std::slice::from_ref(o),
            };
            if slots.len() != vec_n {
                return Err(unsupported());
            }
            for (e, slot) in slots.iter().enumerate() {
                let mut vals = [0u64; 32];
                let mut seen: SmallVec<[(u64, u128); 32]> = SmallVec::new();
                let data = if !load {
                    Some(src(k, cta, w, m, slot, ty, pos)?)
                } else {
                    None
                };
                for lane in 0..32 {
                    if run & (1 << lane) == 0 {
                        continue;
                    }
                    let addr = base.v[lane]
                        .wrapping_add(a.offset as u64)
                        .wrapping_add(e as u64 * len);
                    let store = data.as_ref().map(|d| d.v[lane] as u128);
                    if let Some(v) = store {
                        seen.push((addr, v));
                    }
                    let r = mem_access(cta, w, m, space, addr, len, lane, store, pos)? as u64;
                    vals[lane] = if ty.is_signed() {
                        sext(r, bits) as u64
                    } else {
                        r
                    };
                    if !w.approx.is_empty() || !m.approx.is_empty() {
                        tag_access(cta, w, m, space, addr, len, lane, slot, load);
                    }
                }
                if load {
                    set_result(w, f, slot, &vals, run);
                }
                if conflicting(&mut seen) {
                    m.unordered += 1;
                }
            }
            return Ok(Flow::Done);
        }
        Opcode::Other if matches!(&*info.mnemonic, "atom" | "red") => {
            // atom d, [a], b{, c} returns the old value; red [a], b does not.
            // Lanes update memory one after another, in lane order.
            let red = &*info.mnemonic == "red";
            let at = if red { 0 } else { 1 };
            let Some(Operand::Addr(a)) = d.operands.get(at) else {
                return Err(unsupported());
            };
            let base = src(k, cta, w, m, &a.base, Type::U64, pos)?;
            let b = s(at + 1, ty, w, cta, m)?;
            let c = if word("cas") {
                Some(s(at + 2, ty, w, cta, m)?)
            } else {
                None
            };
            let len = (bits as u64).div_ceil(8);
            let mut addrs: SmallVec<[(u64, u128); 32]> = SmallVec::new();
            for lane in 0..32 {
                if run & (1 << lane) == 0 {
                    continue;
                }
                let addr = base.v[lane].wrapping_add(a.offset as u64);
                // Old values read back depend on the lanes' order.
                addrs.push((addr, lane as u128));
                let old = mem_access(cta, w, m, info.space(), addr, len, lane, None, pos)? as u64;
                let y = b.v[lane] & mb;
                let float = |op: fn(f64, f64) -> f64| {
                    if ty == Type::F32 {
                        let (p, q) = (f32::from_bits(old as u32), f32::from_bits(y as u32));
                        (op(p as f64, q as f64) as f32).to_bits() as u64
                    } else {
                        op(f64::from_bits(old), f64::from_bits(y)).to_bits()
                    }
                };
                let new = if word("add") && ty.is_float() {
                    // Each add rounds in the instruction's own precision.
                    if ty == Type::F32 {
                        (f32::from_bits(old as u32) + f32::from_bits(y as u32)).to_bits() as u64
                    } else {
                        (f64::from_bits(old) + f64::from_bits(y)).to_bits()
                    }
                } else if word("add") {
                    old.wrapping_add(y) & mb
                } else if word("exch") {
                    y
                } else if word("and") || info.bool_op() == Some(BoolOp::And) {
                    old & y
                } else if word("or") || info.bool_op() == Some(BoolOp::Or) {
                    old | y
                } else if word("xor") || info.bool_op() == Some(BoolOp::Xor) {
                    old ^ y
                } else if word("inc") {
                    if old >= y {
                        0
                    } else {
                        old + 1
                    }
                } else if word("dec") {
                    if old == 0 || old > y {
                        y
                    } else {
                        old - 1
                    }
                } else if let Some(c) = &c {
                    if old == y {
                        c.v[lane] & mb
                    } else {
                        old
                    }
                } else if word("min") || word("max") {
                    let min = word("min");
                    if ty.is_float() {
                        float(if min { f64::min } else { f64::max })
                    } else {
                        let less = if ty.is_signed() {
                            sext(old, bits) < sext(y, bits)
                        } else {
                            old < y
                        };
                        if less == min {
                            old
                        } else {
                            y
                        }
                    }
                } else {
                    return Err(unsupported());
                };
                mem_access(
                    cta,
                    w,
                    m,
                    info.space(),
                    addr,
                    len,
                    lane,
                    Some(new as u128),
                    pos,
                )?;
                out[lane] = old;
            }
            if red {
                return Ok(Flow::Done);
            }
            if conflicting(&mut addrs) {
                m.unordered += 1;
            }
        }
        _ => return Ok(Flow::NotMine),
    }
    Ok(Flow::Write)
}

/// Moves the tag of one lane's access: a store tags the bytes it writes
/// with its value's tag, a load gives its register the bytes' tag.
#[allow(clippy::too_many_arguments)]
fn tag_access(
    cta: &Cta,
    w: &mut Warp,
    m: &mut Machine,
    space: Option<Space>,
    addr: u64,
    len: u64,
    lane: usize,
    slot: &Operand,
    load: bool,
) {
    let (space, off) = resolve(space, addr);
    let Some(at) = approx::owner(space, cta, w, lane) else {
        return;
    };
    let value = match slot {
        Operand::Value(v) => Some(v.as_u32() as usize),
        _ => None,
    };
    if load {
        if let Some(v) = value.filter(|_| !w.approx.is_empty()) {
            w.approx[v][lane] = m.approx.read(at, off, len);
        }
    } else {
        let tag = match value {
            Some(v) if !w.approx.is_empty() => w.approx[v][lane],
            _ => approx::EXACT,
        };
        m.approx.write(at, off, len, tag);
    }
}

/// `cp.async.{ca,cg}.shared.global [dst], [src], cp-size{, src-size |
/// ignore-src}` reads `src-size` bytes (the rest zero) at issue and lands
/// them in shared memory at the wait; `cp.async.commit_group` closes the
/// open group, `cp.async.wait_group N` lands all but the newest N groups,
/// `cp.async.wait_all` everything issued.
#[allow(clippy::needless_range_loop)]
fn cp_async(c: &Ctx, cta: &mut Cta, w: &mut Warp, m: &mut Machine) -> Result<(), EvalError> {
    let (d, pos, run) = (c.d, c.pos, c.run);
    let land =
        |cta: &mut Cta, w: &mut Warp, m: &mut Machine, group: Vec<(usize, u64, u64, u128)>| {
            for (lane, dst, len, v) in group {
                mem_access(cta, w, m, Some(Space::Shared), dst, len, lane, Some(v), pos)?;
            }
            Ok::<(), EvalError>(())
        };
    if c.word("commit_group") {
        let open = std::mem::take(&mut w.async_open);
        w.async_groups.push_back(open);
        return Ok(());
    }
    if c.word("wait_group") || c.word("wait_all") {
        let keep = if c.word("wait_all") {
            let open = std::mem::take(&mut w.async_open);
            w.async_groups.push_back(open);
            0
        } else {
            c.operand(0, Type::U32, w, cta, m)?.v[run.trailing_zeros() as usize] as usize
        };
        while w.async_groups.len() > keep {
            let group = w.async_groups.pop_front().expect("a group");
            land(cta, w, m, group)?;
        }
        return Ok(());
    }
    let (Some(Operand::Addr(dst)), Some(Operand::Addr(src_a))) =
        (d.operands.first(), d.operands.get(1))
    else {
        return Err(c.unsupported());
    };
    let dst_base = src(c.k, cta, w, m, &dst.base, Type::U64, pos)?;
    let src_base = src(c.k, cta, w, m, &src_a.base, Type::U64, pos)?;
    let size = c.operand(2, Type::U32, w, cta, m)?;
    // A fourth operand is the source size, or (a predicate) ignore-src.
    let limit = match d.operands.get(3) {
        Some(o @ (Operand::Value(_) | Operand::Not(_))) if is_pred(c.f, o) => {
            let p = src(c.k, cta, w, m, o, Type::Pred, pos)?;
            Some(p.v.map(|x| if x != 0 { 0 } else { u64::MAX }))
        }
        Some(o) if !c.word("cache_hint") || d.operands.len() > 4 => {
            Some(src(c.k, cta, w, m, o, Type::U32, pos)?.v)
        }
        _ => None,
    };
    for lane in 0..32 {
        if run & (1 << lane) == 0 {
            continue;
        }
        let len = size.v[lane];
        if !matches!(len, 4 | 8 | 16) {
            return Err(EvalError::new(
                pos,
                format!("cp.async: cp-size {len} is not 4, 8 or 16"),
            ));
        }
        let n = limit.map_or(len, |l| l[lane].min(len));
        let from = src_base.v[lane].wrapping_add(src_a.offset as u64);
        let data = if n == 0 {
            0
        } else {
            mem_access(cta, w, m, Some(Space::Global), from, n, lane, None, pos)?
        };
        let to = dst_base.v[lane].wrapping_add(dst.offset as u64);
        w.async_open.push((lane, to, len, data));
    }
    Ok(())
}

/// Whether register operand `o` is a predicate.
fn is_pred(f: &Function, o: &Operand) -> bool {
    match o {
        Operand::Value(v) | Operand::Not(v) => f.dfg.value_type(*v) == Type::Pred,
        _ => false,
    }
}
