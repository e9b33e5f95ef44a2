//! NPN canonical forms of functions of at most six inputs: the smallest
//! truth table reachable by permuting the inputs, complementing some of
//! them, and complementing the output. Functions of one class share one
//! exact synthesis result ([`super::exact`]).
//!
//! A table is one 64-bit word over six inputs (input `k` is bit `k` of the
//! row index); a function of `n < 6` inputs is its `2^n` rows repeated, so
//! the inputs past `n` are unused and every transform keeps it repeated.
//!
//! **Invariants.** `canon(t).table` equals `t` under the returned
//! [`Transform`] (checked by `Transform::apply` in the tests); the form
//! is the minimum over all `2 · 2^n · n!` transforms, so two functions get
//! the same form exactly when they are NPN-equivalent.

/// Rows where input `k` (below six) is 1.
fn pat(k: usize) -> u64 {
    ptx_ir::lut::exhaustive_word(k, 0)
}

/// The pattern of input `k` (a function of one input, repeated).
#[cfg(test)]
pub(super) fn var(k: usize) -> u64 {
    pat(k)
}

/// `t` repeated from its first `2^n` rows over all 64.
#[cfg(test)]
pub(super) fn repeat(t: u64, n: usize) -> u64 {
    let mut t = t;
    for k in n..6 {
        t = (t & !pat(k)) | ((t & !pat(k)) << (1u32 << k));
    }
    t
}

/// `t` with input `k` complemented.
fn flip(t: u64, k: usize) -> u64 {
    let s = 1u32 << k;
    ((t & pat(k)) >> s) | ((t & !pat(k)) << s)
}

/// `t` with inputs `i < j` exchanged.
fn swap(t: u64, i: usize, j: usize) -> u64 {
    debug_assert!(i < j);
    let shift = (1u32 << j) - (1u32 << i);
    // Rows with input i = 1 and j = 0 trade places with i = 0, j = 1.
    let m = pat(i) & !pat(j);
    (t & !(m | (m << shift))) | ((t & m) << shift) | ((t >> shift) & m)
}

/// How a function relates to its canonical form `c`:
/// `t(x) = c(y) ^ output`, where `y[pos[m]] = x[m] ^ neg[m]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Transform {
    /// The canonical input that original input `m` becomes.
    pub(super) pos: [u8; 6],
    /// Whether original input `m` is complemented on the way.
    pub(super) neg: [bool; 6],
    /// Whether the output is complemented.
    pub(super) output: bool,
}

impl Transform {
    /// The original function, from the canonical table `c` (for checks).
    #[cfg(test)]
    pub(super) fn apply(&self, c: u64, n: usize) -> u64 {
        let mut t = 0u64;
        for x in 0..64usize {
            let mut y = 0usize;
            for m in 0..n {
                let bit = ((x >> m) & 1) ^ usize::from(self.neg[m]);
                y |= bit << self.pos[m];
            }
            let v = ((c >> y) & 1) ^ u64::from(self.output);
            t |= v << x;
        }
        t
    }
}

/// A canonical form and the transform that leads back to the function.
#[derive(Clone, Copy, Debug)]
pub(super) struct Canon {
    pub(super) table: u64,
    pub(super) transform: Transform,
}

/// The NPN canonical form of `t`, a function of `n <= 6` inputs (its
/// `2^n` rows repeated over the word).
pub(super) fn canon(t: u64, n: usize) -> Canon {
    assert!(n <= 6);
    let mut pos = [0u8, 1, 2, 3, 4, 5];
    let mut neg = [false; 6];
    // The current table is t(x) with x[m] = y[pos[m]] ^ neg[m].
    let mut cur = t;
    let mut best = Canon {
        table: u64::MAX,
        transform: Transform {
            pos,
            neg,
            output: false,
        },
    };
    let mut consider = |cur: u64, pos: &[u8; 6], neg: &[bool; 6]| {
        for output in [false, true] {
            let v = if output { !cur } else { cur };
            if v < best.table {
                best = Canon {
                    table: v,
                    transform: Transform {
                        pos: *pos,
                        neg: *neg,
                        output,
                    },
                };
            }
        }
    };
    // Permutations by Heap's algorithm (one swap each); within each, the
    // 2^n complement masks in Gray-code order (one flip each), which ends
    // where it began.
    let mut count = [0usize; 6];
    let mut i = 1;
    let mut visit = |cur: &mut u64, pos: &[u8; 6], neg: &mut [bool; 6]| {
        for g in 0..(1usize << n) {
            consider(*cur, pos, neg);
            let k = if g + 1 == 1 << n {
                // Undo the last flip so the mask returns to none.
                n.saturating_sub(1)
            } else {
                (g + 1).trailing_zeros() as usize
            };
            if n == 0 {
                break;
            }
            *cur = flip(*cur, k);
            for m in 0..n {
                if pos[m] as usize == k {
                    neg[m] = !neg[m];
                }
            }
        }
    };
    visit(&mut cur, &pos, &mut neg);
    while i < n {
        if count[i] < i {
            let j = if i % 2 == 0 { 0 } else { count[i] };
            cur = swap(cur, j, i);
            for p in pos.iter_mut().take(n) {
                if *p as usize == j {
                    *p = i as u8;
                } else if *p as usize == i {
                    *p = j as u8;
                }
            }
            visit(&mut cur, &pos, &mut neg);
            count[i] += 1;
            i = 1;
        } else {
            count[i] = 0;
            i += 1;
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rng() -> impl FnMut() -> u64 {
        super::super::xorshift(0x1234_5678_9ABC_DEF1)
    }

    #[test]
    fn the_transform_leads_back_to_the_function() {
        let mut next = rng();
        for n in 0..=6 {
            for _ in 0..20 {
                let t = repeat(next(), n);
                let c = canon(t, n);
                assert_eq!(c.transform.apply(c.table, n), t, "n = {n}, t = {t:#x}");
                assert_eq!(repeat(c.table, n), c.table, "the form stays repeated");
            }
        }
    }

    #[test]
    fn equivalent_functions_share_a_form() {
        let mut next = rng();
        for n in 1..=5 {
            for _ in 0..10 {
                let t = repeat(next(), n);
                let c = canon(t, n).table;
                // A random NPN transform of t.
                let mut u = t;
                for _ in 0..8 {
                    let r = next();
                    let (i, j) = ((r % n as u64) as usize, ((r >> 8) % n as u64) as usize);
                    if i < j {
                        u = swap(u, i, j);
                    }
                    if r >> 16 & 1 == 1 {
                        u = flip(u, (r >> 20) as usize % n);
                    }
                    if r >> 30 & 1 == 1 {
                        u = !u;
                    }
                }
                assert_eq!(canon(u, n).table, c);
            }
        }
    }

    #[test]
    fn classes_of_three_inputs_number_fourteen() {
        let forms: std::collections::BTreeSet<u64> =
            (0..256u64).map(|t| canon(repeat(t, 3), 3).table).collect();
        assert_eq!(forms.len(), 14);
        let forms4: std::collections::BTreeSet<u64> = (0..65536u64)
            .map(|t| canon(repeat(t, 4), 4).table)
            .collect();
        assert_eq!(forms4.len(), 222);
    }
}
