//! `const-fold`: constant folding, constant propagation and algebraic
//! simplification for the integer, bitwise, compare-free and select
//! families.
//!
//! * An unguarded integer `mov` of an immediate makes its result a
//!   constant; constants replace register sources of `add`, `sub`,
//!   `mul.lo`, `and`, `or`, `xor`, `shl`, `shr`, `min`, `max` and `setp`
//!   (positions where PTX takes immediates).
//! * An instruction of those families (plus `not`, `neg`, `cnot`) whose
//!   sources are all constants becomes `mov.T d, imm`, computed at the
//!   type's width (two's complement; signed or unsigned per the type).
//! * Identities: `x+0`, `x-0`, `x|0`, `x^0`, `x<<0`, `x>>0`, `x*1`, `x&~0`,
//!   `x&x`, `x|x`, `min/max(x,x)`, `selp x, x, p` give `x`; `x*0`, `x&0`,
//!   `x-x`, `x^x` give 0.
//!
//! Guarded instructions and floating-point types are left alone.
//!
//! Guarantees: preserves the CFG; idempotent (a fixed point is reached).
//!
//! ```text
//! before:                              after:
//!   mov.u32  %r1, 6;                     mov.u32  %r3, 42;
//!   mul.lo.s32 %r2, %r1, 7;
//!   add.s32  %r3, %r2, 0;
//! ```

use crate::{AnalysisManager, Pass, Preserved};
use ptx_ir::{CmpOp, Function, Imm, Inst, Mod, Opcode, Operand, Type, Value};
use rustc_hash::FxHashMap;
use smallvec::smallvec;

/// The pass.
pub struct ConstFold;

/// All ones in the low `bits` bits.
pub(crate) fn mask(bits: u32) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    }
}

/// `v`'s low `bits` bits, sign-extended.
pub(crate) fn sext(v: u64, bits: u32) -> i64 {
    if bits >= 64 {
        v as i64
    } else {
        let s = 64 - bits;
        ((v << s) as i64) >> s
    }
}

/// What an instruction reduces to.
enum Fold {
    Const(u64),
    Copy(Value),
}

fn int_type(f: &Function, i: Inst) -> Option<Type> {
    let t = f.op(i).last_type()?;
    (t.is_integer() && t.bits() <= 64).then_some(t)
}

