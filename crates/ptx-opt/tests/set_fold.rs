//! `set-fold`, rewrite by rewrite, in the evaluator: each pattern kernel
//! runs before and after the pass (plus `dce`) on every pair of edge
//! values (0, ±1, min, max, NaN, ±0.0, ±inf, denormals, …) with the `c`
//! predicate both ways, and on random words; the stored results must be
//! identical, and the pass must have removed instructions where a fold is
//! expected (so a pass that does nothing fails).

use ptx_opt::{process_with, Config};
use ptx_passes::registry::lookup;
use serde_json::json;

const EDGES: [u32; 16] = [
    0,
    1,
    2,
    0xffff_ffff, // -1
    0x8000_0000, // INT_MIN, -0.0
    0x7fff_ffff, // INT_MAX
    0x7fc0_0000, // quiet NaN
    0x7f80_0001, // signalling NaN
    0x3f80_0000, // 1.0
    0xbf80_0000, // -1.0
    0x7f80_0000, // +inf
    0xff80_0000, // -inf
    0x0000_0003, // denormal
    0x8000_0001, // negative denormal
    0x0080_0000, // smallest normal
    0xffff_0000,
];

/// A kernel: thread t reads a, b, c (words 3t..3t+2), `%p9` = c odd, runs
/// `body` (which writes %r20..%r23) and stores those four words.
fn kernel(body: &str) -> String {
    format!(
        ".version 7.8\n.target sm_90\n.address_size 64\n\
         .visible .entry k(.param .u64 pin, .param .u64 pout)\n{{\n\
         .reg .pred %p<10>;\n.reg .b32 %r<30>;\n.reg .f32 %f<10>;\n.reg .b64 %rd<8>;\n.reg .b16 %rs<4>;\n.reg .b16 %h<10>;\n\
         ld.param.u64 %rd1, [pin];\nld.param.u64 %rd2, [pout];\nmov.u32 %r10, %tid.x;\n\
         mul.wide.u32 %rd3, %r10, 12;\nadd.s64 %rd4, %rd1, %rd3;\n\
         ld.global.u32 %r1, [%rd4];\nld.global.u32 %r2, [%rd4+4];\nld.global.u32 %r3, [%rd4+8];\n\
         and.b32 %r11, %r3, 1;\nsetp.ne.u32 %p9, %r11, 0;\n\
         mov.u32 %r20, 0;\nmov.u32 %r21, 0;\nmov.u32 %r22, 0;\nmov.u32 %r23, 0;\n\
         {body}\n\
         mul.wide.u32 %rd5, %r10, 16;\nadd.s64 %rd6, %rd2, %rd5;\n\
         st.global.v4.u32 [%rd6], {{%r20, %r21, %r22, %r23}};\nret;\n}}\n"
    )
}

/// Half-precision edge values (f16 unless noted), in the low 16 bits.
const EDGES16: [u32; 16] = [
    0, 1, 0x8000, 0x7e00, 0x7c01, 0x3c00, 0xbc00, 0x7c00, 0xfc00, 0x0001, 0x8001, 0x0400, 0x7bff,
    0xffff, 0x3f80, // bf16 1.0
    0x7fc0, // bf16 NaN
];

fn inputs() -> Vec<u32> {
    inputs_from(&EDGES)
}

fn inputs_from(edges: &[u32; 16]) -> Vec<u32> {
    let mut v = Vec::new();
    for &a in edges {
        for &b in edges {
            for c in [0u32, 1] {
                v.extend([a, b, c]);
            }
        }
    }
    // Random words as well.
    let mut x = 0x2545_F491_4F6C_DD1Du64;
    for _ in 0..512 * 3 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        v.push(x as u32);
    }
    v
}

fn run(ptx: &str, data: &[u32]) -> serde_json::Value {
    let module = ptx_parse::parse_module(ptx).unwrap_or_else(|d| panic!("{d:?}\n{ptx}"));
    let n = data.len() / 3;
    let case = json!({
        "grid": [n / 256, 1, 1], "block": [256, 1, 1],
        "buffers": {"in": {"type": "u32", "data": data}, "out": {"type": "u32", "zeros": n * 4}},
        "params": [{"buffer": "in"}, {"buffer": "out"}]
    });
    ptx_eval::case::run_case(&module, &case.to_string(), 1 << 32)
        .unwrap_or_else(|e| panic!("{e}\n{ptx}"))["buffers"]["out"]
        .clone()
}

fn count(ptx: &str) -> usize {
    ptx.lines()
        .filter(|l| {
            l.starts_with('\t') && !l.trim_start().starts_with('.') && l.trim_end().ends_with(';')
        })
        .count()
}

