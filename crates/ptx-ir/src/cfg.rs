//! Control-flow graph and dominator tree of a function.
//!
//! Successors come from terminator targets. Immediate dominators come from
//! [`crate::dominators`] (Lengauer–Tarjan; near-linear on any CFG shape),
//! and a pre/post numbering of the dominator tree answers `dominates` in
//! constant time.

use crate::entity::{EntityRef, SecondaryMap};
use crate::function::Function;
use crate::Block;
use smallvec::SmallVec;

/// Successor and predecessor lists.
#[derive(Clone, Debug, Default)]
pub struct ControlFlowGraph {
    succs: SecondaryMap<Block, SmallVec<[Block; 2]>>,
    preds: SecondaryMap<Block, SmallVec<[Block; 2]>>,
}

impl ControlFlowGraph {
    /// Computes the CFG of `func` from its terminators.
    pub fn compute(func: &Function) -> Self {
        let n = func.dfg.blocks.len();
        let mut cfg = ControlFlowGraph {
            succs: SecondaryMap::with_capacity_default(n),
            preds: SecondaryMap::with_capacity_default(n),
        };
        for b in func.layout.blocks() {
            if let Some(t) = func.layout.last_inst(b) {
                for call in &func.dfg.insts[t].targets {
                    if !cfg.succs[b].contains(&call.block) {
                        cfg.succs[b].push(call.block);
                        cfg.preds[call.block].push(b);
                    }
                }
            }
        }
        cfg
    }

    /// Distinct successors of `b`, in target order.
    pub fn succs(&self, b: Block) -> &[Block] {
        &self.succs[b]
    }

    /// Distinct predecessors of `b`.
    pub fn preds(&self, b: Block) -> &[Block] {
        &self.preds[b]
    }
}

/// Dominator tree of the blocks reachable from the entry.
///
/// Immediate dominators are kept in a dense table indexed by block, so
/// queries cost an array read.
pub struct DominatorTree {
    idom: SecondaryMap<Block, Option<Block>>,
    /// Reverse post-order of reachable blocks.
    rpo: Vec<Block>,
    rpo_num: SecondaryMap<Block, u32>,
    /// Entry and exit times of a depth-first walk of the dominator tree:
    /// `a` dominates `b` exactly when `a`'s interval holds `b`'s.
    tree_in: SecondaryMap<Block, u32>,
    tree_out: SecondaryMap<Block, u32>,
}

impl DominatorTree {
    /// Computes dominators of `func` given its CFG.
    pub fn compute(func: &Function, cfg: &ControlFlowGraph) -> Self {
        let entry = func.layout.entry_block();
        let n = func.dfg.blocks.len();
        // Iterative DFS for a reverse post-order.
        let mut rpo = Vec::new();
        let mut rpo_num = SecondaryMap::with_capacity(n, u32::MAX);
        let mut idom = SecondaryMap::with_capacity(n, None);
        let mut tree_in = SecondaryMap::with_capacity(n, u32::MAX);
        let mut tree_out = SecondaryMap::with_capacity(n, 0);
        let Some(e) = entry else {
            return DominatorTree {
                idom,
                rpo,
                rpo_num,
                tree_in,
                tree_out,
            };
        };
        if cfg.succs(e).is_empty() {
            // One block reachable, the usual straight-line kernel.
            rpo_num[e] = 0;
            tree_in[e] = 0;
            return DominatorTree {
                idom,
                rpo: vec![e],
                rpo_num,
                tree_in,
                tree_out,
            };
        }
        let mut visited: SecondaryMap<Block, bool> = SecondaryMap::with_capacity(n, false);
        let mut post = Vec::with_capacity(n);
        let mut stack: Vec<(Block, usize)> = vec![(e, 0)];
        visited[e] = true;
        while let Some(&mut (b, ref mut i)) = stack.last_mut() {
            let s = cfg.succs(b);
            if *i < s.len() {
                let next = s[*i];
                *i += 1;
                if !visited[next] {
                    visited[next] = true;
                    stack.push((next, 0));
                }
            } else {
                post.push(b);
                stack.pop();
            }
        }
        post.reverse();
        for (k, &b) in post.iter().enumerate() {
            rpo_num[b] = k as u32;
        }
        rpo = post;
        if rpo.len() <= crate::dominators::SMALL_GRAPH {
            let order: SmallVec<[u32; crate::dominators::SMALL_GRAPH]> =
                rpo.iter().map(|b| b.as_u32()).collect();
            let doms = crate::dominators::immediate_dominators_small(
                &order,
                |b| rpo_num[Block::from_u32(b)],
                |b| cfg.preds(Block::from_u32(b)).iter().map(|p| p.as_u32()),
            );
            for (k, &b) in rpo.iter().enumerate().skip(1) {
                idom[b] = Some(rpo[doms[k] as usize]);
            }
        } else {
            let idoms = crate::dominators::immediate_dominators(
                n,
                e.index(),
                |b| {
                    cfg.succs(Block::new(b as usize))
                        .iter()
                        .map(|s| s.index() as u32)
                },
                |b| {
                    cfg.preds(Block::new(b as usize))
                        .iter()
                        .map(|p| p.index() as u32)
                },
            );
            for &b in &rpo[1..] {
                idom[b] = idoms[b.index()].map(|d| Block::new(d as usize));
            }
        }
        let mut children: SecondaryMap<Block, SmallVec<[Block; 2]>> =
            SecondaryMap::with_capacity_default(n);
        for &b in &rpo[1..] {
            if let Some(d) = idom[b] {
                children[d].push(b);
            }
        }
        // Number the dominator tree without recursion (it can be as deep
        // as the function is long).
        let mut clock = 0u32;
        let mut stack: Vec<(Block, usize)> = vec![(e, 0)];
        tree_in[e] = 0;
        while let Some(&mut (b, ref mut i)) = stack.last_mut() {
            if let Some(&c) = children[b].get(*i) {
                *i += 1;
                clock += 1;
                tree_in[c] = clock;
                stack.push((c, 0));
            } else {
                tree_out[b] = clock;
                stack.pop();
            }
        }
        DominatorTree {
            idom,
            rpo,
            rpo_num,
            tree_in,
            tree_out,
        }
    }

    /// Whether `b` is reachable from the entry.
    pub fn is_reachable(&self, b: Block) -> bool {
        self.rpo_num[b] != u32::MAX
    }

    /// Reachable blocks in reverse post-order.
    pub fn rpo(&self) -> &[Block] {
        &self.rpo
    }

    /// Immediate dominator of `b` (`None` for the entry and unreachable blocks).
    #[inline]
    pub fn idom(&self, b: Block) -> Option<Block> {
        self.idom[b]
    }

    /// The position of reachable `b` in a pre-order walk of the dominator
    /// tree (the entry is 0): a block's dominator tree descendants follow
    /// it, before any block outside its subtree.
    #[inline]
    pub fn preorder(&self, b: Block) -> u32 {
        self.tree_in[b]
    }

    /// Whether `a` dominates `b` (every block dominates itself).
    pub fn dominates(&self, a: Block, b: Block) -> bool {
        if a == b {
            return true;
        }
        if !self.is_reachable(a) || !self.is_reachable(b) {
            return false;
        }
        self.tree_in[a] <= self.tree_in[b] && self.tree_out[b] <= self.tree_out[a]
    }
}
