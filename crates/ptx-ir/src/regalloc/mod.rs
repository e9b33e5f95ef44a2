//! Leaving SSA: give every value a PTX register, and find the copies that
//! block arguments and tied results then need.
//!
//! Two paths:
//!
//! * **As built** ([`assign_as_built`], `as_built.rs`): for a function as
//!   SSA construction left it, one walk gives each hint (source register)
//!   its register, with no liveness and no copies. Debug builds also run
//!   the general path and assert both agree.
//! * **General** ([`assign`]), after a pass changed the function:
//!   1. congruence classes seeded from the hints, values that really
//!      interfere split off, then coalesced along block arguments and ties
//!      (`coalesce.rs`, with value-based interference from
//!      `interference.rs`);
//!   2. one register per class: the source's own number where the source
//!      named it by number, else numbered per register class in print
//!      order above the source's numbers, as LLVM does (`%r1`, `%rd1`, …;
//!      `numbering.rs`);
//!   3. the parallel copies of the edges and tied results whose ends ended
//!      up apart, sequentialized with at most one temporary per register
//!      class (`parallel_copy.rs`), each edge's copies placed at the end of
//!      its predecessor, the top of its successor, or, only when neither
//!      is safe, in a block of their own (`placement.rs`).
//!
//! Invariants of the result: values that are live at once hold different
//! registers unless they hold the same value; every reachable edge and
//! tied result leaves each parameter and result holding what SSA says.
//! Code in unreachable blocks gets registers but no copies (it never
//! runs), and a copy from an `Undef` value is never made (any contents
//! will do).

mod as_built;
mod check;
mod coalesce;
mod interference;
mod numbering;
mod parallel_copy;
mod placement;

pub(crate) use as_built::AsBuiltNamer;
pub use check::check_assignment;

use crate::dfg::InstData;
use crate::entity::{EntityRef, SecondaryMap};
use crate::function::Function;
use crate::types::Type;
use crate::{Block, Inst, Value};
use coalesce::{Affinity, Classes};
use interference::Interference;
use numbering::Numbering;
use placement::Place;
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
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Copy {
    /// Destination register.
    pub dst: Reg,
    /// Source register.
    pub src: Reg,
}

/// What leaving SSA added to a function (or, summed, to a module).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CopyStats {
    /// `mov`s printed for copies (temporaries included).
    pub movs: u32,
    /// Blocks made for edges whose copies had nowhere else to go.
    pub blocks: u32,
}

impl std::ops::AddAssign for CopyStats {
    fn add_assign(&mut self, o: CopyStats) {
        self.movs += o.movs;
        self.blocks += o.blocks;
    }
}

/// The result of leaving SSA.
pub struct Assignment {
    reg: SecondaryMap<Value, Option<Reg>>,
    /// Highest number used per class.
    pub counts: FxHashMap<Type, u32>,
    /// Sequential copies to run just before an instruction: the copies of
    /// its tied results, and for a terminator the copies of the edges
    /// placed at the end of its block.
    pub before: FxHashMap<Inst, Vec<Copy>>,
    /// Sequential copies at the top of a block, for the edge from its only
    /// predecessor.
    pub at_top: FxHashMap<Block, Vec<Copy>>,
    /// Sequential copies of an edge `(terminator, target index)` that needs
    /// a block of its own: a trampoline for the taken edge of a guarded
    /// `bra`, the code after the terminator for a fall-through edge.
    pub edges: FxHashMap<(Inst, u32), Vec<Copy>>,
    /// What the copies cost.
    pub stats: CopyStats,
}

impl Assignment {
    /// No registers and no copies (allocates nothing).
    pub(crate) fn empty() -> Assignment {
        Self::without_copies(SecondaryMap::with_capacity(0, None), FxHashMap::default())
    }

    fn without_copies(
        reg: SecondaryMap<Value, Option<Reg>>,
        counts: FxHashMap<Type, u32>,
    ) -> Assignment {
        Assignment {
            reg,
            counts,
            before: FxHashMap::default(),
            at_top: FxHashMap::default(),
            edges: FxHashMap::default(),
            stats: CopyStats::default(),
        }
    }

    /// The register of `v`.
    pub fn reg(&self, v: Value) -> Reg {
        self.reg[v].unwrap_or(Reg {
            class: Type::B32,
            num: 0,
        })
    }

    /// Whether no copy is needed anywhere.
    pub fn has_no_copies(&self) -> bool {
        self.before.is_empty() && self.at_top.is_empty() && self.edges.is_empty()
    }
}

