//! Linear resynthesis: the `xor` logic of a block (CRCs, hash mixing,
//! the linear layers of ciphers) rebuilt with shared terms.
//!
//! Every `xor` gate of the XAIG reached from the roots is collapsed to
//! its linear form: the set of non-`xor` gates (the region's inputs) whose
//! parity it computes, through gates read many times too. The forms of
//! the gates the rest of the logic reads (the region's outputs) are the
//! rows of a matrix over GF(2); Paar's greedy algorithm then takes, while
//! some pair of columns appears together in two rows or more, the most
//! frequent pair as a new column (their `xor`), and each row becomes a
//! tree of what is left of it, shallowest first. The new structure is
//! offered as a structural choice for each output whose literal changes
//! ([`super::choices`]), so the mapper keeps the old one where it is
//! cheaper.
//!
//! **Bounds.** A form larger than [`MAX_FORM`] inputs is not collapsed
//! further (its gate counts as an input of its readers), and the rewrite
//! is made only when the new network has fewer two-input `xor`s than the
//! region had.

use super::aig::*;
use rustc_hash::FxHashMap;
use std::collections::BinaryHeap;

/// Inputs a linear form may have.
const MAX_FORM: usize = 160;
/// Output rows at most (beyond, the stage does nothing).
const MAX_ROWS: usize = 4096;

/// The symmetric difference of two sorted sets.
fn parity(a: &[u32], b: &[u32]) -> Vec<u32> {
    let mut out = Vec::with_capacity(a.len() + b.len());
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => {
                out.push(a[i]);
                i += 1;
            }
            std::cmp::Ordering::Greater => {
                out.push(b[j]);
                j += 1;
            }
            std::cmp::Ordering::Equal => {
                i += 1;
                j += 1;
            }
        }
    }
    out.extend_from_slice(&a[i..]);
    out.extend_from_slice(&b[j..]);
    out
}

/// Rebuilds the `xor` logic reached from `roots`; returns, per gate that
/// existed on entry, its new literal (or `NONE_LIT`).
pub(super) fn linear(aig: &mut Aig, roots: &[Lit]) -> Vec<Lit> {
    let old = aig.len();
    let mut out = vec![NONE_LIT; old];
    let refs = aig.refs(roots);
    // References of each gate by live `xor` gates.
    let mut xor_refs = vec![0u32; old];
    let mut xors = 0usize;
    for (n, &r) in refs.iter().enumerate() {
        if r == 0 {
            continue;
        }
        if let Gate::Xor(a, b) = aig.gates[n] {
            xors += 1;
            xor_refs[node(a)] += 1;
            xor_refs[node(b)] += 1;
        }
    }
    if xors < 2 {
        return out;
    }
    // Linear forms; a gate whose form is too large is an input (its own
    // form is then the singleton) and must be computed.
    let mut form: Vec<Option<Vec<u32>>> = vec![None; old];
    let mut big = vec![false; old];
    for n in 0..old {
        if refs[n] == 0 {
            continue;
        }
        let Gate::Xor(a, b) = aig.gates[n] else {
            continue;
        };
        let of = |form: &[Option<Vec<u32>>], big: &[bool], l: Lit| -> Vec<u32> {
            match &form[node(l)] {
                Some(f) if !big[node(l)] => f.clone(),
                _ => vec![node(l) as u32],
            }
        };
        let f = parity(&of(&form, &big, a), &of(&form, &big, b));
        if f.len() > MAX_FORM {
            big[n] = true;
        }
        form[n] = Some(f);
    }
    // Outputs: `xor` gates read by anything but an `xor` that collapses
    // them (or by a root).
    let mut root = vec![false; old];
    for &r in roots {
        root[node(r)] = true;
    }
    let outputs: Vec<usize> = (0..old)
        .filter(|&n| form[n].is_some())
        .filter(|&n| root[n] || refs[n] > xor_refs[n] || big[n])
        .collect();
    if outputs.len() > MAX_ROWS {
        return out;
    }
    let mut rows: Vec<Vec<u32>> = outputs
        .iter()
        .map(|&n| {
            if big[n] {
                // Computed from its fanins' forms, as the original does.
                let Gate::Xor(a, b) = aig.gates[n] else {
                    unreachable!()
                };
                let of = |l: Lit| match &form[node(l)] {
                    Some(f) if !big[node(l)] => f.clone(),
                    _ => vec![node(l) as u32],
                };
                parity(&of(a), &of(b))
            } else {
                form[n].clone().expect("an xor")
            }
        })
        .collect();
    // The old cost: live xor gates. The new: Paar's columns plus the rows.
    let mut columns: Vec<(u32, u32)> = Vec::new();
    paar(&mut rows, old as u32, &mut columns);
    let new_cost = columns.len()
        + rows
            .iter()
            .map(|r| r.len().saturating_sub(1))
            .sum::<usize>();
    tracing::debug!(target: "lop3-fuse", xors, outputs = outputs.len(), new_cost, "linear");
    if new_cost >= xors {
        return out;
    }
    // Build: column ids below `old` are gates, above are Paar's columns.
    let mut lit_of_col: Vec<Lit> = Vec::with_capacity(columns.len());
    let col_lit = |lit_of_col: &[Lit], c: u32| -> Lit {
        if (c as usize) < old {
            (c as Lit) << 1
        } else {
            lit_of_col[c as usize - old]
        }
    };
    for &(i, j) in &columns {
        let l = aig.xor(col_lit(&lit_of_col, i), col_lit(&lit_of_col, j));
        lit_of_col.push(l);
    }
    let mut leaves: Vec<Lit> = Vec::new();
    for (k, &n) in outputs.iter().enumerate() {
        leaves.clear();
        leaves.extend(rows[k].iter().map(|&c| col_lit(&lit_of_col, c)));
        let l = super::balance::build_xor(aig, &mut leaves);
        if l != (n as Lit) << 1 {
            out[n] = l;
        }
    }
    out
}