fn fold(f: &Function, i: Inst, consts: &FxHashMap<Value, u64>) -> Option<Fold> {
    let d = f.inst(i);
    if d.guard.is_some() || !d.ties.is_empty() || d.results.len() != 1 {
        return None;
    }
    let info = f.op(i);
    let op = info.opcode;
    if op == Opcode::Selp {
        let (a, b) = (d.operands.get(1)?, d.operands.get(2)?);
        return match (a, b) {
            (Operand::Value(x), Operand::Value(y)) if x == y => Some(Fold::Copy(*x)),
            _ => None,
        };
    }
    let ty = int_type(f, i)?;
    let bits = ty.bits();
    let m = mask(bits);
    let val = |o: &Operand| -> Option<u64> {
        match o {
            Operand::Imm(imm) if imm.is_int() => Some(imm.bits & m),
            Operand::Value(v) => consts.get(v).map(|c| c & m),
            _ => None,
        }
    };
    let reg = |o: &Operand| o.as_value();
    let signed = ty.is_signed();
    let result = d.results[0];
    let same_class =
        |x: Value| f.dfg.value_type(x).reg_class() == f.dfg.value_type(result).reg_class();
    match op {
        Opcode::Not | Opcode::Neg | Opcode::Cnot | Opcode::Abs => {
            let a = val(d.operands.get(1)?)?;
            let r = match op {
                Opcode::Not => !a,
                Opcode::Neg => a.wrapping_neg(),
                Opcode::Cnot => (a == 0) as u64,
                _ if signed => sext(a, bits).unsigned_abs(),
                _ => return None,
            };
            Some(Fold::Const(r & m))
        }
        Opcode::Add
        | Opcode::Sub
        | Opcode::Mul
        | Opcode::And
        | Opcode::Or
        | Opcode::Xor
        | Opcode::Shl
        | Opcode::Shr
        | Opcode::Min
        | Opcode::Max => {
            // `.lo` reads as the comparison operator of the same name.
            let lo = info
                .mods
                .iter()
                .any(|m| matches!(m, Mod::Cmp(CmpOp::Lo)) || f.ops.is_word(*m, "lo"));
            if op == Opcode::Mul && !lo {
                return None;
            }
            if matches!(op, Opcode::Add | Opcode::Sub)
                && info
                    .mods
                    .iter()
                    .any(|m| matches!(m, Mod::Word(_)) && !f.ops.is_word(*m, "lo"))
            {
                // `.cc`, `.sat` and the like change the result.
                return None;
            }
            let (a, b) = (d.operands.get(1)?, d.operands.get(2)?);
            let (ca, cb) = (val(a), val(b));
            if let (Some(x), Some(y)) = (ca, cb) {
                let r = match op {
                    Opcode::Add => x.wrapping_add(y),
                    Opcode::Sub => x.wrapping_sub(y),
                    Opcode::Mul => x.wrapping_mul(y),
                    Opcode::And => x & y,
                    Opcode::Or => x | y,
                    Opcode::Xor => x ^ y,
                    Opcode::Shl => {
                        if y >= bits as u64 {
                            0
                        } else {
                            x << y
                        }
                    }
                    Opcode::Shr if signed => {
                        let s = y.min(bits as u64 - 1);
                        (sext(x, bits) >> s) as u64
                    }
                    Opcode::Shr => {
                        if y >= bits as u64 {
                            0
                        } else {
                            x >> y
                        }
                    }
                    Opcode::Min if signed => {
                        if sext(x, bits) <= sext(y, bits) {
                            x
                        } else {
                            y
                        }
                    }
                    Opcode::Max if signed => {
                        if sext(x, bits) >= sext(y, bits) {
                            x
                        } else {
                            y
                        }
                    }
                    Opcode::Min => x.min(y),
                    _ => x.max(y),
                };
                return Some(Fold::Const(r & m));
            }
            // Identities.
            let commutative = matches!(
                op,
                Opcode::Add
                    | Opcode::Mul
                    | Opcode::And
                    | Opcode::Or
                    | Opcode::Xor
                    | Opcode::Min
                    | Opcode::Max
            );
            if let (Some(x), Some(y)) = (reg(a), reg(b)) {
                if x == y {
                    return match op {
                        Opcode::Sub | Opcode::Xor => Some(Fold::Const(0)),
                        Opcode::And | Opcode::Or | Opcode::Min | Opcode::Max if same_class(x) => {
                            Some(Fold::Copy(x))
                        }
                        _ => None,
                    };
                }
            }
            let pairs: &[(&Operand, Option<u64>)] = if commutative {
                &[(a, cb), (b, ca)]
            } else {
                &[(a, cb)]
            };
            for &(x, c) in pairs {
                let (Some(x), Some(c)) = (reg(x), c) else {
                    continue;
                };
                let id = match op {
                    Opcode::Add
                    | Opcode::Sub
                    | Opcode::Or
                    | Opcode::Xor
                    | Opcode::Shl
                    | Opcode::Shr => c == 0,
                    Opcode::Mul => c == 1,
                    Opcode::And => c == m,
                    _ => false,
                };
                if id && same_class(x) {
                    return Some(Fold::Copy(x));
                }
                if (op == Opcode::Mul || op == Opcode::And) && c == 0 {
                    return Some(Fold::Const(0));
                }
            }
            None
        }
        _ => None,
    }
}

/// Source positions of `op` that accept an immediate.
fn imm_positions(op: Opcode) -> &'static [usize] {
    match op {
        Opcode::Add
        | Opcode::Sub
        | Opcode::Mul
        | Opcode::And
        | Opcode::Or
        | Opcode::Xor
        | Opcode::Shl
        | Opcode::Shr
        | Opcode::Min
        | Opcode::Max
        | Opcode::Setp => &[1, 2],
        _ => &[],
    }
}

