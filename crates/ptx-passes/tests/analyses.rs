//! The loop and post-dominator analyses of `ptx-ir` on a parsed kernel.

use ptx_ir::loops::LoopInfo;
use ptx_ir::postdom::PostDominatorTree;
use ptx_ir::{Block, ControlFlowGraph, DominatorTree};

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
