//! The module in parts on several threads (`--threads`) gives exactly what
//! one thread gives: the same output, statistics and errors, including
//! where a part cannot be processed alone.

mod shapes;

use ptx_opt::{process_with, Config, Error};

/// Above the size where a part gets its own thread (256 KB), times four.
const BIG: usize = 1 << 20;

/// Text and log, or the error; and the number of parts.
fn run(src: &str, passes: &str, threads: usize) -> (Result<(String, String), String>, usize) {
    let mut cfg = Config {
        threads: Some(threads),
        stats: true,
        ..Default::default()
    };
    if !passes.is_empty() {
        let elems = ptx_passes::pipeline::parse(passes).unwrap();
        cfg.passes = ptx_passes::pipeline::resolve(&elems).unwrap();
    }
    match process_with(src.as_bytes(), &cfg) {
        Ok(o) => (Ok((o.text, o.log)), o.parts),
        Err((Error::Source(d), _)) => (Err(format!("{}: {}", d.pos, d.message)), 0),
        Err((Error::Plain(m), _)) => (Err(m), 0),
    }
}

/// Output (or error) with 1 and with 4 threads, asserted equal; a success
/// with 4 threads must have come from more parts than threads when
/// `in_parts` (parts shrink towards the end), from one part otherwise.
fn same_either_way_in(src: &str, passes: &str, in_parts: bool) -> Result<(String, String), String> {
    let (one, n) = run(src, passes, 1);
    assert_eq!(n, one.is_ok() as usize);
    let (four, n) = run(src, passes, 4);
    assert_eq!(one, four, "4 threads differ from 1");
    if four.is_ok() {
        if in_parts {
            assert!(n > 4, "{n} parts");
        } else {
            assert_eq!(n, 1, "parts used");
        }
    }
    one
}

fn same_either_way(src: &str, passes: &str) -> Result<(String, String), String> {
    same_either_way_in(src, passes, true)
}

#[test]
fn real_compiler_output_in_parts_matches_one_thread() {
    let src = shapes::corpus_module(BIG);
    let (text, stats) = same_either_way(&src, "").expect("corpus is valid");
    assert!(text.len() > BIG / 2);
    let (o2, o2_stats) = same_either_way(&src, "default<O2>").expect("corpus is valid");
    assert_ne!(o2, text, "-O2 changed nothing");
    assert!(stats.contains("        0         0  total"), "{stats}");
    assert!(o2_stats.contains("total"), "{o2_stats}");
}

/// A kernel that uses `sym`, named `name`.
fn user(name: &str, sym: &str) -> String {
    format!(
        ".visible .entry {name}()\n{{\n\t.reg .b64 %rd<2>;\n\tmov.u64 %rd1, {sym};\n\
         \tst.global.u64 [%rd1], %rd1;\n\tret;\n}}\n"
    )
}

/// A module of small kernels, `tail` appended after about `BIG` bytes.
fn module_with(head: &str, tail: &str) -> String {
    let mut s = format!(".version 7.0\n.target sm_80\n.address_size 64\n{head}");
    let mut k = 0;
    while s.len() < BIG {
        s.push_str(&user(&format!("k{k}"), "g"));
        k += 1;
    }
    s.push_str(tail);
    s
}

#[test]
fn more_parts_than_threads_join_in_order() {
    // 2.5 MB on two threads: a dozen parts, taken from a queue, so both
    // threads do several and finish them out of order. A symbol
    // declared in the first part is used in every later one, and the
    // last kernel is defined after everything else.
    let mut src = module_with(".global .align 8 .b64 g;\n", "");
    let mut k = 0;
    while src.len() < 5 * BIG / 2 {
        src.push_str(&user(&format!("m{k}"), "g"));
        k += 1;
    }
    src.push_str(&user("last", "g"));
    let (one, n) = run(&src, "", 1);
    assert_eq!(n, 1);
    let (two, n) = run(&src, "", 2);
    assert_eq!(one, two, "2 threads differ from 1");
    assert!(n > 8, "{n} parts");
    let (text, _) = one.unwrap();
    assert!(text.ends_with("}\n\n") && text.contains(".entry last()"));
    // The same module with an error in its last part: the one-thread error.
    let bad = format!("{src}.visible .entry bad()\n{{\n\tadd.s32 %r1, 1;\n}}\n");
    let (one, _) = run(&bad, "", 1);
    let (two, _) = run(&bad, "", 2);
    assert!(one.is_err());
    assert_eq!(one, two);
}

