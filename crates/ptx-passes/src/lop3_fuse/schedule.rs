//! Placement of the rewritten logic: an instruction the pass wrote moves
//! to right before the first instruction of its block that reads it, when
//! that is at most [`MAX_DISTANCE`] instructions further down.
//!
//! Why: the cover is emitted where the original nodes were, so a lop3 may
//! sit far above its reader, and ptxas does not always undo that. On the
//! bit-sliced DES kernel of the real corpus, sm_120's ptxas gave the
//! fused kernel 62 registers where nvcc's own PTX takes 56; with the
//! lop3s next to their readers it takes 56, and the same 64 as before on
//! sm_75 … sm_90 (measured with ptxas 13.5). The distance bound keeps a
//! long chain (lop3s each reading a fresh `add`) from being gathered at
//! its end, which would keep every `add` live until then (a 400,000-line
//! block took minutes to leave SSA). A branch's block arguments do not
//! count as reads: a value carried into the next iteration stays where it
//! is computed (moved to the branch, it overlapped the value it replaces,
//! and leaving SSA added 16 copies to the DES loop).
//!
//! **Invariants.** Only unguarded instructions the pass wrote move, and
//! only later in their block (a reader always follows its definition), so
//! every value is still defined before it is read; movers read by a mover
//! come right before it, in operand order; every other instruction keeps
//! its relative order.

use super::rewrite::defining_inst;
use ptx_ir::{Block, Function, Inst};
use rustc_hash::{FxHashMap, FxHashSet};

/// Instructions a move may pass at most.
const MAX_DISTANCE: usize = 256;

/// Reorders `block`: each unguarded instruction of `movable` read in the
/// block comes right before its first reader, when that is at most
/// [`MAX_DISTANCE`] further down (where its readers end up).
pub(super) fn sink_to_readers(f: &mut Function, block: Block, movable: &FxHashSet<Inst>) {
    let order: Vec<Inst> = f.layout.block_insts(block).collect();
    if !order.iter().any(|i| movable.contains(i)) {
        return;
    }
    let pos: FxHashMap<Inst, usize> = order.iter().enumerate().map(|(k, &i)| (i, k)).collect();
    // The instructions of the block each one reads, and its readers.
    let mut defs_here: Vec<Vec<usize>> = Vec::with_capacity(order.len());
    let mut readers: Vec<Vec<usize>> = vec![Vec::new(); order.len()];
    for (k, &i) in order.iter().enumerate() {
        let mut here: Vec<usize> = Vec::new();
        let mut note = |v: ptx_ir::Value| {
            if let Some(&d) = defining_inst(f, v).and_then(|j| pos.get(&j)) {
                if d != k && !here.contains(&d) {
                    here.push(d);
                }
            }
        };
        // The guard, operands and tied values; not a branch's block
        // arguments: a value carried to the next iteration stays where it
        // is computed (moved to the branch, it would overlap the value it
        // replaces, and leaving SSA would need copies).
        let d = f.inst(i);
        if let Some(g) = d.guard {
            note(g.pred);
        }
        for o in &d.operands {
            o.for_each_value(&mut note);
        }
        for &t in &d.ties {
            note(t);
        }
        for &d in &here {
            readers[d].push(k);
        }
        defs_here.push(here);
    }
    // Decided from the end: where each instruction ends up, as the
    // position of the staying instruction it comes right before.
    let mut anchor: Vec<usize> = (0..order.len()).collect();
    let mut moves = vec![false; order.len()];
    for k in (0..order.len()).rev() {
        let i = order[k];
        if !movable.contains(&i) || f.inst(i).guard.is_some() || readers[k].is_empty() {
            continue;
        }
        let to = readers[k]
            .iter()
            .map(|&r| anchor[r])
            .min()
            .expect("read in the block");
        if to - k <= MAX_DISTANCE {
            moves[k] = true;
            anchor[k] = to;
        }
    }
    if !moves.iter().any(|&m| m) {
        return;
    }
    let mut placed = vec![false; order.len()];
    let mut new_order: Vec<Inst> = Vec::with_capacity(order.len());
    // Depth-first over the moving operands, emitting in post-order.
    let mut stack: Vec<(usize, usize)> = Vec::new();
    for k in 0..order.len() {
        if moves[k] || placed[k] {
            continue;
        }
        stack.push((k, 0));
        while let Some(&mut (x, ref mut next)) = stack.last_mut() {
            if let Some(&y) = defs_here[x].get(*next) {
                *next += 1;
                if moves[y] && !placed[y] {
                    stack.push((y, 0));
                }
                continue;
            }
            stack.pop();
            placed[x] = true;
            new_order.push(order[x]);
        }
    }
    debug_assert_eq!(new_order.len(), order.len(), "every instruction placed");
    if new_order == order {
        return;
    }
    for &i in &order {
        f.layout.remove_inst(i);
    }
    for &i in &new_order {
        f.layout.append_inst(i, block);
    }
}
