//! Proofs by exhaustive simulation, for the functional reduction
//! ([`super::equiv`]): when two signals (or one, asked to be constant)
//! depend on at most [`MAX_INPUTS`] network inputs together, their cones
//! are simulated on every assignment of those inputs. That decides the
//! query exactly, with a counterexample when it fails, and costs the
//! cones' size times `⌈2^inputs / 64⌉` words, where SAT on the xor-rich
//! logic of an S-box (eight inputs) spent most of the pass's time.
//!
//! Inputs are what SAT takes as free variables: leaves (an immediate too,
//! so a proof holds for every value of it) and guarded nodes.
//!
//! **Cost.** A query's cones may have at most [`MAX_CONE`] signals, and
//! all queries of a network together [`TOTAL_WORK`] node-words; past
//! either, the query goes to SAT.
//!
//! **Invariants.** Signals are in topological order (a node's fanins
//! have smaller indices), so the sorted cone simulates in order.
//! `support[s]` is the sorted set of inputs signal `s`
//! depends on structurally, or `None` once that is more than
//! [`MAX_INPUTS`]; a `Proved` answer holds on every assignment of the
//! support, hence for every input.

use super::*;
use smallvec::SmallVec;

/// Inputs a query may have for an exhaustive answer (64 words a signal).
pub(super) const MAX_INPUTS: usize = 12;
/// Signals the two cones of one query may have: deep logic over a few
/// inputs (a random network of 100,000 nodes over four words) makes every
/// cone most of the network, and simulating it per query would be
/// quadratic; such queries go to SAT, which has its own budgets.
const MAX_CONE: usize = 2048;
/// Node-words all queries of one network may simulate.
const TOTAL_WORK: usize = 1 << 24;

type Support = SmallVec<[u32; MAX_INPUTS]>;

/// What an exhaustive query found.
pub(super) enum Verdict {
    /// Equal (or constant) on every assignment.
    Proved,
    /// Not: the value of each support input on a row where it fails.
    Refuted(SmallVec<[(u32, bool); MAX_INPUTS]>),
}

/// The supports of every signal, and scratch for the simulations.
pub(super) struct Exhaust {
    support: Vec<Option<Support>>,
    /// Per signal, its slot in `values` for the current query
    /// (`u32::MAX` when not in the cones).
    slot: Vec<u32>,
    values: Vec<u64>,
    cone: Vec<u32>,
    stack: Vec<u32>,
    /// Node-words simulated so far.
    work: usize,
}

impl Exhaust {
    /// Supports of every signal of `net`; `input(s)` says which signals
    /// are free inputs.
    pub(super) fn new(net: &Network, input: impl Fn(usize) -> bool) -> Self {
        let mut support: Vec<Option<Support>> = Vec::with_capacity(net.sigs.len());
        for s in 0..net.sigs.len() {
            let set = if input(s) {
                Some(smallvec::smallvec![s as u32])
            } else {
                let Sig::Node(n) = net.sigs[s] else {
                    unreachable!("a leaf is an input")
                };
                let mut set = Support::new();
                let mut ok = true;
                for f in &net.nodes[n as usize].fanins {
                    let Fanin::Sig(t) = *f else { continue };
                    match &support[t as usize] {
                        Some(sub) => {
                            if !union_into(&mut set, sub, MAX_INPUTS) {
                                ok = false;
                                break;
                            }
                        }
                        None => {
                            ok = false;
                            break;
                        }
                    }
                }
                ok.then_some(set)
            };
            support.push(set);
        }
        Exhaust {
            support,
            slot: vec![u32::MAX; net.sigs.len()],
            values: Vec::new(),
            cone: Vec::new(),
            stack: Vec::new(),
            work: 0,
        }
    }

