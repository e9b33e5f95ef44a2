//! IEEE 754 `add`, `mul`, `fma`, `div` and `sqrt` on f32, f64, f16 and
//! bf16 in the four rounding modes (`.rn`, `.rz`, `.rm`, `.rp`): the
//! exact result, held as an integer mantissa, an exponent and a sticky
//! bit, rounded once to the format (round-to-nearest on f32 and f64 uses
//! the host's IEEE arithmetic, which the unit tests hold to the same
//! results). `rcp.rnd` is `div.rnd` of one.
//!
//! Invariant: every function returns the correctly rounded result for its
//! mode, subnormals included; NaN results are a quiet NaN that callers
//! replace by the GPU's (`nan_result`), and `.ftz` is the caller's.

use super::minifloat::Round;
pub(super) use super::minifloat::{Format as Fmt, BF16, F16, F32, F64};

/// The special encodings `ieee` produces, on top of `minifloat`'s format.
impl Fmt {
    fn inf(self, neg: bool) -> u64 {
        (((1u64 << self.exp) - 1) << self.man) | self.zero(neg)
    }
    fn zero(self, neg: bool) -> u64 {
        if neg {
            self.sign_bit()
        } else {
            0
        }
    }
    /// The default quiet NaN (callers give the GPU's: `nan_result`).
    fn quiet_nan(self) -> u64 {
        self.inf(false) | 1 << (self.man - 1)
    }
    fn largest(self, neg: bool) -> u64 {
        self.max_finite | self.zero(neg)
    }
}

/// A decoded operand.
#[derive(Clone, Copy, Debug)]
enum Num {
    Nan,
    Inf(bool),
    Zero(bool),
    /// `(-1)^neg * mant * 2^exp`, `mant` > 0.
    Fin(bool, u128, i32),
}

fn decode(bits: u64, f: Fmt) -> Num {
    let neg = bits & f.sign_bit() != 0;
    let e = ((bits >> f.man) & ((1 << f.exp) - 1)) as i32;
    let frac = bits & ((1 << f.man) - 1);
    let top = (1 << f.exp) - 1;
    match (e, frac) {
        (e, 0) if e == top => Num::Inf(neg),
        (e, _) if e == top => Num::Nan,
        (0, 0) => Num::Zero(neg),
        (0, m) => Num::Fin(neg, m as u128, 1 - f.bias() - f.man as i32),
        (e, m) => Num::Fin(neg, (m | 1 << f.man) as u128, e - f.bias() - f.man as i32),
    }
}

/// An exact value: `(-1)^neg * (mant + s) * 2^exp` with `s` in (0, 1)
/// when `sticky`, else 0.
#[derive(Clone, Copy, Debug)]
struct Exact {
    neg: bool,
    mant: u128,
    exp: i32,
    sticky: bool,
}

/// Rounds an exact nonzero value to `f` in `mode`.
fn round(x: Exact, f: Fmt, mode: Round) -> u64 {
    let Exact {
        neg,
        mant,
        exp,
        sticky,
    } = x;
    debug_assert!(mant != 0);
    let msb = 127 - mant.leading_zeros() as i32;
    let emin_lsb = 1 - f.bias() - f.man as i32;
    // The exponent of the result's last place.
    let q = (msb + exp - f.man as i32).max(emin_lsb);
    let shift = q - exp;
    let (mut kept, half, rest) = if shift <= 0 {
        (mant << (-shift) as u32, false, sticky)
    } else if shift >= 129 {
        (0, false, true)
    } else if shift == 128 {
        (0, mant >> 127 != 0, mant << 1 != 0 || sticky)
    } else {
        let s = shift as u32;
        let low = mant & ((1u128 << s) - 1);
        (
            mant >> s,
            low >> (s - 1) & 1 != 0,
            low & ((1u128 << (s - 1)) - 1) != 0 || sticky,
        )
    };
    let up = match mode {
        Round::Nearest => half && (rest || kept & 1 != 0),
        Round::Zero => false,
        Round::Up => !neg && (half || rest),
        Round::Down => neg && (half || rest),
    };
    let mut q = q;
    if up {
        kept += 1;
        if kept >> (f.man + 1) != 0 {
            kept >>= 1;
            q += 1;
        }
    }
    let sign = f.zero(neg);
    if kept == 0 {
        return sign;
    }
    if kept >> f.man == 0 {
        // Subnormal (q is the least exponent).
        return sign | kept as u64;
    }
    let biased = q + f.man as i32 + f.bias();
    if biased >= (1 << f.exp) - 1 {
        let to_inf = match mode {
            Round::Nearest => true,
            Round::Zero => false,
            Round::Up => !neg,
            Round::Down => neg,
        };
        return if to_inf { f.inf(neg) } else { f.largest(neg) };
    }
    sign | (biased as u64) << f.man | (kept as u64 & ((1 << f.man) - 1))
}

