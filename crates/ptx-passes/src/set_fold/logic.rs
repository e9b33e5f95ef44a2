//! Logic over `set` results: `and`/`or`/`xor` of two `set`s as one `set`
//! with a `.BoolOp`, `not` of a `set` as the complement comparison, and a
//! lone `setp` + `selp -1, 0` pair merged into one `set`.

use super::*;

/// `set.CMP d, s, K` where `s` is another `set`'s result (0 or its true
/// value): when both outcomes compare alike, `d` is a constant (`mov`);
/// when the comparison just repeats `s` with the same true value, `d` is
/// `s`. (`set.eq(set.ne(a, b), 1)` is always 0, and ptxas 13.0 compiles it
/// wrongly — as `set.ne(a, b)` — so folding it is a fix as well as a
/// saving; see docs/evaluator.md, "GPU cross-check".)
pub(super) fn fold_set_of_set(f: &mut Function) -> bool {
    let mut changed = false;
    let mut renames: FxHashMap<Value, Value> = FxHashMap::default();
    for i in f.layout_insts() {
        let Some(r) = fold_op_of_set(f, i) else {
            continue;
        };
        let d = f.inst(i).results[0];
        match r {
            Err(same) => {
                renames.insert(d, same);
                f.layout.remove_inst(i);
            }
            Ok((bits, ty)) => {
                let op = bits_op(f, Opcode::Mov, ty);
                let di = &mut f.dfg.insts[i];
                di.op = op;
                di.operands = smallvec![Operand::Value(d), hex(bits)];
            }
        }
        changed = true;
    }
    crate::rewrite::replace_all_uses(f, &renames);
    changed
}

/// For [`fold_set_of_set`]: `Ok(constant)` or `Err(the set it repeats)`.
pub(super) fn fold_op_of_set(f: &Function, i: Inst) -> Option<Result<(u64, Type), Value>> {
    let (dty, _, _) = set_form(f, i)?;
    let d = f.inst(i);
    let v = d.operands[1..].iter().find_map(|o| match o {
        Operand::Value(v) => Some(*v),
        _ => None,
    })?;
    let ValueDef::Result(s, _) = f.dfg.values[v].def else {
        return None;
    };
    let (sdty, _, st) = set_form(f, s)?;
    let (rt, _) = fold_op(f, i, v, st)?;
    let (rf, _) = fold_op(f, i, v, 0)?;
    if rt == rf {
        Some(Ok((rt, dty)))
    } else if rf == 0 && rt == st && sdty.bits() == dty.bits() && sdty.is_float() == dty.is_float()
    {
        Some(Err(v))
    } else {
        None
    }
}

/// `and`/`or`/`xor` of two `set` results, and `not` of an integer `set`.
pub(super) fn fold_set_logic(f: &mut Function, uses: &Uses) -> bool {
    let insts = f.layout_insts();
    let mut changed = false;
    for i in insts {
        if f.layout.inst_block(i).is_none() || !plain(f, i) {
            continue;
        }
        let info = f.op(i);
        let d = f.inst(i);
        let single = |v: Value| uses[v].len() == 1 && uses[v][0] == i;
        let set_of = |o: &Operand| -> Option<(Inst, (Type, Type, u64))> {
            let Operand::Value(v) = o else { return None };
            let ValueDef::Result(s, 0) = f.dfg.values[*v].def else {
                return None;
            };
            let form = set_form(f, s)?;
            single(*v).then_some((s, form))
        };
        // The complement of a -1/0 set, spelled `not.b32 d, s` or (as
        // LLVM and nvcc write it) `xor.b32 d, s, -1` either way round.
        let ones = |o: &Operand| imm(o).is_some_and(|x| x & 0xffff_ffff == 0xffff_ffff);
        let negated = match (info.opcode, &d.operands[..]) {
            (Opcode::Not, [_, s]) => Some(s),
            (Opcode::Xor, [_, s, k]) | (Opcode::Xor, [_, k, s]) if ones(k) => Some(s),
            _ => None,
        };
        let bool_op = match info.opcode {
            _ if negated.is_some() => {
                let Some((s, (dt, st, _))) = negated.and_then(set_of) else {
                    continue;
                };
                if !matches!(dt, Type::U32 | Type::S32)
                    || info.last_type().is_none_or(|t| t.bits() != 32)
                {
                    continue;
                }
                let dest = d.operands[0].clone();
                let (mods, negate_c) = complement_mods(&f.op(s).mods, st.is_float());
                let op = f.ops.intern(Opcode::Set, &mods);
                let mut operands = f.inst(s).operands.clone();
                operands[0] = dest;
                if negate_c {
                    if let Some(c) = operands.get_mut(3) {
                        *c = negate_operand(c);
                    }
                }
                let dd = &mut f.dfg.insts[i];
                dd.op = op;
                dd.operands = operands;
                f.layout.remove_inst(s);
                changed = true;
                continue;
            }
            Opcode::And => BoolOp::And,
            Opcode::Or => BoolOp::Or,
            Opcode::Xor => BoolOp::Xor,
            _ => continue,
        };
        if d.operands.len() != 3 || info.last_type().is_none_or(|t| t.bits() != 32) {
            continue;
        }
        let (Some(a), Some(b)) = (set_of(&d.operands[1]), set_of(&d.operands[2])) else {
            continue;
        };
        if a.0 == b.0 || a.1 .0 != b.1 .0 {
            continue;
        }
        // The set without a BoolOp takes this one; the other becomes its c.
        let (inner, outer) = if f.op(b.0).bool_op().is_none() {
            (a.0, b.0)
        } else if f.op(a.0).bool_op().is_none() {
            (b.0, a.0)
        } else {
            continue;
        };
        let p = set_to_setp(f, inner);
        let mut mods = f.op(outer).mods.to_vec();
        mods.insert(1, Mod::Bool(bool_op));
        let op = f.ops.intern(Opcode::Set, &mods);
        let mut operands = f.inst(outer).operands.clone();
        operands[0] = f.inst(i).operands[0].clone();
        operands.push(Operand::Value(p));
        let dd = &mut f.dfg.insts[i];
        dd.op = op;
        dd.operands = operands;
        f.layout.remove_inst(outer);
        changed = true;
    }
    changed
}

