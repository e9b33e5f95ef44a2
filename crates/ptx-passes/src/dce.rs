//! `dce`: dead code elimination.
//!
//! Deletes instructions without effects whose results nothing live reads,
//! and block parameters nothing live reads (with the arguments branches
//! pass them). Liveness is marked from the instructions that must stay, so
//! values that only feed each other around a loop die as well.
//!
//! Kept always: terminators, stores, calls, barriers, warp collectives,
//! ordered loads and every instruction the IR does not model (their
//! [`ptx_ir::OpInfo::side_effects`]), and instructions writing registers
//! kept out of SSA (vector registers).
//!
//! Guarantees: preserves the CFG; idempotent.
//!
//! ```text
//! before:                              after:
//!   add.s32  %r2, %r1, 1;                add.s32  %r3, %r1, 2;
//!   add.s32  %r3, %r1, 2;                st.global.u32 [%rd1], %r3;
//!   st.global.u32 [%rd1], %r3;
//! ```

use crate::{AnalysisManager, Pass, Preserved};
use ptx_ir::entity::SecondaryMap;
use ptx_ir::{Function, Inst, Operand, Value, ValueDef};

/// The pass.
pub struct Dce;

fn removable(f: &Function, i: Inst) -> bool {
    let info = f.op(i);
    !info.side_effects
        && !info.opcode.is_terminator()
        && !f
            .inst(i)
            .operands
            .iter()
            .any(|o| matches!(o, Operand::Pinned(..)))
}

impl Pass for Dce {
    fn name(&self) -> &'static str {
        "dce"
    }

    fn run(&mut self, f: &mut Function, _am: &mut AnalysisManager) -> Preserved {
        // Mark and sweep, so that values only feeding each other around a
        // loop (a parameter and the argument computed from it) die too.
        let blocks: Vec<ptx_ir::Block> = f.layout.blocks().collect();
        let mut live_inst: SecondaryMap<Inst, bool> = SecondaryMap::new();
        let mut live_val: SecondaryMap<Value, bool> = SecondaryMap::new();
        live_inst.reserve(f.dfg.insts.len());
        live_val.reserve(f.dfg.values.len());
        let mut work: Vec<Value> = Vec::new();
        // Where each block's arguments come from: (terminator, target index).
        let mut incoming: SecondaryMap<ptx_ir::Block, Vec<(Inst, usize)>> = SecondaryMap::new();
        let mark_uses = |i: Inst,
                         f: &Function,
                         work: &mut Vec<Value>,
                         live_val: &mut SecondaryMap<Value, bool>| {
            let d = f.inst(i);
            let results = &d.results;
            let mut push = |v: Value| {
                if !live_val[v] {
                    live_val[v] = true;
                    work.push(v);
                }
            };
            if let Some(g) = d.guard {
                push(g.pred);
            }
            for o in &d.operands {
                o.for_each_value(&mut |v| {
                    if !results.contains(&v) {
                        push(v)
                    }
                });
            }
            for &t in &d.ties {
                push(t);
            }
        };
        for &b in &blocks {
            for i in f.layout.block_insts(b) {
                for (k, t) in f.inst(i).targets.iter().enumerate() {
                    incoming[t.block].push((i, k));
                }
                if !removable(f, i) {
                    live_inst[i] = true;
                    mark_uses(i, f, &mut work, &mut live_val);
                }
            }
        }
        while let Some(v) = work.pop() {
            match f.dfg.values[v].def {
                ValueDef::Result(i, _) => {
                    if !live_inst[i] {
                        live_inst[i] = true;
                        mark_uses(i, f, &mut work, &mut live_val);
                    }
                }
                ValueDef::Param(b, k) => {
                    for &(t, n) in &incoming[b] {
                        let a = f.inst(t).targets[n].args[k as usize];
                        if !live_val[a] {
                            live_val[a] = true;
                            work.push(a);
                        }
                    }
                }
                ValueDef::Undef => {}
            }
        }
        let mut changed = false;
        let mut dead_params: Vec<(ptx_ir::Block, usize)> = Vec::new();
        for &b in &blocks {
            for (k, &p) in f.dfg.blocks[b].params.iter().enumerate() {
                if !live_val[p] {
                    dead_params.push((b, k));
                }
            }
        }
        crate::rewrite::for_each_inst(f, |f, i| {
            if !live_inst[i] {
                f.layout.remove_inst(i);
                changed = true;
            }
        });
        tracing::debug!(target: "dce", function = %f.name, parameters = dead_params.len(), "removing dead code");
        changed |= !dead_params.is_empty();
        remove_params(f, dead_params);
        if changed {
            Preserved::Cfg
        } else {
            Preserved::All
        }
    }
}