/// The sign of an exact zero sum: `-0` only when both addends are
/// negative, or, rounding down, when they differ in sign.
fn zero_sum(a_neg: bool, b_neg: bool, mode: Round) -> bool {
    if a_neg == b_neg {
        a_neg
    } else {
        mode == Round::Down
    }
}

/// Shifts a mantissa so its most significant bit is bit 105.
fn normalize(mant: u128, exp: i32) -> (u128, i32) {
    let msb = 127 - mant.leading_zeros() as i32;
    let by = 105 - msb;
    if by >= 0 {
        (mant << by as u32, exp - by)
    } else {
        (mant >> (-by) as u32, exp - by)
    }
}

/// The exact sum of two nonzero values of at most 106 bits each, kept
/// exactly where it matters for rounding to 53 bits or fewer.
fn add_exact(a: (bool, u128, i32), b: (bool, u128, i32)) -> Option<Exact> {
    let (an, am, ae) = a;
    let (bn, bm, be) = b;
    let (am, ae) = normalize(am, ae);
    let (bm, be) = normalize(bm, be);
    let ((bign, bigm, bige), (smalln, smallm, smalle)) = if (ae, am) >= (be, bm) {
        ((an, am, ae), (bn, bm, be))
    } else {
        ((bn, bm, be), (an, am, ae))
    };
    let d = (bige - smalle) as u32;
    // Frame: the big operand at most 21 places up (127 bits); a smaller
    // operand further down than that keeps its bits above the frame's
    // last place and a sticky bit for the rest, far below where a
    // result of 53 bits rounds.
    let up = d.min(21);
    let big = bigm << up;
    let exp = bige - up as i32;
    let drop = d - up;
    let (small, lost) = if drop == 0 {
        (smallm, false)
    } else if drop >= 128 {
        (0, smallm != 0)
    } else {
        (smallm >> drop, smallm & ((1u128 << drop) - 1) != 0)
    };
    let (neg, mant, sticky) = if bign == smalln {
        (bign, big + small, lost)
    } else {
        // big > small here (same normalisation, larger exponent or mantissa).
        (bign, big - small - lost as u128, lost)
    };
    if mant == 0 && !sticky {
        return None;
    }
    Some(Exact {
        neg,
        mant,
        exp,
        sticky,
    })
}

/// `a + b` (and `a - b` with `b`'s sign flipped by the caller).
fn rounded_add(a: u64, b: u64, f: Fmt, mode: Round) -> u64 {
    match (decode(a, f), decode(b, f)) {
        (Num::Nan, _) | (_, Num::Nan) => f.quiet_nan(),
        (Num::Inf(x), Num::Inf(y)) if x != y => f.quiet_nan(),
        (Num::Inf(x), _) | (_, Num::Inf(x)) => f.inf(x),
        (Num::Zero(x), Num::Zero(y)) => f.zero(zero_sum(x, y, mode)),
        (Num::Zero(_), _) => b,
        (_, Num::Zero(_)) => a,
        (Num::Fin(an, am, ae), Num::Fin(bn, bm, be)) => {
            match add_exact((an, am, ae), (bn, bm, be)) {
                Some(x) => round(x, f, mode),
                None => f.zero(mode == Round::Down),
            }
        }
    }
}

/// The sign of a decoded operand (NaN: none).
fn sign(n: Num) -> bool {
    match n {
        Num::Inf(s) | Num::Zero(s) | Num::Fin(s, ..) => s,
        Num::Nan => false,
    }
}

