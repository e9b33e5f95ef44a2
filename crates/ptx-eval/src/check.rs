//! Differential checking of a transformation: run a kernel before and after
//! on random launches and compare what it stores.
//!
//! Each launch draws a CTA shape (1 to 128 threads, 1 or 2 CTAs) and a
//! random parameter block; global memory accepts every address and reads
//! never-written bytes as a seeded hash of the address, so any kernel runs
//! without set-up. The observable behaviour is the sequence of global
//! stores `(address, size, value)` in execution order, and whether the run
//! succeeded.
//!
//! A launch the original cannot run (an instruction without semantics, a
//! symbol defined outside the function, running out of fuel) proves
//! nothing and is skipped; the transformed kernel failing where the
//! original succeeded is a mismatch.

use crate::{param_layout, run, Launch, Machine};
use ptx_ir::{FuncKind, Function, Item, Module};
use std::fmt::Write;

/// Steps each run may take.
const FUEL: u64 = 200_000;

/// The first difference between two runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mismatch {
    /// The launch that showed it, as `grid [..] block [..] params ..`.
    pub launch: String,
    /// What differed.
    pub detail: String,
}

struct Outcome {
    stores: Vec<(u64, u64, u128)>,
    error: Option<String>,
}

fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

fn execute(module: &Module, name: &str, launch: &Launch, params: &[u8], seed: u64) -> Outcome {
    let mut m = Machine::new(FUEL);
    m.global.hash_seed = Some(seed);
    m.global.trace = Some(Vec::new());
    let r = run(module, name, launch, params, &mut m);
    Outcome {
        stores: m.global.trace.take().unwrap_or_default(),
        error: r.err().map(|e| e.message),
    }
}

fn store(s: Option<&(u64, u64, u128)>) -> String {
    match s {
        Some((a, n, v)) => format!("st [0x{a:x}] {n} bytes = 0x{v:x}"),
        None => "no store".to_string(),
    }
}

/// Compares `before` and `after` (the same kernel) on `launches` random
/// launches; returns how many launches were compared (the others could not
/// run before the change). Device functions are not checked (they cannot
/// be launched).
///
/// `context` holds the module-scope items the kernel may refer to
/// (`.global`, `.const` and `.shared` variables); other items are ignored.
pub fn check_function(
    context: &[Item],
    before: &Function,
    after: &Function,
    launches: u32,
) -> Result<u32, Mismatch> {
    if before.kind != FuncKind::Entry || !before.has_body {
        return Ok(0);
    }
    let mut compared = 0;
    let (mb, ma) = (wrap(context, before), wrap(context, after));
    let size = param_layout(before)
        .iter()
        .map(|&(o, s)| o + s)
        .max()
        .unwrap_or(0) as usize;
    let mut rng = 0x5eed_u64
        ^ before
            .name
            .bytes()
            .fold(0u64, |h, b| h.wrapping_mul(31).wrapping_add(b as u64));
    let sliced = param_layout(before).iter().any(|&(_, len)| len == 4);
    for launch_index in 0..launches {
        let threads = 1 + (splitmix(&mut rng) % 128) as u32;
        let grid = 1 + (splitmix(&mut rng) % 2) as u32;
        let launch = Launch {
            grid: [grid, 1, 1],
            block: [threads, 1, 1],
        };
        let mut params = random_params(before, size, &mut rng);
        let bit_sliced = sliced && launch_index == 0;
        if bit_sliced {
            bit_slice(before, &mut params);
        }
        let seed = splitmix(&mut rng);
        let x = execute(&mb, &before.name, &launch, &params, seed);
        if x.error.is_some() {
            continue;
        }
        compared += 1;
        let y = execute(&ma, &after.name, &launch, &params, seed);
        let mut describe = String::new();
        let _ = write!(
            describe,
            "grid [{grid},1,1] block [{threads},1,1] memory seed 0x{seed:x} {}params 0x",
            if bit_sliced { "bit-sliced " } else { "" }
        );
        for b in &params {
            let _ = write!(describe, "{b:02x}");
        }
        if let Some(e) = y.error {
            return Err(Mismatch {
                launch: describe,
                detail: format!("the original runs, the result fails: {e}"),
            });
        }
        if let Some(k) =
            (0..x.stores.len().max(y.stores.len())).find(|&k| x.stores.get(k) != y.stores.get(k))
        {
            return Err(Mismatch {
                launch: describe,
                detail: format!(
                    "store #{k} differs: before: {}; after: {}",
                    store(x.stores.get(k)),
                    store(y.stores.get(k))
                ),
            });
        }
    }
    Ok(compared)
}

/// Runs kernel `f` once on the random launch `check_function` would draw
/// first, and returns the evaluator's error, if any (for diagnostics).
pub fn probe(context: &[Item], f: &Function) -> Result<(), String> {
    let module = wrap(context, f);
    let size = param_layout(f)
        .iter()
        .map(|&(o, s)| o + s)
        .max()
        .unwrap_or(0) as usize;
    let mut rng = 0x5eed_u64
        ^ f.name
            .bytes()
            .fold(0u64, |h, b| h.wrapping_mul(31).wrapping_add(b as u64));
    let threads = 1 + (splitmix(&mut rng) % 128) as u32;
    let grid = 1 + (splitmix(&mut rng) % 2) as u32;
    let launch = Launch {
        grid: [grid, 1, 1],
        block: [threads, 1, 1],
    };
    let params = random_params(f, size, &mut rng);
    let seed = splitmix(&mut rng);
    match execute(&module, &f.name, &launch, &params, seed).error {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// A module of the variables in `context` and `f`.
fn wrap(context: &[Item], f: &Function) -> Module {
    let mut items: Vec<Item> = context
        .iter()
        .filter(|i| matches!(i, Item::Var(_)))
        .cloned()
        .collect();
    items.push(Item::Func(Box::new(f.clone())));
    Module { items }
}

/// A random parameter block. Eight-byte parameters (pointers, mostly) are
/// random bits; narrower ones are small half the time, so that loop bounds
/// and sizes taken from parameters stay within the step budget.
fn random_params(f: &Function, size: usize, rng: &mut u64) -> Vec<u8> {
    let mut block = vec![0u8; size];
    for (off, len) in param_layout(f) {
        let v = if len <= 4 && splitmix(rng).is_multiple_of(2) {
            splitmix(rng) % 64
        } else {
            splitmix(rng)
        };
        for k in 0..len.min(8) {
            block[(off + k) as usize] = (v >> (8 * k)) as u8;
        }
        for k in 8..len {
            block[(off + k) as usize] = splitmix(rng) as u8;
        }
    }
    block
}

/// Bit-sliced inputs: the k-th 32-bit parameter gets the k-th column of
/// the truth table of five variables (0xaaaaaaaa, 0xcccccccc, …), so bit i
/// of the parameters runs input combination i. A computation that is
/// purely bitwise in up to five 32-bit parameters is thereby checked on
/// every combination of their bits in one launch (three inputs, lop3's
/// case, need 8 combinations; five give all 32).
fn bit_slice(f: &Function, params: &mut [u8]) {
    const COLUMNS: [u32; 5] = [
        0xaaaa_aaaa,
        0xcccc_cccc,
        0xf0f0_f0f0,
        0xff00_ff00,
        0xffff_0000,
    ];
    let mut k = 0;
    for (off, len) in param_layout(f) {
        if len == 4 {
            let v = COLUMNS[k % COLUMNS.len()];
            params[off as usize..off as usize + 4].copy_from_slice(&v.to_le_bytes());
            k += 1;
        }
    }
}