/// Removes parameters `(block, index)` and the matching branch arguments.
fn remove_params(f: &mut Function, mut dead: Vec<(ptx_ir::Block, usize)>) {
    if dead.is_empty() {
        return;
    }
    // Highest index first so earlier indices stay valid.
    dead.sort_by_key(|d| std::cmp::Reverse(d.1));
    for &(b, k) in &dead {
        f.dfg.blocks[b].params.remove(k);
    }
    crate::rewrite::for_each_inst(f, |f, i| {
        for t in &mut f.dfg.insts[i].targets {
            for &(db, k) in &dead {
                if t.block == db && k < t.args.len() {
                    t.args.remove(k);
                }
            }
        }
    });
    // Renumber the remaining parameters' definitions.
    let touched: Vec<ptx_ir::Block> = dead.iter().map(|d| d.0).collect();
    for b in touched {
        let params = f.dfg.blocks[b].params.clone();
        for (k, p) in params.into_iter().enumerate() {
            f.dfg.values[p].def = ptx_ir::ValueDef::Param(b, k as u16);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(src: &str) -> String {
        let full = format!(".version 7.0\n.target sm_80\n.address_size 64\n{src}");
        let mut m = ptx_parse::parse_module(&full).unwrap();
        for f in m.functions_mut() {
            Dce.run(f, &mut AnalysisManager::new());
            assert!(ptx_ir::verify::verify_function(f).is_empty());
        }
        ptx_ir::write::module_to_string(&m)
    }

    #[test]
    fn removes_unused_chains_and_keeps_effects() {
        let out = run(".visible .entry k(.param .u64 p)\n{\n.reg .b32 %r<5>;\n.reg .b64 %rd<2>;\n\
                       ld.param.u64 %rd1, [p];\nmov.u32 %r1, %tid.x;\nadd.s32 %r2, %r1, 1;\nmul.lo.s32 %r3, %r2, 2;\n\
                       atom.global.add.u32 %r4, [%rd1], 1;\nst.global.u32 [%rd1], %r1;\nret;\n}\n");
        assert!(!out.contains("add.s32") && !out.contains("mul.lo"), "{out}");
        assert!(out.contains("atom.global.add.u32"), "{out}");
        assert!(out.contains("st.global.u32"), "{out}");
    }

    #[test]
    fn removes_dead_loop_carried_parameters() {
        let out = run(".visible .entry k(.param .u32 n)\n{\n.reg .pred %p<2>;\n.reg .b32 %r<5>;\n\
                       ld.param.u32 %r1, [n];\nmov.u32 %r2, 0;\nmov.u32 %r3, 0;\nL:\nadd.s32 %r3, %r3, 5;\n\
                       add.s32 %r2, %r2, 1;\nsetp.lt.u32 %p1, %r2, %r1;\n@%p1 bra L;\nret;\n}\n");
        // %r3 is computed around the loop but never read outside it.
        assert!(!out.contains(", 5;"), "{out}");
        assert!(out.contains("add.s32"), "{out}");
    }

    #[test]
    fn keeps_writes_to_vector_registers() {
        let out = run(".visible .entry k()\n{\n.reg .v2 .b32 v;\nmov.b32 v.x, 1;\nret;\n}\n");
        assert!(out.contains("mov.b32 \tv.x, 1;"), "{out}");
    }
}