/// Computes the register assignment of `func`.
pub fn assign(func: &Function) -> Assignment {
    assign_general(func)
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
        let full = assign_general(func);
        assert!(
            full.has_no_copies(),
            "assign_as_built on '{}': hint groups interfere",
            func.name
        );
        let Some(fast) = fast else { return full };
        let nv = func.dfg.values.len();
        assert!(
            (0..nv).all(|k| fast.reg[Value::new(k)] == full.reg[Value::new(k)])
                && fast.counts == full.counts,
            "assign_as_built on '{}': the one-walk assignment differs",
            func.name
        );
        return fast;
    }
    fast.unwrap_or_else(|| assign_general(func))
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

/// The public map of highest numbers from per-class counts that are one
/// more than the highest number (classes in use only).
fn counts_of(count: &[u32; Type::ALL.len()]) -> FxHashMap<Type, u32> {
    Type::ALL
        .iter()
        .filter(|&&t| count[t as usize] > 0)
        .map(|&t| (t, count[t as usize] - 1))
        .collect()
}

/// Comparisons the coalescer may spend per value (plus a floor): a linear
/// bound for huge functions.
const COALESCE_WORK_PER_VALUE: u64 = 64;
const COALESCE_WORK_FLOOR: u64 = 1 << 20;

/// Whether some value could need a copy or share a register with another:
/// a block parameter, a tied result, or two values of one hint.
fn needs_analysis(func: &Function) -> bool {
    let dfg = &func.dfg;
    let mut seen: rustc_hash::FxHashSet<(u32, Type)> = rustc_hash::FxHashSet::default();
    for b in func.layout.blocks() {
        if !dfg.blocks[b].params.is_empty() {
            return true;
        }
        for i in func.layout.block_insts(b) {
            let d = &dfg.insts[i];
            if !d.ties.is_empty() {
                return true;
            }
            for &r in &d.results {
                let v = &dfg.values[r];
                if let Some(h) = v.hint {
                    if !seen.insert((h, v.ty.reg_class())) {
                        return true;
                    }
                }
            }
        }
    }
    false
}

fn assign_general(func: &Function) -> Assignment {
    let dfg = &func.dfg;
    let nv = dfg.values.len();
    let mut order: Vec<Value> = Vec::with_capacity(nv);
    for_each_in_print_order(func, |v| order.push(v));

    let mut numbers = Numbering::new(func);
    if !needs_analysis(func) {
        // Every value is alone in its register: number them in print order.
        let mut reg: SecondaryMap<Value, Option<Reg>> = SecondaryMap::with_capacity(nv, None);
        let mut hint_reg: FxHashMap<(u32, Type), Reg> = FxHashMap::default();
        for &v in &order {
            if reg[v].is_some() {
                continue;
            }
            let d = &dfg.values[v];
            let class = d.ty.reg_class();
            // Undefined values (never results) share their hint's register.
            reg[v] = Some(match d.hint {
                Some(h) => *hint_reg
                    .entry((h, class))
                    .or_insert_with(|| numbers.next(class, numbering::source_reg(func, h))),
                None => numbers.next(class, None),
            });
        }
        return Assignment::without_copies(reg, counts_of(numbers.counts()));
    }

    let ix = Interference::compute(func);
    let mut defined: Vec<Value> = (0..nv).map(Value::new).filter(|&v| ix.defined(v)).collect();
    defined.sort_by_key(|&v| ix.key(v));
    let mut classes = Classes::seed(&ix, &defined);
    let budget = COALESCE_WORK_FLOOR + COALESCE_WORK_PER_VALUE * nv as u64;
    let mut affinities = affinities(&ix, &classes);
    classes.coalesce(&ix, &mut affinities, budget);
    classes.place_unchecked(&ix);

    // One register per class, numbered in print order (the source's number
    // of the hint of the class's first value met, where free).
    let mut reg: SecondaryMap<Value, Option<Reg>> = SecondaryMap::with_capacity(nv, None);
    let mut class_reg: Vec<Option<Reg>> = vec![None; classes.len()];
    for &v in &order {
        if reg[v].is_some() {
            continue;
        }
        let k = classes.of[v] as usize;
        let preferred = dfg.values[v]
            .hint
            .and_then(|h| numbering::source_reg(func, h));
        let r = *class_reg[k].get_or_insert_with(|| numbers.next(classes.ty[k], preferred));
        reg[v] = Some(r);
    }
    let mut a = Assignment::without_copies(reg, FxHashMap::default());
    copies(&ix, &mut a, &mut numbers);
    a.counts = counts_of(numbers.counts());
    if cfg!(debug_assertions) && nv <= DEBUG_CHECK_VALUES {
        if let Err(e) = check_assignment(func, &a) {
            panic!("leaving SSA: {e}");
        }
    }
    a
}

