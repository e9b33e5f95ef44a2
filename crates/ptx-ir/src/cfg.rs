//! Control-flow graph and dominator tree of a function.
//!
//! Successors come from terminator targets. Dominators are computed with
//! petgraph's Cooper–Harvey–Kennedy implementation over a graph whose node
//! indices are block numbers.

use crate::entity::{EntityRef, SecondaryMap};
use crate::function::Function;
use crate::Block;
use petgraph::algo::dominators::{simple_fast, Dominators};
use petgraph::graph::{DiGraph, NodeIndex};
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
        let mut cfg = ControlFlowGraph::default();
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
/// petgraph computes the immediate dominators; they are then kept in a
/// dense table indexed by block, so queries cost an array read.
pub struct DominatorTree {
    idom: SecondaryMap<Block, Option<Block>>,
    /// Reverse post-order of reachable blocks.
    rpo: Vec<Block>,
    rpo_num: SecondaryMap<Block, u32>,
}

impl DominatorTree {
    /// Computes dominators of `func` given its CFG.
    pub fn compute(func: &Function, cfg: &ControlFlowGraph) -> Self {
        let entry = func.layout.entry_block();
        // Iterative DFS for a reverse post-order.
        let mut rpo = Vec::new();
        let mut rpo_num = SecondaryMap::with_default(u32::MAX);
        let mut idom = SecondaryMap::with_default(None);
        let Some(e) = entry else {
            return DominatorTree { idom, rpo, rpo_num };
        };
        let mut visited: SecondaryMap<Block, bool> = SecondaryMap::new();
        let mut post = Vec::new();
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
        if rpo.len() > 1 {
            let n = func.dfg.blocks.len();
            let mut g: DiGraph<(), ()> = DiGraph::with_capacity(n, n * 2);
            for _ in 0..n {
                g.add_node(());
            }
            for &b in &rpo {
                for &s in cfg.succs(b) {
                    g.add_edge(NodeIndex::new(b.index()), NodeIndex::new(s.index()), ());
                }
            }
            let doms: Dominators<NodeIndex> = simple_fast(&g, NodeIndex::new(e.index()));
            for &b in &rpo[1..] {
                idom[b] = doms
                    .immediate_dominator(NodeIndex::new(b.index()))
                    .map(|d| Block::new(d.index()));
            }
        }
        DominatorTree { idom, rpo, rpo_num }
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

    /// Whether `a` dominates `b` (every block dominates itself).
    pub fn dominates(&self, a: Block, b: Block) -> bool {
        if a == b {
            return true;
        }
        if !self.is_reachable(a) || !self.is_reachable(b) {
            return false;
        }
        let mut x = b;
        // Walk up the tree; idoms have smaller RPO numbers.
        while self.rpo_num[x] > self.rpo_num[a] {
            match self.idom(x) {
                Some(d) => x = d,
                None => return false,
            }
        }
        x == a
    }
}
