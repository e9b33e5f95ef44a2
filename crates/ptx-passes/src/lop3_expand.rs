//! `lop3-expand`: the inverse of `lop3-fuse`, for targets without `lop3`
//! (below sm_50).
//!
//! Each `lop3.b32` becomes the minimal and/or/xor/not formula of its LUT
//! ([`ptx_ir::lut::expr`], a table a test regenerates and checks), one
//! instruction per operator; the constants become `mov`. The `.BoolOp`
//! form adds `setp.ne.BoolOp.b32 p, d, 0, q`. Intermediate values are
//! computed unguarded; the instruction writing `d` keeps the guard and the
//! tied old value.
//!
//! Guarantees: no `lop3` with an immediate LUT is left; the CFG is
//! preserved; `lop3-fuse` maps the expansion back to one `lop3` per
//! original one (checked by a test).
//!
//! ```text
//! before:                                   after:
//!   lop3.b32 %r4, %r1, %r2, %r3, 0xCA;        xor.b32 %r5, %r2, %r3;
//!                                             and.b32 %r6, %r1, %r5;
//!                                             xor.b32 %r4, %r3, %r6;
//! ```

use crate::{AnalysisManager, Pass, Preserved};
use ptx_ir::lut::{BinOp, Expr};
use ptx_ir::{BoolOp, CmpOp, Function, Imm, Inst, Mod, Opcode, Operand, Type, Value, ValueDef};
use rustc_hash::FxHashMap;
use smallvec::{smallvec, SmallVec};

/// The pass.
pub struct Lop3Expand;

/// Emits a formula's operators as instructions before `at`.
struct Emitter<'a> {
    f: &'a mut Function,
    at: Inst,
    inputs: [Operand; 3],
}

impl Emitter<'_> {
    /// Emits the operators of `e` into new instructions (the root into
    /// `into` when given) and returns the operand for its value.
    fn emit(&mut self, e: &Expr, into: Option<Inst>) -> Operand {
        let (opcode, srcs): (Opcode, SmallVec<[Operand; 3]>) = match e {
            Expr::Input(k) if into.is_none() => return self.inputs[*k as usize].clone(),
            Expr::Input(k) => (Opcode::Mov, smallvec![self.inputs[*k as usize].clone()]),
            Expr::Const(c) => (
                Opcode::Mov,
                smallvec![Operand::Imm(Imm::int(-i64::from(*c)))],
            ),
            Expr::Not(x) => (Opcode::Not, smallvec![self.emit(x, None)]),
            Expr::Bin(op, x, y) => {
                let a = self.emit(x, None);
                let b = self.emit(y, None);
                let opcode = match op {
                    BinOp::And => Opcode::And,
                    BinOp::Or => Opcode::Or,
                    BinOp::Xor => Opcode::Xor,
                };
                (opcode, smallvec![a, b])
            }
        };
        let op = self.f.ops.intern(opcode, &[Mod::Type(Type::B32)]);
        let Some(i) = into else {
            return Operand::Value(self.f.insert_def_before(self.at, op, Type::B32, srcs));
        };
        let v = self.f.inst(i).results[0];
        let d = &mut self.f.dfg.insts[i];
        d.op = op;
        d.operands = smallvec![Operand::Value(v)];
        d.operands.extend(srcs);
        Operand::Value(v)
    }
}

/// Expands `i` if it is a lop3 with an immediate LUT. A `d|p` form's `d`
/// is renamed through `renames` to the formula's value.
fn expand(f: &mut Function, i: Inst, renames: &mut FxHashMap<Value, Value>) -> bool {
    let info = f.op(i);
    let d = f.inst(i);
    if info.opcode != Opcode::Lop3 || d.operands.len() < 5 {
        return false;
    }
    let Some(Operand::Imm(lut)) = d.operands.get(4) else {
        return false;
    };
    let bool_op = info.bool_op();
    if bool_op == Some(BoolOp::Xor) {
        return false;
    }
    let e = Expr::parse(ptx_ir::lut::expr(lut.bits as u8)).expect("the committed table parses");
    let inputs = [
        d.operands[1].clone(),
        d.operands[2].clone(),
        d.operands[3].clone(),
    ];
    match bool_op {
        None => {
            let mut em = Emitter { f, at: i, inputs };
            em.emit(&e, Some(i));
        }
        Some(b) => {
            // d|p, a, b, c, lut, q  →  formula into d (or a temporary),
            // then setp.ne.BoolOp.b32 p, d, 0, q.
            let Operand::Pair(dv, Some(p)) = d.operands[0].clone() else {
                return false;
            };
            let q = d.operands.get(5).cloned();
            let guard = d.guard;
            let ties = d.ties.clone();
            if q.is_none() || ties.len() > 1 || (guard.is_some() && dv.is_some()) {
                // Guarded dual writes keep their tie pairing; left alone.
                return false;
            }
            let mut em = Emitter { f, at: i, inputs };
            let val = em.emit(&e, None);
            let val = match (val, dv) {
                // d's readers read the formula's value instead.
                (Operand::Value(v), Some(x)) => {
                    renames.insert(x, v);
                    Operand::Value(v)
                }
                (imm, Some(x)) => {
                    let mov = f.ops.intern(Opcode::Mov, &[Mod::Type(Type::B32)]);
                    let v = f.insert_def_before(i, mov, Type::B32, [imm]);
                    renames.insert(x, v);
                    Operand::Value(v)
                }
                (v, None) => v,
            };
            let setp = f.ops.intern(
                Opcode::Setp,
                &[Mod::Cmp(CmpOp::Ne), Mod::Bool(b), Mod::Type(Type::B32)],
            );
            let dd = &mut f.dfg.insts[i];
            dd.op = setp;
            dd.results = smallvec![p];
            dd.operands = smallvec![
                Operand::Value(p),
                val,
                Operand::Imm(Imm::int(0)),
                q.expect("checked")
            ];
            f.dfg.values[p].def = ValueDef::Result(i, 0);
        }
    }
    true
}

impl Pass for Lop3Expand {
    fn name(&self) -> &'static str {
        "lop3-expand"
    }

    fn run(&mut self, f: &mut Function, _am: &mut AnalysisManager) -> Preserved {
        let mut renames = FxHashMap::default();
        let mut changed = false;
        for i in f.layout_insts() {
            changed |= expand(f, i, &mut renames);
        }
        crate::rewrite::replace_all_uses(f, &renames);
        Preserved::cfg_if(changed)
    }
}
