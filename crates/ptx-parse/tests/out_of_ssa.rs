//! Leaving SSA after transformations that make values of one source
//! register overlap: the classic lost-copy and swap problems, copies on
//! critical edges, accumulators seeded from one value, and every corpus
//! function after all its copies are propagated. Each assignment is run
//! through `regalloc::check_assignment`, which simulates every edge.

use ptx_ir::regalloc::{self, check_assignment};
use ptx_ir::{Function, Opcode, Operand, Value};
use rustc_hash::FxHashMap;
use std::path::PathBuf;

fn parse(body: &str, params: &str) -> ptx_ir::Module {
    let src = format!(
        ".version 7.0\n.target sm_80\n.address_size 64\n.visible .entry k({params})\n{{\n{body}\n}}\n"
    );
    ptx_parse::parse_module(&src).unwrap_or_else(|d| panic!("{}", d.render("test", src.as_bytes())))
}

/// Every unguarded same-class `mov` deleted and its result replaced by its
/// source everywhere, branch arguments and ties included: the propagation
/// that makes values of one register overlap.
fn propagate_every_copy(f: &mut Function) -> usize {
    let mut map: FxHashMap<Value, Value> = FxHashMap::default();
    let mut dead = Vec::new();
    for b in f.layout.blocks() {
        for i in f.layout.block_insts(b) {
            let d = f.inst(i);
            if f.op(i).opcode != Opcode::Mov || d.guard.is_some() || !d.ties.is_empty() {
                continue;
            }
            if let (Some(Operand::Value(dst)), Some(Operand::Value(src))) =
                (d.operands.first(), d.operands.get(1))
            {
                let class = |v: Value| f.dfg.values[v].ty.reg_class();
                if class(*dst) == class(*src) && d.results.as_slice() == [*dst] {
                    map.insert(*dst, *src);
                    dead.push(i);
                }
            }
        }
    }
    let resolve = |mut v: Value| {
        for _ in 0..=map.len() {
            match map.get(&v) {
                Some(&x) => v = x,
                None => break,
            }
        }
        v
    };
    for &i in &dead {
        f.layout.remove_inst(i);
    }
    let blocks: Vec<_> = f.layout.blocks().collect();
    for b in blocks {
        let insts: Vec<_> = f.layout.block_insts(b).collect();
        for i in insts {
            let d = &mut f.dfg.insts[i];
            if let Some(g) = &mut d.guard {
                g.pred = resolve(g.pred);
            }
            let results = d.results.clone();
            for o in d.operands.iter_mut() {
                o.for_each_value_mut(&mut |v| {
                    if !results.contains(v) {
                        *v = resolve(*v)
                    }
                });
            }
            d.ties.iter_mut().for_each(|v| *v = resolve(*v));
            for t in d.targets.iter_mut() {
                t.args.iter_mut().for_each(|v| *v = resolve(*v));
            }
        }
    }
    dead.len()
}

fn check(f: &Function) -> regalloc::Assignment {
    assert!(
        ptx_ir::verify::verify_function(f).is_empty(),
        "{:?}",
        ptx_ir::verify::verify_function(f)
    );
    let a = regalloc::assign(f);
    check_assignment(f, &a).unwrap_or_else(|e| panic!("{e}"));
    a
}

fn printed(m: &ptx_ir::Module) -> String {
    let out = ptx_ir::write::module_to_string(m);
    let again = ptx_parse::parse_module(&out)
        .unwrap_or_else(|d| panic!("{}", d.render("out", out.as_bytes())));
    for f in again.functions() {
        assert!(ptx_ir::verify::verify_function(f).is_empty(), "{out}");
    }
    out
}

/// The swap problem: `(a, b) = (b, a)` round a loop. Once the copies are
/// propagated the back edge passes the parameters crosswise, a cycle that
/// needs the temporary: three moves. Both registers are read after the
/// loop, so the swap cannot run before the branch: it gets a block.
#[test]
fn a_swap_round_a_loop_takes_one_temporary() {
    let mut m = parse(
        ".reg .pred %p<2>;\n.reg .b32 %r<6>;\n.reg .b64 %rd<2>;\nld.param.u64 %rd1, [o];\n\
         mov.u32 %r1, 1;\nmov.u32 %r2, 2;\nmov.u32 %r5, 0;\nL:\nmov.u32 %r3, %r1;\nmov.u32 %r1, %r2;\n\
         mov.u32 %r2, %r3;\nadd.s32 %r5, %r5, 1;\nsetp.lt.u32 %p1, %r5, 9;\n@%p1 bra L;\n\
         st.global.u32 [%rd1], %r1;\nst.global.u32 [%rd1+4], %r2;\nret;",
        ".param .u64 o",
    );
    let f = m.functions_mut().next().unwrap();
    assert_eq!(propagate_every_copy(f), 3);
    let a = check(f);
    assert_eq!((a.stats.movs, a.stats.blocks), (3, 1), "{}", printed(&m));
}

