//! Bit-parallel simulation of a piece of logic before and after its
//! rewrite.

use super::*;

/// How a rewrite was checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Checked {
    /// On every assignment of the piece's leaves.
    Exhaustive,
    /// On [`RANDOM_WORDS`] random words per leaf (too many leaves).
    Random,
    /// A difference was found.
    Differs,
}

/// Buffers [`check_piece`] reuses between pieces: values before and
/// after, and how each covered node is emitted.
pub(super) type Scratch = (Vec<u64>, Vec<u64>, Vec<Emitted>);

/// Random 64-bit words per leaf when a piece is too big to enumerate:
/// [`RANDOM_WORDS`], fewer (down to [`MIN_RANDOM_WORDS`]) for pieces so
/// large that the words would cost more than [`RANDOM_WORK`] node
/// evaluations.
pub(super) const RANDOM_WORDS: usize = 128;
pub(super) const MIN_RANDOM_WORDS: usize = 32;
pub(super) const RANDOM_WORK: usize = 1 << 21;
/// Node evaluations an exhaustive check may take per piece.
pub(super) const EXHAUSTIVE_BUDGET: usize = 1 << 22;

/// Simulates one piece of logic (`nodes`, ascending) before and after on
/// bit-parallel words: on every assignment of its leaves (bit `b` of word
/// `w` is assignment `64w + b`) when at most [`EXHAUSTIVE_LEAVES`] leaves
/// and the work fits [`EXHAUSTIVE_BUDGET`], else on random words. Leaves
/// that are immediates count as free inputs, which is stronger than needed.
pub(super) fn check_piece(
    net: &Network,
    best: &[Cut],
    covered: &[u32],
    nodes: &[usize],
    scratch: &mut Scratch,
) -> Checked {
    let mut leaves: Vec<u32> = Vec::new();
    let mut seen: rustc_hash::FxHashSet<u32> = rustc_hash::FxHashSet::default();
    for &n in nodes {
        for x in &net.nodes[n].fanins {
            if let Fanin::Sig(t) = *x {
                if net.node_of(t).is_none() && seen.insert(t) {
                    leaves.push(t);
                }
            }
        }
    }
    let exhaustive = leaves.len() <= EXHAUSTIVE_LEAVES
        && nodes.len() * 2 * (1usize << leaves.len()) / 64 <= EXHAUSTIVE_BUDGET;
    let words = if exhaustive {
        ((1usize << leaves.len()) / 64).max(1)
    } else {
        (RANDOM_WORK / nodes.len().max(1)).clamp(MIN_RANDOM_WORDS, RANDOM_WORDS)
    };
    let mut rng = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = || {
        rng = rng.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = rng;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    };
    // Values of the piece's leaves and nodes; every slot read is written
    // first in this call, so the buffers are shared between pieces.
    let (before, after, _) = scratch;
    before.resize(net.sigs.len(), 0);
    after.resize(net.sigs.len(), 0);
    let emitted = &mut scratch.2;
    emitted.resize(net.nodes.len(), Emitted::Lut(0));
    for &n in nodes {
        if covered[n] > 0 {
            emitted[n] = Emitted::of(&best[n]);
        }
    }
    for w in 0..words {
        for (j, &s) in leaves.iter().enumerate() {
            let x = if exhaustive {
                (0..64u64).fold(0, |acc, b| acc | ((((w as u64 * 64 + b) >> j) & 1) << b))
            } else {
                next()
            };
            before[s as usize] = x;
            after[s as usize] = x;
        }
        for &n in nodes {
            let value = net.nodes[n].eval(|t| before[t as usize]);
            before[net.node_sig[n] as usize] = value;
        }
        for &n in nodes {
            if covered[n] == 0 {
                continue;
            }
            let c = &best[n];
            let x = |k: usize| {
                if k < c.n as usize {
                    after[c.leaves[k] as usize]
                } else {
                    0
                }
            };
            after[net.node_sig[n] as usize] = scratch.2[n].eval([x(0), x(1), x(2), x(3)]);
        }
        for &n in nodes {
            let s = net.node_sig[n] as usize;
            if net.nodes[n].output && before[s] != after[s] {
                return Checked::Differs;
            }
        }
    }
    if exhaustive {
        Checked::Exhaustive
    } else {
        Checked::Random
    }
}
