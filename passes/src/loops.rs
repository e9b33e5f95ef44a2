//! Post-dominators, and natural loops (from `ptx_ir::loops`, which leaving
//! SSA uses too).

use ptx_ir::entity::{EntityRef, SecondaryMap};
pub use ptx_ir::loops::{Loop, LoopInfo};
use ptx_ir::{Block, ControlFlowGraph, Function};

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
        let idoms = ptx_ir::dominators::immediate_dominators(
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

#[cfg(test)]
mod tests {
    use super::*;
    use ptx_ir::DominatorTree;

    #[test]
    fn finds_nested_loops_and_post_dominators() {
        let src = ".version 7.0\n.target sm_80\n.address_size 64\n.visible .entry k(.param .u32 n)\n{\n\
                   .reg .pred %p<3>;\n.reg .b32 %r<5>;\nld.param.u32 %r1, [n];\nmov.u32 %r2, 0;\n\
                   OUTER:\nmov.u32 %r3, 0;\nINNER:\nadd.s32 %r3, %r3, 1;\nsetp.lt.u32 %p1, %r3, %r1;\n@%p1 bra INNER;\n\
                   add.s32 %r2, %r2, 1;\nsetp.lt.u32 %p2, %r2, %r1;\n@%p2 bra OUTER;\nret;\n}\n";
        let m = ptx_parse::parse_module(src).unwrap();
        let f = m.functions().next().unwrap();
        let cfg = ControlFlowGraph::compute(f);
        let dt = DominatorTree::compute(f, &cfg);
        let li = LoopInfo::compute(f, &cfg, &dt);
        assert_eq!(li.loops.len(), 2);
        let label = |b: Block| f.dfg.blocks[b].label.map(|l| f.ops.word(l).to_string());
        let inner = li
            .loops
            .iter()
            .find(|l| label(l.header).as_deref() == Some("INNER"))
            .unwrap();
        assert_eq!(li.depth(inner.header), 2);
        let entry = f.layout.entry_block().unwrap();
        assert_eq!(li.depth(entry), 0);
        let pdt = PostDominatorTree::compute(f, &cfg);
        let last = f.layout.blocks().last().unwrap();
        assert!(pdt.post_dominates(last, entry));
        assert!(!pdt.post_dominates(inner.header, last));
    }
}
