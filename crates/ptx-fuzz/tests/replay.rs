//! The fuzz smoke run of CI: every committed input of every target
//! (`fuzz/corpus/TARGET/`: the minimised corpus of the last long run;
//! `fuzz/regressions/TARGET/`: each crash found, minimised) through the
//! target's body, on stable Rust. Deterministic: the same inputs, in
//! name order, every time.

use std::path::Path;

fn inputs(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut v: Vec<_> = std::fs::read_dir(dir)
        .map(|d| d.filter_map(|e| e.ok()).map(|e| e.path()).collect())
        .unwrap_or_default();
    v.sort();
    v
}

#[test]
fn every_committed_fuzz_input_passes() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz");
    let mut failures = Vec::new();
    let mut counts = Vec::new();
    for &(name, body) in ptx_fuzz::TARGETS {
        let mut n = 0;
        for sub in ["corpus", "regressions"] {
            for path in inputs(&root.join(sub).join(name)) {
                let data = std::fs::read(&path).unwrap();
                n += 1;
                if let Err(e) = std::panic::catch_unwind(|| body(&data)) {
                    let msg = e
                        .downcast_ref::<String>()
                        .cloned()
                        .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
                        .unwrap_or_default();
                    failures.push(format!("{name}: {}: {msg}", path.display()));
                }
            }
        }
        counts.push(format!("{name} {n}"));
    }
    eprintln!("replayed: {}", counts.join(", "));
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn every_target_has_a_committed_corpus() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/corpus");
    for &(name, _) in ptx_fuzz::TARGETS {
        assert!(
            inputs(&root.join(name)).len() >= 5,
            "fuzz/corpus/{name} is missing or nearly empty (scripts/fuzz.sh merge {name})"
        );
    }
}
