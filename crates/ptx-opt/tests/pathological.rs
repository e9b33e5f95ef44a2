//! Pathological inputs at the sizes issue #11 names, through the real
//! binary: each must succeed (no stack overflow, no blow-up) and print
//! every instruction back. Their time and memory, from 1k to 1M, are in
//! `cargo bench -p ptx-opt --bench pathological` and docs/performance.md.

mod shapes;

use std::io::Write;
use std::process::{Command, Stdio};

/// Runs `ptx-opt ARGS -` on `src`; returns stdout, failing on any error.
fn ptx_opt(args: &[&str], src: &str) -> String {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ptx-opt"))
        .args(args)
        .arg("-")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let input = src.to_string();
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap().unwrap();
    assert!(
        out.status.success(),
        "ptx-opt {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn count(text: &str, needle: &str) -> usize {
    text.matches(needle).count()
}

#[test]
fn scopes_nested_fifty_thousand_deep() {
    let out = ptx_opt(&[], &shapes::nested(50_000));
    assert_eq!(count(&out, "add.s32"), 50_000);
}

#[test]
fn branches_out_of_fifty_thousand_nested_scopes() {
    // Each scope branches to a label of the function's scope: resolving
    // it must not walk the 50,000 scopes in between each time.
    let n = 50_000;
    let src = format!(
        ".version 7.0\n.target sm_80\n.address_size 64\n.visible .entry k(.param .u32 a)\n{{\n\
         .reg .b32 %r<2>;\n.reg .pred %p<2>;\nld.param.u32 %r1, [a];\n$TOP:\n{}{}ret;\n}}\n",
        "{\nadd.s32 %r1, %r1, 1;\nsetp.eq.s32 %p1, %r1, 0;\n@%p1 bra $TOP;\n".repeat(n),
        "}\n".repeat(n)
    );
    let out = ptx_opt(&[], &src);
    assert_eq!(count(&out, "bra "), n);
}

#[test]
fn a_one_megabyte_line() {
    let src = shapes::one_line(48_000);
    let longest = src.lines().map(str::len).max().unwrap();
    assert!(longest >= 1 << 20, "longest line {longest} bytes");
    let out = ptx_opt(&[], &src);
    assert_eq!(count(&out, "add.s32"), 48_000);
}

#[test]
fn a_million_instructions_in_one_block() {
    let out = ptx_opt(&[], &shapes::straight(1_000_000));
    assert_eq!(count(&out, "add.s32"), 500_000);
    assert_eq!(count(&out, "xor.b32"), 500_000);
}

#[test]
fn a_hundred_thousand_blocks_and_labels() {
    let src = shapes::labels(100_000);
    let out = ptx_opt(&[], &src);
    assert_eq!(count(&out, "add.s32"), 100_000);
    // -O2 merges the fall-through chain into one block and drops the
    // additions of 0.
    let o2 = ptx_opt(&["-O2"], &src);
    assert_eq!(count(&o2, "$L"), 0);
    let zeros = (0..100_000).filter(|i| i % 97 == 0).count();
    assert_eq!(count(&o2, "add.s32"), 100_000 - zeros);
}

#[test]
fn a_hundred_thousand_case_branch_chain() {
    let src = shapes::branch_chain(100_000);
    let out = ptx_opt(&[], &src);
    assert_eq!(count(&out, "setp.eq.s32"), 100_000);
    let o2 = ptx_opt(&["-O2"], &src);
    assert_eq!(count(&o2, "setp.eq.s32"), 100_000);
}

#[test]
fn fifty_thousand_registers_in_one_declaration() {
    let out = ptx_opt(&[], &shapes::registers(50_000));
    assert_eq!(count(&out, "add.s32"), 49_998);
}

#[test]
fn twenty_thousand_call_sequences_in_one_function() {
    // Each call's scope declares `param0` and `retval0` again; giving them
    // unique names must not retry every earlier suffix (it once did, and
    // took over two minutes here).
    let out = ptx_opt(&[], &shapes::calls(20_000));
    assert_eq!(count(&out, "call.uni"), 20_000);
    assert!(
        out.contains(".param .b32 param0_19999;"),
        "names made unique"
    );
    assert!(!out.contains("param0_20000"));
}

#[test]
fn twenty_thousand_functions_on_one_line() {
    // Sizing a body must look no further than its own closing brace, even
    // with no line break anywhere after it.
    let n = 20_000;
    let fns: Vec<String> = (0..n)
        .map(|i| format!(".visible .entry k{i}(.param .u32 a) {{ .reg .b32 %r<2>; ld.param.u32 %r1, [a]; ret; }}"))
        .collect();
    let src = format!(
        ".version 7.0\n.target sm_80\n.address_size 64\n{}\n",
        fns.join(" ")
    );
    let out = ptx_opt(&["--threads=1"], &src);
    assert_eq!(count(&out, ".entry"), n);
}

#[test]
fn a_hundred_megabyte_file() {
    let src = shapes::big_file(100 << 20);
    let kernels = count(&src, ".entry");
    let out = ptx_opt(&[], &src);
    assert_eq!(count(&out, ".entry"), kernels);
    assert_eq!(count(&out, "st.global.u32"), kernels);
}

#[test]
fn an_interrupted_run_never_leaves_half_a_file() {
    // Killed at several moments of a long -O2 run (parsing, passes,
    // printing, writing): `-o` holds the old text or the whole new one.
    let dir = std::env::temp_dir().join(format!("ptx-opt-kill-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let input = dir.join("in.ptx");
    let output = dir.join("out.ptx");
    std::fs::write(&input, shapes::straight(400_000)).unwrap();
    let full = ptx_opt(&["-O2"], &std::fs::read_to_string(&input).unwrap());
    let mut old = 0;
    for delay_ms in [0, 50, 150, 300, 600, 1000, 1500, 2500] {
        std::fs::write(&output, "old contents\n").unwrap();
        let mut child = Command::new(env!("CARGO_BIN_EXE_ptx-opt"))
            .arg("-O2")
            .arg(&input)
            .arg("-o")
            .arg(&output)
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(std::time::Duration::from_millis(delay_ms));
        let _ = child.kill();
        let _ = child.wait();
        let now = std::fs::read_to_string(&output).unwrap();
        if now == "old contents\n" {
            old += 1;
        } else {
            assert!(now == full, "killed after {delay_ms} ms: a partial output");
        }
    }
    // At least the early kills must have hit the run before its write.
    assert!(old > 0, "no kill landed before the output was written");
    let _ = std::fs::remove_dir_all(&dir);
}
