//! Value liveness: which values are live into and out of each block.
//!
//! A branch argument is a use at the end of its block; a block parameter is
//! a definition at the top of its block. Every block in the layout takes
//! part, reachable or not.

use crate::bitset::BitSet;
use crate::entity::{EntityRef, SecondaryMap};
use crate::function::Function;
use crate::{Block, ControlFlowGraph};

/// Live-in and live-out sets per block, over value indices.
pub struct Liveness {
    live_in: SecondaryMap<Block, Option<Box<BitSet>>>,
    live_out: SecondaryMap<Block, Option<Box<BitSet>>>,
    empty: BitSet,
}

impl Liveness {
    /// Computes liveness by backward iteration to a fixed point.
    pub fn compute(func: &Function, cfg: &ControlFlowGraph) -> Self {
        let nv = func.dfg.values.len();
        let blocks: Vec<Block> = func.layout.blocks().collect();
        // Upward-exposed uses and definitions per block.
        let mut gen: SecondaryMap<Block, Option<Box<BitSet>>> = SecondaryMap::new();
        let mut kill: SecondaryMap<Block, Option<Box<BitSet>>> = SecondaryMap::new();
        for &b in &blocks {
            let mut g = BitSet::new(nv);
            let mut k = BitSet::new(nv);
            for &p in &func.dfg.blocks[b].params {
                k.insert(p.index());
            }
            for i in func.layout.block_insts(b) {
                let d = &func.dfg.insts[i];
                d.for_each_use(|v| {
                    if !k.contains(v.index()) {
                        g.insert(v.index());
                    }
                });
                for &r in &d.results {
                    k.insert(r.index());
                }
            }
            gen[b] = Some(Box::new(g));
            kill[b] = Some(Box::new(k));
        }
        let mut live_in: SecondaryMap<Block, Option<Box<BitSet>>> = SecondaryMap::new();
        let mut live_out: SecondaryMap<Block, Option<Box<BitSet>>> = SecondaryMap::new();
        for &b in &blocks {
            live_in[b] = Some(Box::new((**gen[b].as_ref().unwrap()).clone()));
            live_out[b] = Some(Box::new(BitSet::new(nv)));
        }
        let mut scratch = BitSet::new(nv);
        loop {
            let mut changed = false;
            for &b in blocks.iter().rev() {
                scratch.clear();
                for &s in cfg.succs(b) {
                    if let Some(li) = &live_in[s] {
                        scratch.union_with(li);
                    }
                }
                let out = live_out[b].as_mut().unwrap();
                if out.union_with(&scratch) {
                    changed = true;
                    // in = gen ∪ (out − kill)
                    let k = kill[b].as_ref().unwrap();
                    let inn = live_in[b].as_mut().unwrap();
                    for v in out.iter() {
                        if !k.contains(v) {
                            inn.insert(v);
                        }
                    }
                }
            }
            if !changed {
                break;
            }
        }
        Liveness {
            live_in,
            live_out,
            empty: BitSet::new(0),
        }
    }

    /// Values live on entry to `b` (not counting its parameters).
    pub fn live_in(&self, b: Block) -> &BitSet {
        self.live_in[b].as_deref().unwrap_or(&self.empty)
    }

    /// Values live on exit from `b` (including its branch arguments' values
    /// only when a successor needs them beyond the edge).
    pub fn live_out(&self, b: Block) -> &BitSet {
        self.live_out[b].as_deref().unwrap_or(&self.empty)
    }
}
