//! `cse`: common subexpression elimination by dominator-scoped value
//! numbering.
//!
//! Walking the dominator tree, an instruction without effects whose form,
//! guard, operands and tied values equal those of an instruction that
//! dominates it is deleted, and its results are replaced by the earlier
//! ones, unless the earlier one lies outside the innermost loop holding the
//! later one: its value would then be held across every iteration, where
//! ptxas recomputes it more cheaply than it keeps a register. 64-bit
//! integer arithmetic (addresses, which ptxas folds into memory accesses)
//! is merged within a block only. Loads are never merged (a store may lie between them), and neither
//! is anything with effects or that the IR keeps verbatim. Nor are `mov`s
//! of registers (copies), immediates, special registers or symbol
//! addresses: ptxas materialises constants where they are used, copies are
//! the business of `copy-prop` and leaving SSA, and one register held
//! across both uses costs more than the second `mov` (measured on real
//! nvcc output).
//!
//! For a debug target (`nvcc -G`) ptxas allocates registers without
//! optimising, so a longer live range is a register more. There a merge
//! happens only where the earlier value is live after the later
//! instruction anyway: the later result's range then rides on one that
//! already exists, and no point has more values live than before.
//!
//! Guarantees: preserves the CFG; idempotent.
//!
//! ```text
//! before:                              after:
//!   mul.lo.s32 %r3, %r1, %r2;            mul.lo.s32 %r3, %r1, %r2;
//!   mul.lo.s32 %r4, %r1, %r2;            add.s32    %r5, %r3, %r3;
//!   add.s32    %r5, %r3, %r4;
//! ```

use crate::{AnalysisManager, Pass, Preserved};
use ptx_ir::entity::SecondaryMap;
use ptx_ir::{Block, Function, Inst, Opcode, Operand, Value};
use rustc_hash::FxHashMap;
use smallvec::SmallVec;
use std::hash::{Hash, Hasher};

/// The pass.
pub struct Cse;

/// Whether `i` may be merged with an equal instruction at all.
fn candidate(f: &Function, i: Inst) -> bool {
    let info = f.op(i);
    if info.side_effects || info.opcode.is_terminator() || info.opcode == Opcode::Ld {
        return false;
    }
    let d = f.inst(i);
    if info.opcode == Opcode::Mov && copy_or_constant(d.operands.get(1)) {
        return false;
    }
    !d.operands.iter().any(|o| matches!(o, Operand::Pinned(..)))
}

/// Whether `i` computes a 64-bit integer (an address, in practice). ptxas
/// folds address arithmetic into the loads and stores that use it and
/// recomputes it where needed; holding one such value (a register pair)
/// across blocks instead cost instructions and registers on real code, so
/// these are merged within a block only.
fn address_arithmetic(f: &Function, i: Inst) -> bool {
    f.inst(i)
        .results
        .first()
        .is_some_and(|&r| f.dfg.value_type(r).reg_class() == ptx_ir::Type::B64)
}

/// Whether a `mov` source makes it a copy (a register) or a constant ptxas
/// materialises wherever it is needed (an immediate, a special register, a
/// symbol's address). Two copies of one value are the source's business
/// (`copy-prop`, leaving SSA); merging them, or two such constants, only
/// stretches one register across both uses and makes leaving SSA chain the
/// copies anew, which cost registers and instructions on real code.
fn copy_or_constant(src: Option<&Operand>) -> bool {
    matches!(
        src,
        Some(Operand::Value(_) | Operand::Imm(_) | Operand::Special(_) | Operand::Symbol(..))
    )
}

/// `v` as the key sees it: a result of the instruction becomes a
/// placeholder for its slot, so that only the inputs count.
fn slot(results: &[Value], v: Value) -> Value {
    match results.iter().position(|&r| r == v) {
        Some(k) => Value::from_u32(u32::MAX - k as u32),
        None => v,
    }
}

/// Whether `o` mentions one of `results`.
fn mentions(o: &Operand, results: &[Value]) -> bool {
    let mut hit = false;
    o.for_each_value(&mut |v| hit |= results.contains(&v));
    hit
}

/// `o` with its result values replaced by placeholders.
fn mapped(o: &Operand, results: &[Value]) -> Operand {
    let mut o = o.clone();
    o.for_each_value_mut(&mut |v| *v = slot(results, *v));
    o
}