impl Pass for ConstFold {
    fn name(&self) -> &'static str {
        "const-fold"
    }

    fn run(&mut self, f: &mut Function, _am: &mut AnalysisManager) -> Preserved {
        let mut changed = false;
        loop {
            let blocks: Vec<_> = f.layout.blocks().collect();
            // Constants: unguarded integer moves of immediates.
            let mut consts: FxHashMap<Value, u64> = FxHashMap::default();
            for &b in &blocks {
                for i in f.layout.block_insts(b) {
                    let d = f.inst(i);
                    if f.op(i).opcode != Opcode::Mov
                        || d.guard.is_some()
                        || !d.ties.is_empty()
                        || int_type(f, i).is_none()
                    {
                        continue;
                    }
                    if let (Some(Operand::Value(r)), Some(Operand::Imm(imm))) =
                        (d.operands.first(), d.operands.get(1))
                    {
                        if imm.is_int() && d.results.as_slice() == [*r] {
                            consts.insert(*r, imm.bits);
                        }
                    }
                }
            }
            let mut round = false;
            let mut copies: FxHashMap<Value, Value> = FxHashMap::default();
            // Only the current instruction may leave the layout.
            crate::rewrite::for_each_inst(f, |f, i| {
                // Propagate constants into immediate-taking sources.
                let op = f.op(i).opcode;
                let ty = int_type(f, i);
                if ty.is_some() && f.inst(i).guard.is_none() {
                    for &k in imm_positions(op) {
                        if let Some(Operand::Value(v)) = f.inst(i).operands.get(k) {
                            if let Some(&c) = consts.get(v) {
                                let bits = ty.map_or(64, |t| t.bits());
                                let v = if ty.is_some_and(|t| t.is_signed()) {
                                    sext(c & mask(bits), bits)
                                } else {
                                    (c & mask(bits)) as i64
                                };
                                f.dfg.insts[i].operands[k] = Operand::Imm(Imm::int(v));
                                round = true;
                            }
                        }
                    }
                }
                match fold(f, i, &consts) {
                    Some(Fold::Const(c)) => {
                        let ty = int_type(f, i).expect("integer");
                        let r = f.inst(i).results[0];
                        let v = if ty.is_signed() {
                            sext(c, ty.bits())
                        } else {
                            c as i64
                        };
                        let mov = f.ops.intern(Opcode::Mov, &[Mod::Type(ty)]);
                        let d = &mut f.dfg.insts[i];
                        d.op = mov;
                        d.operands = smallvec![Operand::Value(r), Operand::Imm(Imm::int(v))];
                        consts.insert(r, c);
                        round = true;
                    }
                    Some(Fold::Copy(x)) => {
                        copies.insert(f.inst(i).results[0], x);
                        f.layout.remove_inst(i);
                        round = true;
                    }
                    None => {}
                }
            });
            crate::rewrite::replace_all_uses(f, &copies);
            tracing::debug!(target: "const-fold", function = %f.name, folded = copies.len(), changed = round, "round");
            if !round {
                break;
            }
            changed = true;
        }
        if changed {
            Preserved::Cfg
        } else {
            Preserved::All
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(body: &str) -> String {
        crate::testing::run_in_kernel(body, None, &mut [&mut ConstFold, &mut crate::dce::Dce])
    }

    #[test]
    fn folds_chains_at_the_type_width() {
        let out = run(".reg .b32 %r<6>;\n.reg .b16 %rs<3>;\n.reg .b64 %rd<2>;\nld.param.u64 %rd1, [p];\nmov.u32 %r1, 6;\n\
                       mul.lo.s32 %r2, %r1, 7;\nadd.s32 %r3, %r2, 0;\nst.global.u32 [%rd1], %r3;\n\
                       mov.u16 %rs1, 65535;\nadd.s16 %rs2, %rs1, 2;\nst.global.u16 [%rd1], %rs2;\n\
                       mov.u32 %r4, -8;\nshr.s32 %r5, %r4, 1;\nst.global.u32 [%rd1], %r5;\nret;");
        assert!(
            out.contains("st.global.u32 \t[%rd1], %r") && out.contains(", 42;"),
            "{out}"
        );
        assert!(out.contains(", 1;"), "16-bit wrap: {out}");
        assert!(out.contains(", -4;"), "arithmetic shift: {out}");
        assert!(!out.contains("mul.lo"), "{out}");
    }

    #[test]
    fn applies_identities_and_keeps_guarded_code() {
        let out = run(".reg .pred %p<2>;\n.reg .b32 %r<8>;\n.reg .b64 %rd<2>;\nld.param.u64 %rd1, [p];\nmov.u32 %r1, %tid.x;\n\
                       and.b32 %r2, %r1, -1;\nor.b32 %r3, %r2, 0;\nxor.b32 %r4, %r3, %r3;\nst.global.u32 [%rd1], %r3;\n\
                       st.global.u32 [%rd1], %r4;\nsetp.eq.u32 %p1, %r1, 0;\n@%p1 add.s32 %r5, %r1, 0;\nst.global.u32 [%rd1], %r5;\nret;");
        assert!(
            !out.contains("and.b32") && !out.contains("or.b32") && !out.contains("xor.b32"),
            "{out}"
        );
        assert!(out.contains("@%p1 add.s32"), "{out}");
    }
}
