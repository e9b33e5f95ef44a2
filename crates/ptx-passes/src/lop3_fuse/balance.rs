//! Balancing (ABC's `balance`, extended to xor): every `and` supergate
//! (the tree of `and`s reached through uncomplemented edges of gates read
//! once) and every `xor` supergate is rebuilt over its leaves, pairing the
//! two shallowest first and, among leaves of equal level, a pair that
//! exists already (so cones share their subtrees).
//!
//! The result is written into the same XAIG (structural hashing reuses
//! the gates the original logic has): `bal[g]` is the balanced literal of
//! gate `g` for each gate that roots a supergate, or [`NONE`].
//!
//! **Invariants.** `bal[g]` computes the same function as gate `g`; the
//! original gates are untouched.

use super::aig::*;

pub(super) const NONE: Lit = u32::MAX;

/// Supergates larger than this are split (ABC uses 10,000).
const MAX_LEAVES: usize = 1024;

/// Balances the gates reachable from `roots`; returns each gate's balanced
/// literal (for the gates that exist on entry).
pub(super) fn balance(aig: &mut Aig, roots: &[Lit]) -> Vec<Lit> {
    let old = aig.len();
    let refs = aig.refs(roots);
    // Gates read once, by an uncomplemented edge of an `and` (or by an
    // `xor`): inside their reader's supergate.
    let mut plain_and = vec![0u32; old];
    let mut plain_xor = vec![0u32; old];
    for (n, &r) in refs.iter().enumerate() {
        if r == 0 {
            continue;
        }
        match aig.gates[n] {
            Gate::And(a, b) => {
                for l in [a, b] {
                    if !complemented(l) {
                        plain_and[node(l)] += 1;
                    }
                }
            }
            Gate::Xor(a, b) => {
                plain_xor[node(a)] += 1;
                plain_xor[node(b)] += 1;
            }
            _ => {}
        }
    }
    let inside = |n: usize, xor: bool| -> bool {
        refs[n] == 1
            && match aig.gates[n] {
                Gate::And(..) => !xor && plain_and[n] == 1,
                Gate::Xor(..) => xor && plain_xor[n] == 1,
                _ => false,
            }
    };
    let mut internal: Vec<bool> = (0..old)
        .map(|n| inside(n, false) || inside(n, true))
        .collect();
    // A supergate stops growing at MAX_LEAVES: the inner gate where it
    // stops roots a supergate of its own, balanced before its reader.
    // Readers come first here, so a gate cut off this way is itself
    // walked (and cut) later in the loop. The walk below then stays
    // within the limit by itself.
    let mut stack: Vec<Lit> = Vec::new();
    for n in (0..old).rev() {
        let (a, b, xor) = match aig.gates[n] {
            Gate::And(a, b) => (a, b, false),
            Gate::Xor(a, b) => (a, b, true),
            _ => continue,
        };
        if refs[n] == 0 || internal[n] {
            continue;
        }
        let mut leaves = 0;
        stack.clear();
        stack.extend([a, b]);
        while let Some(l) = stack.pop() {
            let inner = inner(aig, &internal, l, xor);
            if inner && leaves + stack.len() < MAX_LEAVES {
                stack.extend(aig.fanins(node(l)));
            } else {
                if inner {
                    internal[node(l)] = false;
                }
                leaves += 1;
            }
        }
    }
    let mut bal = vec![NONE; old];
    let mut leaves: Vec<Lit> = Vec::new();
    for n in 0..old {
        if refs[n] == 0 || internal[n] {
            continue;
        }
        let of = |bal: &[Lit], l: Lit| bal[node(l)] ^ (l & 1);
        bal[n] = match aig.gates[n] {
            Gate::Const | Gate::Input(_) => (n as Lit) << 1,
            Gate::Lut(l, x) => {
                let y = x.map(|l| of(&bal, l));
                aig.lut(l, y)
            }
            Gate::And(a, b) | Gate::Xor(a, b) => {
                let xor = matches!(aig.gates[n], Gate::Xor(..));
                leaves.clear();
                stack.clear();
                stack.extend([a, b]);
                while let Some(l) = stack.pop() {
                    if inner(aig, &internal, l, xor) {
                        stack.extend(aig.fanins(node(l)));
                    } else {
                        debug_assert!(bal[node(l)] != NONE, "leaf balanced first");
                        leaves.push(of(&bal, l));
                    }
                }
                if xor {
                    build_xor(aig, &mut leaves)
                } else {
                    build_and(aig, &mut leaves)
                }
            }
        };
    }
    bal
}

