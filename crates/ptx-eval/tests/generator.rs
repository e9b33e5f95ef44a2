//! The program generator: deterministic, and every program runs to
//! completion on every random launch (so `--check-each` compares them all,
//! and skips none).

#[test]
fn programs_are_deterministic_and_differ_by_seed() {
    assert_eq!(ptx_eval::gen::program(5), ptx_eval::gen::program(5));
    assert_ne!(ptx_eval::gen::program(5), ptx_eval::gen::program(6));
}

#[test]
fn every_launch_of_every_program_runs() {
    let mut families = std::collections::BTreeSet::new();
    for seed in 0..200 {
        let src = ptx_eval::gen::program(seed);
        let m = ptx_parse::parse_module(&src)
            .unwrap_or_else(|d| panic!("{}\n{src}", d.render("gen", src.as_bytes())));
        let f = m.functions().next().unwrap();
        for i in f.layout.blocks().flat_map(|b| f.layout.block_insts(b)) {
            families.insert(f.op(i).mnemonic.to_string());
        }
        let compared = ptx_eval::check::check_function(&m.items, f, f, 8).unwrap();
        assert_eq!(
            compared, 8,
            "program {seed} could not run every launch:\n{src}"
        );
    }
    for needed in [
        "lop3",
        "vote",
        "activemask",
        "set",
        "setp",
        "selp",
        "vsub2",
        "bra",
        "mad",
        "shr",
    ] {
        assert!(
            families.contains(needed),
            "no {needed} in 200 programs: {families:?}"
        );
    }
}