/// `setp` + lone `selp -1, 0` / `1.0, 0.0` (either order) → `set`.
pub(super) fn merge_pairs(f: &mut Function, uses: &Uses) -> bool {
    let insts = f.layout_insts();
    let mut changed = false;
    for s in insts {
        let info = f.op(s);
        let d = f.inst(s);
        if info.opcode != Opcode::Setp || !plain(f, s) || d.results.len() != 1 {
            continue;
        }
        let p = d.results[0];
        if d.operands.first() != Some(&Operand::Value(p)) || uses[p].len() != 1 {
            continue;
        }
        let Some(st) = info.last_type().filter(|t| classic_stype(*t)) else {
            continue;
        };
        if info.types().count() != 1 {
            continue;
        }
        let u = uses[p][0];
        let ud = f.inst(u);
        let uinfo = f.op(u);
        if uinfo.opcode != Opcode::Selp
            || !plain(f, u)
            || ud.operands.get(3) != Some(&Operand::Value(p))
        {
            continue;
        }
        if ud.guard.is_some_and(|g| g.pred == p) {
            continue;
        }
        let Some(sty) = uinfo.last_type().filter(|t| matches!(t.bits(), 16 | 32)) else {
            continue;
        };
        let (Some(a), Some(b)) = (
            ud.operands.get(1).and_then(imm),
            ud.operands.get(2).and_then(imm),
        ) else {
            continue;
        };
        let m = mask(sty.bits());
        let (a, b) = (a & m, b & m);
        let (truth, negated) = match (a, b) {
            (x, 0) if x != 0 => (x, false),
            (0, x) if x != 0 => (x, true),
            _ => continue,
        };
        // 16-bit set destinations exist only with f16/bf16 sources (a
        // target that compares those has them).
        let half = matches!(st, Type::F16 | Type::BF16);
        let dtype = match (truth, sty.bits(), sty) {
            (0xffff_ffff, 32, Type::S32) => Type::S32,
            (0xffff_ffff, 32, _) => Type::U32,
            // No `set` writes f32 from a half-precision source (ptxas).
            (0x3f80_0000, 32, _) if !half => Type::F32,
            (0xffff, 16, Type::S16) if half => Type::S16,
            (0xffff, 16, _) if half => Type::U16,
            (0x3c00, 16, _) if st == Type::F16 => Type::F16,
            (0x3f80, 16, _) if st == Type::BF16 => Type::BF16,
            _ => continue,
        };
        let mut mods = info.mods.to_vec();
        let mut operands = d.operands.clone();
        if negated {
            let (m, negate_c) = complement_mods(&mods, st.is_float());
            mods = m;
            if negate_c {
                if let Some(c) = operands.get_mut(3) {
                    *c = negate_operand(c);
                }
            }
        }
        let at = mods
            .iter()
            .position(|m| matches!(m, Mod::Type(_)))
            .unwrap_or(mods.len());
        mods.insert(at, Mod::Type(dtype));
        operands[0] = ud.operands[0].clone();
        let op = f.ops.intern(Opcode::Set, &mods);
        let dd = &mut f.dfg.insts[u];
        dd.op = op;
        dd.operands = operands;
        f.layout.remove_inst(s);
        changed = true;
    }
    changed
}
