//! Differential checking of a transformation: run a kernel before and after
//! on random launches and compare what it stores.
//!
//! Each launch draws a CTA shape (1 to 128 threads, whole warps for a
//! kernel that shuffles; 1 or 2 CTAs) and a
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

use crate::rng::splitmix;
use crate::{param_layout, run, Launch, Machine};
use ptx_ir::{FuncKind, Function, Item, Module};
use std::fmt::Write;

/// Steps each run may take.
const FUEL: u64 = 200_000;
/// Steps the run after a pass may take.
const AFTER_FUEL: u64 = 16 * FUEL;

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

fn execute(
    module: &Module,
    name: &str,
    launch: &Launch,
    params: &[u8],
    seed: u64,
    fuel: u64,
) -> Outcome {
    let mut m = Machine::new(fuel);
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
        Some((a, n, v)) if *a >= crate::exec::RETURN_TRACE => {
            let r = a - crate::exec::RETURN_TRACE;
            format!(
                "thread {} returns 0x{v:x} ({n} bytes at offset {} of its parameters)",
                r >> 16,
                r & 0xffff
            )
        }
        Some((a, n, v)) => format!("st [0x{a:x}] {n} bytes = 0x{v:x}"),
        None => "no store".to_string(),
    }
}

/// Compares `before` and `after` (the same kernel or device function) on
/// `launches` random launches; returns how many launches were compared
/// (the others could not run before the change). A device function is
/// launched on its own, each thread taking its parameters from the random
/// block, and its return values are compared after its stores.
///
/// `context` holds the module-scope items the kernel may refer to
/// (`.global`, `.const` and `.shared` variables, and the device functions
/// it calls); other items are ignored.
pub fn check_function(
    context: &[Item],
    before: &Function,
    after: &Function,
    launches: u32,
) -> Result<u32, Mismatch> {
    if !before.has_body {
        return Ok(0);
    }
    let mut compared = 0;
    let (mb, ma) = (wrap(context, before), wrap(context, after));
    let mut draws = Draws::new(before);
    for _ in 0..launches {
        let Trial {
            launch,
            params,
            seed,
            bit_sliced,
        } = draws.next();
        let (grid, threads) = (launch.grid[0], launch.block[0]);
        let x = execute(&mb, &before.name, &launch, &params, seed, FUEL);
        if x.error.is_some() {
            continue;
        }
        compared += 1;
        // A lowering may take more steps for the same work (one vop2
        // becomes ten instructions): the transformed kernel gets more fuel.
        let y = execute(&ma, &after.name, &launch, &params, seed, AFTER_FUEL);
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
    let t = Draws::new(f).next();
    match execute(
        &wrap(context, f),
        &f.name,
        &t.launch,
        &t.params,
        t.seed,
        FUEL,
    )
    .error
    {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// A module of the variables and device functions in `context`, and `f`.
fn wrap(context: &[Item], f: &Function) -> Module {
    let mut items: Vec<Item> = context
        .iter()
        .filter(|i| match i {
            Item::Var(_) => true,
            Item::Func(g) => g.kind == FuncKind::Func && g.has_body && g.name != f.name,
            _ => false,
        })
        .cloned()
        .collect();
    items.push(Item::Func(Box::new(f.clone())));
    Module { items }
}

/// One launch to compare on.
struct Trial {
    launch: Launch,
    params: Vec<u8>,
    /// Seed of the hashed global memory.
    seed: u64,
    bit_sliced: bool,
}

/// The deterministic sequence of launches for a kernel, seeded by its name.
struct Draws {
    /// Offset and size of each parameter.
    slots: Vec<(u64, u64)>,
    /// The kernel shuffles (`shfl.sync`): its CTAs are whole warps, since
    /// a membermask naming lanes past the last thread is undefined.
    whole_warps: bool,
    size: usize,
    rng: u64,
    drawn: u32,
}

impl Draws {
    fn new(f: &Function) -> Self {
        let (slots, size) = param_layout(f);
        let rng = 0x5eed_u64
            ^ f.name
                .bytes()
                .fold(0u64, |h, b| h.wrapping_mul(31).wrapping_add(b as u64));
        let whole_warps = f
            .layout_insts()
            .into_iter()
            .any(|i| &*f.op(i).mnemonic == "shfl");
        Draws {
            slots,
            whole_warps,
            size: size as usize,
            rng,
            drawn: 0,
        }
    }

    /// A CTA of 1 to 128 threads (32, 64, 96 or 128 for a kernel that
    /// shuffles), 1 or 2 CTAs, random parameters; the first launch of a
    /// kernel with 32-bit parameters is bit-sliced.
    fn next(&mut self) -> Trial {
        let threads = if self.whole_warps {
            32 * (1 + (splitmix(&mut self.rng) % 4) as u32)
        } else {
            1 + (splitmix(&mut self.rng) % 128) as u32
        };
        let grid = 1 + (splitmix(&mut self.rng) % 2) as u32;
        let mut params = self.random_params();
        let bit_sliced = self.drawn == 0 && self.slots.iter().any(|&(_, len)| len == 4);
        if bit_sliced {
            self.bit_slice(&mut params);
        }
        self.drawn += 1;
        Trial {
            launch: Launch {
                grid: [grid, 1, 1],
                block: [threads, 1, 1],
            },
            params,
            seed: splitmix(&mut self.rng),
            bit_sliced,
        }
    }

    /// A random parameter block. Eight-byte parameters (pointers, mostly)
    /// are random bits; narrower ones are small half the time, so that loop
    /// bounds and sizes taken from parameters stay within the step budget.
    fn random_params(&mut self) -> Vec<u8> {
        let mut block = vec![0u8; self.size];
        for &(off, len) in &self.slots {
            let rng = &mut self.rng;
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

    /// Bit-sliced inputs: the k-th 32-bit parameter gets the k-th column
    /// of the truth table of five variables (0xaaaaaaaa, 0xcccccccc, …), so
    /// bit i of the parameters runs input combination i. A computation
    /// that is purely bitwise in up to five 32-bit parameters is thereby
    /// checked on every combination of their bits in one launch (three
    /// inputs, lop3's case, need 8 combinations; five give all 32).
    fn bit_slice(&self, params: &mut [u8]) {
        const COLUMNS: [u32; 5] = [
            0xaaaa_aaaa,
            0xcccc_cccc,
            0xf0f0_f0f0,
            0xff00_ff00,
            0xffff_0000,
        ];
        let words = self.slots.iter().filter(|&&(_, len)| len == 4);
        for (&(off, _), column) in words.zip(COLUMNS.iter().cycle()) {
            params[off as usize..off as usize + 4].copy_from_slice(&column.to_le_bytes());
        }
    }
}
