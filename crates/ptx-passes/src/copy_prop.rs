//! `copy-prop`: copy propagation.
//!
//! An unguarded `mov` from one register to another of the same register
//! class is deleted and its result replaced by its source.
//! Moves between classes (`mov.b32 %f1, %r1`) stay: an operand's class must
//! fit its instruction, so a `.b32` value cannot stand in for a `.f32` one
//! everywhere.
//!
//! Reads by instructions (operands, guards) are propagated; a copy that
//! feeds a branch argument or a tie stays for that use, since the block
//! parameter or tied result it feeds lives in the copy's register: leaving
//! SSA would otherwise put the `mov` back on the edges, possibly in a block
//! of its own. ptxas removes such copies itself.
//!
//! Only copies whose source register is written once are propagated (its
//! value is the only one of that source register, or it has none): the
//! source then lives on in its own register wherever the copy was read,
//! and leaving SSA needs no copy back. Propagating a copy of a register
//! written again (a loop-carried value, `mov %r14, %r15` before `%r15` is
//! recomputed) would stretch the old value over the new one's, and leaving
//! SSA would put the copy back on the loop's edges, where ptxas does not
//! recover from it.
//!
//! On a debug target (`nvcc -G`) ptxas assigns registers by the PTX
//! register numbers, so a deleted copy whose source was read only by it
//! hands the source its own register (`mov.u32 %r23, -1; mov.b32 %r3,
//! %r23` prints as `mov.u32 %r3, -1`): the variable keeps the register
//! nvcc gave it, as if the temporary had never been (with `%r23` kept,
//! ptxas `-G` took one register more on the corpus's CRC-32).
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

    fn run(&mut self, f: &mut Function, am: &mut AnalysisManager) -> Preserved {
        let debug = am.target.is_some_and(|t| t.debug);
        // How many values each source register (hint and class) holds.
        let mut written: rustc_hash::FxHashMap<(u32, ptx_ir::Type), u32> =
            rustc_hash::FxHashMap::default();
        for v in f.dfg.values.keys() {
            let d = &f.dfg.values[v];
            if let (Some(h), false) = (d.hint, matches!(d.def, ptx_ir::ValueDef::Undef)) {
                *written.entry((h, d.ty.reg_class())).or_insert(0) += 1;
            }
        }
        let written_once = |v: Value| {
            let d = &f.dfg.values[v];
            d.hint
                .is_none_or(|h| written.get(&(h, d.ty.reg_class())).copied().unwrap_or(0) <= 1)
        };
        // Collect copies first: dst → src, resolved through chains.
        // Each copy, and whether its destination register holds no other
        // value.
        let mut copies: Vec<(ptx_ir::Inst, Value, Value, bool)> = Vec::new();
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
                if same_class && d.results.as_slice() == [*dst] && written_once(*src) {
                    copies.push((i, *dst, *src, written_once(*dst)));
                }
            }
        }
        tracing::debug!(target: "copy-prop", function = %f.name, copies = copies.len(), "propagating");
        if copies.is_empty() {
            return Preserved::All;
        }
        let mut map: rustc_hash::FxHashMap<Value, Value> = rustc_hash::FxHashMap::default();
        for &(_, dst, src, _) in &copies {
            map.insert(dst, src);
        }
        let resolve = |mut v: Value| {
            for _ in 0..=map.len() {
                match map.get(&v) {
                    Some(&x) => v = x,
                    None => break,
                }
            }
            v
        };
        // Operands and guards read the source; branch arguments and ties
        // keep the copy, whose register is the one the parameter or tied
        // result lives in.
        // Readers as they were, before the copies' readers move over.
        let readers = if debug { Some(f.uses()) } else { None };
        let mut changed = false;
        let mut still_read: rustc_hash::FxHashSet<Value> = rustc_hash::FxHashSet::default();
        crate::rewrite::for_each_inst(f, |f, i| {
            let d = &mut f.dfg.insts[i];
            if let Some(g) = &mut d.guard {
                let r = resolve(g.pred);
                changed |= r != g.pred;
                g.pred = r;
            }
            let results = &d.results;
            for o in d.operands.iter_mut() {
                o.for_each_value_mut(&mut |v| {
                    if !results.contains(v) {
                        let r = resolve(*v);
                        changed |= r != *v;
                        *v = r;
                    }
                });
            }
            for &v in d
                .ties
                .iter()
                .chain(d.targets.iter().flat_map(|t| t.args.iter()))
            {
                if map.contains_key(&v) {
                    still_read.insert(v);
                }
            }
        });
        for &(i, dst, src, once) in &copies {
            if !still_read.contains(&dst) {
                f.layout.remove_inst(i);
                changed = true;
                if let (Some(readers), true) = (&readers, once) {
                    inherit_register(f, readers, &map, dst, src);
                }
            }
        }
        if changed {
            Preserved::Cfg
        } else {
            Preserved::All
        }
    }
}

/// Under a debug target: `src`, read only by the deleted copy into `dst`,
/// takes `dst`'s source register (which holds no other value) when `src`
/// is an instruction's result, not itself a copy's.
fn inherit_register(
    f: &mut Function,
    readers: &ptx_ir::entity::SecondaryMap<Value, smallvec::SmallVec<[ptx_ir::Inst; 2]>>,
    copies: &rustc_hash::FxHashMap<Value, Value>,
    dst: Value,
    src: Value,
) {
    let hint = f.dfg.values[dst].hint;
    // A block parameter's register is its branch arguments' too: renaming
    // it alone would make leaving SSA copy on the edges.
    let result = matches!(f.dfg.values[src].def, ptx_ir::ValueDef::Result(..));
    if hint.is_none() || !result || readers[src].len() != 1 || copies.contains_key(&src) {
        return;
    }
    f.dfg.values[src].hint = hint;
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(body: &str) -> String {
        run_for(None, body)
    }

    fn run_for(target: Option<crate::TargetInfo>, body: &str) -> String {
        crate::testing::run_in_kernel(body, target, &mut [&mut CopyProp])
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

    #[test]
    fn a_debug_target_keeps_the_variables_register() {
        let debug = Some(crate::testing::DEBUG_SM80);
        let body = ".reg .b32 %r<24>;\n.reg .b64 %rd<2>;\nld.param.u64 %rd1, [p];\n\
                    mov.u32 %r23, -1;\nmov.b32 %r3, %r23;\nst.global.u32 [%rd1], %r3;\nret;";
        let out = run_for(debug, body);
        assert!(out.contains("mov.u32 \t%r3, -1;"), "{out}");
        assert!(!out.contains("%r23"), "{out}");
        let out = run(body);
        assert!(out.contains("mov.u32 \t%r23, -1;"), "{out}");
    }
}
