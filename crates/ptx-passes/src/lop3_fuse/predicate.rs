//! Folding `setp.ne x, 0` of a logic result into `lop3`'s `.BoolOp` form.

use super::*;
use ptx_ir::entity::SecondaryMap;
use ptx_ir::lut::{self};
use ptx_ir::{BoolOp, CmpOp, Function, Imm, Inst, Mod, Opcode, Operand, Type, Value, ValueDef};
use rustc_hash::FxHashMap;
use smallvec::{smallvec, SmallVec};

/// Folds `setp.ne x, 0` of a logic result into the `lop3.BoolOp` form.
pub(super) fn fuse_predicates(
    f: &mut Function,
    insts: &[Inst],
    uses: &SecondaryMap<Value, SmallVec<[Inst; 2]>>,
) -> bool {
    let pos: FxHashMap<Inst, usize> = insts.iter().enumerate().map(|(k, &i)| (i, k)).collect();
    let mut changed = false;
    for &s in insts {
        if f.layout.inst_block(s).is_none() {
            continue;
        }
        let info = f.op(s);
        let d = f.inst(s);
        if info.opcode != Opcode::Setp
            || info.cmp() != Some(CmpOp::Ne)
            || d.guard.is_some()
            || !d.ties.is_empty()
            || d.results.len() != 1
            || !info
                .types()
                .all(|t| matches!(t, Type::B32 | Type::U32 | Type::S32))
            || info.mods.iter().any(|m| matches!(m, Mod::Word(_)))
        {
            continue;
        }
        let bool_op = info.bool_op();
        if bool_op == Some(BoolOp::Xor) {
            continue;
        }
        let (x, p) = match (d.operands.get(1), d.operands.get(2)) {
            (Some(Operand::Value(x)), Some(Operand::Imm(z)))
            | (Some(Operand::Imm(z)), Some(Operand::Value(x)))
                if z.is_int() && z.bits as u32 == 0 =>
            {
                (*x, d.results[0])
            }
            _ => continue,
        };
        if d.operands.first() != Some(&Operand::Value(p)) {
            continue;
        }
        let q = match (bool_op, d.operands.get(3)) {
            (None, None) => Operand::Imm(Imm::int(0)),
            (Some(_), Some(q @ (Operand::Value(_) | Operand::Not(_)))) => q.clone(),
            _ => continue,
        };
        let ValueDef::Result(def, 0) = f.dfg.values[x].def else {
            continue;
        };
        let Some(&def_pos) = pos.get(&def) else {
            continue;
        };
        if f.layout.inst_block(def).is_none() || pos.get(&s).is_none_or(|&k| k < def_pos) {
            continue;
        }
        let Some((func, srcs)) = logic_form(f, def) else {
            continue;
        };
        if f.inst(def).guard.is_some() {
            continue;
        }
        // q must be available where the definition is.
        let mut q_ok = true;
        q.for_each_value(&mut |v| {
            if let ValueDef::Result(qi, _) = f.dfg.values[v].def {
                if let Some(&k) = pos.get(&qi) {
                    q_ok &= k < def_pos;
                }
            }
        });
        if !q_ok {
            continue;
        }
        let mut abc: SmallVec<[Operand; 3]> = srcs.iter().cloned().collect();
        let lut = match func {
            Func::And => lut::A & lut::B,
            Func::Or => lut::A | lut::B,
            Func::Xor => lut::A ^ lut::B,
            Func::Not => !lut::A,
            Func::Lut(l) => l,
        };
        while abc.len() < 3 {
            abc.push(Operand::Imm(Imm::int(0)));
        }
        let others = uses[x]
            .iter()
            .any(|&u| u != s && f.layout.inst_block(u).is_some());
        let dest = Operand::Pair(others.then_some(x), Some(p));
        let op = f.ops.intern(
            Opcode::Lop3,
            &[
                Mod::Bool(bool_op.unwrap_or(BoolOp::Or)),
                Mod::Type(Type::B32),
            ],
        );
        let data = &mut f.dfg.insts[def];
        data.op = op;
        data.operands = smallvec![
            dest,
            abc[0].clone(),
            abc[1].clone(),
            abc[2].clone(),
            Operand::Imm(Imm::hex(lut as u64)),
            q
        ];
        data.results = if others {
            smallvec![x, p]
        } else {
            smallvec![p]
        };
        let k = data.results.len() as u16 - 1;
        f.dfg.values[p].def = ValueDef::Result(def, k);
        f.layout.remove_inst(s);
        changed = true;
    }
    changed
}
