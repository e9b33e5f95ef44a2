//! Rewriting uses of values, shared by the passes that replace one value
//! by another (`const-fold`, `copy-prop`, `cse`, `simplify-cfg`).
//!
//! A use is a guard predicate, a source operand (an operand that is not
//! also a result of the same instruction), a tie, or a branch argument.
//! Results are never rewritten.

use ptx_ir::{Function, Inst, Value};
use rustc_hash::FxHashMap;

/// Rewrites every use in instruction `i` through `map`.
pub fn rewrite_inst_uses(f: &mut Function, i: Inst, map: impl Fn(Value) -> Value) {
    let d = &mut f.dfg.insts[i];
    let results = d.results.clone();
    if let Some(g) = &mut d.guard {
        g.pred = map(g.pred);
    }
    for o in &mut d.operands {
        o.for_each_value_mut(&mut |v| {
            if !results.contains(v) {
                *v = map(*v)
            }
        });
    }
    d.ties.iter_mut().for_each(|v| *v = map(*v));
    for t in &mut d.targets {
        t.args.iter_mut().for_each(|v| *v = map(*v));
    }
}

/// Replaces every use of a key of `map` in the function's layout by its
/// value, following chains (`a → b → c` replaces `a` by `c`); a cycle is
/// cut after `map.len()` steps.
pub fn replace_all_uses(f: &mut Function, map: &FxHashMap<Value, Value>) {
    if map.is_empty() {
        return;
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
    let blocks: Vec<_> = f.layout.blocks().collect();
    for b in blocks {
        for i in f.layout.block_insts(b).collect::<Vec<_>>() {
            rewrite_inst_uses(f, i, resolve);
        }
    }
}
