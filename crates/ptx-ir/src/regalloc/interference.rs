//! Value-based interference of SSA values, answered from liveness and
//! dominance without building an interference graph (Budimlic et al.;
//! Boissinot et al., CGO 2009).
//!
//! Every value of a reachable block has a *definition point*: its block
//! and position there (0 for block parameters, `k` for the `k`-th
//! instruction), plus its index among the parameters or results. Two
//! values' live ranges *intersect* only if the definition of one dominates
//! the other's, and then exactly when the dominating one is live at the
//! other's definition. They *interfere* when they intersect and hold
//! different values: a same-class `mov` makes its result the same value as
//! its source, so a copy never interferes with what it copies.
//!
//! Definition points, as leaving SSA needs them:
//! * parameters of one block are defined together (an edge's parallel
//!   copy), and so are the results of one instruction: each such pair
//!   intersects;
//! * a tied result `r` (tie `t`) is a copy `r := t` just before its
//!   instruction, which then may overwrite `r`: it intersects every value
//!   the instruction reads other than `t`, and everything live after it;
//!   it intersects `t` only if `t` is live after the instruction.
//!
//! `Undef` values and values of unreachable blocks have no definition
//! point and are not asked about (code that never runs needs no exact
//! registers; an undefined value may hold anything).
//!
//! Live ranges in strict SSA are subtrees of the dominator tree rooted at
//! the definition, so a value live at some point is live at every
//! definition point on the dominator-tree path between; the class checks
//! in `coalesce.rs` rely on that.

use crate::entity::{EntityRef, SecondaryMap};
use crate::function::Function;
use crate::liveness::Liveness;
use crate::op::Opcode;
use crate::operand::Operand;
use crate::{Block, ControlFlowGraph, DominatorTree, Inst, Value, ValueDef};
use rustc_hash::FxHashMap;

/// Where a value is defined.
#[derive(Clone, Copy)]
struct Def {
    block: Block,
    /// 0: a block parameter; `k`: the `k`-th instruction of the block.
    pos: u32,
    /// Index among the block's parameters or the instruction's results.
    idx: u32,
    /// The tie, for a tied result.
    tie: Option<Value>,
}

/// Liveness, dominance and definition points of one function.
pub(super) struct Interference<'f> {
    func: &'f Function,
    pub(super) cfg: ControlFlowGraph,
    pub(super) dt: DominatorTree,
    pub(super) live: Liveness,
    def: SecondaryMap<Value, Option<Def>>,
    /// The last position at which a value is read in its defining block.
    local_last: SecondaryMap<Value, u32>,
    /// The last position at which a value is read in another block.
    far_last: FxHashMap<(Value, Block), u32>,
    /// The value each value holds: itself, or what a `mov` copied.
    value: SecondaryMap<Value, Value>,
}

/// Value `v` in the sort order of definitions: dominator-tree pre-order of
/// the block, then position, then index. A value's definition dominates
/// another's only if it comes first in this order.
pub(super) type OrderKey = (u32, u32, u32);

impl<'f> Interference<'f> {
    /// Analyses `func`.
    pub(super) fn compute(func: &'f Function) -> Self {
        let cfg = ControlFlowGraph::compute(func);
        let dt = DominatorTree::compute(func, &cfg);
        let live = Liveness::compute(func, &cfg);
        let dfg = &func.dfg;
        let nv = dfg.values.len();
        let mut def: SecondaryMap<Value, Option<Def>> = SecondaryMap::with_capacity(nv, None);
        let mut pos: SecondaryMap<Inst, u32> = SecondaryMap::with_capacity(dfg.insts.len(), 0);
        let mut value: SecondaryMap<Value, Value> = SecondaryMap::with_capacity(nv, Value::new(0));
        let mut copy_of: Vec<(Value, Value)> = Vec::new();
        for b in func.layout.blocks().filter(|&b| dt.is_reachable(b)) {
            for (k, &p) in dfg.blocks[b].params.iter().enumerate() {
                def[p] = Some(Def {
                    block: b,
                    pos: 0,
                    idx: k as u32,
                    tie: None,
                });
            }
            for (n, i) in func.layout.block_insts(b).enumerate() {
                let k = n as u32 + 1;
                pos[i] = k;
                let d = &dfg.insts[i];
                for (x, &r) in d.results.iter().enumerate() {
                    def[r] = Some(Def {
                        block: b,
                        pos: k,
                        idx: x as u32,
                        tie: d.ties.get(x).copied(),
                    });
                }
                if let Some((dst, src)) = same_class_copy(func, i) {
                    copy_of.push((dst, src));
                }
            }
        }
        for k in 0..nv {
            value[Value::new(k)] = Value::new(k);
        }
        // A copy's value is its source's: link each copy to its source,
        // then point every value at the start of its chain (SSA chains of
        // reachable copies are acyclic; the bound is for safety).
        for &(dst, src) in &copy_of {
            value[dst] = src;
        }
        for &(dst, _) in &copy_of {
            let mut v = value[dst];
            let mut steps = 0;
            while value[v] != v && steps < 64 {
                v = value[v];
                steps += 1;
            }
            value[dst] = v;
        }
        let mut local_last: SecondaryMap<Value, u32> = SecondaryMap::with_capacity(nv, 0);
        let mut far_last: FxHashMap<(Value, Block), u32> = FxHashMap::default();
        for b in func.layout.blocks().filter(|&b| dt.is_reachable(b)) {
            for i in func.layout.block_insts(b) {
                let k = pos[i];
                dfg.insts[i].for_each_use(|v| match def[v] {
                    Some(d) if d.block == b => local_last[v] = local_last[v].max(k),
                    Some(_) => {
                        let e = far_last.entry((v, b)).or_insert(0);
                        *e = (*e).max(k);
                    }
                    None => {}
                });
            }
        }
        Interference {
            func,
            cfg,
            dt,
            live,
            def,
            local_last,
            far_last,
            value,
        }
    }