/// Checks `body` before and after; `folds` says whether the pass must
/// shrink it. Returns the output for FileCheck-like inspection.
fn check(body: &str, folds: bool) -> String {
    check_on(body, folds, &inputs())
}

fn check_on(body: &str, folds: bool, data: &[u32]) -> String {
    let src = kernel(body);
    let mut cfg = Config::default();
    for p in ["set-fold", "dce"] {
        cfg.passes.push((lookup(p).unwrap(), Vec::new()));
    }
    cfg.instrumentation.verify_each = true;
    let out = process_with(src.as_bytes(), &cfg)
        .unwrap_or_else(|(e, _)| panic!("{e:?}\n{src}"))
        .text;
    assert_eq!(
        run(&src, data),
        run(&out, data),
        "results differ:\n{src}\n--- after ---\n{out}"
    );
    let mut dce_only = Config::default();
    dce_only.passes.push((lookup("dce").unwrap(), Vec::new()));
    let plain = process_with(src.as_bytes(), &dce_only).unwrap().text;
    if folds {
        assert!(count(&out) < count(&plain), "nothing folded:\n{out}");
    } else {
        assert_eq!(count(&out), count(&plain), "must not fold:\n{out}");
    }
    out
}

const INT_CMPS: &[(&str, &[&str])] = &[
    ("s32", &["eq", "ne", "lt", "le", "gt", "ge"]),
    (
        "u32",
        &["eq", "ne", "lt", "le", "gt", "ge", "lo", "ls", "hi", "hs"],
    ),
    ("b32", &["eq", "ne"]),
];
const FLOAT_CMPS: &[&str] = &[
    "eq", "ne", "lt", "le", "gt", "ge", "equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan",
];

/// Every comparison the tests cover: (cmp with `.ftz` if any, type).
fn comparisons() -> Vec<(String, &'static str)> {
    let mut v = Vec::new();
    for (ty, cmps) in INT_CMPS {
        for c in *cmps {
            v.push((c.to_string(), *ty));
        }
    }
    for c in FLOAT_CMPS {
        v.push((c.to_string(), "f32"));
        v.push((format!("{c}.ftz"), "f32"));
    }
    v
}

/// `set` → arithmetic → `setp.ne/eq 0` → guard and select: the chain
/// folds to the comparison (or its complement, NaN-exact).
#[test]
fn set_chains_fold_to_predicates() {
    for (c, ty) in comparisons() {
        check(
            &format!(
                "set.{c}.u32.{ty} %r4, %r1, %r2;\nneg.s32 %r5, %r4;\nsetp.ne.s32 %p1, %r5, 0;\n\
                 @%p1 mov.u32 %r20, 7;\nselp.b32 %r21, %r1, %r2, %p1;"
            ),
            true,
        );
        check(
            &format!(
                "set.{c}.f32.{ty} %r4, %r1, %r2;\nsetp.eq.s32 %p1, %r4, 0;\n\
                 selp.b32 %r20, %r1, %r2, %p1;\n@%p1 mov.u32 %r21, 9;"
            ),
            true,
        );
        // With a BoolOp and c / !c.
        for (b, q) in [("and", "%p9"), ("or", "!%p9"), ("xor", "%p9")] {
            check(
                &format!(
                    "set.{c}.{b}.s32.{ty} %r4, %r1, %r2, {q};\nsetp.eq.s32 %p1, %r4, 0;\n\
                     selp.b32 %r20, 5, 6, %p1;\nst.global.u32 [%rd4], %r20;"
                ),
                true,
            );
        }
    }
}

/// A `set` of another `set`'s result against an immediate: a constant
/// or the inner set itself. `set.eq(set.ne(a, b), 1)` is the pattern
/// ptxas 13.0 miscompiles (the GPU cross-check found it).
#[test]
fn set_of_set_folds() {
    for (c, ty) in comparisons() {
        for dty in ["u32", "s32", "f32"] {
            // Integer sets: `ne 0` and `eq -1` repeat the inner set, `eq 1`
            // and `gt 5` are constants. A 1.0/0.0 set is never 1 or -1
            // (constants again, the count unchanged); `gt 5` stays.
            let int = dty != "f32";
            let out = check(
                &format!(
                    "set.{c}.{dty}.{ty} %r4, %r1, %r2;\nset.eq.u32.s32 %r20, %r4, 1;\n\
                     set.eq.u32.s32 %r21, %r4, -1;\nset.ne.u32.u32 %r22, %r4, 0;\n\
                     set.gt.u32.s32 %r23, %r4, 5;"
                ),
                int,
            );
            let against_imm = |l: &&str| l.contains("\tset.") && l.trim_end().ends_with("1;");
            assert_eq!(out.lines().filter(against_imm).count(), 0, "{out}");
            if int {
                assert_eq!(out.matches("\tset.").count(), 1, "{out}");
            }
        }
    }
}

