//! `--check-each` over real compiler output: runs a pipeline on every
//! `.ptx` file under a folder with each pass (and leaving SSA) checked by
//! the evaluator, and says how many launches it could compare.
//!
//! ```sh
//! cargo run --release -p ptx-opt --example check-corpus -- [DIR] [PIPELINE] [LAUNCHES]
//! ```
//!
//! Defaults: `corpus/real/ptx`, `default<O2>`, 16 launches. A launch the
//! original kernel cannot run (an instruction the evaluator does not model
//! yet, such as `shfl.sync` or a vector load) is skipped, not compared;
//! the closing line gives both counts. A difference is reported and the
//! run goes on; it exits 1 if there was any.

use ptx_opt::{process_with, CheckTally, Config};
use ptx_passes::manager::Instrumentation;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::Arc;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let dir = args
        .first()
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| root.join("corpus/real/ptx"));
    let pipeline = args.get(1).map_or("default<O2>", String::as_str);
    let launches: u32 = args.get(2).map_or(16, |n| n.parse().expect("LAUNCHES"));
    let passes = ptx_passes::pipeline::resolve(&ptx_passes::pipeline::parse(pipeline).unwrap())
        .unwrap_or_else(|e| panic!("{e}"));
    let total = Arc::new(CheckTally::default());
    let mut files_with_launches = 0;
    let mut differences = 0;
    let files = ptx_opt::sass::ptx_files(&dir);
    for path in &files {
        let src = std::fs::read(path).unwrap();
        let tally = Arc::new(CheckTally::default());
        let cfg = Config {
            passes: passes.clone(),
            instrumentation: Instrumentation {
                check_each: Some(ptx_opt::check_each_counting(launches, Some(tally.clone()))),
                ..Default::default()
            },
            ..Default::default()
        };
        if let Err((e, _)) = process_with(&src, &cfg) {
            let msg = match e {
                ptx_opt::Error::Plain(m) => m,
                ptx_opt::Error::Source(d) => d.render(&path.display().to_string(), &src),
            };
            println!("DIFFERENCE {}: {msg}", path.display());
            differences += 1;
            continue;
        }
        let (c, k, d) = (
            tally.checks.load(Relaxed),
            tally.compared.load(Relaxed),
            tally.drawn.load(Relaxed),
        );
        files_with_launches += usize::from(k > 0);
        println!(
            "{:>5} checks {:>7} of {:>7} launches compared  {}",
            c,
            k,
            d,
            path.display()
        );
        total.checks.fetch_add(c, Relaxed);
        total.compared.fetch_add(k, Relaxed);
        total.drawn.fetch_add(d, Relaxed);
    }
    println!(
        "{} files ({} with a launch compared), '{pipeline}': {} checks, {} of {} launches compared, {differences} with a difference",
        files.len(),
        files_with_launches,
        total.checks.load(Relaxed),
        total.compared.load(Relaxed),
        total.drawn.load(Relaxed)
    );
    if differences > 0 {
        std::process::exit(1);
    }
}
