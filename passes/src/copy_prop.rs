//! `copy-prop`: copy propagation.
//!
//! An unguarded `mov` from one register to another of the same register
//! class is deleted and its result replaced by its source everywhere.
//! Moves between classes (`mov.b32 %f1, %r1`) stay: an operand's class must
//! fit its instruction, so a `.b32` value cannot stand in for a `.f32` one
//! everywhere.
//!
//! Guarantees: preserves the CFG; idempotent.
//!
//! ```text
//! before:                              after:
//!   mov.u32  %r2, %r1;                   add.s32  %r3, %r1, 1;
//!   add.s32  %r3, %r2, 1;
//! ```

use crate::{AnalysisManager, Pass, Preserved};
use ptx_ir::{Function, Opcode, Operand, Value};

/// The pass.
pub struct CopyProp;

impl Pass for CopyProp {
    fn name(&self) -> &'static str {
        "copy-prop"
    }

    fn run(&mut self, f: &mut Function, _am: &mut AnalysisManager) -> Preserved {
        // Collect copies first: dst → src, resolved through chains.
        let mut copies: Vec<(ptx_ir::Inst, Value, Value)> = Vec::new();
        let blocks: Vec<_> = f.layout.blocks().collect();
        for &b in &blocks {
            for i in f.layout.block_insts(b) {
                let d = f.inst(i);
                if f.op(i).opcode != Opcode::Mov || d.guard.is_some() || !d.ties.is_empty() {
                    continue;
                }
                let (Some(Operand::Value(dst)), Some(Operand::Value(src))) =
                    (d.operands.first(), d.operands.get(1))
                else {
                    continue;
                };
                let same_class =
                    f.dfg.value_type(*dst).reg_class() == f.dfg.value_type(*src).reg_class();
                if same_class && d.results.as_slice() == [*dst] {
                    copies.push((i, *dst, *src));
                }
            }
        }
        tracing::debug!(target: "copy-prop", function = %f.name, copies = copies.len(), "propagating");
        if copies.is_empty() {
            return Preserved::All;
        }
        let mut map: rustc_hash::FxHashMap<Value, Value> = rustc_hash::FxHashMap::default();
        for &(_, dst, src) in &copies {
            map.insert(dst, src);
        }
        for &(i, _, _) in &copies {
            f.layout.remove_inst(i);
        }
        crate::rewrite::replace_all_uses(f, &map);
        Preserved::Cfg
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(body: &str) -> String {
        let full = format!(".version 7.0\n.target sm_80\n.address_size 64\n.visible .entry k(.param .u64 p)\n{{\n{body}\n}}\n");
        let mut m = ptx_parse::parse_module(&full).unwrap();
        for f in m.functions_mut() {
            CopyProp.run(f, &mut AnalysisManager::new());
            assert!(ptx_ir::verify::verify_function(f).is_empty());
        }
        ptx_ir::write::module_to_string(&m)
    }

    #[test]
    fn forwards_chains_of_copies() {
        let out = run(
            ".reg .b32 %r<5>;\n.reg .b64 %rd<2>;\nld.param.u64 %rd1, [p];\nmov.u32 %r1, %tid.x;\n\
                       mov.u32 %r2, %r1;\nmov.b32 %r3, %r2;\nst.global.u32 [%rd1], %r3;\nret;",
        );
        assert!(out.contains("st.global.u32 \t[%rd1], %r1;"), "{out}");
        assert_eq!(out.matches("mov.").count(), 1, "{out}");
    }

    #[test]
    fn keeps_guarded_and_cross_class_moves() {
        let out = run(".reg .pred %p<2>;\n.reg .b32 %r<5>;\n.reg .f32 %f<3>;\n.reg .b64 %rd<2>;\nld.param.u64 %rd1, [p];\n\
                       mov.u32 %r1, %tid.x;\nsetp.eq.u32 %p1, %r1, 0;\nmov.u32 %r2, 7;\n@%p1 mov.u32 %r2, %r1;\n\
                       mov.b32 %f1, %r1;\nst.global.u32 [%rd1], %r2;\nst.global.f32 [%rd1], %f1;\nret;");
        assert!(out.contains("@%p1 mov.u32"), "{out}");
        assert!(out.contains("mov.b32 \t%f1, %r1;"), "{out}");
    }
}