/// LLVM's `setp` + `selp -1, 0` (and `0, -1`, `1.0, 0.0`) becomes `set`.
#[test]
fn setp_selp_pairs_become_set() {
    for (c, ty) in comparisons() {
        let out = check(
            &format!("setp.{c}.{ty} %p1, %r1, %r2;\nselp.b32 %r20, -1, 0, %p1;"),
            true,
        );
        assert!(out.contains("\tset."), "{out}");
        check(
            &format!("setp.{c}.{ty} %p1, %r1, %r2;\nselp.b32 %r20, 0, -1, %p1;"),
            true,
        );
        check(
            &format!("setp.{c}.or.{ty} %p1, %r1, %r2, !%p9;\nselp.f32 %f1, 0f00000000, 0f3F800000, %p1;\nmov.b32 %r20, %f1;"),
            true,
        );
    }
}

/// `and`/`or`/`xor` of two sets, `not` of a set.
#[test]
fn set_logic_folds() {
    for (c, ty) in comparisons() {
        for op in ["and", "or", "xor"] {
            check(
                &format!(
                    "set.{c}.u32.{ty} %r4, %r1, %r2;\nset.ne.u32.s32 %r5, %r3, 0;\n{op}.b32 %r20, %r4, %r5;"
                ),
                true,
            );
            check(
                &format!(
                    "set.{c}.f32.{ty} %r4, %r1, %r2;\nset.lt.xor.f32.s32 %r5, %r3, %r2, %p9;\n{op}.b32 %r20, %r5, %r4;"
                ),
                true,
            );
        }
        check(
            &format!("set.{c}.u32.{ty} %r4, %r1, %r2;\nnot.b32 %r20, %r4;"),
            true,
        );
        check(
            &format!("set.{c}.and.s32.{ty} %r4, %r1, %r2, !%p9;\nnot.b32 %r20, %r4;"),
            true,
        );
    }
}

/// Constant selects feeding arithmetic, selects of selects, equal arms,
/// `slct` with an immediate selector.
#[test]
fn select_rules() {
    check(
        "setp.lt.s32 %p1, %r1, %r2;\nselp.b32 %r4, 1, 0, %p1;\nmul.lo.s32 %r5, %r4, 12;\nadd.s32 %r6, %r5, 3;\n\
         shl.b32 %r20, %r6, 2;\ncvt.u64.u32 %rd7, %r6;\ncvt.u32.u64 %r21, %rd7;\nxor.b32 %r22, %r4, -1;",
        true,
    );
    check(
        "setp.lt.s32 %p1, %r1, %r2;\nselp.b32 %r4, %r3, %r2, %p1;\nselp.b32 %r20, %r4, %r1, %p1;\n\
         selp.b32 %r21, %r1, %r4, %p1;\nselp.b32 %r22, 7, 7, %p9;",
        true,
    );
    for k in ["-5", "0", "2147483647", "-2147483648"] {
        check(&format!("slct.u32.s32 %r20, %r1, %r2, {k};"), true);
    }
    for k in [
        "0f80000000",
        "0f7FC00000",
        "0f80000001",
        "0fBF800000",
        "0f00000000",
    ] {
        check(&format!("slct.u32.f32 %r20, %r1, %r2, {k};"), true);
        check(&format!("slct.ftz.u32.f32 %r20, %r1, %r2, {k};"), true);
    }
}

/// Nothing may fold: guarded instructions, values read elsewhere, a
/// negation some user cannot absorb, f16 sources.
#[test]
fn what_must_not_fold() {
    // A guarded set and a guarded user.
    check(
        "@%p9 set.lt.u32.s32 %r20, %r1, %r2;\nsetp.ne.s32 %p1, %r20, 0;\n@%p1 mov.u32 %r21, 1;",
        false,
    );
    check(
        "set.lt.u32.s32 %r4, %r1, %r2;\n@%p9 neg.s32 %r20, %r4;",
        false,
    );
    // The set's value is also stored, so its neg user is no gain.
    check("set.lt.u32.s32 %r20, %r1, %r2;\nneg.s32 %r21, %r20;", false);
    // setp.eq of a set whose predicate is stored through selp with a
    // register arm takes the negation for free; stored as a number it
    // cannot.
    check("set.ltu.u32.f32 %r4, %r1, %r2;\nsetp.eq.s32 %p1, %r4, 0;\nselp.u32 %r5, 1, 0, %p1;\nst.global.u32 [%rd4], %r5;\nst.global.u32 [%rd4+4], %r4;", false);
    // selp of selps on different predicates.
    check(
        "setp.lt.s32 %p1, %r1, %r2;\nselp.b32 %r4, %r3, %r2, %p9;\nselp.b32 %r20, %r4, %r1, %p1;",
        false,
    );
}

