//! Factored forms of truth tables, for refactoring ([`super::refactor`]).
//!
//! A function of at most [`MAX_VARS`] inputs, as a truth table of 64-bit
//! words (input `k` as [`ptx_ir::lut::exhaustive_word`] numbers it), gets
//! an expression over its inputs: first every input it is linear in is
//! split off as an `xor` (`f = x ^ g` when the two cofactors are
//! complements), then the rest becomes an irredundant sum of products
//! (Minato and Morreale's recursion, which also uses don't-cares: none
//! here) of the function and of its complement, and the smaller of the
//! two is factored by division by its most frequent literal, a common
//! cube first (literal factoring: Brayton's "quick factor" without
//! kernels).
//!
//! **Invariants.** The expression computes the table exactly; `None`
//! comes back only when a cover would exceed the cube limit.

use ptx_ir::lut::exhaustive_word;

/// Inputs at most (cubes are two 16-bit masks).
pub(super) const MAX_VARS: usize = 16;

/// Words in the table of a function of `vars` inputs.
pub(super) fn words(vars: usize) -> usize {
    1 << vars.saturating_sub(6)
}

/// A product of literals: inputs in `pos` true, in `neg` false.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Cube {
    pos: u16,
    neg: u16,
}

impl Cube {
    fn literals(self) -> u32 {
        self.pos.count_ones() + self.neg.count_ones()
    }
}

/// An expression over the inputs of a table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Expr {
    Const(bool),
    /// Input `k`, complemented when the flag is set.
    Var(u8, bool),
    And(Vec<Expr>),
    Or(Vec<Expr>),
    /// The parity of the parts, complemented when the flag is set.
    Xor(Vec<Expr>, bool),
}

impl Expr {
    /// Input occurrences: the two-input gates an expression takes, plus one.
    pub(super) fn literals(&self) -> u32 {
        match self {
            Expr::Const(_) => 0,
            Expr::Var(..) => 1,
            Expr::And(v) | Expr::Or(v) | Expr::Xor(v, _) => v.iter().map(Expr::literals).sum(),
        }
    }

    fn not(self) -> Expr {
        match self {
            Expr::Const(c) => Expr::Const(!c),
            Expr::Var(k, c) => Expr::Var(k, !c),
            Expr::Xor(v, c) => Expr::Xor(v, !c),
            // De Morgan keeps complements on the inputs.
            Expr::And(v) => Expr::Or(v.into_iter().map(Expr::not).collect()),
            Expr::Or(v) => Expr::And(v.into_iter().map(Expr::not).collect()),
        }
    }
}

fn cofactor(t: &[u64], v: usize, one: bool) -> Vec<u64> {
    let mut r = t.to_vec();
    if v < 6 {
        let m = exhaustive_word(v, 0);
        let s = 1u32 << v;
        for w in &mut r {
            *w = if one {
                (*w & m) | ((*w & m) >> s)
            } else {
                (*w & !m) | ((*w & !m) << s)
            };
        }
    } else {
        let stride = 1usize << (v - 6);
        for block in r.chunks_mut(2 * stride) {
            let (lo, hi) = block.split_at_mut(stride);
            if one {
                lo.copy_from_slice(hi);
            } else {
                hi.copy_from_slice(lo);
            }
        }
    }
    r
}

fn depends(t: &[u64], v: usize) -> bool {
    cofactor(t, v, false) != cofactor(t, v, true)
}

/// The expression of `t` over `vars` inputs; `None` past `max_cubes`
/// cubes in a cover.
pub(super) fn factor_table(t: &[u64], vars: usize, max_cubes: usize) -> Option<Expr> {
    debug_assert!(vars <= MAX_VARS && t.len() == words(vars));
    let mut t = t.to_vec();
    if vars < 6 {
        let m = if vars == 0 {
            1
        } else {
            u64::MAX >> (64 - (1 << vars))
        };
        // Replicate the table across the word so cofactors stay exact.
        let mut w = t[0] & m;
        let mut width = 1usize << vars;
        while width < 64 {
            w |= w << width;
            width *= 2;
        }
        t[0] = w;
    }
    // Inputs the function is linear in: f = x ^ g.
    let mut linear: Vec<Expr> = Vec::new();
    for v in 0..vars {
        let f0 = cofactor(&t, v, false);
        let f1 = cofactor(&t, v, true);
        if f0 != f1 && f0.iter().zip(&f1).all(|(a, b)| *a == !*b) {
            linear.push(Expr::Var(v as u8, false));
            t = f0;
        }
    }
    let rest = factor_sop(&t, vars, max_cubes)?;
    if linear.is_empty() {
        return Some(rest);
    }
    let mut c = false;
    match rest {
        Expr::Const(k) => c = k,
        Expr::Var(k, neg) => {
            linear.push(Expr::Var(k, false));
            c = neg;
        }
        Expr::Xor(v, k) => {
            linear.extend(v);
            c = k;
        }
        e => linear.push(e),
    }
    if linear.len() == 1 {
        let e = linear.pop().expect("one part");
        return Some(if c { e.not() } else { e });
    }
    Some(Expr::Xor(linear, c))
}

