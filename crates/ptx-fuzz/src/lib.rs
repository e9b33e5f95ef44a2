//! Bodies of the fuzz targets. `fuzz/fuzz_targets/*.rs` (cargo-fuzz,
//! libFuzzer) call these, and `tests/replay.rs` runs every input of the
//! committed corpora through them on stable Rust, so CI replays what the
//! fuzzers found without a nightly toolchain.
//!
//! Each function accepts any bytes. It returns normally when ptx-opt
//! behaved (a result, or a clean error), and panics when it did not: a
//! panic inside ptx-opt, an out-of-range diagnostic, a round trip that
//! changes the module, a pass the evaluator catches changing a program.
#![deny(missing_docs)]

use ptx_eval::case::run_case_with;
use ptx_eval::Limits;
use ptx_opt::{process_sequential, process_with, Config};
use ptx_passes::manager::Instrumentation;
use ptx_passes::registry::PASSES;

/// A target's body: any bytes in, a panic on a finding.
pub type Body = fn(&[u8]);

/// The fuzz targets, by name: (name, body).
pub const TARGETS: &[(&str, Body)] = &[
    ("parse", parse),
    ("roundtrip", roundtrip),
    ("pipeline", pipeline),
    ("filecheck", filecheck),
    ("ptx-eval", eval),
];

/// Arbitrary bytes through the whole front end (UTF-8 check, lexer,
/// parser, SSA, verifier, printer): a module, or a diagnostic located
/// inside the input that renders.
pub fn parse(data: &[u8]) {
    if let Err(d) = process_sequential(data) {
        assert!(
            d.pos <= data.len(),
            "diagnostic at byte {} of a {}-byte input: {}",
            d.pos,
            data.len(),
            d.message
        );
        let shown = d.render("fuzz.ptx", data);
        assert!(shown.starts_with("fuzz.ptx:"), "unlocated: {shown}");
    }
}

/// A module that parses prints to text that parses, and printing that
/// again gives the same bytes: the printed form is a fixed point.
pub fn roundtrip(data: &[u8]) {
    let Ok(first) = process_sequential(data) else {
        return;
    };
    match process_sequential(first.as_bytes()) {
        Ok(second) => assert!(
            first == second,
            "printing is not idempotent:\n--- first\n{first}\n--- second\n{second}"
        ),
        Err(d) => panic!(
            "printed PTX does not parse: {}\n{first}",
            d.render("printed.ptx", first.as_bytes())
        ),
    }
}

/// A generated program (`ptx_eval::gen::program_from_bytes`, steered by
/// all bytes but the first) through one pipeline chosen by the first
/// byte: `-O2`, or a single registered pass. The verifier runs after each
/// pass and the evaluator compares each pass's input and output on four
/// random launches; any finding fails.
pub fn pipeline(data: &[u8]) {
    let Some((&choice, script)) = data.split_first() else {
        return;
    };
    let src = ptx_eval::gen::program_from_bytes(script);
    let passes = match choice as usize % (PASSES.len() + 1) {
        0 => ptx_passes::pipeline::resolve(&[ptx_passes::pipeline::Element::Pass {
            name: "default".into(),
            params: vec!["O2".into()],
        }])
        .expect("-O2 names passes"),
        k => vec![(&PASSES[k - 1], vec![])],
    };
    // The lowering passes act only below some targets: vary it.
    const SMS: [&str; 4] = ["sm_90", "sm_75", "sm_52", "sm_30"];
    let cfg = Config {
        passes,
        instrumentation: Instrumentation {
            check_each: Some(ptx_opt::check_each(4)),
            verify_each: true,
            ..Default::default()
        },
        target: Some(SMS[(choice as usize / 16) % SMS.len()].to_string()),
        ..Default::default()
    };
    match process_with(src.as_bytes(), &cfg) {
        Ok(_) => {}
        // A module using what the chosen (lower) target lacks: refused,
        // and said so at the instruction.
        Err((ptx_opt::Error::Source(d), _)) if d.message.contains("run -passes=legalize") => {}
        Err((e, log)) => panic!("{e:?}\n{log}\n{src}"),
    }
}

/// A check file and an input, split at the first NUL byte (the first
/// byte picks options), give a FileCheck verdict: any exit status, never
/// a panic.
pub fn filecheck(data: &[u8]) {
    let Some((&flags, rest)) = data.split_first() else {
        return;
    };
    let (check, input) = match rest.iter().position(|&b| b == 0) {
        Some(k) => (&rest[..k], &rest[k + 1..]),
        None => (rest, &[][..]),
    };
    let (Ok(check), Ok(input)) = (std::str::from_utf8(check), std::str::from_utf8(input)) else {
        return;
    };
    let opts = filecheck::Options {
        match_full_lines: flags & 1 != 0,
        strict_whitespace: flags & 2 != 0,
        ignore_case: flags & 4 != 0,
        allow_empty: flags & 8 != 0,
        enable_var_scope: flags & 16 != 0,
        implicit_check_not: if flags & 32 != 0 {
            vec!["error".to_string()]
        } else {
            vec![]
        },
        check_prefixes: if flags & 64 != 0 {
            vec!["CHECK".to_string(), "ALT".to_string()]
        } else {
            vec![]
        },
        ..Default::default()
    };
    let out = filecheck::run("check.txt", check, "input.txt", input, &opts);
    assert!(
        out.code <= 2,
        "exit status {} out of FileCheck's range",
        out.code
    );
}

/// The evaluator's limits for the `ptx-eval` target: enough for the seed
/// kernels, small enough that any input ends in milliseconds and well
/// inside libFuzzer's 2 GB memory limit.
pub const EVAL_LIMITS: Limits = Limits {
    steps: 1 << 20,
    memory: 256 << 20,
    ctas: 4096,
};

/// A PTX module and a case, split at the first NUL byte, through the
/// evaluator (as `ptx-eval FILE --case CASE` runs them): a result or an
/// error, never a panic, and bounded work (the step limit, the memory and
/// grid limits).
pub fn eval(data: &[u8]) {
    let k = data.iter().position(|&b| b == 0).unwrap_or(data.len());
    let (ptx, case) = (&data[..k], data.get(k + 1..).unwrap_or(&[]));
    let Ok(case) = std::str::from_utf8(case) else {
        return;
    };
    let Ok(module) = ptx_parse::parse_bytes(ptx) else {
        return;
    };
    let _ = run_case_with(&module, case, &EVAL_LIMITS, 0);
}
