//! Leaving SSA: assign every value a PTX register, and find the copies that
//! block arguments and tied results need.
//!
//! Values that came from the same source register carry the same *hint*.
//! Each hint group is checked for interference with one backward walk over
//! every block (two members live at once, or a member defined while
//! another is live). A group without interference shares one register — for
//! freshly parsed code that is the case in every reachable block, so
//! printing adds no copies and is idempotent. A group with interference
//! (possible after a transformation) falls back to one register per value,
//! with copies on edges and before tied definitions; correct, not minimal.
//!
//! Registers are numbered per register class in print order, from 1, as
//! LLVM does (`%r1`, `%rd1`, …).
//!
//! [`assign_as_built`] is for a function known to be as SSA construction
//! left it, where no group interferes in reachable code: one walk gives
//! each hint its register, with no interference check, no liveness and no
//! copies; debug builds also run the general path (over reachable blocks)
//! and assert both agree.

use crate::bitset::BitSet;
use crate::dfg::InstData;
use crate::entity::{EntityRef, SecondaryMap};
use crate::function::Function;
use crate::liveness::Liveness;
use crate::types::Type;
use crate::{Block, ControlFlowGraph, DominatorTree, Inst, Value};
use rustc_hash::FxHashMap;

/// A physical (printed) register: class and number.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Reg {
    /// Register class.
    pub class: Type,
    /// Number within the class (from 1).
    pub num: u32,
}

/// One copy `dst := src`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Copy {
    /// Destination register.
    pub dst: Reg,
    /// Source register.
    pub src: Reg,
}

/// The result of leaving SSA.
pub struct Assignment {
    reg: SecondaryMap<Value, Option<Reg>>,
    /// Highest number used per class.
    pub counts: FxHashMap<Type, u32>,
    /// Copies to run just before an instruction (tied results).
    pub before: FxHashMap<Inst, Vec<Copy>>,
    /// Sequential copies for the edge `(terminator, target index)`.
    pub edges: FxHashMap<(Inst, u32), Vec<Copy>>,
}

impl Assignment {
    /// No registers and no copies (allocates nothing).
    pub(crate) fn empty() -> Assignment {
        Assignment {
            reg: SecondaryMap::with_capacity(0, None),
            counts: FxHashMap::default(),
            before: FxHashMap::default(),
            edges: FxHashMap::default(),
        }
    }

    /// The register of `v`.
    pub fn reg(&self, v: Value) -> Reg {
        self.reg[v].unwrap_or(Reg {
            class: Type::B32,
            num: 0,
        })
    }
}

const NO_GROUP: u32 = u32::MAX;

/// Computes the register assignment of `func`.
pub fn assign(func: &Function) -> Assignment {
    assign_with(func, false)
}

/// The register assignment of a function exactly as SSA construction built
/// it from parsed code (or after passes that all reported no change): a
/// source register holds one value at a time, so in reachable code values
/// sharing its hint never interfere and the check is skipped (unreachable
/// blocks, which never run, keep the source's register too). Calling this
/// on an edited function may merge values that interfere; use [`assign`]
/// then.
pub fn assign_as_built(func: &Function) -> Assignment {
    as_built_checked(func, assign_by_hint(func))
}

/// The as-built assignment from `fast`, the one-walk result (`None`: it
/// gave up); debug builds also run the general path and assert both agree.
pub(crate) fn as_built_checked(func: &Function, fast: Option<Assignment>) -> Assignment {
    if cfg!(debug_assertions) {
        // The general path, which also asserts that no group interferes.
        let full = assign_with(func, true);
        let Some(fast) = fast else { return full };
        let nv = func.dfg.values.len();
        assert!(
            (0..nv).all(|k| fast.reg[Value::new(k)] == full.reg[Value::new(k)])
                && fast.counts == full.counts
                && full.before.is_empty()
                && full.edges.is_empty(),
            "assign_as_built on '{}': the one-walk assignment differs",
            func.name
        );
        return fast;
    }
    fast.unwrap_or_else(|| assign_with(func, true))
}

/// Calls `f` on every value of `func` in print order (block parameters,
/// then per instruction: guard, operands, tied values, results, branch
/// arguments); numbering registers in this order makes them deterministic.
fn for_each_in_print_order(func: &Function, mut f: impl FnMut(Value)) {
    let dfg = &func.dfg;
    for b in func.layout.blocks() {
        for &p in &dfg.blocks[b].params {
            f(p);
        }
        for i in func.layout.block_insts(b) {
            let d = &dfg.insts[i];
            if let Some(g) = d.guard {
                f(g.pred);
            }
            for o in &d.operands {
                o.for_each_value(&mut f);
            }
            for_each_after_operands(d, &mut f);
        }
    }
}