#[test]
fn symbols_declared_in_an_earlier_part_resolve() {
    let src = module_with(".global .align 8 .b64 g;\n", &user("last", "g"));
    let (text, _) = same_either_way(&src, "").unwrap();
    assert!(text.contains("mov.u64 \t%rd1, g;"), "{}", &text[..200]);
}

#[test]
fn an_undeclared_symbol_in_a_later_part_is_the_same_error() {
    let src = module_with(".global .align 8 .b64 g;\n", &user("last", "nowhere"));
    let err = same_either_way(&src, "").unwrap_err();
    assert!(
        err.contains("use of undeclared identifier 'nowhere'"),
        "{err}"
    );
}

#[test]
fn a_symbol_declared_after_its_use_is_the_same_error() {
    // `late` is declared at the very end, after a kernel that uses it.
    let src = module_with(
        ".global .align 8 .b64 g;\n",
        &format!("{}.global .align 8 .b64 late;\n", user("early", "late")),
    );
    let err = same_either_way(&src, "").unwrap_err();
    assert!(err.contains("use of undeclared identifier 'late'"), "{err}");
}

#[test]
fn a_function_defined_in_two_parts_is_the_same_error() {
    let src = module_with(".global .align 8 .b64 g;\n", &user("k3", "g"));
    let err = same_either_way(&src, "").unwrap_err();
    assert!(
        err.contains("duplicate definition of function 'k3'"),
        "{err}"
    );
}

#[test]
fn a_parse_error_late_in_the_module_is_the_same_error() {
    let src = module_with(
        ".global .align 8 .b64 g;\n",
        ".visible .entry bad()\n{\n\tadd.s32 %r1, 1;\n}\n",
    );
    let err = same_either_way(&src, "").unwrap_err();
    let at: usize = err.split(':').next().unwrap().parse().unwrap();
    assert!(at > BIG, "{err}");
}

#[test]
fn function_lines_inside_a_comment_are_not_cuts() {
    // Every candidate cut lies inside a block comment: the parts cannot be
    // used, the one-thread path runs, the output is the same.
    let mut src = String::from(".version 7.0\n.target sm_80\n.address_size 64\n");
    src.push_str(".global .align 8 .b64 g;\n/*\n");
    while src.len() < BIG {
        src.push_str(".visible .entry commented()\n{\n}\n");
    }
    src.push_str("*/\n");
    src.push_str(&user("k", "g"));
    let (text, _) = same_either_way_in(&src, "", false).unwrap();
    assert!(!text.contains("commented"));
    assert_eq!(text.matches(".entry").count(), 1);
}

#[test]
fn passes_see_the_target_in_every_part() {
    // legalize rewrites non-sync vote on sm_70+ only if the part knows the
    // target: every copy must be rewritten.
    let mut src = String::from(".version 6.0\n.target sm_70\n.address_size 64\n");
    let mut k = 0;
    while src.len() < BIG {
        src.push_str(&format!(
            ".visible .entry v{k}(.param .u64 p)\n{{\n\t.reg .pred %p<3>;\n\t.reg .b32 %r<3>;\n\
             \t.reg .b64 %rd<2>;\n\tmov.u32 %r1, %tid.x;\n\tsetp.eq.s32 %p1, %r1, 3;\n\
             \tvote.any.pred %p2, %p1;\n\tselp.u32 %r2, 1, 0, %p2;\n\
             \tld.param.u64 %rd1, [p];\n\tst.global.u32 [%rd1], %r2;\n\tret;\n}}\n"
        ));
        k += 1;
    }
    let (text, _) = same_either_way(&src, "legalize").unwrap();
    assert_eq!(text.matches("vote.sync.any.pred").count(), k);
    assert!(text.starts_with(".version 6.2\n"), "{}", &text[..40]);
}