pub(super) const NONE_LIT: Lit = u32::MAX;

/// Paar's algorithm: while a pair of columns shares two rows or more, the
/// most frequent pair becomes a new column (ids from `first`), recorded
/// in `columns`, and replaces the pair in every row holding both.
fn paar(rows: &mut [Vec<u32>], first: u32, columns: &mut Vec<(u32, u32)>) {
    let key = |a: u32, b: u32| if a < b { (a, b) } else { (b, a) };
    let mut count: FxHashMap<(u32, u32), u32> = FxHashMap::default();
    let mut rows_of: FxHashMap<u32, Vec<u32>> = FxHashMap::default();
    for (r, row) in rows.iter().enumerate() {
        for (x, &a) in row.iter().enumerate() {
            rows_of.entry(a).or_default().push(r as u32);
            for &b in &row[x + 1..] {
                *count.entry(key(a, b)).or_default() += 1;
            }
        }
    }
    let mut heap: BinaryHeap<(u32, std::cmp::Reverse<(u32, u32)>)> = count
        .iter()
        .filter(|(_, &c)| c >= 2)
        .map(|(&k, &c)| (c, std::cmp::Reverse(k)))
        .collect();
    let mut next = first;
    while let Some((c, std::cmp::Reverse((i, j)))) = heap.pop() {
        if count.get(&(i, j)).copied() != Some(c) || c < 2 {
            continue;
        }
        let k = next;
        next += 1;
        columns.push((i, j));
        // Rows holding both.
        let (ri, rj) = (&rows_of[&i], &rows_of[&j]);
        let both: Vec<u32> = ri.iter().copied().filter(|r| rj.contains(r)).collect();
        for &r in &both {
            let row = &mut rows[r as usize];
            for &x in row.iter() {
                if x != i && x != j {
                    for y in [i, j] {
                        if let Some(e) = count.get_mut(&key(x, y)) {
                            *e -= 1;
                        }
                    }
                    let e = count.entry(key(x, k)).or_default();
                    *e += 1;
                    if *e >= 2 {
                        heap.push((*e, std::cmp::Reverse(key(x, k))));
                    }
                }
            }
            if let Some(e) = count.get_mut(&(i, j)) {
                *e -= 1;
            }
            row.retain(|&x| x != i && x != j);
            row.push(k);
            rows_of.entry(k).or_default().push(r);
        }
        for y in [i, j] {
            if let Some(list) = rows_of.get_mut(&y) {
                list.retain(|r| !both.contains(r));
            }
        }
    }
}
