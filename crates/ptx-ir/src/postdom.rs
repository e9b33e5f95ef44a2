//! Post-dominators: the dominators of the reversed CFG, rooted at a
//! virtual exit that every block without successors flows into (the
//! evaluator reconverges a divergent warp at a branch's immediate
//! post-dominator; passes ask for it through the analysis cache).
//!
//! **Invariants.** Blocks from which no exit is reachable (infinite loops)
//! have no immediate post-dominator, and [`PostDominatorTree::post_dominates`]
//! answers false for them; a walk up the tree stops after as many steps as
//! there are blocks.

use crate::entity::{EntityRef, SecondaryMap};
use crate::{Block, ControlFlowGraph, Function};

/// Post-dominator tree: the dominators of the reversed CFG, rooted
/// at a virtual exit that every block without successors flows into.
pub struct PostDominatorTree {
    ipdom: SecondaryMap<Block, Option<Block>>,
    reaches_exit: SecondaryMap<Block, bool>,
    blocks: usize,
}

impl PostDominatorTree {
    /// Computes post-dominators of the blocks in the layout.
    pub fn compute(f: &Function, cfg: &ControlFlowGraph) -> Self {
        let n = f.dfg.blocks.len();
        // Node n is the virtual exit; edges run backwards.
        let exit = n as u32;
        let exits: Vec<u32> = f
            .layout
            .blocks()
            .filter(|&b| cfg.succs(b).is_empty())
            .map(|b| b.index() as u32)
            .collect();
        let mut is_exit = vec![false; n];
        for &b in &exits {
            is_exit[b as usize] = true;
        }
        let block = |v: u32| Block::new(v as usize);
        let idoms = crate::dominators::immediate_dominators(
            n + 1,
            n,
            |v| {
                let from: &[u32] = if v == exit { &exits } else { &[] };
                let back = if v == exit {
                    &[][..]
                } else {
                    cfg.preds(block(v))
                };
                from.iter()
                    .copied()
                    .chain(back.iter().map(|p| p.index() as u32))
            },
            |v| {
                let fwd = if v == exit {
                    &[][..]
                } else {
                    cfg.succs(block(v))
                };
                let to_exit = v != exit && is_exit[v as usize];
                fwd.iter()
                    .map(|s| s.index() as u32)
                    .chain(to_exit.then_some(exit))
            },
        );
        let mut ipdom = SecondaryMap::with_default(None);
        let mut reaches_exit = SecondaryMap::new();
        for b in f.layout.blocks() {
            if let Some(d) = idoms[b.index()] {
                reaches_exit[b] = true;
                if d != exit {
                    ipdom[b] = Some(block(d));
                }
            }
        }
        PostDominatorTree {
            ipdom,
            reaches_exit,
            blocks: n,
        }
    }

    /// The immediate post-dominator (`None` for blocks that only the exit
    /// post-dominates, and for blocks that never reach an exit).
    pub fn ipdom(&self, b: Block) -> Option<Block> {
        self.ipdom[b]
    }

    /// Whether `a` post-dominates `b` (every block post-dominates itself).
    pub fn post_dominates(&self, a: Block, b: Block) -> bool {
        if !self.reaches_exit[b] {
            return false;
        }
        let mut x = Some(b);
        let mut steps = 0;
        while let Some(y) = x {
            if y == a {
                return true;
            }
            x = self.ipdom[y];
            steps += 1;
            if steps > self.blocks {
                break;
            }
        }
        false
    }
}
