//! Runs every registered pass with `--check-each` on generated programs:
//!
//! ```sh
//! cargo run --release -p ptx-opt --example check-generated -- COUNT [FIRST_SEED] [LAUNCHES]
//! ```
//!
//! Prints the first failing seed with its report (and writes the program
//! to `gen<SEED>.ptx`), or a summary with the rate.

use ptx_opt::{process_with, Config};
use ptx_passes::manager::Instrumentation;
use ptx_passes::registry::PASSES;
use std::time::Instant;

fn main() {
    let args: Vec<u64> = std::env::args()
        .skip(1)
        .map(|a| a.parse().expect("numeric arguments"))
        .collect();
    let count = args.first().copied().unwrap_or(1000);
    let first = args.get(1).copied().unwrap_or(0);
    let launches = args.get(2).copied().unwrap_or(16) as u32;
    let passes: Vec<_> = PASSES.iter().map(|p| (p, vec![])).collect();
    let t = Instant::now();
    for seed in first..first + count {
        let src = ptx_eval::gen::program(seed);
        let cfg = Config {
            passes: passes.clone(),
            instrumentation: Instrumentation {
                check_each: Some(ptx_opt::check_each(launches)),
                verify_each: true,
                ..Default::default()
            },
            ..Default::default()
        };
        if let Err((e, _)) = process_with(src.as_bytes(), &cfg) {
            std::fs::write(format!("gen{seed}.ptx"), &src).expect("writing the program");
            eprintln!("seed {seed} (written to gen{seed}.ptx): {e:?}");
            std::process::exit(1);
        }
    }
    let s = t.elapsed().as_secs_f64();
    println!(
        "{count} programs (seeds {first}..{}), {} passes, {launches} launches per pass: no difference; {s:.1} s, {:.0} programs/s",
        first + count,
        passes.len(),
        count as f64 / s
    );
}
