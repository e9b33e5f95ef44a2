//! The `ptx-eval` command line: results on stdout, located errors on
//! stderr with exit status 1.

use std::process::Command;

fn kernels() -> String {
    format!("{}/tests/kernels", env!("CARGO_MANIFEST_DIR"))
}

fn eval(ptx: &str, case: &str) -> (i32, String, String) {
    let dir = std::env::temp_dir().join(format!(
        "ptx-eval-cli-{}-{}",
        std::process::id(),
        case.len()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let case_path = dir.join("case.json");
    std::fs::write(&case_path, case).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_ptx-eval"))
        .arg(ptx)
        .arg("--case")
        .arg(&case_path)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn runs_a_case_and_prints_every_buffer() {
    let ptx = format!("{}/vadd.ptx", kernels());
    let case = r#"{"grid": [1], "block": [4],
        "buffers": {"a": {"type": "s32", "data": [1, -2, 3, 4]}, "b": {"type": "s32", "data": [10, 20, 30, 40]},
                    "out": {"type": "s32", "zeros": 4}},
        "params": [{"buffer": "a"}, {"buffer": "b"}, {"buffer": "out"}, {"u32": 3}]}"#;
    let (code, out, err) = eval(&ptx, case);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["buffers"]["out"], serde_json::json!([11, 18, 33, 0]));
    assert_eq!(v["buffers"]["a"], serde_json::json!([1, -2, 3, 4]));
    assert!(v["steps"].as_u64().unwrap() > 0);
}

#[test]
fn out_of_range_store_is_located() {
    let ptx = format!("{}/vadd.ptx", kernels());
    // `out` has 2 elements but 4 threads store.
    let case = r#"{"block": [4], "buffers": {"a": {"type": "u32", "zeros": 4}, "b": {"type": "u32", "zeros": 4},
        "out": {"type": "u32", "zeros": 2}}, "params": [{"buffer": "a"}, {"buffer": "b"}, {"buffer": "out"}, {"u32": 4}]}"#;
    let (code, out, err) = eval(&ptx, case);
    assert_eq!(code, 1);
    assert!(out.is_empty());
    let line = std::fs::read_to_string(&ptx)
        .unwrap()
        .lines()
        .position(|l| l.contains("st.global.u32"))
        .unwrap()
        + 1;
    assert!(err.starts_with(&format!("{ptx}:{line}:")), "{err}");
    assert!(
        err.contains("error: out-of-range access of 4 bytes"),
        "{err}"
    );
}

#[test]
fn running_out_of_fuel_is_an_error_not_a_hang() {
    let dir = std::env::temp_dir().join(format!("ptx-eval-fuel-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let ptx = dir.join("spin.ptx");
    std::fs::write(&ptx, ".version 7.0\n.target sm_75\n.address_size 64\n.visible .entry spin()\n{\n$L:\n\tbra.uni $L;\n}\n").unwrap();
    let case = dir.join("c.json");
    std::fs::write(&case, r#"{"block": [32]}"#).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_ptx-eval"))
        .arg(&ptx)
        .arg("--case")
        .arg(&case)
        .args(["--max-steps", "100000"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains(
            "step limit reached: 100000 thread-instructions (raise it with ptx-eval --max-steps=N)"
        ),
        "{err}"
    );
}

#[test]
fn bad_cases_are_reported() {
    let ptx = format!("{}/vadd.ptx", kernels());
    for (case, msg) in [
        ("{", "case:"),
        (r#"{"params": []}"#, "takes 4 parameters, the case gives 0"),
        (
            r#"{"buffers": {"a": {"type": "u33", "zeros": 1}}}"#,
            "'type' must be one of",
        ),
        (
            r#"{"buffers": {"a": {"type": "u8", "data": [256]}}}"#,
            "not a valid",
        ),
        (r#"{"entry": "nope"}"#, "no kernel named 'nope'"),
        (r#"{"block": [2000]}"#, "takes 4 parameters"),
    ] {
        let (code, _, err) = eval(&ptx, case);
        assert_eq!(code, 1, "{case}");
        assert!(err.contains(msg), "{case}: {err}");
    }
}

#[test]
fn expect_compares_with_another_result_and_fails_on_a_difference() {
    let ptx = format!("{}/vadd.ptx", kernels());
    let case = r#"{"grid": [1], "block": [2],
        "buffers": {"a": {"type": "s32", "data": [1, 2]}, "b": {"type": "s32", "data": [10, 20]},
                    "out": {"type": "s32", "zeros": 2}},
        "params": [{"buffer": "a"}, {"buffer": "b"}, {"buffer": "out"}, {"u32": 2}]}"#;
    let dir = std::env::temp_dir().join(format!("ptx-eval-expect-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("case.json"), case).unwrap();
    let run = |expected: &str| {
        std::fs::write(dir.join("expected.json"), expected).unwrap();
        let out = Command::new(env!("CARGO_BIN_EXE_ptx-eval"))
            .arg(&ptx)
            .args(["--case", dir.join("case.json").to_str().unwrap()])
            .args(["--expect", dir.join("expected.json").to_str().unwrap()])
            .output()
            .unwrap();
        (out.status.code(), String::from_utf8(out.stderr).unwrap())
    };
    let (code, err) = run(r#"{"buffers": {"a": [1, 2], "b": [10, 20], "out": [11, 22]}}"#);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        err.contains("6 exact, 0 within their .approx bound, 0 not compared, 0 differ"),
        "{err}"
    );
    let (code, err) = run(r#"{"buffers": {"a": [1, 2], "b": [10, 20], "out": [11, 23]}}"#);
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains("buffer 'out' element 1: 22 (0x16) here, 23 (0x17) expected [exact]"),
        "{err}"
    );
    let (code, err) = run("not json");
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("expected.json"), "{err}");
}
