//! Rewriting shared by the passes: uses of values replaced by other
//! values (`const-fold`, `copy-prop`, `cse`, `simplify-cfg`), and
//! instructions inserted or re-spelled by the lowerings (`lower-vsub2`,
//! `lower-vote`) and `instcombine`, and which instructions may be
//! rewritten at all ([`plain`]).
//!
//! A use is a guard predicate, a source operand (an operand that is not
//! also a result of the same instruction), a tie, or a branch argument.
//! Results are never rewritten.

use ptx_ir::{Function, Guard, Inst, Operand, Type, Value, ValueDef};
use rustc_hash::FxHashMap;
use smallvec::SmallVec;

/// Whether `i` may be rewritten or folded: unguarded, no tied results,
/// in the layout.
pub fn plain(f: &Function, i: Inst) -> bool {
    let d = f.inst(i);
    d.guard.is_none() && d.ties.is_empty() && f.layout.inst_block(i).is_some()
}

/// Inserts `text d, srcs…` before `at`, `d` a new value of type `ty`.
/// Under `guard`, `d` is tied to an undefined old value, which it keeps
/// where the guard is off (for a collective instruction, such as a vote,
/// whose participating lanes must be the original's).
pub fn insert_before(
    f: &mut Function,
    at: Inst,
    text: &str,
    ty: Type,
    srcs: SmallVec<[Operand; 3]>,
    guard: Option<Guard>,
) -> Value {
    let op = f.ops.intern_text(text);
    let v = f.insert_def_before(at, op, ty, srcs);
    if guard.is_some() {
        let ValueDef::Result(inst, _) = f.dfg.values[v].def else {
            unreachable!("insert_def_before defines its result")
        };
        let old = f.dfg.make_value(ty, ValueDef::Undef, None);
        f.dfg.insts[inst].guard = guard;
        f.dfg.insts[inst].ties.push(old);
    }
    v
}

/// Turns `i` into `text` with `operands` (destination first), keeping its
/// results, guard and tied values.
pub fn reform(f: &mut Function, i: Inst, text: &str, operands: SmallVec<[Operand; 3]>) {
    let op = f.ops.intern_text(text);
    let d = &mut f.dfg.insts[i];
    d.op = op;
    d.operands = operands;
}

/// Rewrites every use in instruction `i` through `map`.
pub fn rewrite_inst_uses(f: &mut Function, i: Inst, map: impl Fn(Value) -> Value) {
    let ptx_ir::InstData {
        guard,
        operands,
        results,
        ties,
        targets,
        ..
    } = &mut f.dfg.insts[i];
    if let Some(g) = guard {
        g.pred = map(g.pred);
    }
    for o in operands.iter_mut() {
        o.for_each_value_mut(&mut |v| {
            if !results.contains(v) {
                *v = map(*v)
            }
        });
    }
    ties.iter_mut().for_each(|v| *v = map(*v));
    for t in targets.iter_mut() {
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
    for_each_inst(f, |f, i| rewrite_inst_uses(f, i, resolve));
}

/// Calls `g` on every instruction in layout order without a copy of the
/// instruction list. `g` may edit the function and remove the instruction
/// it is given from the layout, but must not touch the rest of the layout.
pub fn for_each_inst(f: &mut Function, mut g: impl FnMut(&mut Function, Inst)) {
    let mut block = f.layout.entry_block();
    while let Some(b) = block {
        let mut cur = f.layout.first_inst(b);
        while let Some(i) = cur {
            cur = f.layout.next_inst(i);
            g(f, i);
        }
        block = f.layout.next_block(b);
    }
}