/// Debug builds check every assignment of functions up to this many values
/// with [`check_assignment`].
const DEBUG_CHECK_VALUES: usize = 20_000;

/// The copies the classes did not make unnecessary, by weight: copies in
/// deeper loops first, then those on critical edges (which would need a
/// block of their own), then the rest.
fn affinities(ix: &Interference, classes: &Classes) -> Vec<Affinity> {
    let func = ix.func();
    let dfg = &func.dfg;
    let loops = crate::loops::LoopInfo::compute(func, &ix.cfg, &ix.dt);
    let mut out = Vec::new();
    let mut push = |a: Value, b: Value, weight: u32| {
        if ix.defined(a) && ix.defined(b) && classes.of[a] != classes.of[b] {
            out.push(Affinity { a, b, weight });
        }
    };
    for &b in ix.dt.rpo() {
        let w = loops.depth(b).min(1000) * 4;
        for i in func.layout.block_insts(b) {
            let d = &dfg.insts[i];
            for (&r, &t) in d.results.iter().zip(&d.ties) {
                push(r, t, w + 1);
            }
            let many_succs = ix.cfg.succs(b).len() > 1;
            for call in &d.targets {
                let critical = many_succs && ix.cfg.preds(call.block).len() > 1;
                let params = &dfg.blocks[call.block].params;
                for (&p, &x) in params.iter().zip(&call.args) {
                    push(p, x, w + 2 * u32::from(critical));
                }
            }
        }
    }
    out
}

/// Fills `a` with the copies of every reachable tied result and edge whose
/// ends got different registers, sequentialized and placed; `numbers`
/// gives the temporaries their numbers.
fn copies(ix: &Interference, a: &mut Assignment, numbers: &mut Numbering) {
    let func = ix.func();
    let dfg = &func.dfg;
    // One temporary per class, numbered after every other register.
    let mut temp: FxHashMap<Type, Reg> = FxHashMap::default();
    let mut temp_of = |r: Reg| {
        *temp
            .entry(r.class)
            .or_insert_with(|| numbers.temporary(r.class))
    };
    let reg_of = |v: Value| a.reg(v);
    let mut before: FxHashMap<Inst, Vec<Copy>> = FxHashMap::default();
    let mut at_top: FxHashMap<Block, Vec<Copy>> = FxHashMap::default();
    let mut edges: FxHashMap<(Inst, u32), Vec<Copy>> = FxHashMap::default();
    let mut stats = CopyStats::default();
    let parallel = |pairs: &mut dyn Iterator<Item = (Value, Value)>| -> Vec<Copy> {
        pairs
            .filter(|&(_, src)| ix.defined(src))
            .map(|(dst, src)| Copy {
                dst: reg_of(dst),
                src: reg_of(src),
            })
            .filter(|c| c.dst != c.src)
            .collect()
    };
    for &b in ix.dt.rpo() {
        for i in func.layout.block_insts(b) {
            let d = &dfg.insts[i];
            if !d.ties.is_empty() {
                let par = parallel(&mut d.results.iter().copied().zip(d.ties.iter().copied()));
                if !par.is_empty() {
                    let seq = parallel_copy::sequentialize(&par, &mut temp_of);
                    stats.movs += seq.len() as u32;
                    before.insert(i, seq);
                }
            }
        }
        let Some(term) = func.layout.last_inst(b) else {
            continue;
        };
        let d = &dfg.insts[term];
        let par: Vec<Vec<Copy>> = d
            .targets
            .iter()
            .map(|t| {
                let params = &dfg.blocks[t.block].params;
                parallel(&mut params.iter().copied().zip(t.args.iter().copied()))
            })
            .collect();
        if par.iter().all(Vec::is_empty) {
            continue;
        }
        let places = placement::place_edges(ix, &reg_of, b, term, &par);
        for (k, (place, copies)) in places.into_iter().enumerate() {
            if copies.is_empty() {
                continue;
            }
            let seq = parallel_copy::sequentialize(&copies, &mut temp_of);
            stats.movs += seq.len() as u32;
            match place {
                Place::BeforeTerminator => before.entry(term).or_default().extend(seq),
                Place::TopOfSuccessor => {
                    at_top.insert(d.targets[k].block, seq);
                }
                Place::Split => {
                    stats.blocks += 1;
                    edges.insert((term, k as u32), seq);
                }
            }
        }
    }
    a.before = before;
    a.at_top = at_top;
    a.edges = edges;
    a.stats = stats;
}