/// The smaller factored cover of `t` and of its complement.
fn factor_sop(t: &[u64], vars: usize, max_cubes: usize) -> Option<Expr> {
    if t.iter().all(|&w| w == 0) {
        return Some(Expr::Const(false));
    }
    if t.iter().all(|&w| w == u64::MAX) {
        return Some(Expr::Const(true));
    }
    let on = isop_cover(t, vars, max_cubes);
    let not: Vec<u64> = t.iter().map(|w| !w).collect();
    let off = isop_cover(&not, vars, max_cubes);
    let on = on.map(|c| factor(&c));
    let off = off.map(|c| factor(&c).not());
    match (on, off) {
        (Some(a), Some(b)) => Some(if b.literals() < a.literals() { b } else { a }),
        (a, b) => a.or(b),
    }
}

fn isop_cover(t: &[u64], vars: usize, max_cubes: usize) -> Option<Vec<Cube>> {
    let mut cubes = Vec::new();
    isop(t, t, vars, &mut cubes, max_cubes)?;
    Some(cubes)
}

/// Minato–Morreale: cubes covering `l` within `u` (on inputs below
/// `vars`); returns the cover's table.
fn isop(l: &[u64], u: &[u64], vars: usize, cubes: &mut Vec<Cube>, max: usize) -> Option<Vec<u64>> {
    if cubes.len() > max {
        return None;
    }
    if l.iter().all(|&w| w == 0) {
        return Some(vec![0; l.len()]);
    }
    if u.iter().all(|&w| w == u64::MAX) {
        cubes.push(Cube::default());
        return Some(vec![u64::MAX; l.len()]);
    }
    let v = (0..vars)
        .rev()
        .find(|&v| depends(l, v) || depends(u, v))
        .expect("a non-constant bound depends on an input");
    let (l0, l1) = (cofactor(l, v, false), cofactor(l, v, true));
    let (u0, u1) = (cofactor(u, v, false), cofactor(u, v, true));
    let and_not =
        |a: &[u64], b: &[u64]| -> Vec<u64> { a.iter().zip(b).map(|(x, y)| x & !y).collect() };
    let start = cubes.len();
    let f0 = isop(&and_not(&l0, &u1), &u0, v, cubes, max)?;
    for c in &mut cubes[start..] {
        c.neg |= 1 << v;
    }
    let mid = cubes.len();
    let f1 = isop(&and_not(&l1, &u0), &u1, v, cubes, max)?;
    for c in &mut cubes[mid..] {
        c.pos |= 1 << v;
    }
    let rest: Vec<u64> = (0..l.len())
        .map(|w| (l0[w] & !f0[w]) | (l1[w] & !f1[w]))
        .collect();
    let both: Vec<u64> = u0.iter().zip(&u1).map(|(a, b)| a & b).collect();
    let fs = isop(&rest, &both, v, cubes, max)?;
    if cubes.len() > max {
        return None;
    }
    Some(
        (0..l.len())
            .map(|w| {
                let x = exhaustive_word(v, w);
                (f0[w] & !x) | (f1[w] & x) | fs[w]
            })
            .collect(),
    )
}

fn cube_expr(c: Cube) -> Expr {
    let mut v: Vec<Expr> = Vec::new();
    for k in 0..MAX_VARS {
        if c.pos >> k & 1 == 1 {
            v.push(Expr::Var(k as u8, false));
        }
        if c.neg >> k & 1 == 1 {
            v.push(Expr::Var(k as u8, true));
        }
    }
    match v.len() {
        0 => Expr::Const(true),
        1 => v.pop().expect("one literal"),
        _ => Expr::And(v),
    }
}

fn and2(a: Expr, b: Expr) -> Expr {
    match (a, b) {
        (Expr::Const(true), e) | (e, Expr::Const(true)) => e,
        (Expr::And(mut x), Expr::And(y)) => {
            x.extend(y);
            Expr::And(x)
        }
        (Expr::And(mut x), e) | (e, Expr::And(mut x)) => {
            x.insert(0, e);
            Expr::And(x)
        }
        (a, b) => Expr::And(vec![a, b]),
    }
}

fn or2(a: Expr, b: Expr) -> Expr {
    match (a, b) {
        (Expr::Const(false), e) | (e, Expr::Const(false)) => e,
        (Expr::Or(mut x), Expr::Or(y)) => {
            x.extend(y);
            Expr::Or(x)
        }
        (Expr::Or(mut x), e) | (e, Expr::Or(mut x)) => {
            x.push(e);
            Expr::Or(x)
        }
        (a, b) => Expr::Or(vec![a, b]),
    }
}

