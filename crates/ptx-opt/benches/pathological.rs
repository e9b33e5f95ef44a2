//! Scaling of ptx-opt on pathological shapes (tests/shapes): for each
//! shape and size, the wall time and peak RSS of `ptx-opt FILE -o
//! /dev/null` (parse, SSA, verify, print) and of `ptx-opt -O2`, each in a
//! fresh process of the release binary, best of three. Prints a markdown
//! table (docs/performance.md "Pathological inputs").
//!
//! Run: `cargo bench -p ptx-opt --bench pathological [-- --quick]`
//! (`--quick` stops at 100k).

#[path = "../tests/shapes/mod.rs"]
mod shapes;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

/// Wall seconds and peak RSS (MB) of the best of `runs` runs.
fn measure(bin: &Path, args: &[&str], file: &Path, runs: usize) -> (f64, f64) {
    let mut best = (f64::MAX, 0.0);
    for _ in 0..runs {
        let t = Instant::now();
        let out = Command::new("/usr/bin/time")
            .arg("-f")
            .arg("%M")
            .arg(bin)
            .args(args)
            .arg(file)
            .args(["-o", "/dev/null"])
            .output()
            .expect("cannot run /usr/bin/time");
        let secs = t.elapsed().as_secs_f64();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let kb: f64 = String::from_utf8_lossy(&out.stderr)
            .lines()
            .last()
            .and_then(|l| l.trim().parse().ok())
            .unwrap_or(0.0);
        if secs < best.0 {
            best = (secs, kb / 1024.0);
        }
    }
    best
}

fn main() {
    let quick = std::env::args().any(|a| a == "--quick");
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let status = Command::new("cargo")
        .args(["build", "--release", "-q", "-p", "ptx-opt"])
        .current_dir(&root)
        .status()
        .expect("cannot run cargo");
    assert!(status.success());
    let bin = root.join("target/release/ptx-opt");
    let dir: PathBuf = root.join("target/bench-pathological");
    std::fs::create_dir_all(&dir).unwrap();
    let sizes: &[usize] = if quick {
        &[1_000, 10_000, 100_000]
    } else {
        &[1_000, 10_000, 100_000, 1_000_000]
    };
    println!("| shape | N | input | round trip: time, peak RSS | -O2: time, peak RSS |");
    println!("|---|---|---|---|---|");
    for &(name, unit, make) in shapes::SHAPES {
        for &n in sizes {
            let src = make(n);
            let file = dir.join("input.ptx");
            std::fs::write(&file, &src).unwrap();
            let runs = if n >= 1_000_000 { 1 } else { 3 };
            let (t, m) = measure(&bin, &[], &file, runs);
            let (t2, m2) = measure(&bin, &["-O2"], &file, runs);
            println!(
                "| {name} | {n} {unit} | {:.1} MB | {t:.2} s, {m:.0} MB | {t2:.2} s, {m2:.0} MB |",
                src.len() as f64 / 1e6
            );
        }
    }
    if !quick {
        let src = shapes::big_file(100 << 20);
        let file = dir.join("input.ptx");
        std::fs::write(&file, &src).unwrap();
        let (t, m) = measure(&bin, &[], &file, 1);
        let (t2, m2) = measure(&bin, &["-O2"], &file, 1);
        println!(
            "| 100 MB file | {} kernels | {:.1} MB | {t:.2} s, {m:.0} MB | {t2:.2} s, {m2:.0} MB |",
            src.matches(".entry").count(),
            src.len() as f64 / 1e6
        );
    }
}