/// `a * b`.
fn rounded_mul(a: u64, b: u64, f: Fmt, mode: Round) -> u64 {
    let (x, y) = (decode(a, f), decode(b, f));
    let neg = sign(x) != sign(y);
    match (x, y) {
        (Num::Nan, _) | (_, Num::Nan) => f.quiet_nan(),
        (Num::Inf(_), Num::Zero(_)) | (Num::Zero(_), Num::Inf(_)) => f.quiet_nan(),
        (Num::Inf(_), _) | (_, Num::Inf(_)) => f.inf(neg),
        (Num::Zero(_), _) | (_, Num::Zero(_)) => f.zero(neg),
        (Num::Fin(_, am, ae), Num::Fin(_, bm, be)) => round(
            Exact {
                neg,
                mant: am * bm,
                exp: ae + be,
                sticky: false,
            },
            f,
            mode,
        ),
    }
}

/// `a * b + c` with one rounding.
fn rounded_fma(a: u64, b: u64, c: u64, f: Fmt, mode: Round) -> u64 {
    let (x, y, z) = (decode(a, f), decode(b, f), decode(c, f));
    let product_neg = |p: Num, q: Num| sign(p) != sign(q);
    match (x, y, z) {
        (Num::Nan, ..) | (_, Num::Nan, _) | (.., Num::Nan) => f.quiet_nan(),
        (Num::Inf(_), Num::Zero(_), _) | (Num::Zero(_), Num::Inf(_), _) => f.quiet_nan(),
        (Num::Inf(_), ..) | (_, Num::Inf(_), _) => {
            let p = product_neg(x, y);
            match z {
                Num::Inf(s) if s != p => f.quiet_nan(),
                _ => f.inf(p),
            }
        }
        (.., Num::Inf(s)) => f.inf(s),
        (Num::Zero(_), ..) | (_, Num::Zero(_), _) => {
            let p = product_neg(x, y);
            match z {
                Num::Zero(s) => f.zero(zero_sum(p, s, mode)),
                _ => c,
            }
        }
        (Num::Fin(an, am, ae), Num::Fin(bn, bm, be), z) => {
            let p = (an != bn, am * bm, ae + be);
            match z {
                Num::Fin(cn, cm, ce) => match add_exact(p, (cn, cm, ce)) {
                    Some(e) => round(e, f, mode),
                    None => f.zero(mode == Round::Down),
                },
                _ => round(
                    Exact {
                        neg: p.0,
                        mant: p.1,
                        exp: p.2,
                        sticky: false,
                    },
                    f,
                    mode,
                ),
            }
        }
    }
}

/// `a / b`.
fn rounded_div(a: u64, b: u64, f: Fmt, mode: Round) -> u64 {
    match (decode(a, f), decode(b, f)) {
        (Num::Nan, _) | (_, Num::Nan) => f.quiet_nan(),
        (Num::Inf(_), Num::Inf(_)) | (Num::Zero(_), Num::Zero(_)) => f.quiet_nan(),
        (Num::Inf(x), Num::Zero(y) | Num::Fin(y, ..)) => f.inf(x != y),
        (Num::Zero(x) | Num::Fin(x, ..), Num::Inf(y)) => f.zero(x != y),
        (Num::Fin(x, ..), Num::Zero(y)) => f.inf(x != y),
        (Num::Zero(x), Num::Fin(y, ..)) => f.zero(x != y),
        (Num::Fin(an, am, ae), Num::Fin(bn, bm, be)) => {
            // Both mantissas to 53 bits; the quotient then has 74 or 75.
            let (am, ae) = normalize(am, ae);
            let (bm, be) = normalize(bm, be);
            let (am, ae) = (am >> 53, ae + 53);
            let (bm, be) = (bm >> 53, be + 53);
            let num = am << 74;
            round(
                Exact {
                    neg: an != bn,
                    mant: num / bm,
                    exp: ae - be - 74,
                    sticky: num % bm != 0,
                },
                f,
                mode,
            )
        }
    }
}

/// `sqrt(a)`.
fn rounded_sqrt(a: u64, f: Fmt, mode: Round) -> u64 {
    match decode(a, f) {
        Num::Nan | Num::Inf(true) | Num::Fin(true, ..) => f.quiet_nan(),
        Num::Inf(false) => a,
        Num::Zero(_) => a,
        Num::Fin(false, m, e) => {
            // m * 2^e with m of 53 bits and e even, then m shifted up by
            // 72 so the root has 62 or 63 bits.
            let (m, e) = normalize(m, e);
            let (mut m, mut e) = (m >> 53, e + 53);
            if e % 2 != 0 {
                m <<= 1;
                e -= 1;
            }
            let n = m << 72;
            let r = isqrt(n);
            round(
                Exact {
                    neg: false,
                    mant: r,
                    exp: (e - 72) / 2,
                    sticky: r * r != n,
                },
                f,
                mode,
            )
        }
    }
}

