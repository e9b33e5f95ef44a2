//! Throughput and memory of parse + SSA + verify + print.
//!
//! Builds a PTX module of at least 20 MB from the sm_80 corpus (every copy
//! of a file gets its global symbols renamed) and writes it to
//! `target/bench-roundtrip.ptx`. One child process times five runs of the
//! pipelined path, the sequential path and `-O2`; another runs the pipeline
//! once and reports its peak RSS (input and output buffers included).
//!
//! Run: `cargo bench -p ptx-opt --bench roundtrip`

use std::path::{Path, PathBuf};

// Same allocator as the ptx-opt binary, so the figures match what users get.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;
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
    let file = build_input();
    let size = std::fs::metadata(&file).unwrap().len();
    println!("input: {} ({:.1} MB)", file.display(), size as f64 / 1e6);
    // Timing and memory each run in a fresh process, so the peak RSS is
    // that of one run of the pipeline (input and output included).
    for var in ["PTX_OPT_BENCH_TIME", "PTX_OPT_BENCH_MEMORY"] {
        let out = std::process::Command::new(std::env::current_exe().unwrap())
            .env(var, &file)
            .output()
            .expect("cannot run the measuring child");
        print!("{}", String::from_utf8_lossy(&out.stdout));
        eprint!("{}", String::from_utf8_lossy(&out.stderr));
        assert!(out.status.success());
    }
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
        "peak RSS of one pipelined run: {:.1} MB = {:.2}x input",
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
    let o2 = |src: &[u8]| -> Result<String, ptx_parse::Diagnostic> {
        let elems = ptx_passes::pipeline::parse("default<O2>").expect("valid pipeline");
        let cfg = ptx_opt::Config {
            passes: ptx_passes::pipeline::resolve(&elems).expect("known passes"),
            ..Default::default()
        };
        ptx_opt::process_with(src, &cfg)
            .map(|o| o.text)
            .map_err(|_| ptx_parse::Diagnostic::new(0, "-O2 failed"))
    };
    let runs: [(&str, &Runner); 3] = [
        ("pipelined (2 threads)", &ptx_opt::process),
        ("sequential (1 thread)", &ptx_opt::process_sequential),
        ("-O2, pipelined", &o2),
    ];
    for (name, run) in runs {
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

/// Global names a module declares (functions and variables).
fn global_names(src: &str) -> Vec<String> {
    let m = ptx_parse::parse_module(src).expect("corpus file must parse");
    m.items
        .iter()
        .filter_map(|i| match i {
            ptx_ir::Item::Func(f) => Some(f.name.to_string()),
            ptx_ir::Item::Var(v) => Some(v.name.to_string()),
            _ => None,
        })
        .collect()
}

/// Appends `suffix` to every identifier of `body` that is in `names`.
fn rename(body: &str, names: &[String], suffix: &str, out: &mut String) {
    let b = body.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_alphabetic() || c == b'_' || c == b'$' || c == b'%' {
            let s = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_' || b[i] == b'$') {
                i += 1;
            }
            i = i.max(s + 1);
            let word = &body[s..i];
            out.push_str(word);
            if names.iter().any(|n| n == word) {
                out.push_str(suffix);
            }
        } else {
            let ch = body[i..].chars().next().unwrap();
            out.push(ch);
            i += ch.len_utf8();
        }
    }
}

fn build_input() -> PathBuf {
    let dir = workspace().join("crates/ptx-parse/tests/corpus");
    let mut parts: Vec<(String, Vec<String>)> = Vec::new();
    for sub in ["llc", "stress"] {
        let mut files: Vec<PathBuf> = std::fs::read_dir(dir.join(sub))
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        files.sort();
        for p in files {
            let src = std::fs::read_to_string(&p).unwrap();
            if !src.contains(".target sm_80") || !src.contains(".address_size 64") {
                continue;
            }
            let body = src.split_once(".address_size 64").unwrap().1.to_string();
            let names = global_names(&src);
            parts.push((body, names));
        }
    }
    let mut out = String::from(".version 7.0\n.target sm_80\n.address_size 64\n");
    let mut copy = 0;
    while out.len() < TARGET_BYTES {
        for (k, (body, names)) in parts.iter().enumerate() {
            rename(body, names, &format!("_c{copy}_{k}"), &mut out);
        }
        copy += 1;
    }
    let path = workspace().join("target/bench-roundtrip.ptx");
    std::fs::write(&path, out).unwrap();
    path
}
