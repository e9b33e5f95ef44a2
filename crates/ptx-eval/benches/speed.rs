//! Evaluator speed in thread-instructions per second on one core.
//!
//! `cargo bench -p ptx-eval --bench speed` runs three kernels from
//! `tests/kernels`: a uniform loop (`sumsq` with equal trip counts), a
//! divergent one (`sumsq` with per-lane trip counts) and a barrier-heavy
//! reduction, and prints steps, seconds and steps per second for each.

use serde_json::json;
use std::time::Instant;

fn bench(name: &str, file: &str, case: serde_json::Value) {
    let path = format!("{}/tests/kernels/{file}", env!("CARGO_MANIFEST_DIR"));
    let src = std::fs::read_to_string(&path).unwrap();
    let module = ptx_parse::parse_module(&src).unwrap();
    let case = case.to_string();
    // Warm-up, then the best of three.
    let mut best = f64::MAX;
    let mut steps = 0;
    for _ in 0..4 {
        let t = Instant::now();
        let out = ptx_eval::case::run_case(&module, &case, u64::MAX).unwrap();
        best = best.min(t.elapsed().as_secs_f64());
        steps = out["steps"].as_u64().unwrap();
    }
    println!(
        "{name:<10} {steps:>12} steps {best:>8.3} s {:>8.1} M thread-inst/s",
        steps as f64 / best / 1e6
    );
}

fn main() {
    let threads = 1024;
    let uniform: Vec<u32> = vec![2000; threads];
    let divergent: Vec<u32> = (0..threads as u32)
        .map(|t| 1000 + (t * 37) % 2000)
        .collect();
    for (name, n) in [("uniform", uniform), ("divergent", divergent)] {
        bench(
            name,
            "sumsq.ptx",
            json!({"block": [threads], "buffers": {"in": {"type": "u32", "data": n}, "out": {"type": "u64", "zeros": threads}},
                   "params": [{"buffer": "in"}, {"buffer": "out"}]}),
        );
    }
    let input: Vec<u32> = (0..256 * 256).collect();
    bench(
        "reduce",
        "reduce.ptx",
        json!({"grid": [256], "block": [256], "buffers": {"in": {"type": "u32", "data": input}, "out": {"type": "u32", "zeros": 256}},
               "params": [{"buffer": "in"}, {"buffer": "out"}]}),
    );
}