/// The part of an instruction's print order after its guard and operands:
/// tied values, results, branch arguments (the values a printed body does
/// not show).
pub(crate) fn for_each_after_operands(d: &InstData, mut f: impl FnMut(Value)) {
    d.ties.iter().copied().for_each(&mut f);
    d.results.iter().copied().for_each(&mut f);
    for t in &d.targets {
        t.args.iter().copied().for_each(&mut f);
    }
}

/// The as-built assignment in one walk (see [`AsBuiltNamer`]); `None` if
/// two values of one hint differ in register class (the general path then
/// decides).
fn assign_by_hint(func: &Function) -> Option<Assignment> {
    let mut namer = AsBuiltNamer::new(func);
    for_each_in_print_order(func, |v| {
        namer.reg(func, v);
    });
    namer.finish()
}

/// The as-built registers, handed out as values are met in print order:
/// every value with a hint shares its hint's register, the others get
/// their own; no copies are needed, since tied values and branch arguments
/// share a hint with what they feed. The printer names values this way
/// while it prints, meeting them in the order of
/// `for_each_in_print_order`, so that the function is walked once.
pub(crate) struct AsBuiltNamer {
    reg: SecondaryMap<Value, Option<Reg>>,
    hint_reg: Vec<Option<Reg>>,
    count: [u32; Type::ALL.len()],
    /// Cleared when two values of one hint differ in register class.
    ok: bool,
}

impl AsBuiltNamer {
    pub(crate) fn new(func: &Function) -> Self {
        AsBuiltNamer {
            reg: SecondaryMap::with_capacity(func.dfg.values.len(), None),
            // Hints are source registers: fewer than values.
            hint_reg: Vec::with_capacity(func.dfg.values.len()),
            count: [0; Type::ALL.len()],
            ok: true,
        }
    }

    /// The register of `v`, given on its first meeting.
    #[inline]
    pub(crate) fn reg(&mut self, func: &Function, v: Value) -> Reg {
        match self.reg[v] {
            Some(r) => r,
            None => self.first(func, v),
        }
    }

    fn first(&mut self, func: &Function, v: Value) -> Reg {
        let d = &func.dfg.values[v];
        let class = d.ty.reg_class();
        let count = &mut self.count;
        let mut fresh = || {
            count[class as usize] += 1;
            Reg {
                class,
                num: count[class as usize],
            }
        };
        let r = match d.hint {
            Some(h) => {
                let h = h as usize;
                if self.hint_reg.len() <= h {
                    self.hint_reg.resize(h + 1, None);
                }
                match self.hint_reg[h] {
                    Some(r) => {
                        self.ok &= r.class == class;
                        r
                    }
                    None => *self.hint_reg[h].insert(fresh()),
                }
            }
            None => fresh(),
        };
        self.reg[v] = Some(r);
        r
    }

    /// The assignment of every value met; `None` if a hint's values
    /// differ in class.
    pub(crate) fn finish(self) -> Option<Assignment> {
        self.ok.then(|| Assignment {
            reg: self.reg,
            counts: counts_of(&self.count),
            before: FxHashMap::default(),
            edges: FxHashMap::default(),
        })
    }
}

/// The per-class counts as the public map (classes in use only).
fn counts_of(count: &[u32; Type::ALL.len()]) -> FxHashMap<Type, u32> {
    Type::ALL
        .iter()
        .filter(|&&t| count[t as usize] > 0)
        .map(|&t| (t, count[t as usize]))
        .collect()
}

