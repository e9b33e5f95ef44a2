//! Command-line behaviour: stdin/stdout, `-o`, options with one or two
//! dashes, and never losing an existing output file.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

const GOOD: &str = ".version 7.0\n.target sm_80\n.address_size 64\n\
.visible .entry k(.param .u64 out)\n{\n.reg .b32 %r<3>;\n.reg .b64 %rd<2>;\n\
ld.param.u64 %rd1, [out];\nmov.u32 %r1, %tid.x;\nadd.s32 %r2, %r1, 1;\nst.global.u32 [%rd1], %r2;\nret;\n}\n";

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_ptx-opt"))
}

/// A fresh directory under the system's temporary one, removed when
/// dropped (after the test, passed or failed).
struct TmpDir(PathBuf);

impl std::ops::Deref for TmpDir {
    type Target = std::path::Path;
    fn deref(&self) -> &std::path::Path {
        &self.0
    }
}

impl Drop for TmpDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn tmpdir(name: &str) -> TmpDir {
    let d = std::env::temp_dir().join(format!("ptx-opt-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    TmpDir(d)
}

fn run_stdin(args: &[&str], input: &str) -> std::process::Output {
    let mut c = bin()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    c.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    c.wait_with_output().unwrap()
}

#[test]
fn reads_stdin_and_writes_stdout() {
    let out = run_stdin(&["-"], GOOD);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("add.s32 \t%r2, %r1, 1;"), "{text}");
    // Default input is stdin too, and `-o -` is stdout.
    let again = run_stdin(&["-o", "-"], GOOD);
    assert_eq!(String::from_utf8(again.stdout).unwrap(), text);
}

#[test]
fn errors_on_stdin_name_the_stream() {
    let out = run_stdin(&[], ".version 7.0\n.target sm_80\nbogus\n");
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.starts_with("<stdin>:3:1: error: instruction outside of a function"),
        "{err}"
    );
}

#[test]
fn output_file_is_written_and_replaced_only_on_success() {
    let d = tmpdir("out");
    let input = d.join("in.ptx");
    let output = d.join("out.ptx");
    std::fs::write(&input, GOOD).unwrap();
    for flag in ["-o", "--o"] {
        std::fs::remove_file(&output).ok();
        let st = bin().arg(&input).arg(flag).arg(&output).status().unwrap();
        assert!(st.success());
        assert!(std::fs::read_to_string(&output)
            .unwrap()
            .contains(".entry k"));
    }
    // A failing run leaves the previous output byte for byte.
    std::fs::write(&output, "precious\n").unwrap();
    std::fs::write(
        &input,
        ".version 7.0\n.target sm_80\n.visible .entry k()\n{\n\tadd.s32 %r1;\n}\n",
    )
    .unwrap();
    let out = bin().arg(&input).arg("-o").arg(&output).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(std::fs::read_to_string(&output).unwrap(), "precious\n");
    // And no temporary file is left behind.
    let names: Vec<_> = std::fs::read_dir(&*d)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names.len(), 2, "{names:?}");
}

#[test]
fn bad_options_and_missing_files_are_errors() {
    let out = bin().arg("-frobnicate").output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown option '-frobnicate'"));
    let out = bin().arg("/nonexistent/x.ptx").output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr)
        .starts_with("ptx-opt: error: cannot read '/nonexistent/x.ptx'"));
    let out = bin().arg("--help").output().unwrap();
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("USAGE: ptx-opt"));
    for bad in ["--threads=0", "-threads=x", "--threads=-2"] {
        let out = bin().arg(bad).output().unwrap();
        assert_eq!(out.status.code(), Some(1));
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("for -threads: expected a positive integer"),
            "{err}"
        );
    }
}

#[test]
fn garbage_never_panics() {
    // A cheap deterministic fuzz: truncations and byte flips of a valid file.
    let src = GOOD.as_bytes();
    let mut seed: u64 = 0x9e3779b97f4a7c15;
    for k in 0..200usize {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let mut v = src[..(k * 7) % src.len()].to_vec();
        if !v.is_empty() {
            let at = (seed as usize) % v.len();
            v[at] = (seed >> 32) as u8;
        }
        let r = std::panic::catch_unwind(|| ptx_opt::process(&v));
        assert!(
            r.is_ok(),
            "panic on input {:?}",
            String::from_utf8_lossy(&v)
        );
    }
}

const COPIES: &str = ".version 7.0\n.target sm_80\n.address_size 64\n\
.visible .entry k(.param .u64 out)\n{\n.reg .b32 %r<5>;\n.reg .b64 %rd<2>;\n\
ld.param.u64 %rd1, [out];\nmov.u32 %r1, %tid.x;\nmov.u32 %r2, %r1;\nadd.s32 %r3, %r2, 1;\nadd.s32 %r4, %r1, 9;\n\
st.global.u32 [%rd1], %r3;\nret;\n}\n";

