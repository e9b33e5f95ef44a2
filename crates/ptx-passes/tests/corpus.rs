//! Every registered pass on every corpus and hand-written file: the result
//! verifies, and a pass that claims idempotence changes nothing when run a
//! second time.

use ptx_passes::{registry, AnalysisManager};
use std::path::{Path, PathBuf};

fn files() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../ptx-parse/tests");
    let mut v = Vec::new();
    for dir in ["corpus/llc", "corpus/stress", "forms"] {
        for e in std::fs::read_dir(root.join(dir)).unwrap() {
            let p = e.unwrap().path();
            if p.extension().is_some_and(|x| x == "ptx") {
                v.push(p);
            }
        }
    }
    v.sort();
    assert!(v.len() > 90);
    v
}

#[test]
fn every_pass_keeps_the_corpus_valid_and_is_idempotent() {
    for path in files() {
        let src = std::fs::read_to_string(&path).unwrap();
        for info in registry::PASSES {
            let mut m = ptx_parse::parse_module(&src).unwrap();
            for f in m.functions_mut().filter(|f| f.has_body) {
                let mut pass = (info.create)(&[]);
                let mut am = AnalysisManager::new();
                pass.run(f, &mut am);
                let errs = ptx_ir::verify::verify_function(f);
                assert!(
                    errs.is_empty(),
                    "{} after {}: {}: {errs:?}",
                    path.display(),
                    info.name,
                    f.name
                );
                if info.idempotent {
                    let before = ptx_ir::write::module_to_string(&ptx_ir::Module {
                        items: vec![ptx_ir::Item::Func(Box::new(f.clone()))],
                    });
                    let mut again = (info.create)(&[]);
                    let p = again.run(f, &mut AnalysisManager::new());
                    let after = ptx_ir::write::module_to_string(&ptx_ir::Module {
                        items: vec![ptx_ir::Item::Func(Box::new(f.clone()))],
                    });
                    assert!(
                        !p.changed() && before == after,
                        "{} is not idempotent on {}: {}",
                        info.name,
                        path.display(),
                        f.name
                    );
                }
            }
            // The transformed module still prints to PTX that parses and
            // verifies.
            let text = ptx_ir::write::module_to_string(&m);
            let back = ptx_parse::parse_module(&text).unwrap_or_else(|d| {
                panic!(
                    "{} after {}: {}",
                    path.display(),
                    info.name,
                    d.render("out", text.as_bytes())
                )
            });
            for f in back.functions() {
                assert!(ptx_ir::verify::verify_function(f).is_empty());
            }
        }
    }
}
