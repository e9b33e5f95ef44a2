//! Every registered pass, in one pipeline, with `--check-each` on 1,000
//! generated programs (`ptx_eval::gen`, fixed seeds): the evaluator must
//! find no launch on which a pass changes what a kernel stores.

use ptx_opt::{process_with, Config};
use ptx_passes::manager::Instrumentation;
use ptx_passes::registry::PASSES;

#[test]
fn every_pass_preserves_generated_programs() {
    let passes: Vec<_> = PASSES.iter().map(|p| (p, vec![])).collect();
    let mut changed = 0;
    for seed in 0..1000u64 {
        let src = ptx_eval::gen::program(seed);
        let cfg = Config {
            passes: passes.clone(),
            instrumentation: Instrumentation {
                check_each: Some(ptx_opt::check_each(4)),
                verify_each: true,
                ..Default::default()
            },
            ..Default::default()
        };
        match process_with(src.as_bytes(), &cfg) {
            Ok(out) => changed += (out.text.lines().count() != src.lines().count()) as u32,
            Err((e, _)) => panic!("program {seed}: {e:?}\n{src}"),
        }
    }
    // The passes must have had something to do.
    assert!(changed > 100, "only {changed} of 1000 programs changed");
}