/// A kernel named `name` whose logic `lop3-fuse` maps to one `lop3`
/// (a form that needs PTX ISA 4.3), tested by `setp.ne … 0` (folded into
/// the lop3 from PTX ISA 8.2 on sm_70+).
fn logic_kernel(name: &str) -> String {
    format!(
        ".visible .entry {name}(.param .u64 p)\n{{\n\t.reg .pred %p<2>;\n\t.reg .b32 %r<8>;\n\
         \t.reg .b64 %rd<2>;\n\tld.param.u64 %rd1, [p];\n\tld.global.u32 %r1, [%rd1];\n\
         \tld.global.u32 %r2, [%rd1+4];\n\tld.global.u32 %r3, [%rd1+8];\n\
         \tlop3.b32 %r4, %r1, %r2, %r3, 0x80;\n\txor.b32 %r5, %r4, %r3;\n\
         \tsetp.ne.s32 %p1, %r5, 0;\n\tselp.u32 %r6, 1, 0, %p1;\n\
         \tst.global.u32 [%rd1], %r6;\n\tret;\n}}\n"
    )
}

/// A module of [`logic_kernel`]s of at least `BIG` bytes, and how many.
fn logic_module(version: &str) -> (String, usize) {
    let mut src = format!(".version {version}\n.target sm_80\n.address_size 64\n");
    let mut k = 0;
    while src.len() < BIG {
        src.push_str(&logic_kernel(&format!("l{k}")));
        k += 1;
    }
    (src, k)
}

#[test]
fn forms_checked_against_the_version_parse_in_every_part() {
    // Every part's parser must know the module's `.version`: without it a
    // later part refused `lop3.b32` (PTX ISA 4.3+), and the whole module
    // fell back to one thread (nvcc's output, full of such forms, never
    // ran in parts).
    let (src, k) = logic_module("7.0");
    let (text, _) = same_either_way(&src, "").unwrap();
    assert_eq!(text.matches("lop3.b32").count(), k);
    // Below 4.3 it is the one-thread error, at the first kernel.
    let (old, _) = logic_module("4.2");
    let old = old.replace(".target sm_80", ".target sm_50");
    let err = same_either_way(&old, "").unwrap_err();
    assert!(err.contains("needs PTX ISA 4.3 or later"), "{err}");
}

#[test]
fn every_part_sees_the_configured_target_and_version() {
    // --target=sm_100 raises the module's .version 7.0 to 8.6, from which
    // lop3-fuse folds `setp.ne x, 0` into the lop3: every part must see
    // the raised version, not the one written in the module.
    let (src, k) = logic_module("7.0");
    let run_with = |threads| {
        let elems = ptx_passes::pipeline::parse("lop3-fuse").unwrap();
        let cfg = Config {
            threads: Some(threads),
            target: Some("sm_100".into()),
            passes: ptx_passes::pipeline::resolve(&elems).unwrap(),
            ..Default::default()
        };
        let out = process_with(src.as_bytes(), &cfg)
            .map_err(|_| "failed")
            .unwrap();
        (out.text, out.parts)
    };
    let (one, _) = run_with(1);
    let (four, parts) = run_with(4);
    assert!(parts > 4, "{parts} parts");
    assert_eq!(one, four, "4 threads differ from 1");
    assert!(one.starts_with(".version 8.6\n"), "{}", &one[..40]);
    assert_eq!(one.matches("lop3.or.b32").count(), k);
}
