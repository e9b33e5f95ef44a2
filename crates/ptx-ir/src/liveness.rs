//! Value liveness: which values are live into and out of each block.
//!
//! A branch argument is a use at the end of its block; a block parameter is
//! a definition at the top of its block. Every block in the layout takes
//! part, reachable or not.
//!
//! Usual functions use bit matrices (block × value) and a fixed-point
//! iteration. When blocks × values would be large, sets are lists computed
//! value by value, walking backwards from each use to the definition, so
//! the cost is the total length of the live ranges — never blocks × values.

use crate::bitset::{set_bit as set, test_bit as has, BitMatrix as Matrix};
use crate::entity::{EntityRef, SecondaryMap};
use crate::function::Function;
use crate::{Block, ControlFlowGraph, Value, ValueDef};

/// Live-in and live-out sets per block.
pub struct Liveness {
    repr: Repr,
}

enum Repr {
    /// Bit matrices (block × value), for functions where that is small.
    Dense {
        row: SecondaryMap<Block, u32>,
        live_in: Matrix,
        live_out: Matrix,
    },
    /// A list per block.
    Sparse {
        live_in: SecondaryMap<Block, Vec<Value>>,
        live_out: SecondaryMap<Block, Vec<Value>>,
    },
}

/// Largest blocks × values handled with dense bit matrices (512 KiB each).
const DENSE_LIMIT: usize = 1 << 22;

impl Liveness {
    /// Computes liveness: with bit matrices and a fixed-point iteration for
    /// usual functions, value by value from the uses for large ones.
    pub fn compute(func: &Function, cfg: &ControlFlowGraph) -> Self {
        let blocks = func.layout.blocks().count();
        if blocks.saturating_mul(func.dfg.values.len()) <= DENSE_LIMIT {
            Self::compute_dense(func, cfg)
        } else {
            Self::compute_sparse(func, cfg)
        }
    }

    fn compute_dense(func: &Function, cfg: &ControlFlowGraph) -> Self {
        let nv = func.dfg.values.len();
        let blocks: Vec<Block> = func.layout.blocks().collect();
        let mut row = SecondaryMap::with_default(u32::MAX);
        for (k, &b) in blocks.iter().enumerate() {
            row[b] = k as u32;
        }
        let n = blocks.len();
        // Upward-exposed uses (start of live-in) and definitions per block.
        let mut live_in = Matrix::new(n, nv);
        let mut kill = Matrix::new(n, nv);
        for (k, &b) in blocks.iter().enumerate() {
            let kr = kill.row_mut(k);
            for &p in &func.dfg.blocks[b].params {
                set(kr, p.index());
            }
            let gr = live_in.row_mut(k);
            for i in func.layout.block_insts(b) {
                let d = &func.dfg.insts[i];
                d.for_each_use(|v| {
                    if !has(kr, v.index()) {
                        set(gr, v.index());
                    }
                });
                for &r in &d.results {
                    set(kr, r.index());
                }
            }
        }
        let mut live_out = Matrix::new(n, nv);
        let words = live_in.row_words();
        let mut scratch = vec![0u64; words];
        loop {
            let mut changed = false;
            for k in (0..n).rev() {
                scratch.iter_mut().for_each(|w| *w = 0);
                for &s in cfg.succs(blocks[k]) {
                    let sr = row[s];
                    if sr != u32::MAX {
                        for (a, b) in scratch.iter_mut().zip(live_in.row(sr as usize)) {
                            *a |= b;
                        }
                    }
                }
                let out = live_out.row_mut(k);
                let mut grew = false;
                for (o, s) in out.iter_mut().zip(&scratch) {
                    if *o | s != *o {
                        grew = true;
                        *o |= s;
                    }
                }
                if grew {
                    changed = true;
                    // in = gen ∪ (out − kill)
                    let (out, kr) = (live_out.row(k), kill.row(k));
                    for ((i, o), kw) in live_in.row_mut(k).iter_mut().zip(out).zip(kr) {
                        *i |= o & !kw;
                    }
                }
            }
            if !changed {
                break;
            }
        }
        Liveness {
            repr: Repr::Dense {
                row,
                live_in,
                live_out,
            },
        }
    }