/// The integer square root, rounded down.
fn isqrt(n: u128) -> u128 {
    let mut r = (n as f64).sqrt() as u128;
    if r > 0 {
        r = (r + n / r) / 2;
    }
    while r * r > n {
        r -= 1;
    }
    while (r + 1) * (r + 1) <= n {
        r += 1;
    }
    r
}

// Round-to-nearest on f32 and f64 uses the host's own IEEE arithmetic
// (subnormals kept; the unit tests hold the two to the same results).

/// `a + b` (`a - b`: `b` with its sign flipped).
pub(super) fn add(a: u64, b: u64, f: Fmt, mode: Round) -> u64 {
    match (mode == Round::Nearest, f) {
        (true, F32) => (f32::from_bits(a as u32) + f32::from_bits(b as u32)).to_bits() as u64,
        (true, F64) => (f64::from_bits(a) + f64::from_bits(b)).to_bits(),
        _ => rounded_add(a, b, f, mode),
    }
}

/// `a * b`.
pub(super) fn mul(a: u64, b: u64, f: Fmt, mode: Round) -> u64 {
    match (mode == Round::Nearest, f) {
        (true, F32) => (f32::from_bits(a as u32) * f32::from_bits(b as u32)).to_bits() as u64,
        (true, F64) => (f64::from_bits(a) * f64::from_bits(b)).to_bits(),
        _ => rounded_mul(a, b, f, mode),
    }
}

/// `a * b + c`, rounded once.
pub(super) fn fma(a: u64, b: u64, c: u64, f: Fmt, mode: Round) -> u64 {
    match (mode == Round::Nearest, f) {
        (true, F32) => {
            let g = |v: u64| f32::from_bits(v as u32);
            g(a).mul_add(g(b), g(c)).to_bits() as u64
        }
        (true, F64) => {
            let g = f64::from_bits;
            g(a).mul_add(g(b), g(c)).to_bits()
        }
        _ => rounded_fma(a, b, c, f, mode),
    }
}

/// `a / b`.
pub(super) fn div(a: u64, b: u64, f: Fmt, mode: Round) -> u64 {
    match (mode == Round::Nearest, f) {
        (true, F32) => (f32::from_bits(a as u32) / f32::from_bits(b as u32)).to_bits() as u64,
        (true, F64) => (f64::from_bits(a) / f64::from_bits(b)).to_bits(),
        _ => rounded_div(a, b, f, mode),
    }
}