/// f16 and bf16 sources and destinations, on half-precision edge values.
#[test]
fn half_precision_sets_fold() {
    let data = inputs_from(&EDGES16);
    let load = "cvt.u16.u32 %h1, %r1;\ncvt.u16.u32 %h2, %r2;\n";
    for ty in ["f16", "bf16"] {
        for c in FLOAT_CMPS {
            for ftz in ["", ".ftz"] {
                if ty == "bf16" && !ftz.is_empty() {
                    continue;
                }
                // (No `set` writes f32 from a half-precision source.)
                for dt in ["u32", "s32", "u16", "s16", ty] {
                    check_on(
                        &format!(
                            "{load}set.{c}{ftz}.{dt}.{ty} %r4, %h1, %h2;\nsetp.eq.{w} %p1, %r4, 0;\n\
                             selp.b32 %r20, %r1, %r2, %p1;",
                            w = if dt.ends_with("32") { "s32" } else { "b16" },
                        )
                        .replace("%r4", if dt.ends_with("32") { "%r4" } else { "%h4" }),
                        true,
                        &data,
                    );
                }
                let one = if ty == "f16" { "0x3c00" } else { "0x3f80" };
                for (t, f) in [(one, "0"), ("0", one), ("-1", "0")] {
                    let out = check_on(
                        &format!("{load}setp.{c}{ftz}.{ty} %p1, %h1, %h2;\nselp.b16 %h3, {t}, {f}, %p1;\nxor.b16 %h4, %h3, %h2;\ncvt.u32.u16 %r20, %h4;"),
                        true,
                        &data,
                    );
                    assert!(out.contains("\tset."), "{out}");
                }
            }
        }
    }
}

/// The complement of a -1/0 mask in every spelling LLVM and nvcc write
/// (`not`, `xor` with `-1` either way round or as `0xffffffff`), of a
/// `set` or of LLVM's `setp` + `selp -1, 0`, with each `.BoolOp` (De
/// Morgan: `!(t and c)` is `!t or !c`, floats by the unordered
/// complement): each becomes one `set`, bit-exact on the edge values (NaN,
/// ±0, ±inf, INT_MIN, …) with `c` both ways.
#[test]
fn negation_spellings_fold_to_one_set() {
    let negations = [
        "not.b32 %r20, %r4;",
        "xor.b32 %r20, %r4, -1;",
        "xor.b32 %r20, -1, %r4;",
        "xor.b32 %r20, %r4, 0xffffffff;",
    ];
    for (c, ty) in comparisons() {
        for bool_op in ["", ".and", ".or", ".xor"] {
            let q = match bool_op {
                "" => "",
                ".or" => ", !%p9",
                _ => ", %p9",
            };
            let sources = [
                format!("set.{c}{bool_op}.u32.{ty} %r4, %r1, %r2{q};"),
                format!("set.{c}{bool_op}.s32.{ty} %r4, %r1, %r2{q};"),
                format!("setp.{c}{bool_op}.{ty} %p1, %r1, %r2{q};\nselp.b32 %r4, -1, 0, %p1;"),
            ];
            for src in &sources {
                for neg in negations {
                    let out = check(&format!("{src}\n{neg}"), true);
                    let body: Vec<&str> = out
                        .lines()
                        .filter(|l| l.contains("\t%r20,") && !l.contains("mov.u32"))
                        .collect();
                    assert!(
                        body.len() == 1 && body[0].contains("\tset."),
                        "not one set:\n{out}"
                    );
                }
            }
        }
    }
}

/// A negation that must stay: the set is read elsewhere too, `xor` with
/// another constant, a 1.0/0.0 set.
#[test]
fn negations_that_must_stay() {
    check(
        "set.lt.u32.s32 %r4, %r1, %r2;\nxor.b32 %r20, %r4, -1;\nst.global.u32 [%rd4], %r4;",
        false,
    );
    check(
        "set.lt.u32.s32 %r4, %r1, %r2;\nxor.b32 %r20, %r4, -2;",
        false,
    );
    check(
        "set.lt.f32.s32 %r4, %r1, %r2;\nxor.b32 %r20, %r4, -1;",
        false,
    );
}
