//! Where the copies of a CFG edge run.
//!
//! An edge's parallel copy must run after its source block has decided to
//! take it and before its target starts. In order of preference:
//!
//! 1. **End of the predecessor** when the terminator has that one target:
//!    before the branch (the copies must not overwrite what the branch
//!    reads, its guard or index).
//! 2. **Top of the successor** when this edge is its only way in.
//! 3. **End of the predecessor** on a critical edge, when running the copies
//!    on every way out is harmless: no register they write holds a value
//!    live into another successor, an argument of another edge, or what
//!    another edge's copies placed there write, nor what the branch reads.
//!    This is where compilers put the `mov`s of a loop's back edge. Copies
//!    another edge already makes there are not made twice.
//! 4. **A block of its own**: the taken edge of a guarded `bra` goes through
//!    a trampoline (a new label, the copies, `bra.uni`); the fall-through
//!    edge of a guarded terminator runs them after it.
//!
//! The table edges of `brx.idx` cannot be split; when neither 2 nor 3
//! applies their copies run before the `brx` anyway (see `docs/ir.md`).

use super::interference::Interference;
use super::{Copy, Reg};
use crate::function::Function;
use crate::op::Opcode;
use crate::{Block, Inst, Value};
use rustc_hash::FxHashSet;

/// Where one edge's copies go.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Place {
    /// Before the terminator of the predecessor.
    BeforeTerminator,
    /// At the top of the successor.
    TopOfSuccessor,
    /// In a block of their own (trampoline or after the terminator).
    Split,
}

/// Decides the places of the edges of `term` (the terminator of `pred`)
/// that need copies: `parallel[k]` holds edge `k`'s parallel copy (empty:
/// none needed). Returns each edge's place and the copies to run there: a
/// copy that an edge placed before the terminator already makes is not
/// made again for another edge (two ways out that need the same copies
/// share them).
pub(super) fn place_edges(
    ix: &Interference,
    reg: &impl Fn(Value) -> Reg,
    pred: Block,
    term: Inst,
    parallel: &[Vec<Copy>],
) -> Vec<(Place, Vec<Copy>)> {
    let func = ix.func();
    let d = &func.dfg.insts[term];
    let mut places: Vec<(Place, Vec<Copy>)> =
        parallel.iter().map(|c| (Place::Split, c.clone())).collect();
    let reads = terminator_reads(func, term, reg);
    // First the places that need no look at the other edges.
    let mut open: Vec<usize> = Vec::new();
    for (k, copies) in parallel.iter().enumerate() {
        if copies.is_empty() {
            continue;
        }
        let spares_branch = copies.iter().all(|c| !reads.contains(&c.dst));
        let target = d.targets[k].block;
        let only_way_in = ix.cfg.preds(target) == [pred]
            && d.targets.iter().filter(|t| t.block == target).count() == 1;
        places[k].0 = if d.targets.len() == 1 && spares_branch {
            Place::BeforeTerminator
        } else if only_way_in {
            Place::TopOfSuccessor
        } else {
            open.push(k);
            Place::Split
        };
    }
    // Then critical edges: at the end of the predecessor if harmless.
    for &k in &open {
        // Copies another edge already makes before the terminator.
        let made: FxHashSet<Copy> = places
            .iter()
            .filter(|(p, _)| *p == Place::BeforeTerminator)
            .flat_map(|(_, c)| c.iter().copied())
            .collect();
        let rest: Vec<Copy> = parallel[k]
            .iter()
            .copied()
            .filter(|c| !made.contains(c))
            .collect();
        let mut kept: FxHashSet<Reg> = reads.clone();
        for (j, t) in d.targets.iter().enumerate() {
            if j == k {
                continue;
            }
            ix.live.for_each_live_in(t.block, |v| {
                kept.insert(reg(v));
            });
            kept.extend(t.args.iter().map(|&a| reg(a)));
            if places[j].0 == Place::BeforeTerminator {
                kept.extend(places[j].1.iter().map(|c| c.dst));
            }
        }
        let harmless = rest.iter().all(|c| !kept.contains(&c.dst));
        let table_edge =
            func.op(term).opcode == Opcode::Brx && !(d.guard.is_some() && k + 1 == d.targets.len());
        if harmless || table_edge {
            places[k] = (Place::BeforeTerminator, rest);
        }
    }
    places
}

/// The registers the terminator reads (its guard, a `brx` index).
fn terminator_reads(func: &Function, term: Inst, reg: &impl Fn(Value) -> Reg) -> FxHashSet<Reg> {
    let d = &func.dfg.insts[term];
    let mut reads = FxHashSet::default();
    if let Some(g) = d.guard {
        reads.insert(reg(g.pred));
    }
    for o in &d.operands {
        o.for_each_value(&mut |v| {
            reads.insert(reg(v));
        });
    }
    reads
}