fn assign_with(func: &Function, as_built: bool) -> Assignment {
    let dfg = &func.dfg;
    let nv = dfg.values.len();
    // Group ids: hint groups first, then singletons.
    let mut group: SecondaryMap<Value, u32> = SecondaryMap::with_capacity(nv, NO_GROUP);
    let mut group_ty: Vec<Type> = Vec::new();
    // Group of each hint (source register), indexed by hint.
    let mut hint_group: Vec<u32> = Vec::new();
    let mut conflict: Vec<bool> = Vec::new();
    let mut seen = |v: Value,
                    group: &mut SecondaryMap<Value, u32>,
                    group_ty: &mut Vec<Type>,
                    conflict: &mut Vec<bool>| {
        if group[v] != NO_GROUP {
            return;
        }
        let d = &dfg.values[v];
        let slot = match d.hint {
            Some(h) => {
                let h = h as usize;
                if hint_group.len() <= h {
                    hint_group.resize(h + 1, NO_GROUP);
                }
                Some(h)
            }
            None => None,
        };
        let g = match slot.map(|h| hint_group[h]) {
            Some(g) if g != NO_GROUP => g,
            _ => {
                group_ty.push(d.ty.reg_class());
                conflict.push(false);
                let g = (group_ty.len() - 1) as u32;
                if let Some(h) = slot {
                    hint_group[h] = g;
                }
                g
            }
        };
        if group_ty[g as usize] != d.ty.reg_class() {
            conflict[g as usize] = true;
        }
        group[v] = g;
    };
    let blocks: Vec<Block> = func.layout.blocks().collect();
    let mut order: Vec<Value> = Vec::with_capacity(nv);
    for_each_in_print_order(func, |v| order.push(v));
    for &v in &order {
        seen(v, &mut group, &mut group_ty, &mut conflict);
    }

    // Only a group of two or more values can interfere; functions whose
    // registers are each written once (most compiler output) have none.
    let mut members: Vec<u32> = vec![0; group_ty.len()];
    for k in 0..nv {
        let g = group[Value::new(k)];
        if g != NO_GROUP {
            members[g as usize] += 1;
        }
    }
    let shared_groups = members.iter().any(|&n| n > 1);
    if (!as_built || cfg!(debug_assertions)) && shared_groups {
        // (Reached with `as_built` only in debug builds, to assert it.)
        let before = as_built.then(|| conflict.clone());
        // A lone block without successors has nothing live out of it.
        let single = blocks.len() == 1
            && func
                .layout
                .last_inst(blocks[0])
                .is_none_or(|t| dfg.insts[t].targets.is_empty());
        let cfg = (!single).then(|| ControlFlowGraph::compute(func));
        let live = cfg.as_ref().map(|cfg| Liveness::compute(func, cfg));
        // As built, values of one register overlap only in unreachable
        // blocks (renamed with nothing defined on entry, while liveness
        // still flows through them); code that never runs may share the
        // register as the source did, so only reachable blocks count.
        let checked: Vec<Block> = match (&cfg, as_built) {
            (Some(cfg), true) => reachable(func, cfg, &blocks),
            _ => blocks.clone(),
        };
        check_groups(func, &checked, live.as_ref(), &group, &mut conflict);
        if let Some(before) = before {
            assert_eq!(
                before, conflict,
                "assign_as_built on '{}': hint groups interfere",
                func.name
            );
        }
    }

    // Number registers in print order.
    let mut reg: SecondaryMap<Value, Option<Reg>> = SecondaryMap::with_capacity(nv, None);
    let mut group_reg: Vec<Option<Reg>> = vec![None; group_ty.len()];
    // Per class, indexed by the class's discriminant.
    let mut count = [0u32; Type::ALL.len()];
    for &v in &order {
        if reg[v].is_some() {
            continue;
        }
        let g = group[v] as usize;
        let shared = !conflict[g];
        let r = match (shared, group_reg[g]) {
            (true, Some(r)) => r,
            _ => {
                let class = dfg.values[v].ty.reg_class();
                let c = &mut count[class as usize];
                *c += 1;
                let r = Reg { class, num: *c };
                if shared {
                    group_reg[g] = Some(r);
                }
                r
            }
        };
        reg[v] = Some(r);
    }

    let mut a = Assignment {
        reg,
        counts: counts_of(&count),
        before: FxHashMap::default(),
        edges: FxHashMap::default(),
    };
    // Copies for tied results and block arguments that ended up apart.
    for &b in &blocks {
        for i in func.layout.block_insts(b) {
            let d = &dfg.insts[i];
            let mut copies = Vec::new();
            for (&r, &t) in d.results.iter().zip(&d.ties) {
                if a.reg(r) != a.reg(t) {
                    copies.push(Copy {
                        dst: a.reg(r),
                        src: a.reg(t),
                    });
                }
            }
            if !copies.is_empty() {
                a.before.insert(i, copies);
            }
            for (k, t) in d.targets.iter().enumerate() {
                let params = &dfg.blocks[t.block].params;
                let par: Vec<Copy> = params
                    .iter()
                    .zip(&t.args)
                    .map(|(&p, &x)| Copy {
                        dst: a.reg(p),
                        src: a.reg(x),
                    })
                    .filter(|c| c.dst != c.src)
                    .collect();
                if !par.is_empty() {
                    let seq = sequentialize(par, &mut a.counts);
                    a.edges.insert((i, k as u32), seq);
                }
            }
        }
    }
    a
}

