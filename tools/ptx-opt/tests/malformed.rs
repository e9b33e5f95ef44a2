//! Malformed inputs: each gets `file:line:col: error: …` at the right
//! place, the source line and a caret, exit status 1, and no panic.
//! Expectations live in `malformed/MANIFEST` (file, line, column, a word
//! the message must contain).

use std::path::Path;
use std::process::Command;

#[test]
fn every_malformed_input_gets_a_located_error() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/malformed");
    let manifest = std::fs::read_to_string(dir.join("MANIFEST")).unwrap();
    let mut checked = 0;
    let mut failures = Vec::new();
    for line in manifest
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
    {
        let f: Vec<&str> = line.split('\t').collect();
        let (file, want_line, want_col, keyword) = (f[0], f[1], f[2], f[3]);
        let path = dir.join(file);
        let out = Command::new(env!("CARGO_BIN_EXE_ptx-opt"))
            .arg(&path)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        let mut lines = stderr.lines();
        let first = lines.next().unwrap_or("");
        let prefix = format!("{}:{want_line}:{want_col}: error: ", path.display());
        let ok = out.status.code() == Some(1)
            && first.starts_with(&prefix)
            && first.to_lowercase().contains(&keyword.to_lowercase())
            && lines.next().is_some()
            && lines.next().is_some_and(|caret| caret.trim_start() == "^")
            && out.stdout.is_empty()
            && !stderr.contains("panicked");
        if !ok {
            failures.push(format!(
                "{file}: want {want_line}:{want_col} [{keyword}], got status {:?}:\n{stderr}",
                out.status.code()
            ));
        }
        checked += 1;
    }
    assert!(checked >= 30, "only {checked} malformed inputs");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
