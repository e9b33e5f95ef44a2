//! Our filecheck against LLVM 14's FileCheck on every case under
//! `tests/cases`: the exit status and the first `error:` line must agree.
//!
//! Each case's `expected` file holds LLVM's verdict, recorded by
//! `tests/cases/record.sh`. Where LLVM's FileCheck is installed
//! (`$LLVM_FILECHECK`, or `/usr/lib/llvm-14/bin/FileCheck`) the test also
//! runs it live, so a stale recording cannot hide a difference.

use std::path::{Path, PathBuf};
use std::process::Command;

fn run(bin: &Path, case: &Path, dump: &str) -> std::process::Output {
    let args = std::fs::read_to_string(case.join("args")).unwrap_or_default();
    Command::new(bin)
        .current_dir(case)
        .env_remove("FILECHECK_OPTS")
        .arg("check.txt")
        .arg("--input-file")
        .arg("input.txt")
        .args(args.split_whitespace())
        .arg(format!("--dump-input={dump}"))
        .output()
        .unwrap()
}

/// The whole of standard error, without LLVM's command-line echo line.
fn full_stderr(bin: &Path, case: &Path) -> String {
    let out = run(bin, case, "fail");
    String::from_utf8_lossy(&out.stderr)
        .lines()
        .filter(|l| !l.starts_with("FileCheck command line:"))
        .collect::<Vec<_>>()
        .join("\n")
}

fn verdict(bin: &Path, case: &Path) -> (i32, String) {
    let out = run(bin, case, "never");
    let stderr = String::from_utf8_lossy(&out.stderr);
    let first = stderr
        .lines()
        .find(|l| l.contains("error:"))
        .unwrap_or("-")
        .to_string();
    (out.status.code().unwrap_or(-1), first)
}

fn llvm() -> Option<PathBuf> {
    let p = std::env::var_os("LLVM_FILECHECK")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/usr/lib/llvm-14/bin/FileCheck"));
    p.exists().then_some(p)
}

#[test]
fn agrees_with_llvm_filecheck() {
    let ours = PathBuf::from(env!("CARGO_BIN_EXE_filecheck"));
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cases");
    let mut cases: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.join("check.txt").exists())
        .collect();
    cases.sort();
    assert!(cases.len() >= 150, "only {} cases", cases.len());
    let live = llvm();
    let mut failures = Vec::new();
    let (mut passing, mut failing) = (0, 0);
    for case in &cases {
        let recorded = std::fs::read_to_string(case.join("expected")).unwrap();
        let mut lines = recorded.lines();
        let code: i32 = lines
            .next()
            .and_then(|l| l.strip_prefix("exit "))
            .and_then(|c| c.parse().ok())
            .unwrap();
        let first = lines.next().unwrap_or("-").to_string();
        let want = match &live {
            Some(bin) => verdict(bin, case),
            None => (code, first),
        };
        if want.0 == 0 {
            passing += 1;
        } else {
            failing += 1;
        }
        let got = verdict(&ours, case);
        if got != want {
            failures.push(format!("{}: LLVM {want:?}, ours {got:?}", case.display()));
        }
    }
    eprintln!(
        "{} cases ({passing} passing, {failing} failing under LLVM){}",
        cases.len(),
        if live.is_some() {
            ", compared live"
        } else {
            ", compared with recordings"
        }
    );
    // Not asserted, reported: how many cases print exactly what LLVM
    // prints, notes and annotated input dump included.
    if let Some(bin) = &live {
        let same = cases
            .iter()
            .filter(|c| full_stderr(bin, c) == full_stderr(&ours, c))
            .count();
        eprintln!(
            "{same} of {} cases print byte-identical diagnostics and input dumps",
            cases.len()
        );
    }
    assert!(
        failures.is_empty(),
        "{} disagreements:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
