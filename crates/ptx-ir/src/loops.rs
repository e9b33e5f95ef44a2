//! Natural loops: for each block, the loops (headers that dominate one of
//! their predecessors, and the blocks that reach such a back edge without
//! passing the header) that hold it. `cse` keeps values out of loops with
//! it, and leaving SSA weighs copies by loop depth.
//!
//! The cost is the total size of the loops (nested loops count each
//! block once per loop holding it).

use crate::entity::SecondaryMap;
use crate::function::Function;
use crate::{Block, ControlFlowGraph, DominatorTree};

/// A natural loop: the blocks that reach a back edge's source without
/// passing its header.
#[derive(Clone, Debug)]
pub struct Loop {
    /// The header (target of the back edges).
    pub header: Block,
    /// Every block of the loop, header first.
    pub blocks: Vec<Block>,
}

/// The natural loops of a function and each block's nesting depth.
pub struct LoopInfo {
    /// Loops, one per header, outermost first for nested headers.
    pub loops: Vec<Loop>,
    depth: SecondaryMap<Block, u32>,
}

impl LoopInfo {
    /// Finds loops from the back edges (edges to a dominating block).
    pub fn compute(_func: &Function, cfg: &ControlFlowGraph, dt: &DominatorTree) -> Self {
        let mut loops: Vec<Loop> = Vec::new();
        // The loop each block was last added to (one table for all loops).
        let mut stamp: SecondaryMap<Block, u32> = SecondaryMap::with_default(u32::MAX);
        let mut work: Vec<Block> = Vec::new();
        for &h in dt.rpo() {
            let id = loops.len() as u32;
            work.extend(
                cfg.preds(h)
                    .iter()
                    .copied()
                    .filter(|&p| dt.is_reachable(p) && dt.dominates(h, p)),
            );
            if work.is_empty() {
                continue;
            }
            stamp[h] = id;
            let mut blocks = vec![h];
            while let Some(b) = work.pop() {
                if stamp[b] == id {
                    continue;
                }
                stamp[b] = id;
                blocks.push(b);
                work.extend(cfg.preds(b).iter().copied().filter(|&p| dt.is_reachable(p)));
            }
            loops.push(Loop { header: h, blocks });
        }
        let mut depth = SecondaryMap::new();
        for l in &loops {
            for &b in &l.blocks {
                depth[b] += 1;
            }
        }
        LoopInfo { loops, depth }
    }

    /// How many loops contain `b`.
    pub fn depth(&self, b: Block) -> u32 {
        self.depth[b]
    }
}