/// `sqrt(a)`.
pub(super) fn sqrt(a: u64, f: Fmt, mode: Round) -> u64 {
    match (mode == Round::Nearest, f) {
        (true, F32) => f32::from_bits(a as u32).sqrt().to_bits() as u64,
        (true, F64) => f64::from_bits(a).sqrt().to_bits(),
        _ => rounded_sqrt(a, f, mode),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small deterministic generator of interesting bit patterns: edge
    /// values, subnormals, and random words.
    fn words(seed: u64, n: usize, f: Fmt) -> Vec<u64> {
        let mut x = seed;
        let mut out = vec![0, f.sign_bit(), 1, f.sign_bit() | 1, f.largest(false)];
        out.push(1 << f.man);
        out.push((1 << f.man) - 1);
        while out.len() < n {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let w = if f == F32 { x & 0xffff_ffff } else { x };
            // Half the words near 1.0, so sums cancel and round.
            let w = if x >> 60 & 1 == 0 {
                w
            } else {
                (w & ((1 << f.man) - 1)) | (f.bias() as u64 + (x >> 40 & 3)) << f.man
            };
            out.push(w);
        }
        out
    }

    #[test]
    fn round_to_nearest_agrees_with_the_hardware_operations() {
        let f32op = |v: u64| f32::from_bits(v as u32);
        let same32 = |x: u64, y: f32| {
            let y = y.to_bits() as u64;
            x == y || (f32op(x).is_nan() && f32op(y).is_nan())
        };
        let ws = words(7, 300, F32);
        for &a in &ws {
            for &b in ws.iter().step_by(3) {
                let n = Round::Nearest;
                assert!(
                    same32(rounded_add(a, b, F32, n), f32op(a) + f32op(b)),
                    "{a:x}+{b:x}"
                );
                assert!(
                    same32(rounded_mul(a, b, F32, n), f32op(a) * f32op(b)),
                    "{a:x}*{b:x}"
                );
                assert!(
                    same32(rounded_div(a, b, F32, n), f32op(a) / f32op(b)),
                    "{a:x}/{b:x}"
                );
                let c = ws[(a as usize ^ b as usize) % ws.len()];
                assert!(
                    same32(
                        rounded_fma(a, b, c, F32, n),
                        f32op(a).mul_add(f32op(b), f32op(c))
                    ),
                    "fma {a:x} {b:x} {c:x}"
                );
            }
            assert!(
                same32(rounded_sqrt(a, F32, Round::Nearest), f32op(a).sqrt()),
                "sqrt {a:x}"
            );
        }
        let ws = words(9, 300, F64);
        let d = f64::from_bits;
        let same64 = |x: u64, y: f64| x == y.to_bits() || (d(x).is_nan() && y.is_nan());
        for &a in &ws {
            for &b in ws.iter().step_by(3) {
                let n = Round::Nearest;
                assert!(
                    same64(rounded_add(a, b, F64, n), d(a) + d(b)),
                    "{a:x}+{b:x}"
                );
                assert!(
                    same64(rounded_mul(a, b, F64, n), d(a) * d(b)),
                    "{a:x}*{b:x}"
                );
                assert!(
                    same64(rounded_div(a, b, F64, n), d(a) / d(b)),
                    "{a:x}/{b:x}"
                );
                let c = ws[(a as usize ^ b as usize) % ws.len()];
                assert!(
                    same64(rounded_fma(a, b, c, F64, n), d(a).mul_add(d(b), d(c))),
                    "fma {a:x} {b:x} {c:x}"
                );
            }
            assert!(
                same64(rounded_sqrt(a, F64, Round::Nearest), d(a).sqrt()),
                "sqrt {a:x}"
            );
        }
    }

    #[test]
    fn directed_modes_bracket_the_exact_value() {
        // f32 products and quotients checked in f64, where r * b and r * r
        // are exact: rounding down gives r <= exact < next(r), and so on.
        let f = |v: u64| f32::from_bits(v as u32) as f64;
        let ws: Vec<u64> = words(11, 200, F32)
            .into_iter()
            .filter(|&w| f(w).is_finite() && f(w) != 0.0)
            .collect();
        for &a in &ws {
            for &b in ws.iter().step_by(5) {
                let exact = f(a) * f(b);
                let dn = f(rounded_mul(a, b, F32, Round::Down));
                let up = f(rounded_mul(a, b, F32, Round::Up));
                let zr = f(rounded_mul(a, b, F32, Round::Zero));
                if exact.abs() < f64::from(f32::MAX) && exact.abs() > 1e-37 {
                    assert!(dn <= exact && exact <= up, "{a:x}*{b:x}");
                    assert!(zr.abs() <= exact.abs());
                    assert_eq!(zr, if exact > 0.0 { dn } else { up });
                    assert_eq!(dn == up, dn == exact, "{a:x}*{b:x}");
                }
                if f(a) > 0.0 && f(b) > 0.0 {
                    let q = rounded_div(a, b, F32, Round::Down);
                    let qu = rounded_div(a, b, F32, Round::Up);
                    let below = f(q) * f(b) <= f(a);
                    let above = f(qu) * f(b) >= f(a);
                    if f(q) > 1e-37 && f(qu).is_finite() {
                        assert!(below && above, "{a:x}/{b:x}");
                        assert!(qu == q || qu == q + 1, "{a:x}/{b:x}");
                    }
                }
            }
            if f(a) > 0.0 {
                let r = rounded_sqrt(a, F32, Round::Down);
                assert!(
                    f(r) * f(r) <= f(a) && f(r + 1) * f(r + 1) > f(a),
                    "sqrt {a:x}"
                );
                let r = rounded_sqrt(a, F32, Round::Up);
                assert!(
                    f(r) * f(r) >= f(a) && f(r - 1) * f(r - 1) < f(a),
                    "sqrt {a:x}"
                );
            }
        }
    }

    #[test]
    fn edge_cases_of_the_modes() {
        let one = 1f32.to_bits() as u64;
        let tiny = 1u64; // 2^-149
                         // 1 + 2^-149: only rounding up moves.
        assert_eq!(rounded_add(one, tiny, F32, Round::Up), one + 1);
        assert_eq!(rounded_add(one, tiny, F32, Round::Nearest), one);
        assert_eq!(rounded_add(one, tiny, F32, Round::Zero), one);
        // 1 - 2^-149 rounds down and toward zero to the value below 1.
        let neg_tiny = tiny | 1 << 31;
        assert_eq!(rounded_add(one, neg_tiny, F32, Round::Down), one - 1);
        assert_eq!(rounded_add(one, neg_tiny, F32, Round::Zero), one - 1);
        assert_eq!(rounded_add(one, neg_tiny, F32, Round::Nearest), one);
        // x - x is +0, except rounding down.
        assert_eq!(rounded_add(one, one | 1 << 31, F32, Round::Nearest), 0);
        assert_eq!(rounded_add(one, one | 1 << 31, F32, Round::Down), 1 << 31);
        // Overflow: to infinity or to the largest finite by mode.
        let max = f32::MAX.to_bits() as u64;
        assert_eq!(rounded_add(max, max, F32, Round::Nearest), 0x7f80_0000);
        assert_eq!(rounded_add(max, max, F32, Round::Zero), max);
        assert_eq!(rounded_add(max, max, F32, Round::Down), max);
        // 1/3 in each mode.
        let three = 3f32.to_bits() as u64;
        assert_eq!(rounded_div(one, three, F32, Round::Nearest), 0x3eaa_aaab);
        assert_eq!(rounded_div(one, three, F32, Round::Zero), 0x3eaa_aaaa);
        assert_eq!(rounded_div(one, three, F32, Round::Up), 0x3eaa_aaab);
        // rounded_sqrt(2) rounds down in .rz and .rm, up in .rp.
        let two = 2f32.to_bits() as u64;
        assert_eq!(rounded_sqrt(two, F32, Round::Zero), 0x3fb5_04f3);
        assert_eq!(rounded_sqrt(two, F32, Round::Up), 0x3fb5_04f4);
        // fma with an exact cancellation that leaves the product's tail.
        let a = f32::from_bits(0x3f80_0001) as f64;
        let p = a * a; // exact in f64
        let c = (-(p as f32)).to_bits() as u64;
        let r = rounded_fma(0x3f80_0001, 0x3f80_0001, c, F32, Round::Nearest);
        assert_eq!(f32::from_bits(r as u32) as f64, p - (p as f32) as f64);
    }

    #[test]
    fn half_formats_round_once_like_the_minifloat_encoder() {
        // f16 and bf16 sums and products are exact in f64 whenever TwoSum
        // leaves no error, so the independent encoder of `cvt` gives the
        // correctly rounded reference.
        use super::super::minifloat::{self, Round as R};
        for (f, enc) in [(F16, minifloat::F16), (BF16, minifloat::BF16)] {
            let ws = words(13, 400, f)
                .into_iter()
                .map(|w| w & 0xffff)
                .collect::<Vec<_>>();
            for &a in &ws {
                for &b in ws.iter().step_by(7) {
                    let (x, y) = (enc.decode(a), enc.decode(b));
                    if !x.is_finite() || !y.is_finite() {
                        continue;
                    }
                    for mode in [R::Nearest, R::Zero, R::Down, R::Up] {
                        let p = x * y;
                        if p != 0.0 {
                            assert_eq!(
                                rounded_mul(a, b, f, mode),
                                enc.encode(p, mode, false),
                                "{a:x}*{b:x} {mode:?}"
                            );
                        }
                        let s = x + y;
                        let exact = (s - x) == y && (s - (s - x)) == x;
                        if s != 0.0 && exact {
                            assert_eq!(
                                rounded_add(a, b, f, mode),
                                enc.encode(s, mode, false),
                                "{a:x}+{b:x} {mode:?}"
                            );
                        }
                    }
                }
            }
        }
    }
}
