//! The C ABI from C (compiled with `cc` against `include/ptx_opt.h` and the
//! built shared library), from Python (ctypes), and from two threads at
//! once; and the header declares exactly the exported functions.

use ptx_opt_capi::*;
use std::ffi::{CStr, CString};
use std::path::{Path, PathBuf};
use std::process::Command;

fn crate_dir() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Where cargo put `libptx_opt_capi.so` for this test run: next to the
/// test binary in `deps/` (`cargo test`), or one level up (`cargo build`).
fn shared_library() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let deps = exe.parent().unwrap();
    let name = format!(
        "{}ptx_opt_capi{}",
        std::env::consts::DLL_PREFIX,
        std::env::consts::DLL_SUFFIX
    );
    let candidates = [deps.join(&name), deps.parent().unwrap().join(&name)];
    candidates
        .iter()
        .find(|p| p.exists())
        .unwrap_or_else(|| panic!("{name} not built (looked in {candidates:?})"))
        .clone()
}

#[test]
fn header_declares_every_export() {
    let src = std::fs::read_to_string(crate_dir().join("src/lib.rs")).unwrap();
    let header = std::fs::read_to_string(crate_dir().join("include/ptx_opt.h")).unwrap();
    let exports: Vec<&str> = src
        .lines()
        .filter_map(|l| l.split("extern \"C\" fn ").nth(1))
        .map(|rest| rest.split('(').next().unwrap())
        .collect();
    assert!(exports.len() >= 6, "{exports:?}");
    for e in &exports {
        assert!(header.contains(&format!("{e}(")), "header lacks {e}");
    }
    // And nothing else is declared.
    let declared = header
        .lines()
        .filter(|l| !l.starts_with(' ') && !l.starts_with('/') && !l.starts_with('#'))
        .filter_map(|l| l.split('(').next())
        .filter_map(|l| l.split_whitespace().last())
        .map(|n| n.trim_start_matches('*'))
        .filter(|n| n.starts_with("ptx_opt_"))
        .collect::<Vec<_>>();
    for d in declared {
        assert!(
            exports.contains(&d),
            "header declares {d}, which is not exported"
        );
    }
    for (name, value) in [
        ("PTX_OPT_OK", PTX_OPT_OK),
        ("PTX_OPT_ERROR", PTX_OPT_ERROR),
        ("PTX_OPT_INTERNAL", PTX_OPT_INTERNAL),
        ("PTX_OPT_BAD_ARGUMENT", PTX_OPT_BAD_ARGUMENT),
    ] {
        assert!(
            header.contains(&format!("#define {name} {value}")),
            "{name}"
        );
    }
}

#[test]
fn a_c_program_optimizes_a_kernel() {
    let lib = shared_library();
    let out = std::env::temp_dir().join(format!("ptx-opt-capi-c-{}", std::process::id()));
    let cc = Command::new("cc")
        .arg(crate_dir().join("tests/c/optimize.c"))
        .arg("-I")
        .arg(crate_dir().join("include"))
        .arg("-L")
        .arg(lib.parent().unwrap())
        .arg("-lptx_opt_capi")
        .arg("-o")
        .arg(&out)
        .output()
        .expect("cc runs");
    assert!(
        cc.status.success(),
        "{}",
        String::from_utf8_lossy(&cc.stderr)
    );
    let run = Command::new(&out)
        .env("LD_LIBRARY_PATH", lib.parent().unwrap())
        .output()
        .unwrap();
    let _ = std::fs::remove_file(&out);
    assert!(
        run.status.success(),
        "exit {:?}\n{}{}",
        run.status.code(),
        String::from_utf8_lossy(&run.stdout),
        String::from_utf8_lossy(&run.stderr)
    );
    assert!(String::from_utf8_lossy(&run.stdout).contains("via C: ok"));
}

#[test]
fn python_ctypes_optimizes_a_kernel() {
    let run = Command::new("python3")
        .arg(crate_dir().join("tests/py/optimize.py"))
        .arg(shared_library())
        .output()
        .expect("python3 runs");
    assert!(
        run.status.success(),
        "{}{}",
        String::from_utf8_lossy(&run.stdout),
        String::from_utf8_lossy(&run.stderr)
    );
}

fn optimize(ptx: &str, pipeline: &str) -> Result<String, String> {
    let (ptx, pipeline) = (CString::new(ptx).unwrap(), CString::new(pipeline).unwrap());
    unsafe {
        let ctx = ptx_opt_context_new();
        let status = ptx_opt_run(ctx, ptx.as_ptr(), pipeline.as_ptr(), std::ptr::null());
        let r = if status == PTX_OPT_OK {
            Ok(CStr::from_ptr(ptx_opt_output(ctx))
                .to_string_lossy()
                .into_owned())
        } else {
            Err(CStr::from_ptr(ptx_opt_error(ctx))
                .to_string_lossy()
                .into_owned())
        };
        ptx_opt_context_free(ctx);
        r
    }
}

#[test]
fn two_threads_match_sequential_runs() {
    let corpus = crate_dir().join("../ptx-parse/tests/corpus/llc");
    let mut files: Vec<String> = std::fs::read_dir(&corpus)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "ptx"))
        .map(|p| std::fs::read_to_string(p).unwrap())
        .collect();
    files.sort();
    assert!(files.len() >= 10);
    let sequential: Vec<_> = files.iter().map(|f| optimize(f, "default<O2>")).collect();
    let (even, odd): (Vec<_>, Vec<_>) = files.iter().enumerate().partition(|(k, _)| k % 2 == 0);
    let run = |part: Vec<(usize, &String)>| {
        part.into_iter()
            .map(|(k, f)| (k, optimize(f, "default<O2>")))
            .collect::<Vec<_>>()
    };
    let (a, b) = std::thread::scope(|s| {
        let a = s.spawn(|| run(even));
        let b = s.spawn(|| run(odd));
        (a.join().unwrap(), b.join().unwrap())
    });
    for (k, r) in a.into_iter().chain(b) {
        assert_eq!(r, sequential[k], "file {k}");
    }
    assert!(sequential.iter().filter(|r| r.is_ok()).count() >= 10);
}
