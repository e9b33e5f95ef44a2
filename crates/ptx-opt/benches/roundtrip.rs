//! Throughput and memory of parse + SSA + verify + print.
//!
//! Builds two PTX modules of at least 20 MB, every copy of a file with its
//! global symbols renamed: `target/bench-roundtrip.ptx` from the sm_80
//! parser corpus (llc and llvm-stress output), and
//! `target/bench-roundtrip-nvcc.ptx` from the sm_80 nvcc 13.5 files of
//! `corpus/real`. For each, one child process times five runs of the
//! default path (the module in parts on every CPU), the one-thread path
//! and `-O2` (both ways); another runs the default path once and reports
//! its peak RSS (input and output buffers included). Last, the `ptx-opt`
//! binary itself is timed, a fresh process per run, file in and file out:
//! what a user sees.
//!
//! Run: `cargo bench -p ptx-opt --bench roundtrip`

use std::path::{Path, PathBuf};

#[path = "../tests/shapes/mod.rs"]
mod shapes;

// Same allocator as the ptx-opt binary, so the figures match what users get.
ptx_opt::use_mimalloc!();
use std::time::Instant;

const TARGET_BYTES: usize = 20 << 20;
const RUNS: usize = 5;

fn main() {
    if let Ok(file) = std::env::var("PTX_OPT_BENCH_TIME") {
        return time_child(Path::new(&file));
    }
    if let Ok(file) = std::env::var("PTX_OPT_BENCH_MEMORY") {
        return memory_child(Path::new(&file));
    }
    measure(&build_input(), "parser corpus", true);
    // -O2 maps every copy of the bit-sliced DES and AES kernels (about
    // 4 s on one thread): docs/performance.md has that figure.
    measure(&build_nvcc_input(), "nvcc 13.5 output", false);
}

/// Every measure of one input file (`-O2` too when `o2`).
fn measure(file: &Path, what: &str, o2: bool) {
    let size = std::fs::metadata(file).unwrap().len();
    println!(
        "input: {} ({:.1} MB, {what})",
        file.display(),
        size as f64 / 1e6
    );
    // Timing and memory each run in a fresh process, so the peak RSS is
    // that of one run of the pipeline (input and output included).
    for var in ["PTX_OPT_BENCH_TIME", "PTX_OPT_BENCH_MEMORY"] {
        let out = std::process::Command::new(std::env::current_exe().unwrap())
            .env(var, file)
            .env("PTX_OPT_BENCH_O2", if o2 { "1" } else { "0" })
            .output()
            .expect("cannot run the measuring child");
        print!("{}", String::from_utf8_lossy(&out.stdout));
        eprint!("{}", String::from_utf8_lossy(&out.stderr));
        assert!(out.status.success());
    }
    let mb = size as f64 / 1e6;
    let out_file = workspace().join("target/bench-roundtrip.out.ptx");
    let all: [&[&str]; 2] = [&[], &["-O2"]];
    for &flags in &all[..if o2 { 2 } else { 1 }] {
        let mut best = f64::INFINITY;
        for _ in 0..RUNS {
            let t = Instant::now();
            let status = std::process::Command::new(env!("CARGO_BIN_EXE_ptx-opt"))
                .args(flags)
                .arg(file)
                .arg("-o")
                .arg(&out_file)
                .status()
                .expect("cannot run ptx-opt");
            best = best.min(t.elapsed().as_secs_f64());
            assert!(status.success());
        }
        println!(
            "ptx-opt {}FILE -o OUT, fresh process: best {:.1} ms ({:.0} MB/s) over {RUNS} runs",
            flags.iter().map(|f| format!("{f} ")).collect::<String>(),
            best * 1e3,
            mb / best
        );
    }
    let _ = std::fs::remove_file(out_file);
}

fn memory_child(file: &Path) {
    let src = std::fs::read(file).unwrap();
    let out = ptx_opt::process(&src).expect("benchmark input must be valid");
    let hwm_kb = std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines().find(|l| l.starts_with("VmHWM:")).and_then(|l| {
                l.split_whitespace()
                    .nth(1)
                    .and_then(|k| k.parse::<f64>().ok())
            })
        })
        .unwrap_or(0.0);
    println!("output: {:.1} MB", out.len() as f64 / 1e6);
    println!(
        "peak RSS of one run in parts: {:.1} MB = {:.2}x input",
        hwm_kb * 1024.0 / 1e6,
        hwm_kb * 1024.0 / src.len() as f64
    );
}

/// One way of running the round trip.
type Runner = dyn Fn(&[u8]) -> Result<String, ptx_parse::Diagnostic>;

fn time_child(file: &Path) {
    let src = std::fs::read(file).unwrap();
    let mb = src.len() as f64 / 1e6;
    let mut out_len = 0;
    let o2 = |threads: Option<usize>| {
        move |src: &[u8]| -> Result<String, ptx_parse::Diagnostic> {
            let elems = ptx_passes::pipeline::parse("default<O2>").expect("valid pipeline");
            let cfg = ptx_opt::Config {
                passes: ptx_passes::pipeline::resolve(&elems).expect("known passes"),
                threads,
                ..Default::default()
            };
            ptx_opt::process_with(src, &cfg)
                .map(|o| o.text)
                .map_err(|_| ptx_parse::Diagnostic::new(0, "-O2 failed"))
        }
    };
    let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
    let parallel = format!("in parts ({cpus} CPUs)");
    let o2_parallel = format!("-O2, in parts ({cpus} CPUs)");
    let o2_too = std::env::var("PTX_OPT_BENCH_O2").map_or(true, |v| v == "1");
    let runs: [(&str, &Runner); 4] = [
        (&parallel, &ptx_opt::process),
        ("one thread", &ptx_opt::process_sequential),
        (&o2_parallel, &o2(None)),
        ("-O2, one thread", &o2(Some(1))),
    ];
    for (name, run) in runs.into_iter().take(if o2_too { 4 } else { 2 }) {
        let mut best = f64::INFINITY;
        let mut total = 0.0;
        for _ in 0..RUNS {
            let t = Instant::now();
            let out = run(&src).expect("benchmark input must be valid");
            let dt = t.elapsed().as_secs_f64();
            out_len = out.len();
            drop(out);
            best = best.min(dt);
            total += dt;
        }
        let mean = total / RUNS as f64;
        println!(
            "parse+ssa+verify+print, {name}: best {:.1} ms ({:.0} MB/s), mean {:.1} ms ({:.0} MB/s) over {RUNS} runs",
            best * 1e3,
            mb / best,
            mean * 1e3,
            mb / mean
        );
    }
    let _ = out_len;
}

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn build_input() -> PathBuf {
    let path = workspace().join("target/bench-roundtrip.ptx");
    std::fs::write(&path, shapes::corpus_module(TARGET_BYTES)).unwrap();
    path
}

fn build_nvcc_input() -> PathBuf {
    let path = workspace().join("target/bench-roundtrip-nvcc.ptx");
    std::fs::write(&path, shapes::nvcc_module(TARGET_BYTES)).unwrap();
    path
}
