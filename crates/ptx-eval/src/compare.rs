//! Compares a run's result JSON with another machine's (a GPU's, through
//! `ptx-gpu-run`): exact elements bit for bit, `.approx` results within
//! the bound the result JSON states for them, and elements computed from
//! approximate values left out, since no bound carries over to them.
//!
//! Invariant: only elements the result JSON's `approx` entries name are
//! compared loosely; everything else must match exactly (any NaN matches
//! any NaN in a float buffer).

use crate::case::{Case, Elem};
use crate::exec::minifloat;
use crate::{ApproxForm, Bound, FORMS};
use serde_json::Value as Json;

/// What a comparison found.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Comparison {
    /// Elements equal bit for bit.
    pub exact: u64,
    /// `.approx` results within their bound.
    pub within_bound: u64,
    /// Elements not compared: computed from approximate values, or
    /// results of a form without a stated bound.
    pub not_compared: u64,
    /// One line per element that differs.
    pub differences: Vec<String>,
}

/// How one element is compared.
#[derive(Clone, Copy)]
enum Rule {
    Exact,
    Within(&'static ApproxForm),
    Skip,
}

/// Compares `ours` (this evaluator's result for `case`, with its
/// `approx` entries) with `theirs` (another result of the same case).
pub fn compare(case: &str, ours: &Json, theirs: &Json) -> Result<Comparison, String> {
    let case = Case::parse(case)?;
    let mut cmp = Comparison::default();
    for b in &case.buffers {
        let get = |r: &Json, who: &str| -> Result<Vec<Json>, String> {
            r["buffers"][&b.name]
                .as_array()
                .cloned()
                .ok_or_else(|| format!("{who} result has no buffer '{}'", b.name))
        };
        let (mine, other) = (get(ours, "our")?, get(theirs, "the expected")?);
        if mine.len() != other.len() {
            cmp.differences.push(format!(
                "buffer '{}': {} elements here, {} expected",
                b.name,
                mine.len(),
                other.len()
            ));
            continue;
        }
        let mut rules = vec![Rule::Exact; mine.len()];
        for run in ours["approx"][&b.name].as_array().into_iter().flatten() {
            let first = run["first"].as_u64().unwrap_or(0) as usize;
            let count = run["count"].as_u64().unwrap_or(0) as usize;
            let form = run["op"]
                .as_str()
                .and_then(|op| FORMS.iter().find(|f| f.name == op));
            let rule = match form {
                Some(f) if f.bound != Bound::Unstated => Rule::Within(f),
                _ => Rule::Skip,
            };
            for r in rules.iter_mut().skip(first).take(count) {
                *r = rule;
            }
        }
        for (i, ((x, y), rule)) in mine.iter().zip(&other).zip(&rules).enumerate() {
            let (p, q) = (b.elem.encode(x)?, b.elem.encode(y)?);
            let ok = match rule {
                Rule::Skip => {
                    cmp.not_compared += 1;
                    continue;
                }
                Rule::Exact => {
                    let same = p == q || both_nan(b.elem, p, q);
                    cmp.exact += same as u64;
                    same
                }
                Rule::Within(form) => {
                    let near = within(form, b.elem.size() as u32 * 8, p, q);
                    cmp.within_bound += near as u64;
                    near
                }
            };
            if !ok {
                let how = match rule {
                    Rule::Within(f) => format!("{}, bound {:?}", f.name, f.bound),
                    _ => "exact".to_string(),
                };
                cmp.differences.push(format!(
                    "buffer '{}' element {i}: {x} (0x{p:x}) here, {y} (0x{q:x}) expected [{how}]",
                    b.name
                ));
            }
        }
    }
    Ok(cmp)
}

fn both_nan(elem: Elem, p: u64, q: u64) -> bool {
    match elem {
        Elem::F32 => f32::from_bits(p as u32).is_nan() && f32::from_bits(q as u32).is_nan(),
        Elem::F64 => f64::from_bits(p).is_nan() && f64::from_bits(q).is_nan(),
        _ => false,
    }
}

/// Whether `theirs` is within `form`'s bound of `ours` (the correctly
/// rounded value), element part by part (two halves of an `.f16x2`).
fn within(form: &ApproxForm, width: u32, ours: u64, theirs: u64) -> bool {
    let part = form.bits;
    if part == 0 || !width.is_multiple_of(part) {
        return ours == theirs;
    }
    let mask = if part == 64 {
        u64::MAX
    } else {
        (1u64 << part) - 1
    };
    (0..width / part).all(|k| {
        let (a, b) = ((ours >> (k * part)) & mask, (theirs >> (k * part)) & mask);
        part_within(form, a, b)
    })
}

fn part_within(form: &ApproxForm, ours: u64, theirs: u64) -> bool {
    let (x, y) = (value(form, ours), value(form, theirs));
    if x.is_nan() || y.is_nan() {
        return x.is_nan() && y.is_nan();
    }
    // A unit in the last place of our value: the exact function's value
    // is within half of it.
    let ulp = (value(form, ordered_step(form, ours)) - x).abs();
    match form.bound {
        Bound::Ulps(n) => ordered(form, ours).abs_diff(ordered(form, theirs)) <= n as u64,
        _ if x.is_infinite() || y.is_infinite() => x == y,
        Bound::Relative(e) => (x - y).abs() <= 2f64.powf(e) * x.abs() + ulp,
        Bound::Absolute(e) => (x - y).abs() <= 2f64.powf(e) + ulp,
        Bound::Unstated => true,
    }
}

/// The value of one part's bits.
fn value(form: &ApproxForm, bits: u64) -> f64 {
    match (form.bits, form.bf16) {
        (64, _) => f64::from_bits(bits),
        (32, _) => f32::from_bits(bits as u32) as f64,
        (_, true) => minifloat::BF16.decode(bits),
        _ => minifloat::F16.decode(bits),
    }
}

/// Bits as an integer that counts representable values in order (both
/// zeros at 0).
fn ordered(form: &ApproxForm, bits: u64) -> i64 {
    let sign = 1u64 << (form.bits - 1);
    let mag = (bits & (sign - 1)) as i64;
    if bits & sign != 0 {
        -mag
    } else {
        mag
    }
}

/// The next representable value away from zero (the same value when
/// there is none).
fn ordered_step(form: &ApproxForm, bits: u64) -> u64 {
    let sign = 1u64 << (form.bits - 1);
    let mag = bits & (sign - 1);
    let exp_all = if form.bits == 16 && !form.bf16 {
        0x7c00
    } else if form.bits == 16 {
        0x7f80
    } else if form.bits == 32 {
        0x7f80_0000
    } else {
        0x7ff0_0000_0000_0000
    };
    if mag >= exp_all {
        bits
    } else {
        bits + 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn form(name: &str) -> &'static ApproxForm {
        FORMS.iter().find(|f| f.name == name).unwrap()
    }

    #[test]
    fn ulp_bounds_count_representable_values() {
        let ex2 = form("ex2.approx.f32");
        let one = 1f32.to_bits() as u64;
        assert!(within(ex2, 32, one, one + 2));
        assert!(!within(ex2, 32, one, one + 3));
        // Across zero: +0 and -0 are one value, the smallest subnormals
        // either side are two apart.
        assert!(within(ex2, 32, 1, 0x8000_0001));
        assert!(!within(ex2, 32, 2, 0x8000_0001));
    }

    #[test]
    fn relative_and_absolute_bounds_scale_as_stated() {
        let tanh = form("tanh.approx.f32");
        let x = 0.5f32;
        let near = x * (1.0 + 2f32.powf(-11.5));
        let far = x * (1.0 + 2f32.powf(-9.0));
        let b = |v: f32| v.to_bits() as u64;
        assert!(within(tanh, 32, b(x), b(near)));
        assert!(!within(tanh, 32, b(x), b(far)));
        let sin = form("sin.approx.f32");
        // An absolute bound: 2^-21 off is within 2^-20.5 at any magnitude.
        assert!(within(sin, 32, b(1e-3), b(1e-3 + 2f32.powi(-21))));
        assert!(!within(sin, 32, b(1e-3), b(1e-3 + 2f32.powi(-19))));
        // NaN only matches NaN; infinities only themselves.
        assert!(within(sin, 32, b(f32::NAN), 0x7fc0_0000));
        assert!(!within(sin, 32, b(f32::NAN), b(0.0)));
    }

    #[test]
    fn packed_halves_are_compared_one_by_one() {
        let ex2 = form("ex2.approx.f16");
        // 1.0 and 2.0 in f16 (0x3c00, 0x4000), one ulp off in the high half.
        assert!(within(ex2, 32, 0x4000_3c00, 0x4001_3c00));
        assert!(!within(ex2, 32, 0x4000_3c00, 0x4003_3c00));
    }
}