    /// Whether signal `a` equals signal `b.0` (complemented when `b.1`) on
    /// every input, or, with `b` = `None`, is constantly `value`; `None`
    /// when the joint support is too large or a budget ([`MAX_CONE`],
    /// [`TOTAL_WORK`]) would be exceeded.
    pub(super) fn decide(
        &mut self,
        net: &Network,
        a: u32,
        b: Option<(u32, bool)>,
        value: bool,
    ) -> Option<Verdict> {
        let mut inputs = self.support[a as usize].clone()?;
        if let Some((b, _)) = b {
            if !union_into(&mut inputs, self.support[b as usize].as_ref()?, MAX_INPUTS) {
                return None;
            }
        }
        let rows = 1usize << inputs.len();
        let words = rows.div_ceil(64);
        // The cones, in topological (signal) order.
        self.cone.clear();
        self.stack.clear();
        self.stack.push(a);
        if let Some((b, _)) = b {
            self.stack.push(b);
        }
        while let Some(s) = self.stack.pop() {
            if self.slot[s as usize] != u32::MAX {
                continue;
            }
            if self.cone.len() == MAX_CONE || self.work + (self.cone.len() + 1) * words > TOTAL_WORK
            {
                for &s in &self.cone {
                    self.slot[s as usize] = u32::MAX;
                }
                return None;
            }
            self.slot[s as usize] = 0;
            self.cone.push(s);
            if inputs.binary_search(&s).is_ok() {
                continue;
            }
            let Sig::Node(n) = net.sigs[s as usize] else {
                unreachable!("every leaf of the cone is in its support")
            };
            for f in &net.nodes[n as usize].fanins {
                if let Fanin::Sig(t) = *f {
                    self.stack.push(t);
                }
            }
        }
        self.cone.sort_unstable();
        self.work += self.cone.len() * words;
        self.values.clear();
        self.values.resize(self.cone.len() * words, 0);
        for (i, &s) in self.cone.iter().enumerate() {
            self.slot[s as usize] = i as u32;
        }
        for (i, &s) in self.cone.iter().enumerate() {
            let base = i * words;
            if let Ok(p) = inputs.binary_search(&s) {
                for w in 0..words {
                    self.values[base + w] = ptx_ir::lut::exhaustive_word(p, w);
                }
                continue;
            }
            let Sig::Node(n) = net.sigs[s as usize] else {
                unreachable!("checked above")
            };
            let node = &net.nodes[n as usize];
            debug_assert!(node.fanins.iter().all(|f| match *f {
                Fanin::Sig(t) => (self.slot[t as usize] as usize) < i,
                Fanin::Const(_) => true,
            }));
            for w in 0..words {
                let (slot, values) = (&self.slot, &self.values);
                let v = node.eval(|t| values[slot[t as usize] as usize * words + w]);
                self.values[base + w] = v;
            }
        }
        let at =
            |this: &Self, s: u32, w: usize| this.values[this.slot[s as usize] as usize * words + w];
        let mask = if rows >= 64 {
            u64::MAX
        } else {
            (1u64 << rows) - 1
        };
        let mut failing = None;
        for w in 0..words {
            let x = at(self, a, w);
            let y = match b {
                Some((b, c)) => at(self, b, w) ^ if c { u64::MAX } else { 0 },
                None => {
                    if value {
                        u64::MAX
                    } else {
                        0
                    }
                }
            };
            let diff = (x ^ y) & mask;
            if diff != 0 {
                failing = Some(w * 64 + diff.trailing_zeros() as usize);
                break;
            }
        }
        for &s in &self.cone {
            self.slot[s as usize] = u32::MAX;
        }
        Some(match failing {
            None => Verdict::Proved,
            Some(row) => Verdict::Refuted(
                inputs
                    .iter()
                    .enumerate()
                    .map(|(p, &s)| (s, (row >> p) & 1 == 1))
                    .collect(),
            ),
        })
    }
}

/// Merges the sorted `other` into the sorted `set`; false when the result
/// would have more than `max` members (`set` is then unusable).
pub(super) fn union_into<A: smallvec::Array<Item = u32>>(
    set: &mut SmallVec<A>,
    other: &[u32],
    max: usize,
) -> bool {
    for &x in other {
        if let Err(at) = set.binary_search(&x) {
            if set.len() == max {
                return false;
            }
            set.insert(at, x);
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patterns_enumerate_every_row() {
        // 8 inputs: 256 rows in 4 words; row r has input p = bit p of r.
        for r in 0..256usize {
            for p in 0..8 {
                let bit = (ptx_ir::lut::exhaustive_word(p, r / 64) >> (r % 64)) & 1 == 1;
                assert_eq!(bit, (r >> p) & 1 == 1);
            }
        }
    }

    #[test]
    fn union_stays_sorted_and_bounded() {
        let mut s: Support = smallvec::smallvec![2, 5, 9];
        assert!(union_into(&mut s, &[1, 5, 10], MAX_INPUTS));
        assert_eq!(&s[..], &[1, 2, 5, 9, 10]);
        let wide: Vec<u32> = (100..100 + MAX_INPUTS as u32).collect();
        assert!(!union_into(&mut s, &wide, MAX_INPUTS));
    }
}