    /// Propagates each value backwards from its uses to its definition.
    fn compute_sparse(func: &Function, cfg: &ControlFlowGraph) -> Self {
        let dfg = &func.dfg;
        // Where each value is defined and where it is used (upward-exposed:
        // a use in the defining block after the definition does not count).
        let mut def_block: SecondaryMap<Value, Option<Block>> =
            SecondaryMap::with_capacity(dfg.values.len(), None);
        let mut uses: Vec<(Value, Block)> = Vec::new();
        for b in func.layout.blocks() {
            for &p in &dfg.blocks[b].params {
                def_block[p] = Some(b);
            }
            for i in func.layout.block_insts(b) {
                let d = &dfg.insts[i];
                d.for_each_use(|v| {
                    if def_block[v] != Some(b) {
                        uses.push((v, b));
                    }
                });
                for &r in &d.results {
                    def_block[r] = Some(b);
                }
            }
        }
        let mut live_in: SecondaryMap<Block, Vec<Value>> = SecondaryMap::new();
        let mut live_out: SecondaryMap<Block, Vec<Value>> = SecondaryMap::new();
        // Per-block stamps (value index + 1) so each value marks a block once.
        let mut in_stamp: SecondaryMap<Block, u32> = SecondaryMap::new();
        let mut out_stamp: SecondaryMap<Block, u32> = SecondaryMap::new();
        uses.sort_unstable_by_key(|&(v, b)| (v.as_u32(), b.as_u32()));
        uses.dedup();
        let mut work: Vec<Block> = Vec::new();
        let mut k = 0;
        while k < uses.len() {
            let v = uses[k].0;
            let stamp = v.as_u32() + 1;
            let def = def_block[v];
            let undef = matches!(dfg.values[v].def, ValueDef::Undef);
            work.clear();
            while k < uses.len() && uses[k].0 == v {
                let b = uses[k].1;
                if in_stamp[b] != stamp {
                    in_stamp[b] = stamp;
                    live_in[b].push(v);
                    work.push(b);
                }
                k += 1;
            }
            while let Some(b) = work.pop() {
                for &p in cfg.preds(b) {
                    if out_stamp[p] != stamp {
                        out_stamp[p] = stamp;
                        live_out[p].push(v);
                    }
                    // The definition stops the walk (undefined values have
                    // none and are live back to the entry).
                    if (undef || def != Some(p)) && in_stamp[p] != stamp {
                        in_stamp[p] = stamp;
                        live_in[p].push(v);
                        work.push(p);
                    }
                }
            }
        }
        Liveness {
            repr: Repr::Sparse { live_in, live_out },
        }
    }

    /// Calls `f` on every value live on entry to `b` (not counting its
    /// parameters).
    pub fn for_each_live_in(&self, b: Block, f: impl FnMut(Value)) {
        match &self.repr {
            Repr::Dense { row, live_in, .. } => each_bit(live_in, row[b], f),
            Repr::Sparse { live_in, .. } => live_in[b].iter().copied().for_each(f),
        }
    }

    /// Whether `v` is live on entry to `b` (its parameters excluded).
    #[inline]
    pub fn is_live_in(&self, b: Block, v: Value) -> bool {
        match &self.repr {
            Repr::Dense { row, live_in, .. } => test_row(live_in, row[b], v),
            Repr::Sparse { live_in, .. } => sorted_contains(&live_in[b], v),
        }
    }

    /// Whether `v` is live on exit from `b`.
    #[inline]
    pub fn is_live_out(&self, b: Block, v: Value) -> bool {
        match &self.repr {
            Repr::Dense { row, live_out, .. } => test_row(live_out, row[b], v),
            Repr::Sparse { live_out, .. } => sorted_contains(&live_out[b], v),
        }
    }

    /// Calls `f` on every value live on exit from `b`.
    pub fn for_each_live_out(&self, b: Block, f: impl FnMut(Value)) {
        match &self.repr {
            Repr::Dense { row, live_out, .. } => each_bit(live_out, row[b], f),
            Repr::Sparse { live_out, .. } => live_out[b].iter().copied().for_each(f),
        }
    }
}

/// The most 32-bit register units live at once anywhere in `func`, in
/// layout order (predicates do not count, a 64-bit value counts two): a
/// proxy of the registers the function needs, for passes that must not
/// raise them. ptxas schedules and allocates on its own, so this is an
/// estimate, not its count.
pub fn max_pressure(func: &Function, live: &Liveness) -> u32 {
    let units = |v: Value| -> u32 {
        let t = func.dfg.value_type(v);
        if t == crate::Type::Pred {
            0
        } else {
            t.bits().div_ceil(32)
        }
    };
    let mut set: rustc_hash::FxHashSet<Value> = rustc_hash::FxHashSet::default();
    let mut worst = 0;
    let mut insts: Vec<crate::Inst> = Vec::new();
    for b in func.layout.blocks() {
        set.clear();
        let mut now = 0u32;
        live.for_each_live_out(b, |v| {
            if set.insert(v) {
                now += units(v);
            }
        });
        worst = worst.max(now);
        insts.clear();
        insts.extend(func.layout.block_insts(b));
        for &i in insts.iter().rev() {
            let d = &func.dfg.insts[i];
            for &r in &d.results {
                if set.remove(&r) {
                    now -= units(r);
                }
            }
            d.for_each_use(|v| {
                if set.insert(v) {
                    now += units(v);
                }
            });
            worst = worst.max(now);
        }
    }
    worst
}

fn test_row(m: &Matrix, row: u32, v: Value) -> bool {
    row != u32::MAX && has(m.row(row as usize), v.index())
}

/// Membership in a sparse set: its values were pushed in increasing order
/// (the sets are filled value by value, in value order).
fn sorted_contains(list: &[Value], v: Value) -> bool {
    list.binary_search_by_key(&v.as_u32(), |w| w.as_u32())
        .is_ok()
}

fn each_bit(m: &Matrix, row: u32, mut f: impl FnMut(Value)) {
    if row == u32::MAX {
        return;
    }
    for i in crate::bitset::iter_bits(m.row(row as usize)) {
        f(Value::new(i));
    }
}