/// Literal factoring of a cover.
fn factor(cubes: &[Cube]) -> Expr {
    if cubes.is_empty() {
        return Expr::Const(false);
    }
    if cubes.iter().any(|c| c.literals() == 0) {
        return Expr::Const(true);
    }
    if cubes.len() == 1 {
        return cube_expr(cubes[0]);
    }
    let common = cubes.iter().fold(
        Cube {
            pos: u16::MAX,
            neg: u16::MAX,
        },
        |a, c| Cube {
            pos: a.pos & c.pos,
            neg: a.neg & c.neg,
        },
    );
    if common.literals() > 0 {
        let rest: Vec<Cube> = cubes
            .iter()
            .map(|c| Cube {
                pos: c.pos & !common.pos,
                neg: c.neg & !common.neg,
            })
            .collect();
        return and2(cube_expr(common), factor(&rest));
    }
    // The most frequent literal (the lowest on ties: deterministic).
    let mut best: Option<(usize, bool, usize)> = None;
    for k in 0..MAX_VARS {
        for neg in [false, true] {
            let bit = 1u16 << k;
            let n = cubes
                .iter()
                .filter(|c| {
                    if neg {
                        c.neg & bit != 0
                    } else {
                        c.pos & bit != 0
                    }
                })
                .count();
            if n >= 2 && best.is_none_or(|b| n > b.2) {
                best = Some((k, neg, n));
            }
        }
    }
    let Some((k, neg, _)) = best else {
        return cubes
            .iter()
            .map(|&c| cube_expr(c))
            .reduce(or2)
            .expect("two cubes or more");
    };
    let bit = 1u16 << k;
    let has = |c: &Cube| {
        if neg {
            c.neg & bit != 0
        } else {
            c.pos & bit != 0
        }
    };
    let quotient: Vec<Cube> = cubes
        .iter()
        .filter(|c| has(c))
        .map(|c| Cube {
            pos: c.pos & !bit,
            neg: c.neg & !bit,
        })
        .collect();
    let rest: Vec<Cube> = cubes.iter().filter(|c| !has(c)).copied().collect();
    or2(
        and2(Expr::Var(k as u8, neg), factor(&quotient)),
        factor(&rest),
    )
}

/// The table of `e` over `vars` inputs (for checks).
#[cfg(test)]
pub(super) fn eval(e: &Expr, vars: usize) -> Vec<u64> {
    let n = words(vars);
    match e {
        Expr::Const(c) => vec![if *c { u64::MAX } else { 0 }; n],
        Expr::Var(k, c) => (0..n)
            .map(|w| exhaustive_word(*k as usize, w) ^ if *c { u64::MAX } else { 0 })
            .collect(),
        Expr::And(v) => v.iter().fold(vec![u64::MAX; n], |a, x| {
            a.iter().zip(eval(x, vars)).map(|(p, q)| p & q).collect()
        }),
        Expr::Or(v) => v.iter().fold(vec![0; n], |a, x| {
            a.iter().zip(eval(x, vars)).map(|(p, q)| p | q).collect()
        }),
        Expr::Xor(v, c) => v
            .iter()
            .fold(vec![if *c { u64::MAX } else { 0 }; n], |a, x| {
                a.iter().zip(eval(x, vars)).map(|(p, q)| p ^ q).collect()
            }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mask(vars: usize) -> u64 {
        if vars >= 6 {
            u64::MAX
        } else {
            u64::MAX >> (64 - (1 << vars))
        }
    }

    #[test]
    fn factored_forms_compute_their_tables() {
        let mut next = super::super::xorshift(0x5eed);
        for vars in [1usize, 2, 3, 4, 5, 6, 7, 9] {
            for _ in 0..40 {
                // Sparse and dense random functions, and some with structure.
                let mut t: Vec<u64> = (0..words(vars)).map(|_| next()).collect();
                match next() % 3 {
                    0 => t.iter_mut().for_each(|w| *w &= next() & next()),
                    1 => t
                        .iter_mut()
                        .enumerate()
                        .for_each(|(i, w)| *w ^= exhaustive_word(0, i)),
                    _ => {}
                }
                let e = factor_table(&t, vars, 1 << 12).expect("within the limit");
                let got = eval(&e, vars);
                for (a, b) in got.iter().zip(&t) {
                    assert_eq!(a & mask(vars), b & mask(vars), "{e:?}");
                }
            }
        }
    }

    #[test]
    fn majority_and_parity_factor_small() {
        // maj(a, b, c) = a&b | c&(a|b): five literals at most.
        let (a, b, c) = (
            exhaustive_word(0, 0),
            exhaustive_word(1, 0),
            exhaustive_word(2, 0),
        );
        let maj = (a & b) | (a & c) | (b & c);
        let e = factor_table(&[maj & 0xFF], 3, 64).expect("small");
        assert!(e.literals() <= 5, "{e:?}");
        let par = a ^ b ^ c ^ exhaustive_word(3, 0);
        let e = factor_table(&[par & 0xFFFF], 4, 64).expect("small");
        assert_eq!(e.literals(), 4, "{e:?}");
    }
}
