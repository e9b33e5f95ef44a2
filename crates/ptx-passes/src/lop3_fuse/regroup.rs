//! Regrouping: an `and` of `and`s rebuilt as an `and` of other pairs of
//! the same literals when those pairs exist already.
//!
//! Balancing ([`super::balance`]) stops at gates read more than once, so
//! it never sees that `(a1 & b0) & (a0 & b1)`, where both inner `and`s are
//! shared, is also `(a1 & b1) & (a0 & b0)`, two gates a multiplier
//! computes anyway. In that form the corner of an array multiplier maps
//! onto one LUT fewer (`a1b1 ^ carry` becomes `a1b1 & ¬(a0b0)`), which is
//! what ABC's `dch` finds through its rewriting snapshots. For each live
//! `and` whose fanins expand (through uncomplemented `and`s, whatever
//! their fanout) to three or four literals, every other pairing is tried,
//! and the first whose inner pairs all exist becomes the gate's version.
//!
//! **Invariants.** `reg[g]` computes the same function as gate `g` (an
//! `and` is associative and commutative); it reads only gates that read
//! `g`'s own fanins' fanins, so no version depends on the gate it
//! replaces; the original gates are untouched.

use super::aig::*;
use super::balance::NONE;

/// Networks larger than this are not regrouped (a time box): its few
/// versions make the mapper run twice over the whole network. Up to here
/// the two mappings share two cores ([`super::rewrite`]); the 56,000-node
/// 72-bit multiplier gains its one LUT for 0.29 → 0.31 s.
pub(super) const MAX_NODES: usize = 100_000;

/// Each live gate's regrouped literal (for the gates that exist on entry),
/// or [`NONE`].
pub(super) fn regroup(aig: &mut Aig, roots: &[Lit]) -> Vec<Lit> {
    let old = aig.len();
    let refs = aig.refs(roots);
    let mut out = vec![NONE; old];
    for n in 0..old {
        if refs[n] == 0 {
            continue;
        }
        let Gate::And(a, b) = aig.gates[n] else {
            continue;
        };
        let split = |l: Lit| -> Option<(Lit, Lit)> {
            match aig.gates[node(l)] {
                Gate::And(x, y) if !complemented(l) => Some((x, y)),
                _ => None,
            }
        };
        let found = match (split(a), split(b)) {
            (Some((p, q)), Some((r, s))) => [(p, r, q, s), (p, s, q, r)]
                .into_iter()
                .find(|&(w, x, y, z)| aig.and_exists(w, x) && aig.and_exists(y, z))
                .map(|(w, x, y, z)| {
                    let (u, v) = (aig.and(w, x), aig.and(y, z));
                    aig.and(u, v)
                }),
            (Some((p, q)), None) => regroup_three(aig, p, q, b),
            (None, Some((r, s))) => regroup_three(aig, r, s, a),
            (None, None) => None,
        };
        if let Some(l) = found {
            if node(l) != n {
                out[n] = l;
            }
        }
    }
    out
}

/// `(p & q) & r` as `(p & r) & q` or `(q & r) & p`, when that inner pair
/// exists.
fn regroup_three(aig: &mut Aig, p: Lit, q: Lit, r: Lit) -> Option<Lit> {
    [(p, r, q), (q, r, p)]
        .into_iter()
        .find(|&(x, y, _)| aig.and_exists(x, y))
        .map(|(x, y, z)| {
            let u = aig.and(x, y);
            aig.and(u, z)
        })
}
