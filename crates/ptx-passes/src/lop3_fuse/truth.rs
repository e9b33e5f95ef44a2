//! Truth tables of up to four inputs (16 bits) and how a four-input
//! function becomes two or three `lop3`s.

use ptx_ir::lut::{apply32, apply64};

/// Patterns of the four cut inputs in a 16-bit truth table (input 0 is the
/// most significant index bit).
pub(super) const PAT: [u16; 4] = [0xFF00, 0xF0F0, 0xCCCC, 0xAAAA];
pub(super) const SHIFT: [u32; 4] = [8, 4, 2, 1];
pub(super) const PAT0: u16 = PAT[0];
pub(super) const NOT0: u16 = !PAT[0];

/// Substitutes the functions `p` for the inputs of `tt`: a tree of
/// multiplexers over the table's entries, input 3 (the lowest index bit)
/// selecting first.
pub(super) fn compose(p: [u16; 4], tt: u16) -> u16 {
    let mux = |s: u16, hi: u16, lo: u16| (s & hi) | (!s & lo);
    let entry = |i: usize| 0u16.wrapping_sub((tt >> i) & 1);
    let mut by3 = [0u16; 8];
    for (i, v) in by3.iter_mut().enumerate() {
        *v = mux(p[3], entry(2 * i + 1), entry(2 * i));
    }
    let mut by2 = [0u16; 4];
    for (i, v) in by2.iter_mut().enumerate() {
        *v = mux(p[2], by3[2 * i + 1], by3[2 * i]);
    }
    let lo = mux(p[1], by2[1], by2[0]);
    let hi = mux(p[1], by2[3], by2[2]);
    mux(p[0], hi, lo)
}

/// `lop3` on 16-bit truth tables.
pub(super) fn lut3(a: u16, b: u16, c: u16, l: u8) -> u16 {
    apply32(a.into(), b.into(), c.into(), l) as u16
}

pub(super) fn depends(tt: u16, k: usize) -> bool {
    ((tt & PAT[k]) >> SHIFT[k]) != (tt & !PAT[k])
}

/// `tt` with input `k` fixed to `v`.
pub(super) fn cofactor(tt: u16, k: usize, v: bool) -> u16 {
    if v {
        let h = tt & PAT[k];
        h | (h >> SHIFT[k])
    } else {
        let l = tt & !PAT[k];
        l | (l << SHIFT[k])
    }
}

/// The `immLut` of `tt` when `lop3`'s a, b, c are inputs `vars` (the
/// fourth input must not matter).
pub(super) fn lut_of(tt: u16, vars: [usize; 3]) -> u8 {
    let mut l = 0u8;
    for j in 0..8usize {
        let i = ((j >> 2) & 1) << (3 - vars[0])
            | ((j >> 1) & 1) << (3 - vars[1])
            | (j & 1) << (3 - vars[2]);
        l |= (((tt >> i) & 1) as u8) << j;
    }
    l
}

/// How a four-input function becomes lop3s.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Decomp {
    /// `g = inner(vars)`, `f = outer(g, w, s)`: two lop3s.
    Two {
        vars: [usize; 3],
        inner: u8,
        w: usize,
        s: usize,
        outer: u8,
    },
    /// `f = w ? f1(rest) : f0(rest)`: three lop3s.
    Three {
        w: usize,
        rest: [usize; 3],
        f0: u8,
        f1: u8,
    },
}

/// Decomposes a function of four inputs into two lop3s when it can be
/// written `outer(inner(x, y, s), w, s)` (checked over every choice of `w`
/// and the shared input `s`: for each value of `s`, the two cofactors in
/// `w` must be constants or one function up to complement), else into
/// three by Shannon expansion. Every four-input function needs at most
/// three.
pub(super) fn decompose(tt: u16) -> Decomp {
    for w in 0..4 {
        for (s, &ps) in PAT.iter().enumerate() {
            if s == w {
                continue;
            }
            let mut t = (0..4).filter(|&v| v != w && v != s);
            let (t0, t1) = (t.next().expect("two left"), t.next().expect("two left"));
            // kind[w][s]: 0 and 1 constants, 2 = h_s, 3 = !h_s.
            let mut kind = [[0u8; 2]; 2];
            let mut h = [0u16; 2];
            let mut ok = true;
            for sv in 0..2 {
                let co = [
                    cofactor(cofactor(tt, w, false), s, sv == 1),
                    cofactor(cofactor(tt, w, true), s, sv == 1),
                ];
                let hs = co
                    .iter()
                    .copied()
                    .find(|&x| x != 0 && x != 0xFFFF)
                    .unwrap_or(0);
                for (wv, &x) in co.iter().enumerate() {
                    kind[wv][sv] = match x {
                        0 => 0,
                        0xFFFF => 1,
                        _ if x == hs => 2,
                        _ if x == !hs => 3,
                        _ => {
                            ok = false;
                            0
                        }
                    };
                }
                h[sv] = hs;
            }
            if !ok {
                continue;
            }
            let g = (ps & h[1]) | (!ps & h[0]);
            let mut outer = 0u8;
            for j in 0..8usize {
                let (gv, wv, sv) = ((j >> 2) & 1, (j >> 1) & 1, j & 1);
                let bit = match kind[wv][sv] {
                    0 => 0,
                    1 => 1,
                    2 => gv,
                    _ => 1 - gv,
                };
                outer |= (bit as u8) << j;
            }
            return Decomp::Two {
                vars: [t0, t1, s],
                inner: lut_of(g, [t0, t1, s]),
                w,
                s,
                outer,
            };
        }
    }
    let rest = [1, 2, 3];
    Decomp::Three {
        w: 0,
        rest,
        f0: lut_of(cofactor(tt, 0, false), rest),
        f1: lut_of(cofactor(tt, 0, true), rest),
    }
}

/// Evaluates a decomposition bitwise on 64-bit words, as the emitted lop3s
/// compute it.
pub(super) fn eval_decomp(d: Decomp, x: [u64; 4]) -> u64 {
    match d {
        Decomp::Two {
            vars,
            inner,
            w,
            s,
            outer,
        } => {
            let g = apply64(x[vars[0]], x[vars[1]], x[vars[2]], inner);
            apply64(g, x[w], x[s], outer)
        }
        Decomp::Three { w, rest, f0, f1 } => {
            let lo = apply64(x[rest[0]], x[rest[1]], x[rest[2]], f0);
            let hi = apply64(x[rest[0]], x[rest[1]], x[rest[2]], f1);
            apply64(x[w], hi, lo, 0xCA)
        }
    }
}

thread_local! {
    /// Lop3s beyond the first that each four-input function needs (0 =
    /// not computed yet, else 1 + extra), filled as functions turn up.
    static EXTRA: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// [`Cut::extra`] of a four-leaf cut, memoised.
pub(super) fn extra_of(tt: u16) -> u8 {
    EXTRA.with(|t| {
        let mut t = t.borrow_mut();
        if t.is_empty() {
            t.resize(1 << 16, 0);
        }
        let slot = &mut t[tt as usize];
        if *slot == 0 {
            *slot = 1 + match decompose(tt) {
                Decomp::Two { .. } => 1,
                Decomp::Three { .. } => 2,
            };
        }
        *slot - 1
    })
}
