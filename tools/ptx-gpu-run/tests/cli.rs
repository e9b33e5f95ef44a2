//! `ptx-gpu-run` and `gpu-campaign` on the CPU: input errors as the
//! evaluator reports them, the missing-driver path (exit status 2), and
//! where a driver exists, the very result `ptx-eval` gives. Also the
//! campaign's kernels (valid PTX, run by the evaluator) and its comparison.

use serde_json::{json, Value as Json};
use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("ptx-gpu-run-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn gpu_run(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_ptx-gpu-run"))
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

// SAFETY: only asks whether the library can be opened.
fn driver_present() -> bool {
    unsafe { cudarc::driver::sys::is_culib_present() }
}

fn saxpy_case() -> Json {
    json!({"grid": [2], "block": [32],
           "buffers": {"x": {"type": "f32", "data": (0..64).map(|i| i as f64 * 0.5).collect::<Vec<_>>()},
                       "y": {"type": "f32", "data": (0..64).map(|i| 100.0 - i as f64).collect::<Vec<_>>()}},
           "params": [{"buffer": "x"}, {"buffer": "y"}, {"f32": 2.5}, {"u32": 60}]})
}

#[test]
fn runs_a_case_or_reports_the_missing_driver() {
    let dir = scratch("saxpy");
    let case = dir.join("case.json");
    std::fs::write(&case, saxpy_case().to_string()).unwrap();
    let ptx = root().join("docs/examples/saxpy.ptx");
    let (code, out, err) = gpu_run(&[ptx.to_str().unwrap(), "--case", case.to_str().unwrap()]);
    // The case is good input: the evaluator runs it (on the GPU below too).
    let src = std::fs::read_to_string(&ptx).unwrap();
    let module = ptx_parse::parse_module(&src).unwrap();
    let want = ptx_eval::case::run_case(&module, &saxpy_case().to_string(), 1 << 30).unwrap();
    assert_eq!(want["buffers"]["y"][3], json!(100.0 - 3.0 + 2.5 * 1.5));
    if driver_present() {
        // A machine with a GPU: the evaluator's buffers, bit for bit.
        assert_eq!(code, 0, "{err}");
        let got: Json = serde_json::from_str(&out).unwrap();
        assert_eq!(got["buffers"], want["buffers"]);
    } else {
        assert_eq!(code, 2, "stdout: {out}\nstderr: {err}");
        assert!(err.contains("no CUDA driver"), "{err}");
        assert!(out.is_empty());
        let (code, _, err) = gpu_run(&["--info"]);
        assert_eq!((code, err.contains("no CUDA driver")), (2, true), "{err}");
        let manifest = dir.join("m.jsonl");
        std::fs::write(&manifest, "").unwrap();
        let (code, _, _) = gpu_run(&["--batch", manifest.to_str().unwrap()]);
        assert_eq!(code, 2);
    }
}