/// The hash of the key of `i` (form, guard, operands with results as
/// placeholders, tied values), computed without building the key.
fn key_hash(f: &Function, i: Inst) -> u64 {
    let d = f.inst(i);
    let mut h = rustc_hash::FxHasher::default();
    d.op.hash(&mut h);
    d.guard.hash(&mut h);
    d.operands.len().hash(&mut h);
    for o in &d.operands {
        match o {
            Operand::Value(v) => Operand::Value(slot(&d.results, *v)).hash(&mut h),
            o if mentions(o, &d.results) => mapped(o, &d.results).hash(&mut h),
            o => o.hash(&mut h),
        }
    }
    d.ties.hash(&mut h);
    h.finish()
}

/// Whether `a` and `b` have equal keys.
fn same_key(f: &Function, a: Inst, b: Inst) -> bool {
    let (x, y) = (f.inst(a), f.inst(b));
    x.op == y.op
        && x.guard == y.guard
        && x.ties == y.ties
        && x.operands.len() == y.operands.len()
        && x.operands
            .iter()
            .zip(&y.operands)
            .all(|(p, q)| match (p, q) {
                (Operand::Value(v), Operand::Value(w)) => {
                    slot(&x.results, *v) == slot(&y.results, *w)
                }
                _ if mentions(p, &x.results) || mentions(q, &y.results) => {
                    mapped(p, &x.results) == mapped(q, &y.results)
                }
                _ => p == q,
            })
}

impl Pass for Cse {
    fn name(&self) -> &'static str {
        "cse"
    }

    fn run(&mut self, f: &mut Function, am: &mut AnalysisManager) -> Preserved {
        // The loops holding each block (headers, outermost first): a value
        // from outside a loop is not reused inside it.
        let mut loops_of: SecondaryMap<Block, SmallVec<[Block; 2]>> = SecondaryMap::new();
        for l in &am.loops(f).loops {
            for &b in &l.blocks {
                loops_of[b].push(l.header);
            }
        }
        let inside_innermost_loop_of = |prev: Block, dup: Block| match loops_of[dup].last() {
            None => true,
            Some(h) => loops_of[prev].contains(h),
        };
        let dt = am.domtree(f);
        let rpo: Vec<Block> = dt.rpo().to_vec();
        let mut children: SecondaryMap<Block, Vec<Block>> = SecondaryMap::new();
        for &b in &rpo {
            if let Some(d) = dt.idom(b) {
                children[d].push(b);
            }
        }
        let Some(entry) = f.layout.entry_block() else {
            return Preserved::All;
        };
        let debug = am.target.is_some_and(|t| t.debug);
        let live = if debug { Some(am.liveness(f)) } else { None };
        // Under `debug`: per value, the position of its last use in the
        // block being walked (uses as they were before the walk reached it).
        let mut last_use: FxHashMap<Value, u32> = FxHashMap::default();
        // Keys are hashed once; equal hashes are confirmed by comparing
        // the keys themselves.
        let mut table: FxHashMap<u64, SmallVec<[Inst; 1]>> = FxHashMap::default();
        let mut undo: Vec<u64> = Vec::new();
        let mut replace: FxHashMap<Value, Value> = FxHashMap::default();
        let mut dead: Vec<Inst> = Vec::new();
        enum Step {
            Enter(Block),
            Exit(usize),
        }
        let mut stack = vec![Step::Enter(entry)];
        while let Some(s) = stack.pop() {
            match s {
                Step::Exit(mark) => {
                    while undo.len() > mark {
                        let h = undo.pop().expect("non-empty");
                        if let Some(v) = table.get_mut(&h) {
                            v.pop();
                            if v.is_empty() {
                                table.remove(&h);
                            }
                        }
                    }
                }
                Step::Enter(b) => {
                    stack.push(Step::Exit(undo.len()));
                    if debug {
                        last_use.clear();
                        for (k, i) in f.layout.block_insts(b).enumerate() {
                            f.inst(i).for_each_use(|v| {
                                last_use.insert(v, k as u32);
                            });
                        }
                    }
                    // The layout does not change until the walk is over.
                    let mut cur = f.layout.first_inst(b);
                    let mut pos = 0u32;
                    while let Some(i) = cur {
                        cur = f.layout.next_inst(i);
                        let here = pos;
                        pos += 1;
                        rewrite_uses(f, i, &replace);
                        if !candidate(f, i) {
                            continue;
                        }
                        let h = key_hash(f, i);
                        let prev = table.get(&h).and_then(|c| {
                            c.iter().copied().find(|&p| {
                                same_key(f, p, i)
                                    && f.layout.inst_block(p).is_some_and(|pb| {
                                        pb == b
                                            || (!address_arithmetic(f, i)
                                                && inside_innermost_loop_of(pb, b))
                                    })
                                    && live.is_none_or(|live| {
                                        f.inst(p).results.iter().all(|&r| {
                                            last_use.get(&r).is_some_and(|&k| k > here)
                                                || live.is_live_out(b, r)
                                        })
                                    })
                            })
                        });
                        match prev {
                            Some(prev) => {
                                for (&r, &p) in f.inst(i).results.iter().zip(&f.inst(prev).results)
                                {
                                    replace.insert(r, p);
                                }
                                dead.push(i);
                            }
                            None => {
                                table.entry(h).or_default().push(i);
                                undo.push(h);
                            }
                        }
                    }
                    for &c in children[b].iter().rev() {
                        stack.push(Step::Enter(c));
                    }
                }
            }
        }
        tracing::debug!(target: "cse", function = %f.name, merged = dead.len(), "value numbering");
        if dead.is_empty() {
            return Preserved::All;
        }
        for i in dead {
            f.layout.remove_inst(i);
        }
        // Uses in blocks visited before their replacement was known (branch
        // arguments of back edges, unreachable blocks).
        crate::rewrite::for_each_inst(f, |f, i| rewrite_uses(f, i, &replace));
        Preserved::Cfg
    }
}

