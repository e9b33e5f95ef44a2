//! Bit-parallel simulation: 64 input vectors per `u64` word.
//!
//! [`simulate`] evaluates every output on one word per input.
//! [`equivalent`] compares two netlists with the same inputs and outputs:
//! on every input assignment when there are at most [`EXHAUSTIVE_INPUTS`]
//! inputs, else on `random_words` × 64 pseudo-random vectors (a proof for
//! larger circuits needs SAT; the benchmarks use ABC's `cec`).

use crate::Netlist;

/// Up to this many inputs, [`equivalent`] tries every assignment.
pub const EXHAUSTIVE_INPUTS: usize = 20;

/// The outputs' words for one word per input.
pub fn simulate(net: &Netlist, inputs: &[u64], vals: &mut Vec<u64>) -> Vec<u64> {
    vals.clear();
    vals.push(0);
    vals.extend_from_slice(inputs);
    let get =
        |vals: &[u64], l: u32| vals[(l >> 1) as usize] ^ (0u64.wrapping_sub(u64::from(l & 1)));
    for &(a, b) in &net.ands {
        let x = get(vals, a) & get(vals, b);
        vals.push(x);
    }
    net.outputs.iter().map(|&(_, l)| get(vals, l)).collect()
}

/// The first output (by index) where the netlists differ, with an input
/// assignment (one bit per input) that shows it; `Err` when the netlists
/// do not have the same interface.
pub fn equivalent(
    a: &Netlist,
    b: &Netlist,
    random_words: usize,
) -> Result<Option<(usize, Vec<bool>)>, String> {
    if a.inputs.len() != b.inputs.len() || a.outputs.len() != b.outputs.len() {
        return Err(format!(
            "interfaces differ: {}/{} inputs, {}/{} outputs",
            a.inputs.len(),
            b.inputs.len(),
            a.outputs.len(),
            b.outputs.len()
        ));
    }
    let n = a.inputs.len();
    let (mut va, mut vb) = (Vec::new(), Vec::new());
    let mut words: Vec<u64> = vec![0; n];
    let exhaustive = n <= EXHAUSTIVE_INPUTS;
    let rounds = if exhaustive {
        1usize << n.saturating_sub(6)
    } else {
        random_words
    };
    let mut seed = 0x9E37_79B9_7F4A_7C15u64;
    let mut rand = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    for r in 0..rounds {
        for (k, w) in words.iter_mut().enumerate() {
            *w = if exhaustive {
                ptx_ir::lut::exhaustive_word(k, r)
            } else {
                rand()
            };
        }
        let oa = simulate(a, &words, &mut va);
        let ob = simulate(b, &words, &mut vb);
        if let Some(o) = (0..oa.len()).find(|&o| oa[o] != ob[o]) {
            let bit = (oa[o] ^ ob[o]).trailing_zeros();
            let assignment = words.iter().map(|w| (w >> bit) & 1 == 1).collect();
            return Ok(Some((o, assignment)));
        }
    }
    Ok(None)
}