/// Bad input is found before the driver is touched, so every machine
/// gives the same message and status, and the message is the evaluator's.
#[test]
fn input_errors_match_the_evaluator() {
    let dir = scratch("errors");
    let ptx = root().join("docs/examples/saxpy.ptx");
    let src = std::fs::read_to_string(&ptx).unwrap();
    let module = ptx_parse::parse_module(&src).unwrap();
    for (k, bad) in [
        r#"{"buffers": {"x": {"type": "u33", "data": []}}}"#,
        r#"{"buffers": {"x": {"type": "u8", "data": [256]}}}"#,
        r#"{"params": [{"buffer": "nope"}]}"#,
        r#"{"entry": "missing"}"#,
        r#"{"grid": [0]}"#,
        r#"[1, 2]"#,
        r#"{"buffers": "#,
    ]
    .iter()
    .enumerate()
    {
        let case = dir.join(format!("bad{k}.json"));
        std::fs::write(&case, bad).unwrap();
        let (code, out, err) = gpu_run(&[ptx.to_str().unwrap(), "--case", case.to_str().unwrap()]);
        let want = ptx_eval::case::Case::parse(bad)
            .and_then(|c| c.kernel(&module).map(|_| ()))
            .unwrap_err();
        assert_eq!(code, 1, "{bad}: {err}");
        assert!(out.is_empty());
        assert_eq!(
            err.trim_end(),
            format!("ptx-gpu-run: error: {want}"),
            "{bad}"
        );
    }
    // A malformed module: located like every other tool's errors.
    let broken = dir.join("broken.ptx");
    std::fs::write(&broken, ".version 7.0\n.target sm_80\nfrob;\n").unwrap();
    let case = dir.join("ok.json");
    std::fs::write(&case, "{}").unwrap();
    let (code, _, err) = gpu_run(&[broken.to_str().unwrap(), "--case", case.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(err.contains("broken.ptx:3:1: error:"), "{err}");
    // A missing file and a bad option.
    let (code, _, err) = gpu_run(&["/nonexistent.ptx", "--case", case.to_str().unwrap()]);
    assert_eq!((code, err.contains("/nonexistent.ptx")), (1, true), "{err}");
    let (code, _, err) = gpu_run(&["--frob"]);
    assert_eq!((code, err.contains("unknown option")), (1, true), "{err}");
}

/// Every per-instruction kernel of the campaign is a kernel the evaluator
/// runs to the end, and ptxas accepts every module (when ptxas is here).
#[test]
fn campaign_kernels_are_valid_and_run() {
    let ptxas = root().join(".tools/cuda/nvidia/cu13/bin/ptxas");
    let dir = scratch("inst");
    let mut cases = 0;
    for m in ptx_gpu_run::campaign::inst_modules() {
        let module = ptx_parse::parse_module(&m.text)
            .unwrap_or_else(|d| panic!("{}: {}", m.file, d.render(&m.file, m.text.as_bytes())));
        // The evaluator runs every case (one in eight here, for time).
        for (entry, case, what) in m.cases.iter().step_by(8) {
            ptx_eval::case::run_case(&module, &case.to_string(), 1 << 30)
                .unwrap_or_else(|e| panic!("{}:{entry} ({what}): {e}", m.file));
            cases += 1;
        }
        if ptxas.exists() {
            let path = dir.join(&m.file);
            std::fs::write(&path, &m.text).unwrap();
            let out = Command::new(&ptxas)
                .args(["-arch=sm_90", path.to_str().unwrap(), "-o", "/dev/null"])
                .output()
                .unwrap();
            assert!(
                out.status.success(),
                "{}: {}",
                m.file,
                String::from_utf8_lossy(&out.stderr)
            );
        }
    }
    assert!(cases > 200, "{cases}");
}

/// `compare` reports a differing element with the instruction and the
/// thread's inputs, counts GPU errors, and exits 1; all-equal exits 0.
#[test]
fn compare_reports_mismatches() {
    let dir = scratch("compare");
    std::fs::create_dir_all(dir.join("cases")).unwrap();
    let case = json!({"buffers": {"a": {"type": "u32", "data": [5, 6]}, "out": {"type": "u32", "zeros": 2}}});
    std::fs::write(dir.join("cases/k.json"), case.to_string()).unwrap();
    let entry = |id: &str, base: Option<&str>, out: [u32; 2]| {
        json!({"id": id, "group": "inst", "base": base, "what": "add.s32 %r4, %r1, %r2",
               "ptx": "ptx/x.ptx", "case": "cases/k.json",
               "eval": {"a": [5, 6], "out": out}})
        .to_string()
    };
    let entries = [
        entry("x:k", None, [1, 2]),
        entry("x:k@-O2", Some("x:k"), [1, 2]),
        entry("x:j", None, [1, 2]),
    ]
    .join("\n");
    std::fs::write(dir.join("entries.jsonl"), entries).unwrap();
    let gpu = |id: &str, out: [u32; 2]| {
        json!({"id": id, "result": {"buffers": {"a": [5, 6], "out": out}, "device": "test"}})
            .to_string()
    };
    let run = |lines: &[String]| {
        std::fs::write(dir.join("gpu.0.jsonl"), lines.join("\n")).unwrap();
        let out = Command::new(env!("CARGO_BIN_EXE_gpu-campaign"))
            .args(["compare", dir.to_str().unwrap()])
            .output()
            .unwrap();
        (
            out.status.code().unwrap_or(-1),
            String::from_utf8_lossy(&out.stdout).into_owned(),
        )
    };
    let all_same = [
        gpu("x:k", [1, 2]),
        gpu("x:k@-O2", [1, 2]),
        gpu("x:j", [1, 2]),
    ];
    let (code, out) = run(&all_same);
    assert_eq!(code, 0, "{out}");
    assert!(!out.contains("MISMATCH"), "{out}");
    let differ = [
        gpu("x:k", [1, 9]),
        gpu("x:k@-O2", [1, 9]),
        json!({"id": "x:j", "error": "the CUDA JIT refused the module"}).to_string(),
    ];
    let (code, out) = run(&differ);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("out[1]: expected 2, GPU 9 (evaluator 2); inputs a=0x00000006"),
        "{out}"
    );
    // The variant agrees with its original on the GPU: not a pass bug.
    assert!(!out.contains("after"), "{out}");
    assert!(
        out.contains("GPU ERROR x1: the CUDA JIT refused the module"),
        "{out}"
    );
}
