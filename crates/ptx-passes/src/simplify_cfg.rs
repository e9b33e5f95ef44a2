//! `simplify-cfg`: tidy the control-flow graph.
//!
//! Repeats until nothing changes:
//! * blocks unreachable from the entry are deleted;
//! * a block whose only content is an unconditional jump (no parameters,
//!   not the entry) is bypassed: its predecessors branch straight to its
//!   target with its arguments, and it is deleted;
//! * a block with one successor whose only predecessor it is (and that no
//!   `.branchtargets` list names) absorbs that successor.
//!
//! `simplify-cfg<keep-loops>` does not bypass blocks that are the target of
//! a back edge's jump (so loop shapes stay as written).
//!
//! Blocks whose labels something outside the function's branches names
//! keep their labels and places (they are neither bypassed, absorbed nor,
//! if unreachable, deleted): labels spelled as LLVM and NVVM spell the
//! ones their debug sections name (`$L__tmp3`, `$L__func_begin0`,
//! `Ltmp3`, `Lfunc_end0`, …: those sections come after the functions, so
//! they cannot be read first), and labels a `.branchtargets` list names.
//!
//! Guarantees: the function verifies; idempotent.
//!
//! ```text
//! before:                              after:
//!   bra.uni  L1;                         add.s32  %r2, %r1, 1;
//! L1:                                    ret;
//!   add.s32  %r2, %r1, 1;
//!   ret;
//! ```

use crate::{AnalysisManager, Pass, Preserved};
use ptx_ir::{Block, ControlFlowGraph, DominatorTree, Function, Inst, Opcode, Value, ValueDef};
use rustc_hash::FxHashMap;

/// The pass.
pub struct SimplifyCfg {
    /// Keep blocks that loops jump back to.
    pub keep_loops: bool,
}

fn is_jump(f: &Function, i: Inst) -> bool {
    let d = f.inst(i);
    matches!(f.op(i).opcode, Opcode::Jump | Opcode::Bra)
        && d.guard.is_none()
        && d.targets.len() == 1
}

/// Whether `label` is spelled as the labels LLVM's NVPTX back end and NVVM
/// emit for debug sections to name: `$L__tmp3`, `$L__func_begin0`,
/// `$L__func_end0` (NVVM, newer LLVM) and `Ltmp3`, `Lfunc_begin0`,
/// `Lfunc_end0` (LLVM 14), with or without the `$`.
fn is_debug_label(label: &str) -> bool {
    let l = label.strip_prefix('$').unwrap_or(label);
    [
        "L__tmp",
        "L__func_begin",
        "L__func_end",
        "Ltmp",
        "Lfunc_begin",
        "Lfunc_end",
    ]
    .iter()
    .any(|p| {
        l.strip_prefix(p)
            .is_some_and(|n| !n.is_empty() && n.bytes().all(|c| c.is_ascii_digit()))
    })
}

/// Labels named by `.branchtargets` declarations.
fn table_labels(f: &Function) -> Vec<String> {
    f.decls
        .iter()
        .filter_map(|d| d.split_once(".branchtargets").map(|(_, l)| l))
        .flat_map(|l| l.split(',').map(|s| s.trim().to_string()))
        .collect()
}

