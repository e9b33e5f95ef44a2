//! Value liveness: which values are live into and out of each block.
//!
//! A branch argument is a use at the end of its block; a block parameter is
//! a definition at the top of its block. Every block in the layout takes
//! part, reachable or not. Sets are rows of one flat bit matrix (block ×
//! value), so computing them costs a handful of allocations per function.

use crate::bitset::{set_bit as set, test_bit as has, BitMatrix as Matrix};
use crate::entity::{EntityRef, SecondaryMap};
use crate::function::Function;
use crate::{Block, ControlFlowGraph};

/// Live-in and live-out sets per block, over value indices.
pub struct Liveness {
    row: SecondaryMap<Block, u32>,
    live_in: Matrix,
    live_out: Matrix,
}

/// A read-only view of one live set.
#[derive(Clone, Copy)]
pub struct LiveSet<'a> {
    words: &'a [u64],
}

impl<'a> LiveSet<'a> {
    /// Whether value index `i` is in the set.
    #[inline]
    pub fn contains(&self, i: usize) -> bool {
        self.words
            .get(i / 64)
            .is_some_and(|w| w & (1 << (i % 64)) != 0)
    }
    /// The raw words (bit `i` is value index `i`).
    pub fn words(&self) -> &'a [u64] {
        self.words
    }
    /// Elements in increasing order.
    pub fn iter(&self) -> impl Iterator<Item = usize> + 'a {
        self.words.iter().enumerate().flat_map(|(wi, &w)| {
            let mut w = w;
            std::iter::from_fn(move || {
                if w == 0 {
                    return None;
                }
                let t = w.trailing_zeros() as usize;
                w &= w - 1;
                Some(wi * 64 + t)
            })
        })
    }
}

impl Liveness {
    /// Computes liveness by backward iteration to a fixed point.
    pub fn compute(func: &Function, cfg: &ControlFlowGraph) -> Self {
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
            row,
            live_in,
            live_out,
        }
    }

    fn view<'a>(&'a self, m: &'a Matrix, b: Block) -> LiveSet<'a> {
        match self.row[b] {
            u32::MAX => LiveSet { words: &[] },
            r => LiveSet {
                words: m.row(r as usize),
            },
        }
    }

    /// Values live on entry to `b` (not counting its parameters).
    pub fn live_in(&self, b: Block) -> LiveSet<'_> {
        self.view(&self.live_in, b)
    }

    /// Values live on exit from `b`.
    pub fn live_out(&self, b: Block) -> LiveSet<'_> {
        self.view(&self.live_out, b)
    }
}