#[test]
fn pipelines_and_pass_listing() {
    let out = bin().arg("--print-passes").output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("  copy-prop\n") && text.contains("  dce\n"),
        "{text}"
    );
    let out = bin()
        .args(["-O2", "--print-pipeline-passes"])
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "function(simplify-cfg,copy-prop,const-fold,set-fold,instcombine,cse,dce,lop3-fuse<skip-small>,simplify-cfg)\n"
    );
    let out = bin()
        .args(["-O3", "--print-pipeline-passes"])
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "function(simplify-cfg,copy-prop,const-fold,set-fold,instcombine,cse,dce,lop3-fuse<skip-small>,simplify-cfg)\n"
    );
    let out = bin()
        .args([
            "-passes=module(function(dce)),copy-prop",
            "-print-pipeline-passes",
        ])
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "function(dce,copy-prop)\n"
    );
    let out = bin().args(["-passes=dce,frob"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.starts_with(
            "ptx-opt: error: unknown pass name 'frob'; valid names are: const-fold, copy-prop, cse, dce, instcombine, legalize, lop3-expand, lop3-fuse, lower-vote, lower-vsub2, set-fold, simplify-cfg"
        ),
        "{err}"
    );
    let out = bin().args(["-O2", "-passes=dce"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn o2_removes_copies_and_dead_code() {
    let out = run_stdin(&["-O2"], COPIES);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    // The source's register names are kept.
    assert!(text.contains("add.s32 \t%r3, %r1, 1;"), "{text}");
    assert!(!text.contains("mov.u32 \t%r2"), "{text}");
    assert!(!text.contains(", 9;"), "dead add survived: {text}");
}

#[test]
fn instrumentation_goes_to_stderr() {
    let out = run_stdin(
        &[
            "-passes=copy-prop,dce",
            "--print-after=dce",
            "--debug-pass-manager",
            "--stats",
            "--verify-each",
        ],
        COPIES,
    );
    assert!(out.status.success());
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("Running pass: copy-prop on k\nRunning pass: dce on k\n// *** IR Dump After dce on k ***\n.visible .entry k("), "{err}");
    assert!(err.contains("        2         1  add\n"), "{err}");
    assert!(err.contains("        2         1  mov\n"), "{err}");
    let out = run_stdin(&["-O2", "--print-changed", "--opt-bisect-limit=1"], COPIES);
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("BISECT: running pass (1) simplify-cfg on k"),
        "{err}"
    );
    assert!(
        err.contains("BISECT: NOT running pass (2) copy-prop on k"),
        "{err}"
    );
    assert!(
        err.contains("// *** IR Dump After simplify-cfg on k omitted because no change ***"),
        "{err}"
    );
    // Dumps are valid PTX: each dumped function parses back.
    let out = run_stdin(&["-O2", "--print-after-all"], COPIES);
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.matches("*** IR Dump After").count(), 9, "{err}");
    for dump in err.split("// *** IR Dump After").skip(1) {
        let body = dump.split_once('\n').unwrap().1;
        let module = format!(".version 7.0\n.target sm_80\n.address_size 64\n{body}");
        assert!(ptx_parse::parse_module(&module).is_ok(), "{module}");
    }
    let out = run_stdin(&["-O2", "--time-passes"], COPIES);
    assert!(String::from_utf8(out.stderr)
        .unwrap()
        .contains("Pass execution timing report"));
}

#[test]
fn debug_only_selects_pass_output() {
    let out = run_stdin(&["-O2", "-debug-only=dce"], COPIES);
    assert!(out.status.success());
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("dce: removing dead code function=k"), "{err}");
    assert!(!err.contains("cse:"), "{err}");
}

#[test]
fn deep_nesting_is_an_error_not_a_stack_overflow() {
    let head =
        ".version 7.0\n.target sm_80\n.address_size 64\n.visible .entry k()\n{\n.reg .b32 %r<2>;\n";
    let cases = [
        (
            format!(
                "mov.b32 %r1, {}1{};\n",
                "(".repeat(100_000),
                ")".repeat(100_000)
            ),
            "constant expression nested too deeply",
        ),
        (
            format!("mov.b32 %r1, {}1;\n", "-".repeat(100_000)),
            "constant expression nested too deeply",
        ),
        (
            format!(
                "mov.b32 {}%r1{}, 1;\n",
                "{".repeat(100_000),
                "}".repeat(100_000)
            ),
            "operand nested too deeply",
        ),
        (
            format!("ld.global.u32 %r1, {}%r1;\n", "[".repeat(100_000)),
            "operand nested too deeply",
        ),
    ];
    for (body, msg) in cases {
        let src = format!("{head}{body}ret;\n}}\n");
        let out = run_stdin(&[], &src);
        assert_eq!(out.status.code(), Some(1));
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(
            err.starts_with("<stdin>:7:") && err.contains(msg),
            "{}",
            &err[..err.len().min(300)]
        );
    }
}

