//! Binary float formats narrower than f64 (f32, f16, bf16 and the fp8
//! formats e4m3 and e5m2): exact decoding, and encoding of an f64 value
//! with one rounding in any of the four IEEE modes, with `.satfinite`.
//! The same `Format` (with an f64 entry) describes the formats `ieee`
//! does arithmetic in.
//!
//! Invariant: an encoding rounds the exact value once (the f64 argument
//! holds every f32/f16/bf16/fp8 value exactly), so `cvt` between any two
//! of these formats is correctly rounded.

/// Rounding modes (`.rn`, `.rz`, `.rm`, `.rp`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Round {
    /// To nearest, ties to even.
    Nearest,
    /// Toward zero.
    Zero,
    /// Toward −∞.
    Down,
    /// Toward +∞.
    Up,
}

/// A binary format: exponent and mantissa widths; whether it has
/// infinities (e4m3 has none: its all-ones exponent still holds numbers,
/// only `S.1111.111` is NaN); the NaN results are given.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Format {
    /// Exponent width.
    pub(super) exp: u32,
    /// Fraction width.
    pub(super) man: u32,
    has_inf: bool,
    /// The NaN a conversion produces.
    nan: u64,
    /// The largest finite magnitude's bits.
    pub(super) max_finite: u64,
}

/// IEEE double (for `ieee`; `cvt` computes in f64 itself).
pub(super) const F64: Format = Format {
    exp: 11,
    man: 52,
    has_inf: true,
    nan: 0x7ff8_0000_0000_0000,
    max_finite: 0x7fef_ffff_ffff_ffff,
};
/// IEEE single (NaN results canonical, as the GPU gives them).
pub(super) const F32: Format = Format {
    exp: 8,
    man: 23,
    has_inf: true,
    nan: 0x7fff_ffff,
    max_finite: 0x7f7f_ffff,
};
/// IEEE half.
pub(crate) const F16: Format = Format {
    exp: 5,
    man: 10,
    has_inf: true,
    nan: 0x7fff,
    max_finite: 0x7bff,
};
/// bfloat16.
pub(crate) const BF16: Format = Format {
    exp: 8,
    man: 7,
    has_inf: true,
    nan: 0x7fff,
    max_finite: 0x7f7f,
};
/// fp8 e4m3 (OCP "E4M3FN": bias 7, max 448, no infinities).
pub(super) const E4M3: Format = Format {
    exp: 4,
    man: 3,
    has_inf: false,
    nan: 0x7f,
    max_finite: 0x7e,
};
/// fp8 e5m2 (IEEE-like: bias 15, max 57344, infinities).
pub(super) const E5M2: Format = Format {
    exp: 5,
    man: 2,
    has_inf: true,
    nan: 0x7f,
    max_finite: 0x7b,
};

impl Format {
    pub(super) fn bias(&self) -> i32 {
        (1 << (self.exp - 1)) - 1
    }

    pub(super) fn sign_bit(&self) -> u64 {
        1 << (self.exp + self.man)
    }

    /// The exact value of `bits`.
    pub(crate) fn decode(&self, bits: u64) -> f64 {
        let man_mask = (1u64 << self.man) - 1;
        let exp_max = (1u64 << self.exp) - 1;
        let e = (bits >> self.man) & exp_max;
        let m = bits & man_mask;
        let neg = bits & self.sign_bit() != 0;
        let mag = if e == exp_max && (self.has_inf || m == man_mask) {
            if self.has_inf && m == 0 {
                f64::INFINITY
            } else {
                f64::NAN
            }
        } else if e == 0 {
            m as f64 * 2f64.powi(1 - self.bias() - self.man as i32)
        } else {
            ((1u64 << self.man) + m) as f64 * 2f64.powi(e as i32 - self.bias() - self.man as i32)
        };
        if neg {
            -mag
        } else {
            mag
        }
    }

    /// `x` rounded to this format with `mode`; `satfinite` clamps what
    /// would be infinite to the largest finite value (NaN stays NaN).
    pub(super) fn encode(&self, x: f64, mode: Round, satfinite: bool) -> u64 {
        if x.is_nan() {
            return self.nan;
        }
        let sign = if x.is_sign_negative() {
            self.sign_bit()
        } else {
            0
        };
        let ax = x.abs();
        let max = self.decode(self.max_finite);
        let overflow = |toward_inf: bool| -> u64 {
            if satfinite || !toward_inf {
                sign | self.max_finite
            } else if self.has_inf {
                sign | (((1u64 << self.exp) - 1) << self.man)
            } else {
                self.nan
            }
        };
        // Whether rounding this sign's magnitude up moves toward the
        // rounding direction.
        let up = match mode {
            Round::Up => sign == 0,
            Round::Down => sign != 0,
            _ => false,
        };
        if ax.is_infinite() {
            // Exact, not an overflow: only `.satfinite` changes it.
            return overflow(true);
        }
        if ax == 0.0 {
            return sign;
        }
        let emin = 1 - self.bias();
        let e = (ax.log2().floor() as i32).max(emin);
        // ax may sit just below a power of two that log2 rounded up to.
        let e = if ax < 2f64.powi(e) && e > emin {
            e - 1
        } else {
            e
        };
        let quantum = 2f64.powi(e - self.man as i32);
        let q = ax / quantum;
        let lower = q.floor();
        let rest = q - lower;
        let n = match mode {
            Round::Nearest => {
                if rest > 0.5 || (rest == 0.5 && lower % 2.0 != 0.0) {
                    lower + 1.0
                } else {
                    lower
                }
            }
            Round::Zero => lower,
            _ if up && rest > 0.0 => lower + 1.0,
            _ => lower,
        };
        let value = n * quantum;
        if value > max {
            return overflow(mode == Round::Nearest || up);
        }
        if value == 0.0 {
            return sign;
        }
        let e2 = (value.log2().floor() as i32).max(emin);
        let e2 = if value < 2f64.powi(e2) && e2 > emin {
            e2 - 1
        } else {
            e2
        };
        let m = (value / 2f64.powi(e2 - self.man as i32)) as u64;
        let bits = if m < (1u64 << self.man) {
            m
        } else {
            ((e2 + self.bias()) as u64) << self.man | (m - (1u64 << self.man))
        };
        sign | bits
    }
}
