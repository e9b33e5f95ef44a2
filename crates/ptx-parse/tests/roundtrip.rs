//! Every corpus and hand-written file (the parser's corpus and the real
//! compilers' output in `corpus/real`) parses, verifies, prints
//! idempotently and leaves SSA without a single copy (freshly built SSA is
//! conventional): the general way out of SSA gives unchanged code exactly
//! the registers of printing as built.

use ptx_ir::regalloc;
use ptx_ir::verify::verify_function;
use ptx_ir::write::module_to_string;
use std::path::{Path, PathBuf};

mod common;

/// The parser's corpus and hand-written forms, and the real compilers'
/// output (corpus/real: nvcc -O3, -lineinfo, -G and Triton).
fn ptx_files() -> Vec<PathBuf> {
    let files = common::ptx_files_under(&[
        "tests/corpus/llc",
        "tests/corpus/llvm-nvptx",
        "tests/corpus/stress",
        "tests/forms",
        "../../corpus/real/ptx",
    ]);
    let real = files
        .iter()
        .filter(|p| p.starts_with(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../corpus")))
        .count();
    assert!(
        files.len() > 280 && real >= 150,
        "corpus went missing: {} files, {real} of real compiler output",
        files.len()
    );
    files
}

fn print_file(path: &Path) -> String {
    let src = std::fs::read(path).unwrap();
    let m = ptx_parse::parse_bytes(&src)
        .unwrap_or_else(|d| panic!("{}", d.render(&path.display().to_string(), &src)));
    for f in m.functions() {
        let errs = verify_function(f);
        assert!(
            errs.is_empty(),
            "{}: {}: {:?}",
            path.display(),
            f.name,
            errs
        );
        if f.has_body {
            let a = regalloc::assign(f);
            assert!(
                a.before.is_empty() && a.edges.is_empty(),
                "{}: {}: out-of-SSA needed copies on freshly parsed code",
                path.display(),
                f.name
            );
        }
    }
    module_to_string(&m)
}

#[test]
fn every_file_round_trips_idempotently() {
    for path in ptx_files() {
        let once = print_file(&path);
        let m = ptx_parse::parse_module(&once).unwrap_or_else(|d| {
            panic!(
                "{}: reparse: {}",
                path.display(),
                d.render("printed", once.as_bytes())
            )
        });
        let twice = module_to_string(&m);
        if once != twice {
            pretty_assertions::assert_eq!(once, twice, "{} is not idempotent", path.display());
        }
    }
}

#[test]
fn printed_code_keeps_every_instruction() {
    // Printing drops scopes, comments and implicit fall-through only: the
    // number of instruction statements in each function is preserved.
    for path in ptx_files() {
        let src = std::fs::read_to_string(&path).unwrap();
        let m = ptx_parse::parse_module(&src).unwrap();
        let out = module_to_string(&m);
        let m2 = ptx_parse::parse_module(&out).unwrap();
        for (a, b) in m.functions().zip(m2.functions()) {
            assert_eq!(a.name, b.name);
            let count = |f: &ptx_ir::Function| {
                f.layout
                    .blocks()
                    .flat_map(|bl| f.layout.block_insts(bl))
                    .filter(|&i| f.op(i).opcode != ptx_ir::Opcode::Jump)
                    .count()
            };
            assert_eq!(count(a), count(b), "{}: {}", path.display(), a.name);
        }
    }
}

/// `assign_as_built` (one walk, no interference check) gives every value
/// of freshly parsed code the register the general path gives it.
#[test]
fn as_built_registers_match_the_general_path() {
    for path in ptx_files() {
        let src = std::fs::read(&path).unwrap();
        let m = ptx_parse::parse_bytes(&src).unwrap();
        for f in m.functions().filter(|f| f.has_body) {
            let (fast, full) = (regalloc::assign_as_built(f), regalloc::assign(f));
            for v in f.dfg.values.keys() {
                assert_eq!(
                    fast.reg(v),
                    full.reg(v),
                    "{}: {}: {v}",
                    path.display(),
                    f.name
                );
            }
            assert_eq!(fast.counts, full.counts, "{}: {}", path.display(), f.name);
        }
    }
}

/// Unreachable blocks are renamed with nothing defined on entry, yet
/// liveness flows through them: here `%r3` of the entry is live into the
/// join while the unreachable `dead` block writes `%r3` again. Code that
/// never runs keeps the source's register on both paths (the general one
/// does not check it for interference and adds no copies there), so both
/// print the same valid, verifiable PTX, and printing as built is
/// idempotent.
#[test]
fn unreachable_blocks_keep_their_registers_as_built() {
    let src = ".version 7.0\n.target sm_80\n.address_size 64\n\
        .visible .func (.param .b32 out) f(.param .b32 a)\n{\n\
        \t.reg .b32 %r<4>;\n\
        \tld.param.u32 %r1, [a];\n\
        \tadd.s32 %r3, %r1, 1;\n\
        \tbra.uni JOIN;\n\
        DEAD:\n\
        \tmul.lo.s32 %r3, %r1, 3;\n\
        \tbra.uni JOIN;\n\
        JOIN:\n\
        \tst.param.b32 [out], %r3;\n\
        \tret;\n}\n";
    let m = ptx_parse::parse_module(src).unwrap();
    let f = m.functions().next().unwrap();
    let mut fast = String::new();
    ptx_ir::write::write_item_as_built(&mut fast, &m.items[3]).unwrap();
    let mut full = String::new();
    ptx_ir::write::write_item(&mut full, &m.items[3]).unwrap();
    // The register each of the two writes of `%r3` prints with.
    let dest = |s: &str, op: &str| -> String {
        let line = s.lines().find(|l| l.trim_start().starts_with(op)).unwrap();
        line.split_whitespace()
            .nth(1)
            .unwrap()
            .trim_end_matches(',')
            .to_string()
    };
    assert_eq!(dest(&fast, "add.s32"), dest(&fast, "mul.lo.s32"), "{fast}");
    assert_eq!(fast, full);
    for text in [&fast, &full] {
        let again = ptx_parse::parse_module(&format!(
            ".version 7.0\n.target sm_80\n.address_size 64\n{text}"
        ))
        .unwrap();
        let g = again.functions().next().unwrap();
        assert!(verify_function(g).is_empty());
    }
    let again = ptx_parse::parse_module(&format!(
        ".version 7.0\n.target sm_80\n.address_size 64\n{fast}"
    ))
    .unwrap();
    let mut twice = String::new();
    ptx_ir::write::write_item_as_built(&mut twice, &again.items[3]).unwrap();
    assert_eq!(fast, twice);
    assert!(f.has_body);
}

/// The loop of copies-on-a-guarded-branch tests, with the sum sent round the
/// loop replaced by `%r1`'s value: the back edge's parameter and argument
/// now come from different registers. `store_sum` keeps the sum live after
/// the loop.
fn loop_with_a_changed_back_edge(store_sum: bool) -> String {
    let tail = if store_sum {
        "\tld.param.u64 %rd1, [o];\n\tst.global.u32 [%rd1], %r2;\n\tret;\n}\n"
    } else {
        "\tret;\n}\n"
    };
    let src = format!(
        ".version 7.0\n.target sm_80\n.address_size 64\n\
        .visible .entry k(.param .u32 a, .param .u64 o)\n{{\n\
        \t.reg .b32 %r<3>;\n\t.reg .pred %p<2>;\n\t.reg .b64 %rd<2>;\n\
        \tld.param.u32 %r1, [a];\n\tmov.u32 %r2, 0;\n\
        $L__k_1:\n\tadd.s32 %r2, %r2, %r1;\n\tsetp.lt.s32 %p1, %r2, 100;\n\
        \t@%p1 bra $L__k_1;\n{tail}"
    );
    let mut m = ptx_parse::parse_module(&src).unwrap();
    let f = m.functions_mut().next().unwrap();
    let blocks: Vec<_> = f.layout.blocks().collect();
    let term = f.layout.last_inst(blocks[1]).unwrap();
    let r1 = f.inst(f.layout.first_inst(blocks[0]).unwrap()).results[0];
    let t = &mut f.dfg.insts[term].targets[0];
    assert_eq!(t.args.len(), 1);
    t.args[0] = r1;
    assert!(verify_function(f).is_empty());
    let out = module_to_string(&m);
    let again = ptx_parse::parse_module(&out).unwrap();
    assert!(verify_function(again.functions().next().unwrap()).is_empty());
    out
}

/// The copy of a back edge goes before the loop's guarded branch when it
/// harms nothing on the way out (the copied register is dead after the
/// loop), as compilers place it: no new block.
#[test]
fn copies_on_a_guarded_branch_go_before_it_when_harmless() {
    let out = loop_with_a_changed_back_edge(false);
    assert!(
        out.contains("\tmov.b32 \t%r2, %r1;\n\t@%p1 bra \t$L__k_1;"),
        "{out}"
    );
    assert!(!out.contains("bra.uni"), "{out}");
}

/// When the copied register is live after the loop, the taken edge goes
/// through a made-up trampoline label, which avoids the source's own
/// labels (here one that looks made up).
#[test]
fn copies_on_a_guarded_branch_go_through_a_fresh_trampoline() {
    let out = loop_with_a_changed_back_edge(true);
    assert!(out.contains("@%p1 bra \t$L__k_2;"), "{out}");
    let tramp = out.split("$L__k_2:\n").nth(1).expect("trampoline printed");
    assert!(tramp.starts_with("\tmov.b32 \t"), "{out}");
    assert!(tramp.contains("\tbra.uni \t$L__k_1;"), "{out}");
}

/// LLVM 14's own NVPTX tests that llc turns into PTX ptxas refuses (a dot
/// in a function name, such as `shfl.down1`): we refuse them too, with a
/// located error.
#[test]
fn llvm_nvptx_output_with_invalid_names_is_rejected() {
    let files = common::ptx_files_under(&["tests/invalid/llvm-nvptx"]);
    assert!(files.len() >= 5, "only {} files", files.len());
    for path in files {
        let src = std::fs::read(&path).unwrap();
        let d = ptx_parse::parse_bytes(&src)
            .err()
            .unwrap_or_else(|| panic!("{}: parsed, but ptxas rejects its syntax", path.display()));
        let rendered = d.render(&path.display().to_string(), &src);
        assert!(
            rendered.contains(": error: ") && rendered.contains('^'),
            "{rendered}"
        );
    }
}

/// Every module variable, parameter (but `.reg` ones) and variable
/// declared in a body has its structure; module variables get the same
/// structure back from the printed output.
#[test]
fn module_variables_are_structured() {
    let mut n = 0;
    let mut missing = Vec::new();
    for path in ptx_files() {
        let src = std::fs::read(&path).unwrap();
        let m = ptx_parse::parse_bytes(&src).unwrap();
        let again = ptx_parse::parse_module(&module_to_string(&m)).unwrap();
        let vars = |m: &ptx_ir::Module| -> Vec<ptx_ir::GlobalVar> {
            m.items
                .iter()
                .filter_map(|i| match i {
                    ptx_ir::Item::Var(v) => Some(v.clone()),
                    _ => None,
                })
                .collect()
        };
        for f in m.functions() {
            for p in f.params.iter().flatten().chain(f.rets.iter().flatten()) {
                n += 1;
                if p.decl.is_none() && !p.text.starts_with(".reg") {
                    missing.push(format!(
                        "{}: {}: parameter {}",
                        path.display(),
                        f.name,
                        p.text
                    ));
                }
            }
            for d in &f.decls {
                let is_var = [".shared", ".local", ".param", ".global", ".const"]
                    .iter()
                    .any(|s| d.text.starts_with(s));
                if is_var && d.var.is_none() {
                    missing.push(format!("{}: {}: {}", path.display(), f.name, d.text));
                }
            }
        }
        for (v, w) in vars(&m).iter().zip(vars(&again)) {
            n += 1;
            match &v.decl {
                None => missing.push(format!("{}: {}", path.display(), v.text)),
                Some(d) => assert_eq!(Some(d), w.decl.as_ref(), "{}: {}", path.display(), v.text),
            }
        }
    }
    assert!(n >= 100, "only {n} module variables");
    assert!(
        missing.is_empty(),
        "{} of {n} unstructured:\n{}",
        missing.len(),
        missing.join("\n")
    );
}

/// A zero offset after a register is printed as written (`[%SP+0]`, what
/// nvcc `-G` and LLVM `-O0` write; ptxas compiles a debug target's
/// `[%SP+0]` and `[%SP]` differently); an address without one stays
/// without, and a symbol's `+0` is dropped as before. Both parser paths
/// (the fast one and the general one, taken after an octal offset) agree.
#[test]
fn a_written_zero_offset_is_kept() {
    let src = ".version 7.0\n.target sm_80, debug\n.address_size 64\n\
        .visible .func (.param .b32 out) f(.param .b32 a)\n{\n\
        \t.local .align 4 .b8 __local_depot0[8];\n\
        \t.reg .b32 %r<3>;\n\
        \t.reg .b64 %SP;\n\
        \t.reg .b64 %SPL;\n\
        \tmov.u64 %SPL, __local_depot0;\n\
        \tcvta.local.u64 %SP, %SPL;\n\
        \tld.param.u32 %r1, [a+0];\n\
        \tst.u32 [%SP+0], %r1;\n\
        \tst.u32 [%SP + 0], %r1;\n\
        \tst.u32 [%SP+04], %r1;\n\
        \tld.u32 %r2, [%SP];\n\
        \tst.param.b32 [out+0], %r2;\n\
        \tret;\n}\n";
    let m = ptx_parse::parse_module(src).unwrap();
    let out = module_to_string(&m);
    assert_eq!(out.matches("+0]").count(), 2, "{out}");
    assert!(out.contains("+4]"), "{out}");
    assert!(out.contains("[a]") && out.contains("[out]"), "{out}");
    assert_eq!(out.matches("st.u32").count(), 3, "{out}");
    let again = module_to_string(&ptx_parse::parse_module(&out).unwrap());
    assert_eq!(out, again);
}