impl Pass for SimplifyCfg {
    fn name(&self) -> &'static str {
        "simplify-cfg"
    }

    fn run(&mut self, f: &mut Function, am: &mut AnalysisManager) -> Preserved {
        let mut changed = false;
        let pinned = table_labels(f);
        // Blocks whose labels debug sections may name.
        let marked: rustc_hash::FxHashSet<Block> = f
            .layout
            .blocks()
            .filter(|b| {
                f.dfg.blocks[*b]
                    .label
                    .is_some_and(|l| is_debug_label(f.ops.word(l)))
            })
            .collect();
        // The first round reads the cached analyses (current on entry);
        // later rounds, after changes, compute their own.
        let mut fresh: Option<(ControlFlowGraph, DominatorTree)> = None;
        loop {
            if changed {
                let cfg = ControlFlowGraph::compute(f);
                let dt = DominatorTree::compute(f, &cfg);
                fresh = Some((cfg, dt));
            }
            let (cfg, dt) = match &fresh {
                Some((cfg, dt)) => (cfg, dt),
                None => am.cfg_domtree(f),
            };
            let Some(entry) = f.layout.entry_block() else {
                break;
            };
            let blocks: Vec<Block> = f.layout.blocks().collect();
            // Unreachable blocks.
            let dead: Vec<Block> = blocks
                .iter()
                .copied()
                .filter(|&b| !dt.is_reachable(b) && !marked.contains(&b))
                .collect();
            if !dead.is_empty() {
                for b in dead {
                    f.layout.remove_block(b);
                }
                changed = true;
                continue;
            }
            let named = |f: &Function, b: Block| {
                marked.contains(&b)
                    || f.dfg.blocks[b]
                        .label
                        .is_some_and(|l| pinned.iter().any(|p| p == f.ops.word(l)))
            };
            // Bypass empty forwarding blocks, then merge chains. Blocks whose
            // predecessors changed this round wait for the next one.
            let mut did = false;
            let mut dirty: rustc_hash::FxHashSet<Block> = rustc_hash::FxHashSet::default();
            for &b in &blocks {
                if b == entry
                    || dirty.contains(&b)
                    || !f.dfg.blocks[b].params.is_empty()
                    || named(f, b)
                {
                    continue;
                }
                let Some(first) = f.layout.first_inst(b) else {
                    continue;
                };
                if f.layout.last_inst(b) != Some(first) || !is_jump(f, first) {
                    continue;
                }
                let target = f.inst(first).targets[0].clone();
                if target.block == b || dirty.contains(&target.block) {
                    continue;
                }
                if self.keep_loops && dt.dominates(target.block, b) {
                    continue;
                }
                let preds: Vec<Block> = cfg.preds(b).to_vec();
                let brx = preds.iter().any(|&p| {
                    f.layout
                        .last_inst(p)
                        .is_some_and(|t| f.op(t).opcode == Opcode::Brx)
                });
                if brx || preds.iter().any(|p| dirty.contains(p)) {
                    continue;
                }
                for &p in &preds {
                    let t = f.layout.last_inst(p).expect("terminator");
                    for call in &mut f.dfg.insts[t].targets {
                        if call.block == b {
                            *call = target.clone();
                        }
                    }
                    dirty.insert(p);
                }
                dirty.insert(target.block);
                dirty.insert(b);
                f.layout.remove_block(b);
                did = true;
            }
            // Merge a block into its only predecessor.
            let mut replaced: FxHashMap<Value, Value> = FxHashMap::default();
            for &b in &blocks {
                if dirty.contains(&b) || !f.layout.is_block_inserted(b) {
                    continue;
                }
                let Some(t) = f.layout.last_inst(b) else {
                    continue;
                };
                if !is_jump(f, t) {
                    continue;
                }
                let s = f.inst(t).targets[0].block;
                if s == b
                    || s == entry
                    || dirty.contains(&s)
                    || cfg.preds(s).len() != 1
                    || named(f, s)
                {
                    continue;
                }
                let args = f.inst(t).targets[0].args.clone();
                let params = f.dfg.blocks[s].params.clone();
                for (&p, &a) in params.iter().zip(&args) {
                    replaced.insert(p, a);
                }
                f.layout.remove_inst(t);
                let moved: Vec<Inst> = f.layout.block_insts(s).collect();
                for i in moved {
                    f.layout.remove_inst(i);
                    f.layout.append_inst(i, b);
                }
                f.dfg.blocks[s].params.clear();
                for &p in &params {
                    f.dfg.values[p].def = ValueDef::Undef;
                }
                // The absorbed block's successors now have `b` as predecessor.
                for &succ in cfg.succs(s) {
                    dirty.insert(succ);
                }
                dirty.insert(b);
                dirty.insert(s);
                f.layout.remove_block(s);
                did = true;
            }
            // Parameters may stand for other replaced parameters.
            crate::rewrite::replace_all_uses(f, &replaced);
            tracing::debug!(target: "simplify-cfg", function = %f.name, changed = did, "round");
            if !did {
                break;
            }
            changed = true;
        }
        if changed {
            Preserved::None
        } else {
            Preserved::All
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(body: &str) -> String {
        let full = format!(".version 7.0\n.target sm_80\n.address_size 64\n.visible .entry k(.param .u64 p)\n{{\n{body}\n}}\n");
        let mut m = ptx_parse::parse_module(&full).unwrap();
        for f in m.functions_mut() {
            SimplifyCfg { keep_loops: false }.run(f, &mut AnalysisManager::new());
            assert!(
                ptx_ir::verify::verify_function(f).is_empty(),
                "{:?}",
                ptx_ir::verify::verify_function(f)
            );
        }
        ptx_ir::write::module_to_string(&m)
    }

    #[test]
    fn keeps_the_labels_debug_sections_name() {
        // `$L__tmp1` and `Ltmp2` are named from .debug_loc-style sections
        // the function cannot see; `L3` is an ordinary label and goes.
        let out = run(
            ".reg .b32 %r<4>;\nmov.u32 %r1, %tid.x;\nbra.uni $L__tmp1;\n$L__tmp1:\n\
                       add.s32 %r2, %r1, 1;\nLtmp2:\nadd.s32 %r3, %r2, 1;\nbra.uni L3;\nL3:\nret;",
        );
        assert!(out.contains("$L__tmp1:") && out.contains("Ltmp2:"), "{out}");
        assert!(!out.contains("L3"), "{out}");
    }

    #[test]
    fn merges_chains_and_drops_dead_blocks() {
        let out = run(".reg .b32 %r<4>;\n.reg .b64 %rd<2>;\nld.param.u64 %rd1, [p];\nmov.u32 %r1, %tid.x;\nbra.uni L1;\n\
                       add.s32 %r2, %r1, 5;\nL1:\nadd.s32 %r3, %r1, 1;\nbra.uni L2;\nL2:\nst.global.u32 [%rd1], %r3;\nret;");
        assert!(!out.contains("bra"), "{out}");
        assert!(!out.contains(", 5;"), "{out}");
        assert!(out.contains("st.global.u32"), "{out}");
    }

    #[test]
    fn keeps_real_branches() {
        let out = run(".reg .pred %p<2>;\n.reg .b32 %r<4>;\n.reg .b64 %rd<2>;\nld.param.u64 %rd1, [p];\nmov.u32 %r1, %tid.x;\n\
                       setp.eq.s32 %p1, %r1, 0;\n@%p1 bra L1;\nst.global.u32 [%rd1], %r1;\nL1:\nret;");
        assert!(out.contains("@%p1 bra"), "{out}");
    }
}