fn rewrite_uses(f: &mut Function, i: Inst, replace: &FxHashMap<Value, Value>) {
    if !replace.is_empty() {
        crate::rewrite::rewrite_inst_uses(f, i, |v| replace.get(&v).copied().unwrap_or(v));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(body: &str) -> String {
        run_for(None, body)
    }

    fn run_for(target: Option<crate::TargetInfo>, body: &str) -> String {
        crate::testing::run_in_kernel(body, target, &mut [&mut Cse])
    }

    #[test]
    fn merges_dominated_duplicates_not_loads() {
        let out = run(".reg .pred %p<2>;\n.reg .b32 %r<9>;\n.reg .b64 %rd<2>;\nld.param.u64 %rd1, [p];\n\
                       mov.u32 %r1, %tid.x;\nmul.lo.s32 %r2, %r1, 3;\nmul.lo.s32 %r3, %r1, 3;\n\
                       ld.global.u32 %r4, [%rd1];\nst.global.u32 [%rd1], %r2;\nld.global.u32 %r5, [%rd1];\n\
                       setp.eq.s32 %p1, %r1, 0;\n@%p1 bra L;\nmul.lo.s32 %r6, %r1, 3;\nst.global.u32 [%rd1], %r6;\n\
                       L:\nadd.s32 %r7, %r3, %r4;\nadd.s32 %r8, %r7, %r5;\nst.global.u32 [%rd1], %r8;\nret;");
        assert_eq!(out.matches("mul.lo.s32").count(), 1, "{out}");
        assert_eq!(out.matches("ld.global.u32").count(), 2, "{out}");
    }

    #[test]
    fn a_debug_target_merges_only_onto_a_value_still_live() {
        let debug = Some(crate::testing::DEBUG_SM80);
        // %r2 is dead after its store: reusing it for %r4 would stretch it
        // over the other store, a register more for ptxas -G.
        let dead = ".reg .b32 %r<9>;\n.reg .b64 %rd<2>;\nld.param.u64 %rd1, [p];\n\
                    mov.u32 %r1, %tid.x;\nmul.lo.s32 %r2, %r1, 3;\nst.global.u32 [%rd1], %r2;\n\
                    ld.global.u32 %r3, [%rd1+4];\nst.global.u32 [%rd1+8], %r3;\n\
                    mul.lo.s32 %r4, %r1, 3;\nst.global.u32 [%rd1+12], %r4;\nret;";
        assert_eq!(run_for(debug, dead).matches("mul.lo.s32").count(), 2);
        assert_eq!(run(dead).matches("mul.lo.s32").count(), 1);
        // Here %r2 is read after %r4 is computed: merging shortens a range.
        let live = ".reg .b32 %r<9>;\n.reg .b64 %rd<2>;\nld.param.u64 %rd1, [p];\n\
                    mov.u32 %r1, %tid.x;\nmul.lo.s32 %r2, %r1, 3;\nmul.lo.s32 %r4, %r1, 3;\n\
                    st.global.u32 [%rd1+12], %r4;\nst.global.u32 [%rd1], %r2;\nret;";
        assert_eq!(run_for(debug, live).matches("mul.lo.s32").count(), 1);
    }
}