/// Whether the supergate of an `xor` (or `and`) gate grows through `l`:
/// an uncomplemented edge to an inner gate of the same kind.
fn inner(aig: &Aig, internal: &[bool], l: Lit, xor: bool) -> bool {
    let m = node(l);
    !complemented(l) && internal[m] && matches!(aig.gates[m], Gate::And(..)) != xor
}

fn level(aig: &Aig, l: Lit) -> u32 {
    aig.level[node(l)]
}

/// Moves a leaf that forms an existing gate with the last one into the
/// second-last place, looking only at leaves of the second-last's level.
fn permute(aig: &Aig, leaves: &mut [Lit], exists: impl Fn(&Aig, Lit, Lit) -> bool) {
    let n = leaves.len();
    let lvl = level(aig, leaves[n - 2]);
    let mut j = n - 2;
    while j > 0 && level(aig, leaves[j - 1]) == lvl {
        j -= 1;
    }
    let last = leaves[n - 1];
    for k in (j..n - 1).rev() {
        if exists(aig, leaves[k], last) {
            leaves.swap(k, n - 2);
            return;
        }
    }
}

/// Inserts `l` keeping levels descending, after the leaves of its level.
fn push_by_level(aig: &Aig, leaves: &mut Vec<Lit>, l: Lit) {
    leaves.push(l);
    let mut i = leaves.len() - 1;
    while i > 0 && level(aig, leaves[i]) > level(aig, leaves[i - 1]) {
        leaves.swap(i, i - 1);
        i -= 1;
    }
}

fn build_and(aig: &mut Aig, leaves: &mut Vec<Lit>) -> Lit {
    leaves.sort_unstable();
    leaves.dedup();
    if leaves.windows(2).any(|w| w[0] ^ 1 == w[1]) || leaves.contains(&FALSE) {
        return FALSE;
    }
    leaves.retain(|&l| l != TRUE);
    if leaves.is_empty() {
        return TRUE;
    }
    leaves.sort_by_key(|&l| std::cmp::Reverse(level(aig, l)));
    while leaves.len() > 1 {
        permute(aig, leaves, |aig, a, b| aig.and_exists(a, b));
        let a = leaves.pop().expect("two leaves");
        let b = leaves.pop().expect("two leaves");
        let r = aig.and(a, b);
        if leaves.contains(&(r ^ 1)) || r == FALSE {
            return FALSE;
        }
        if r != TRUE && !leaves.contains(&r) {
            push_by_level(aig, leaves, r);
        }
        if leaves.is_empty() {
            return TRUE;
        }
    }
    leaves[0]
}

pub(super) fn build_xor(aig: &mut Aig, leaves: &mut Vec<Lit>) -> Lit {
    // Complements become one output complement; pairs cancel.
    let mut c = 0;
    for l in leaves.iter_mut() {
        c ^= *l & 1;
        *l &= !1;
    }
    leaves.sort_unstable();
    let mut kept: Vec<Lit> = Vec::with_capacity(leaves.len());
    for &l in leaves.iter() {
        if kept.last() == Some(&l) {
            kept.pop();
        } else {
            kept.push(l);
        }
    }
    kept.retain(|&l| l != FALSE);
    *leaves = kept;
    if leaves.is_empty() {
        return c;
    }
    leaves.sort_by_key(|&l| std::cmp::Reverse(level(aig, l)));
    while leaves.len() > 1 {
        permute(aig, leaves, |aig, a, b| aig.xor_exists(a, b));
        let a = leaves.pop().expect("two leaves");
        let b = leaves.pop().expect("two leaves");
        let r = aig.xor(a, b);
        c ^= r & 1;
        let r = r & !1;
        if let Some(p) = leaves.iter().position(|&l| l == r) {
            leaves.remove(p);
        } else if r != FALSE {
            push_by_level(aig, leaves, r);
        }
        if leaves.is_empty() {
            return c;
        }
    }
    leaves[0] ^ c
}
