//! Our filecheck against LLVM 14's FileCheck on every case under
//! `tests/cases`: the exit status, the whole of standard error (notes and
//! annotated input dump included) and standard output must be identical.
//!
//! Each case's `expected` (and `expected.stdout`) holds LLVM's output,
//! recorded by `tests/cases/record.sh`. Where LLVM's FileCheck is
//! installed (`$LLVM_FILECHECK`, or `/usr/lib/llvm-14/bin/FileCheck`) the
//! test also runs it live, so a stale recording cannot hide a difference.
//! The only line left out is "FileCheck command line:", which names the
//! binary.

use std::path::{Path, PathBuf};
use std::process::Command;

/// Exit status, standard error (without the command-line echo), standard
/// output.
type Verdict = (i32, String, String);

fn run(bin: &Path, case: &Path) -> Verdict {
    let args = std::fs::read_to_string(case.join("args")).unwrap_or_default();
    let out = Command::new(bin)
        .current_dir(case)
        .env_remove("FILECHECK_OPTS")
        .arg("check.txt")
        .arg("--input-file")
        .arg("input.txt")
        .args(args.split_whitespace())
        .output()
        .unwrap();
    // The binary's own path appears in some command-line errors.
    let stderr: String = String::from_utf8_lossy(&out.stderr)
        .split_inclusive('\n')
        .filter(|l| !l.starts_with("FileCheck command line:"))
        .collect::<String>()
        .replace(&*bin.to_string_lossy(), "FileCheck");
    (
        out.status.code().unwrap_or(-1),
        stderr,
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

fn recorded(case: &Path) -> Verdict {
    let text = std::fs::read_to_string(case.join("expected")).unwrap();
    let (first, rest) = text.split_once('\n').unwrap_or((&text, ""));
    let code = first
        .strip_prefix("exit ")
        .and_then(|c| c.parse().ok())
        .unwrap();
    let stdout = std::fs::read_to_string(case.join("expected.stdout")).unwrap_or_default();
    (code, rest.to_string(), stdout)
}

fn llvm() -> Option<PathBuf> {
    let p = std::env::var_os("LLVM_FILECHECK")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/usr/lib/llvm-14/bin/FileCheck"));
    p.exists().then_some(p)
}

/// The first line where two texts differ, for the failure message.
fn first_difference(want: &str, got: &str) -> String {
    for (k, (w, g)) in want.lines().zip(got.lines()).enumerate() {
        if w != g {
            return format!("line {}: LLVM {w:?}, ours {g:?}", k + 1);
        }
    }
    format!(
        "LLVM has {} lines, ours {}",
        want.lines().count(),
        got.lines().count()
    )
}

/// Our binary under LLVM's name (messages start with the program name).
fn ours_as_filecheck() -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("as-filecheck");
    std::fs::create_dir_all(&dir).unwrap();
    let link = dir.join("FileCheck");
    let _ = std::fs::remove_file(&link);
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_filecheck"), &link).unwrap();
    link
}

#[test]
fn agrees_with_llvm_filecheck() {
    let ours = ours_as_filecheck();
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cases");
    let mut cases: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.join("check.txt").exists())
        .collect();
    cases.sort();
    let live = llvm();
    let mut failures = Vec::new();
    let (mut numeric, mut dump, mut passing) = (0, 0, 0);
    for case in &cases {
        let want = match &live {
            Some(bin) => run(bin, case),
            None => recorded(case),
        };
        let check = std::fs::read_to_string(case.join("check.txt")).unwrap_or_default();
        let args = std::fs::read_to_string(case.join("args")).unwrap_or_default();
        if check.contains("[[#") || args.contains("-D#") {
            numeric += 1;
        }
        if args.contains("-dump-input") {
            dump += 1;
        }
        if want.0 == 0 {
            passing += 1;
        }
        let got = run(&ours, case);
        if got != want {
            let what = if got.0 != want.0 {
                format!("exit status: LLVM {}, ours {}", want.0, got.0)
            } else if got.1 != want.1 {
                format!("stderr {}", first_difference(&want.1, &got.1))
            } else {
                format!("stdout {}", first_difference(&want.2, &got.2))
            };
            failures.push(format!("{}: {what}", case.display()));
        }
    }
    eprintln!(
        "{} cases ({passing} passing under LLVM; {numeric} with numeric blocks, {dump} with -dump-input options){}",
        cases.len(),
        if live.is_some() {
            ", compared live"
        } else {
            ", compared with recordings"
        }
    );
    assert!(cases.len() >= 700, "only {} cases", cases.len());
    assert!(numeric >= 150, "only {numeric} numeric-block cases");
    assert!(dump >= 100, "only {dump} -dump-input cases");
    assert!(
        failures.is_empty(),
        "{} of {} cases differ:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}

/// The recordings must match the live LLVM binary (a stale `expected`
/// would weaken the test on machines without LLVM).
#[test]
fn recordings_are_current() {
    let Some(bin) = llvm() else {
        eprintln!("LLVM FileCheck not installed: recordings not re-checked");
        return;
    };
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cases");
    let mut stale = Vec::new();
    for e in std::fs::read_dir(&dir).unwrap() {
        let case = e.unwrap().path();
        if case.join("check.txt").exists() && run(&bin, &case) != recorded(&case) {
            stale.push(case.display().to_string());
        }
    }
    assert!(
        stale.is_empty(),
        "re-run tests/cases/record.sh; stale: {stale:?}"
    );
}
