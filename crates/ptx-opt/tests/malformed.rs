//! Malformed inputs: each gets `file:line:col: error: …` at the right
//! place, the source line and a caret, exit status 1, and no panic.
//! Expectations live in `malformed/MANIFEST` (file, line, column, a word
//! the message must contain, and `ptxas-rejects`). ptxas 13.5 must reject
//! each file too (for the file's own `.target` where ptxas has it, else
//! sm_80), so that no form we refuse is one NVIDIA's assembler takes;
//! skipped without ptxas, required under CI.

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
    assert!(checked >= 120, "only {checked} malformed inputs");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn ptxas_rejects_every_malformed_input_too() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/malformed");
    let ptxas =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../.tools/cuda/nvidia/cu13/bin/ptxas");
    if !Command::new(&ptxas)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
    {
        assert!(
            std::env::var_os("CI").is_none(),
            "ptxas is required under CI: run scripts/install-ptxas.sh"
        );
        eprintln!("skipped: ptxas not found");
        return;
    }
    let manifest = std::fs::read_to_string(dir.join("MANIFEST")).unwrap();
    let tmp = std::env::temp_dir().join(format!("ptx-opt-malformed-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let mut accepted = Vec::new();
    let mut checked = 0;
    for line in manifest
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
    {
        let f: Vec<&str> = line.split('\t').collect();
        if f.get(4) != Some(&"ptxas-rejects") {
            continue;
        }
        let path = dir.join(f[0]);
        let text = std::fs::read(&path).unwrap();
        let arch = String::from_utf8_lossy(&text)
            .lines()
            .find_map(|l| {
                l.trim()
                    .strip_prefix(".target")
                    .map(str::trim)
                    .map(str::to_string)
            })
            .and_then(|t| {
                let sm = t.split([',', ' ']).next()?.to_string();
                let n: u32 = sm
                    .strip_prefix("sm_")?
                    .trim_end_matches(['a', 'f'])
                    .parse()
                    .ok()?;
                (n >= 75).then_some(sm)
            })
            .unwrap_or_else(|| "sm_80".into());
        let out = Command::new(&ptxas)
            .arg(format!("-arch={arch}"))
            .arg(&path)
            .arg("-o")
            .arg(tmp.join("out.cubin"))
            .output()
            .unwrap();
        if out.status.success() {
            accepted.push(f[0].to_string());
        }
        checked += 1;
    }
    let _ = std::fs::remove_dir_all(&tmp);
    assert!(checked >= 120, "only {checked} checked");
    assert!(accepted.is_empty(), "ptxas accepts: {accepted:?}");
}