/// The lost-copy problem: the value before the increment is read after the
/// loop, so the increment cannot share its register, and the back edge's
/// copy must not run on the way out.
#[test]
fn the_lost_copy_is_not_lost() {
    let mut m = parse(
        ".reg .pred %p<2>;\n.reg .b32 %r<4>;\n.reg .b64 %rd<2>;\nld.param.u64 %rd1, [o];\n\
         mov.u32 %r1, 0;\nL:\nmov.u32 %r2, %r1;\nadd.s32 %r1, %r1, 1;\nsetp.lt.u32 %p1, %r1, 9;\n\
         @%p1 bra L;\nst.global.u32 [%rd1], %r2;\nret;",
        ".param .u64 o",
    );
    let f = m.functions_mut().next().unwrap();
    assert_eq!(propagate_every_copy(f), 1);
    let a = check(f);
    assert!(a.stats.movs >= 1, "{}", printed(&m));
    printed(&m);
}

/// Four accumulators seeded from one zero (as `cse` of their `mov 0`s would
/// leave them): each loop parameter keeps its own register, the copies of
/// the shared zero go on the edge into the loop, and the skip edge round
/// the loop (critical) needs them too, which placement puts before the
/// branch, harmlessly: no block of their own.
#[test]
fn accumulators_from_one_value_need_copies_but_no_block() {
    let mut m = parse(
        ".reg .pred %p<3>;\n.reg .f32 %f<9>;\n.reg .b32 %r<3>;\n.reg .b64 %rd<2>;\n\
         ld.param.u64 %rd1, [o];\nld.param.u32 %r1, [n];\nmov.f32 %f1, 0f00000000;\nmov.f32 %f2, %f1;\n\
         mov.f32 %f3, %f1;\nmov.f32 %f4, %f1;\nmov.u32 %r2, 0;\nsetp.eq.s32 %p1, %r1, 0;\n@%p1 bra E;\n\
         L:\nadd.f32 %f1, %f1, 0f3F800000;\nadd.f32 %f2, %f2, 0f40000000;\nadd.f32 %f3, %f3, 0f40400000;\n\
         add.f32 %f4, %f4, 0f40800000;\nadd.s32 %r2, %r2, 1;\nsetp.lt.u32 %p2, %r2, %r1;\n@%p2 bra L;\n\
         E:\nadd.f32 %f5, %f1, %f2;\nadd.f32 %f6, %f3, %f4;\nadd.f32 %f7, %f5, %f6;\n\
         st.global.f32 [%rd1], %f7;\nret;",
        ".param .u64 o, .param .u32 n",
    );
    let f = m.functions_mut().next().unwrap();
    assert_eq!(propagate_every_copy(f), 3);
    let a = check(f);
    let out = printed(&m);
    assert_eq!(a.stats.blocks, 0, "{out}");
    // Three copies of the zero: before the skip branch, where both ways
    // out of the entry block need them.
    assert_eq!(a.stats.movs, 3, "{out}");
}

/// A copy on a critical edge whose register is live on the other way out
/// cannot run before the branch: it gets a trampoline, the only case that
/// makes a block.
#[test]
fn a_harmful_critical_edge_copy_gets_a_block_of_its_own() {
    let mut m = parse(
        ".reg .pred %p<2>;\n.reg .b32 %r<4>;\n.reg .b64 %rd<2>;\nld.param.u64 %rd1, [o];\n\
         ld.param.u32 %r1, [n];\nmov.u32 %r2, 0;\nL:\nadd.s32 %r2, %r2, %r1;\n\
         setp.lt.s32 %p1, %r2, 100;\n@%p1 bra L;\nst.global.u32 [%rd1], %r2;\nret;",
        ".param .u64 o, .param .u32 n",
    );
    let f = m.functions_mut().next().unwrap();
    // Send %r1's value round the loop instead of the sum.
    let blocks: Vec<_> = f.layout.blocks().collect();
    let term = f.layout.last_inst(blocks[1]).unwrap();
    let r1 = f
        .inst(f.layout.block_insts(blocks[0]).nth(1).unwrap())
        .results[0];
    f.dfg.insts[term].targets[0].args[0] = r1;
    let a = check(f);
    assert_eq!((a.stats.movs, a.stats.blocks), (1, 1), "{}", printed(&m));
}

mod common;

fn corpus() -> Vec<PathBuf> {
    let files = common::ptx_files_under(&["tests/corpus", "../../corpus/real/ptx"]);
    assert!(files.len() > 240, "{} files", files.len());
    files
}

/// Every function of the parser's corpus and of corpus/real with all its
/// copies propagated (loop-carried values and phi copies included) leaves
/// SSA correctly, and its printed form parses and verifies.
#[test]
fn every_corpus_function_leaves_ssa_after_propagating_every_copy() {
    let mut propagated = 0;
    let mut with_copies = 0;
    for path in corpus() {
        let src = std::fs::read(&path).unwrap();
        let mut m = ptx_parse::parse_bytes(&src).unwrap();
        for f in m.functions_mut().filter(|f| f.has_body) {
            propagated += propagate_every_copy(f);
            let a = regalloc::assign(f);
            if let Err(e) = check_assignment(f, &a) {
                panic!("{}: {e}", path.display());
            }
            with_copies += usize::from(!a.has_no_copies());
        }
        let out = ptx_ir::write::module_to_string(&m);
        if let Err(d) = ptx_parse::parse_module(&out) {
            panic!(
                "{}: {}",
                path.display(),
                d.render("printed", out.as_bytes())
            );
        }
    }
    // The edit must have made work for leaving SSA.
    assert!(
        propagated > 4000 && with_copies > 100,
        "{propagated} copies, {with_copies} functions"
    );
}