/// The blocks of `blocks` reachable from the entry, in the same order.
/// (No reachable block has an unreachable successor, so their liveness is
/// not affected by the unreachable ones.)
fn reachable(func: &Function, cfg: &ControlFlowGraph, blocks: &[Block]) -> Vec<Block> {
    let dt = DominatorTree::compute(func, cfg);
    blocks
        .iter()
        .copied()
        .filter(|&b| dt.is_reachable(b))
        .collect()
}

/// Marks every group in which two members are live at the same point, or a
/// member is defined while another is live.
///
/// `Undef` values never count as live: their contents are unspecified, so
/// whatever their register holds is as good a value as any. (Otherwise a
/// register read in code reachable only from unreachable blocks, which SSA
/// construction renames with nothing defined, would split its group.)
fn check_groups(
    func: &Function,
    blocks: &[Block],
    live: Option<&Liveness>,
    group: &SecondaryMap<Value, u32>,
    conflict: &mut [bool],
) {
    let dfg = &func.dfg;
    let is_undef = |v: Value| matches!(dfg.values[v].def, crate::dfg::ValueDef::Undef);
    let mut count: Vec<u32> = vec![0; conflict.len()];
    let mut set = BitSet::new(dfg.values.len());
    let mut members: Vec<Value> = Vec::new();
    let mut touched: Vec<u32> = Vec::new();
    for &b in blocks {
        // `set` is empty here; fill it with the block's live-out values.
        if let Some(live) = live {
            live.for_each_live_out(b, |v| {
                if set.insert(v.index()) {
                    members.push(v);
                }
            });
        }
        for &v in &members {
            let g = group[v];
            if g == NO_GROUP || is_undef(v) {
                continue;
            }
            count[g as usize] += 1;
            touched.push(g);
            if count[g as usize] > 1 {
                conflict[g as usize] = true;
            }
        }
        let mut cur = func.layout.last_inst(b);
        while let Some(i) = cur {
            let d = &dfg.insts[i];
            for &r in &d.results {
                let g = group[r] as usize;
                let self_live = set.remove(r.index());
                if self_live {
                    count[g] -= 1;
                }
                if count[g] > 0 {
                    conflict[g] = true;
                }
            }
            d.for_each_use(|v| {
                if !is_undef(v) && set.insert(v.index()) {
                    members.push(v);
                    let g = group[v] as usize;
                    count[g] += 1;
                    touched.push(g as u32);
                    if count[g] > 1 {
                        conflict[g] = true;
                    }
                }
            });
            cur = func.layout.prev_inst(i);
        }
        for &p in &dfg.blocks[b].params {
            let g = group[p] as usize;
            if set.remove(p.index()) {
                count[g] -= 1;
            }
            if count[g] > 0 {
                conflict[g] = true;
            }
        }
        for &g in &touched {
            count[g as usize] = 0;
        }
        touched.clear();
        // Empty the set for the next block, touching only what was added.
        for v in members.drain(..) {
            set.remove(v.index());
        }
    }
}

/// Orders a parallel copy so that no source is overwritten before it is
/// read, breaking cycles with a fresh register of the class.
fn sequentialize(mut pending: Vec<Copy>, counts: &mut FxHashMap<Type, u32>) -> Vec<Copy> {
    let mut out = Vec::with_capacity(pending.len() + 1);
    while !pending.is_empty() {
        // A copy whose destination no other pending copy reads can go now.
        if let Some(k) =
            (0..pending.len()).find(|&k| !pending.iter().any(|c| c.src == pending[k].dst))
        {
            out.push(pending.swap_remove(k));
            continue;
        }
        // Only cycles remain: save one destination in a temporary.
        let c = pending[0];
        let n = counts.entry(c.dst.class).or_insert(0);
        *n += 1;
        let tmp = Reg {
            class: c.dst.class,
            num: *n,
        };
        out.push(Copy {
            dst: tmp,
            src: c.dst,
        });
        for p in pending.iter_mut() {
            if p.src == c.dst {
                p.src = tmp;
            }
        }
    }
    out
}
