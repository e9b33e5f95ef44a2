//! Sequentializing a parallel copy: the moves of one edge (or of one
//! instruction's tied results) read every source before writing any
//! destination; PTX runs one `mov` at a time.
//!
//! The order follows Boissinot et al., "Revisiting Out-of-SSA Translation"
//! (CGO 2009), algorithm 1 (with an explicit record of the copies still
//! pending, so that a copy already made is never taken for a cycle): a
//! destination that no pending copy still reads
//! is written first; once a source that is itself a destination has been
//! copied, later copies of it read the copy, which frees the source to be
//! overwritten. Only a cycle of
//! which no value has another copy needs the temporary, one move per
//! cycle, and the temporary is free again when the cycle is done, so one
//! temporary per register class serves every parallel copy of a function.
//!
//! Invariants: the destinations are distinct; copies with `dst == src`
//! are dropped; the result, run in order, leaves every destination holding
//! the value its source held before.

use super::{Copy, Reg};
use rustc_hash::FxHashMap;
use std::collections::VecDeque;

/// Orders the parallel copy `copies` into moves run one after another.
/// `temp` is called with the register class when a cycle needs the
/// temporary, and must return a register no copy names.
pub(crate) fn sequentialize(copies: &[Copy], mut temp: impl FnMut(Reg) -> Reg) -> Vec<Copy> {
    let copies: Vec<Copy> = copies.iter().copied().filter(|c| c.dst != c.src).collect();
    let mut out = Vec::with_capacity(copies.len() + 1);
    if copies.is_empty() {
        return out;
    }
    // `loc[a]`: where the value first held by `a` is now available;
    // `pred[b]`: the register whose value `b` must receive, while the copy
    // into `b` is pending.
    let mut loc: FxHashMap<Reg, Reg> = FxHashMap::default();
    let mut pred: FxHashMap<Reg, Reg> = FxHashMap::default();
    for c in &copies {
        loc.insert(c.src, c.src);
        pred.insert(c.dst, c.src);
    }
    // Destinations whose contents nobody needs any more, taken in the
    // order given (copies that conflict with nothing keep their order:
    // ptxas's output depends on it).
    let mut ready: VecDeque<Reg> = copies
        .iter()
        .map(|c| c.dst)
        .filter(|d| !loc.contains_key(d))
        .collect();
    let mut pending: Vec<Reg> = copies.iter().map(|c| c.dst).collect();
    loop {
        while let Some(b) = ready.pop_front() {
            let Some(a) = pred.remove(&b) else { continue };
            let c = loc[&a];
            out.push(Copy { dst: b, src: c });
            // If `a` still held its own value and must itself be
            // overwritten, its value is now saved in `b`: later copies of
            // it read `b`, and `a` is free. Otherwise they keep reading
            // where it is (independent moves, not a chain).
            if a == c && pred.contains_key(&a) {
                loc.insert(a, b);
                ready.push_back(a);
            }
        }
        // What is left are cycles whose every member is still needed:
        // save one member in the temporary, which frees it.
        pending.retain(|b| pred.contains_key(b));
        let Some(&b) = pending.last() else { break };
        let t = temp(b);
        out.push(Copy { dst: t, src: b });
        loc.insert(b, t);
        ready.push_back(b);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Type;

    fn r(n: u32) -> Reg {
        Reg {
            class: Type::B32,
            num: n,
        }
    }

    /// Runs `seq` over registers 0..16 (the temporary is 99) holding their
    /// own numbers, and checks each destination got its source's value.
    fn check(par: &[Copy], seq: &[Copy]) {
        let mut state: FxHashMap<Reg, u32> = (0..16).map(|n| (r(n), n)).collect();
        state.insert(r(99), 999);
        for c in seq {
            let v = state[&c.src];
            state.insert(c.dst, v);
        }
        for c in par {
            assert_eq!(state[&c.dst], c.src.num, "{par:?} -> {seq:?}");
        }
        // Registers that are no destination keep their value.
        for n in 0..16 {
            if !par.iter().any(|c| c.dst == r(n)) {
                assert_eq!(state[&r(n)], n, "{par:?} -> {seq:?} clobbers r{n}");
            }
        }
    }

    fn temps(seq: &[Copy]) -> usize {
        seq.iter().filter(|c| c.dst == r(99)).count()
    }

    fn par(pairs: &[(u32, u32)]) -> Vec<Copy> {
        pairs
            .iter()
            .map(|&(d, s)| Copy {
                dst: r(d),
                src: r(s),
            })
            .collect()
    }

    #[test]
    fn a_swap_takes_one_temporary_and_three_moves() {
        let p = par(&[(1, 2), (2, 1)]);
        let s = sequentialize(&p, |_| r(99));
        check(&p, &s);
        assert_eq!((s.len(), temps(&s)), (3, 1));
    }

    #[test]
    fn a_cycle_with_a_copy_outside_needs_no_temporary() {
        // 1 <- 2, 2 <- 1, 3 <- 1: after 3 <- 1, the cycle reads 3.
        let p = par(&[(1, 2), (2, 1), (3, 1)]);
        let s = sequentialize(&p, |_| r(99));
        check(&p, &s);
        assert_eq!((s.len(), temps(&s)), (3, 0));
    }

    #[test]
    fn independent_copies_keep_their_order() {
        let p = par(&[(1, 5), (2, 6), (3, 7), (4, 8)]);
        assert_eq!(sequentialize(&p, |_| r(99)), p);
    }

    #[test]
    fn chains_and_fan_out_need_no_temporary() {
        let p = par(&[(2, 1), (3, 2), (4, 3), (5, 1), (6, 1)]);
        let s = sequentialize(&p, |_| r(99));
        check(&p, &s);
        assert_eq!((s.len(), temps(&s)), (5, 0));
    }

    #[test]
    fn two_cycles_use_the_temporary_once_each() {
        let p = par(&[(1, 2), (2, 3), (3, 1), (4, 5), (5, 4), (7, 7)]);
        let s = sequentialize(&p, |_| r(99));
        check(&p, &s);
        assert_eq!((s.len(), temps(&s)), (7, 2));
    }

    /// Every parallel copy over few registers: correct, and a temporary
    /// only for a cycle none of whose values is copied elsewhere.
    #[test]
    fn random_parallel_copies_are_sequentialized_exactly() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for _ in 0..20_000 {
            let n = 1 + (next() % 8) as u32;
            let mut dsts: Vec<u32> = (0..n).collect();
            // Shuffle the destinations, then give each a random source.
            for k in (1..dsts.len()).rev() {
                dsts.swap(k, (next() % (k as u64 + 1)) as usize);
            }
            let k = 1 + (next() % n as u64) as usize;
            let p: Vec<Copy> = dsts[..k]
                .iter()
                .map(|&d| Copy {
                    dst: r(d),
                    src: r((next() % n as u64) as u32),
                })
                .collect();
            let s = sequentialize(&p, |_| r(99));
            check(&p, &s);
            // Moves: one per real copy, plus one per cycle that needed the
            // temporary.
            let real = p.iter().filter(|c| c.dst != c.src).count();
            assert_eq!(s.len(), real + temps(&s), "{p:?} -> {s:?}");
            assert!(
                temps(&s) <= cycles_without_outside_copy(&p),
                "{p:?} -> {s:?}"
            );
        }
    }

    /// Cycles of the copy graph none of whose members is also copied to a
    /// register off the cycle: the ones that truly need a temporary.
    fn cycles_without_outside_copy(p: &[Copy]) -> usize {
        let pred: FxHashMap<u32, u32> = p
            .iter()
            .filter(|c| c.dst != c.src)
            .map(|c| (c.dst.num, c.src.num))
            .collect();
        let mut seen = std::collections::HashSet::new();
        let mut count = 0;
        for &start in pred.keys() {
            if seen.contains(&start) {
                continue;
            }
            // Follow predecessors; a cycle is found when we return.
            let mut path = vec![start];
            let mut cur = start;
            while let Some(&s) = pred.get(&cur) {
                if s == start {
                    let fanned = path.iter().any(|&m| {
                        p.iter()
                            .filter(|c| c.src.num == m && c.dst != c.src)
                            .count()
                            > 1
                    });
                    if !fanned {
                        count += 1;
                    }
                    break;
                }
                if path.contains(&s) {
                    break;
                }
                path.push(s);
                cur = s;
            }
            seen.extend(path);
        }
        count
    }
}