    /// Whether `v` has a definition point (it is defined in a reachable
    /// block and is not `Undef`).
    #[inline]
    pub(super) fn defined(&self, v: Value) -> bool {
        self.def[v].is_some()
    }

    /// The sort key of a defined value.
    pub(super) fn key(&self, v: Value) -> OrderKey {
        let d = self.def[v].expect("a defined value");
        (self.dt.preorder(d.block), d.pos, d.idx)
    }

    /// Whether `a`'s definition dominates `c`'s (strictly: a value does not
    /// dominate itself).
    pub(super) fn dominates(&self, a: Value, c: Value) -> bool {
        let (da, dc) = (self.def[a].expect("defined"), self.def[c].expect("defined"));
        if da.block == dc.block {
            (da.pos, da.idx) < (dc.pos, dc.idx)
        } else {
            self.dt.dominates(da.block, dc.block)
        }
    }

    /// The last position in `b` at which `v` is read (0: none).
    fn last_use(&self, v: Value, b: Block) -> u32 {
        match self.def[v] {
            Some(d) if d.block == b => self.local_last[v],
            _ => self.far_last.get(&(v, b)).copied().unwrap_or(0),
        }
    }

    /// Whether the live ranges of `a` and `c` intersect, given that `a`'s
    /// definition dominates `c`'s: whether `a` is live where `c` is
    /// defined.
    pub(super) fn intersect(&self, a: Value, c: Value) -> bool {
        let (da, dc) = (self.def[a].expect("defined"), self.def[c].expect("defined"));
        let b = dc.block;
        if dc.pos == 0 {
            // Parameters of one block are written together.
            return (da.block == b && da.pos == 0) || self.live.is_live_in(b, a);
        }
        if da.block == b && da.pos == dc.pos {
            // Results of one instruction.
            return true;
        }
        if self.live.is_live_out(b, a) {
            return true;
        }
        let last = self.last_use(a, b);
        match dc.tie {
            // The copy into a tied result runs before its instruction,
            // which still reads every operand other than the tie.
            Some(t) if t != a => last >= dc.pos,
            _ => last > dc.pos,
        }
    }

    /// Whether `a` and `c` are one value (one a copy of the other, or both
    /// copies of a third).
    #[inline]
    pub(super) fn same_value(&self, a: Value, c: Value) -> bool {
        self.value[a] == self.value[c]
    }

    /// The function analysed.
    pub(super) fn func(&self) -> &'f Function {
        self.func
    }
}

/// `(dst, src)` when `i` is an unguarded `mov` between two registers of
/// one class: its result holds the same value as its source.
fn same_class_copy(func: &Function, i: Inst) -> Option<(Value, Value)> {
    let d = &func.dfg.insts[i];
    if func.op(i).opcode != Opcode::Mov || d.guard.is_some() || !d.ties.is_empty() {
        return None;
    }
    match (d.operands.first(), d.operands.get(1), d.results.as_slice()) {
        (Some(Operand::Value(dst)), Some(Operand::Value(src)), &[r])
            if r == *dst
                && func.dfg.values[*dst].ty.reg_class() == func.dfg.values[*src].ty.reg_class()
                && !matches!(func.dfg.values[*src].def, ValueDef::Undef) =>
        {
            Some((*dst, *src))
        }
        _ => None,
    }
}