#[test]
fn scopes_nest_fifty_thousand_deep() {
    let src = format!(
        ".version 7.0\n.target sm_80\n.address_size 64\n.visible .entry k()\n{{\n{}.reg .b32 %r1;\nmov.u32 %r1, 1;\n{}ret;\n}}\n",
        "{\n".repeat(50_000),
        "}\n".repeat(50_000)
    );
    let out = run_stdin(&[], &src);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn many_blocks_take_the_sparse_liveness_path() {
    // 10,000 blocks × 10,000 registers (and more values): past the
    // dense-matrix limits of SSA construction and out-of-SSA liveness, so
    // the sparse paths run.
    let n = 10_000;
    let mut body = String::new();
    for i in 0..n {
        // A register per block, and %r3 carried around every edge.
        body.push_str(&format!(
            "L{i}:\nadd.s32 %r{}, %r3, {i};\nadd.s32 %r3, %r{}, 1;\nsetp.eq.s32 %p1, %r3, 0;\n@%p1 bra L{};\n",
            i + 4,
            i + 4,
            (i * 7919) % n
        ));
    }
    let src = format!(
        ".version 7.0\n.target sm_80\n.address_size 64\n.visible .entry k(.param .u64 p)\n{{\n\
         .reg .b32 %r<{}>;\n.reg .pred %p<2>;\n.reg .b64 %rd<2>;\nld.param.u64 %rd1, [p];\nmov.u32 %r3, 0;\n{body}\
         st.global.u32 [%rd1], %r3;\nret;\n}}\n",
        n + 4
    );
    let out = run_stdin(&["-O2"], &src);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    // Printing kept every branch and no copy was needed.
    assert_eq!(text.matches("@%p1 bra").count(), n);
    assert!(!text.contains("mov.b32"), "unexpected copies");
}

/// `-o` naming something that is not a regular file (a FIFO here, as
/// `/dev/null` would be) writes into it rather than renaming a temporary
/// file over it, which would replace the device with a file.
#[test]
fn output_to_a_fifo_writes_through_it() {
    let dir = tmpdir("fifo");
    let fifo = dir.join("out.fifo");
    let _ = std::fs::remove_file(&fifo);
    let made = Command::new("mkfifo").arg(&fifo).status();
    if !made.is_ok_and(|s| s.success()) {
        return; // no mkfifo on this system
    }
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::read_to_string(fifo).unwrap())
    };
    let src = dir.join("in.ptx");
    std::fs::write(&src, ".version 7.0\n.target sm_80\n.address_size 64\n").unwrap();
    let out = bin().arg(&src).arg("-o").arg(&fifo).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // Checked before joining: had it been replaced, the reader would wait
    // forever on the unlinked FIFO.
    use std::os::unix::fs::FileTypeExt;
    assert!(std::fs::metadata(&fifo).unwrap().file_type().is_fifo());
    assert!(reader.join().unwrap().contains(".target sm_80"));
}

/// `--check-each` says what it compared: a kernel none of whose launches
/// the evaluator can run gets a warning naming it and the reason;
/// `--check-each-strict` makes that an error (exit 1, `-o` untouched);
/// `--stats` gives the launches compared per function.
#[test]
fn check_each_reports_kernels_it_could_not_run() {
    // ldmatrix has no semantics in the evaluator.
    let unrunnable = GOOD.replace(
        "mov.u32 %r1, %tid.x;",
        "mov.u32 %r1, %tid.x;\n.shared .align 16 .b8 s[256];\nmov.u32 %r3, s;\nldmatrix.sync.aligned.m8n8.x1.shared.b16 {%r1}, [%r3];",
    ).replace(".reg .b32 %r<3>;", ".reg .b32 %r<4>;");
    let o = run_stdin(&["-O2", "--check-each=4"], &unrunnable);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    assert!(
        err.contains("warning: --check-each compared no launch of 'k'") && err.contains("ldmatrix"),
        "{err}"
    );
    let dir = tmpdir("strict");
    let out = dir.join("out.ptx");
    std::fs::write(&out, "keep me").unwrap();
    let o = run_stdin(
        &["-O2", "--check-each-strict", "-o", out.to_str().unwrap()],
        &unrunnable,
    );
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.contains("--check-each-strict: 1 function(s) had no launch compared"),
        "{err}"
    );
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "keep me");
    // A kernel the evaluator runs: no warning; --stats counts its launches.
    let o = run_stdin(&["-O2", "--check-each=4", "--stats"], GOOD);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success() && !err.contains("warning"), "{err}");
    assert!(err.contains("check-each: 'k': "), "{err}");
    let line = err
        .lines()
        .find(|l| l.starts_with("check-each: 'k'"))
        .unwrap();
    assert!(!line.contains(": 0 of"), "{line}");
    assert_eq!(
        run_stdin(&["-O2", "--check-each-strict"], GOOD)
            .status
            .code(),
        Some(0)
    );
}
