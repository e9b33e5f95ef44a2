//! Every corpus and hand-written file parses, verifies, prints idempotently
//! and leaves SSA without a single copy (freshly built SSA is conventional).

use ptx_ir::regalloc;
use ptx_ir::verify::verify_function;
use ptx_ir::write::module_to_string;
use std::path::{Path, PathBuf};

fn ptx_files() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let mut files = Vec::new();
    for dir in ["corpus/llc", "corpus/stress", "forms"] {
        for e in std::fs::read_dir(root.join(dir)).unwrap() {
            let p = e.unwrap().path();
            if p.extension().is_some_and(|x| x == "ptx") {
                files.push(p);
            }
        }
    }
    files.sort();
    assert!(
        files.len() > 90,
        "corpus went missing: {} files",
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
