//! The `.approx`/`.full` float functions (`rcp`, `sqrt`, `rsqrt`, `lg2`,
//! `ex2`, `sin`, `cos`, `tanh`, `div`), which the evaluator models as the
//! correctly rounded value (the hardware is within the ISA's stated bound
//! of it), with `.ftz` flushing subnormal inputs and results and NaN
//! results canonical. Values chosen so the exact result is representable.
//! Then the tags: which output elements the result JSON names as
//! approximate (directly, through moves and memory, or derived), and the
//! comparison with another machine's result that uses them.

mod one_thread;

use serde_json::{json, Value};

fn one(inst: &str, a: u32, b: u32) -> u32 {
    let ptx = format!(
        ".version 7.0\n.target sm_80\n.address_size 64\n\
         .visible .entry k(.param .u64 k_in, .param .u64 k_out)\n{{\n\
         \t.reg .f32 %f<4>;\n\t.reg .b64 %x<4>;\n\
         \tld.param.u64 %x1, [k_in];\n\tld.param.u64 %x2, [k_out];\n\
         \tld.global.f32 %f1, [%x1];\n\tld.global.f32 %f2, [%x1+4];\n\
         \t{inst};\n\tst.global.f32 [%x2], %f3;\n\tret;\n}}\n"
    );
    one_thread::run(inst, &ptx, &[a, b], 1)[0]
}

fn f(x: f32) -> u32 {
    x.to_bits()
}

#[test]
fn exact_cases_of_each_function() {
    assert_eq!(one("ex2.approx.f32 %f3, %f1", f(3.0), 0), f(8.0));
    assert_eq!(one("ex2.approx.ftz.f32 %f3, %f1", f(-2.0), 0), f(0.25));
    assert_eq!(one("lg2.approx.f32 %f3, %f1", f(8.0), 0), f(3.0));
    assert_eq!(
        one("lg2.approx.f32 %f3, %f1", f(0.0), 0),
        f(f32::NEG_INFINITY)
    );
    assert_eq!(one("rsqrt.approx.f32 %f3, %f1", f(4.0), 0), f(0.5));
    assert_eq!(one("rcp.approx.f32 %f3, %f1", f(4.0), 0), f(0.25));
    assert_eq!(one("sqrt.approx.f32 %f3, %f1", f(2.25), 0), f(1.5));
    assert_eq!(one("div.approx.f32 %f3, %f1, %f2", f(3.0), f(4.0)), f(0.75));
    assert_eq!(
        one("div.full.f32 %f3, %f1, %f2", f(1.0), f(3.0)),
        0x3eaa_aaab
    );
    assert_eq!(one("sin.approx.f32 %f3, %f1", f(0.0), 0), f(0.0));
    assert_eq!(one("cos.approx.f32 %f3, %f1", f(0.0), 0), f(1.0));
}

#[test]
fn ftz_and_nan() {
    // The smallest subnormal flushes to +0 under .ftz: 1/+0 = +inf.
    assert_eq!(one("rcp.approx.ftz.f32 %f3, %f1", 1, 0), f(f32::INFINITY));
    // Without .ftz it is 2^-149 and its reciprocal overflows too.
    assert_eq!(one("rcp.approx.f32 %f3, %f1", 1, 0), f(f32::INFINITY));
    // -0 keeps its sign: 1/-0 = -inf; a negative subnormal flushes to -0.
    assert_eq!(
        one("rcp.approx.ftz.f32 %f3, %f1", 0x8000_0001, 0),
        f(f32::NEG_INFINITY)
    );
    // A subnormal result flushes: 2^-130 under .ftz is +0.
    assert_eq!(one("ex2.approx.ftz.f32 %f3, %f1", f(-130.0), 0), 0);
    assert_eq!(
        one("ex2.approx.f32 %f3, %f1", f(-130.0), 0),
        f(2f32.powi(-130))
    );
    // NaN results are the canonical NaN.
    assert_eq!(one("sqrt.approx.f32 %f3, %f1", f(-1.0), 0), 0x7fff_ffff);
    assert_eq!(one("lg2.approx.f32 %f3, %f1", 0x7fc0_1234, 0), 0x7fff_ffff);
}

#[test]
fn tanh_and_sixteen_bit_forms() {
    assert_eq!(one("tanh.approx.f32 %f3, %f1", f(0.0), 0), f(0.0));
    assert_eq!(one("tanh.approx.f32 %f3, %f1", f(-30.0), 0), f(-1.0));
    assert_eq!(
        one("tanh.approx.f32 %f3, %f1", f(0.5), 0),
        f(0.5f64.tanh() as f32)
    );
    let half = |inst: &str, a: u32| {
        let ptx = format!(
            ".version 7.8\n.target sm_90\n.address_size 64\n\
             .visible .entry k(.param .u64 k_in, .param .u64 k_out)\n{{\n\
             \t.reg .b32 %r<4>;\n\t.reg .b64 %x<4>;\n\
             \tld.param.u64 %x1, [k_in];\n\tld.param.u64 %x2, [k_out];\n\
             \tld.global.b32 %r1, [%x1];\n\t{inst};\n\
             \tst.global.b32 [%x2], %r2;\n\tret;\n}}\n"
        );
        one_thread::run(inst, &ptx, &[a], 1)[0]
    };
    // f16 3.0 (0x4200) and -1.0 (0xbc00): 2^3 = 8 (0x4800), 2^-1 = 0.5 (0x3800).
    assert_eq!(half("ex2.approx.f16x2 %r2, %r1", 0xbc00_4200), 0x3800_4800);
    // bf16 2.0 (0x4000) and 0: 4.0 (0x4080) and 1.0 (0x3f80).
    assert_eq!(
        half("ex2.approx.ftz.bf16x2 %r2, %r1", 0x0000_4000),
        0x3f80_4080
    );
    // .ftz on bf16: 2^-130 (subnormal 0x0008) in is 0, so 2^0 = 1.0 out;
    // 2^-130 out (from -130.0 = 0xc302) flushes to 0.
    assert_eq!(
        half("ex2.approx.ftz.bf16x2 %r2, %r1", 0xc302_0008),
        0x0000_3f80
    );
    // tanh of f16 0 and of a large value: 0 and 1.0 (0x3c00).
    assert_eq!(half("tanh.approx.f16x2 %r2, %r1", 0x4d00_0000), 0x3c00_0000);
}

#[test]
fn div_approx_gives_zero_for_a_divisor_past_2_pow_126() {
    let big = f(2f32.powi(127));
    assert_eq!(one("div.approx.f32 %f3, %f1, %f2", f(3.0), big), 0);
    assert_eq!(
        one("div.approx.f32 %f3, %f1, %f2", f(-3.0), big),
        0x8000_0000
    );
    assert_eq!(
        one("div.approx.f32 %f3, %f1, %f2", f(f32::INFINITY), big),
        0x7fff_ffff
    );
    // div.full scales its operands: the quotient is right.
    assert_eq!(
        one("div.full.f32 %f3, %f1, %f2", f(3.0), big),
        f(3.0 * 2f32.powi(-127))
    );
}

/// A kernel over four threads that stores, per thread: `sin(x)` through a
/// `mov` and a round trip through local memory to `y`; `ex2(x) + 1` to `z`
/// (derived); an exact `x * 2` over an earlier approximate store to `w`;
/// and shared memory holding `rsqrt(x)` read back by another thread to `v`.
const TAGGED: &str = r#".version 8.0
.target sm_80
.address_size 64
.visible .entry k(.param .u64 px, .param .u64 py, .param .u64 pz, .param .u64 pw, .param .u64 pv)
{
  .reg .pred %p<2>;
  .reg .b32 %r<4>;
  .reg .f32 %f<10>;
  .reg .b64 %rd<12>;
  .local .align 4 .b8 spill[4];
  .shared .align 4 .b8 sh[16];
  ld.param.u64 %rd1, [px];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd4, %r1, 4;
  add.s64 %rd5, %rd1, %rd4;
  ld.global.f32 %f1, [%rd5];
  sin.approx.f32 %f2, %f1;
  mov.f32 %f3, %f2;
  st.local.f32 [spill], %f3;
  ld.local.f32 %f4, [spill];
  ld.param.u64 %rd2, [py];
  add.s64 %rd6, %rd2, %rd4;
  st.global.f32 [%rd6], %f4;
  ex2.approx.ftz.f32 %f5, %f1;
  add.f32 %f6, %f5, 0f3F800000;
  ld.param.u64 %rd3, [pz];
  add.s64 %rd7, %rd3, %rd4;
  st.global.f32 [%rd7], %f6;
  ld.param.u64 %rd8, [pw];
  add.s64 %rd9, %rd8, %rd4;
  st.global.f32 [%rd9], %f5;
  mul.f32 %f7, %f1, 0f40000000;
  st.global.f32 [%rd9], %f7;
  rsqrt.approx.f32 %f8, %f1;
  mov.u32 %r2, sh;
  mul.lo.u32 %r3, %r1, 4;
  add.u32 %r2, %r2, %r3;
  st.shared.f32 [%r2], %f8;
  bar.sync 0;
  xor.b32 %r3, %r3, 4;
  mov.u32 %r2, sh;
  add.u32 %r2, %r2, %r3;
  ld.shared.f32 %f9, [%r2];
  ld.param.u64 %rd10, [pv];
  add.s64 %rd11, %rd10, %rd4;
  st.global.f32 [%rd11], %f9;
  ret;
}
"#;

fn tagged_case() -> String {
    json!({"block": [4], "buffers": {
        "x": {"type": "f32", "data": [0.5, 1.0, 2.0, 4.0]},
        "y": {"type": "f32", "zeros": 4}, "z": {"type": "f32", "zeros": 4},
        "w": {"type": "f32", "zeros": 4}, "v": {"type": "f32", "zeros": 4}},
        "params": [{"buffer": "x"}, {"buffer": "y"}, {"buffer": "z"},
                   {"buffer": "w"}, {"buffer": "v"}]})
    .to_string()
}

fn tagged_run() -> Value {
    let module = ptx_parse::parse_module(TAGGED).unwrap();
    ptx_eval::case::run_case(&module, &tagged_case(), 1 << 20).unwrap()
}

#[test]
fn the_result_names_approximate_elements_and_how_they_were_computed() {
    let r = tagged_run();
    let approx = &r["approx"];
    // sin through mov, local memory and a load: still sin's direct result.
    assert_eq!(
        approx["y"],
        json!([{"first": 0, "count": 4, "op": "sin.approx.f32",
                "bound": {"absolute": 2f64.powf(-20.5), "log2": -20.5}}])
    );
    // ex2 + 1: derived, no bound.
    assert_eq!(
        approx["z"],
        json!([{"first": 0, "count": 4, "derived": true}])
    );
    // The exact store over ex2's result clears the tag.
    assert!(approx.get("w").is_none(), "{approx}");
    // rsqrt through shared memory, read by the neighbouring thread.
    assert_eq!(approx["v"][0]["op"], json!("rsqrt.approx.f32"));
    assert_eq!(approx["v"][0]["count"], json!(4));
    // The input buffer is untouched.
    assert!(approx.get("x").is_none());
    // A module without approximate instructions says nothing.
    let exact = TAGGED
        .replace("sin.approx.f32 %f2, %f1", "neg.f32 %f2, %f1")
        .replace("ex2.approx.ftz.f32 %f5, %f1", "abs.f32 %f5, %f1")
        .replace("rsqrt.approx.f32 %f8, %f1", "neg.f32 %f8, %f1");
    let module = ptx_parse::parse_module(&exact).unwrap();
    let r = ptx_eval::case::run_case(&module, &tagged_case(), 1 << 20).unwrap();
    assert!(r.get("approx").is_none(), "{r}");
}

#[test]
fn comparison_holds_approximate_elements_to_their_bound_only() {
    let ours = tagged_run();
    let compare =
        |theirs: &Value| ptx_eval::compare::compare(&tagged_case(), &ours, theirs).unwrap();
    let same = compare(&ours);
    assert_eq!(
        (
            same.exact,
            same.within_bound,
            same.not_compared,
            same.differences.len()
        ),
        (8, 8, 4, 0)
    );
    let mut theirs = ours.clone();
    let bump = |v: &mut Value, by: f64| *v = json!(v.as_f64().unwrap() + by);
    // sin off by 2^-21 (bound 2^-20.5); rsqrt one part in 2^24 (2^-22.9);
    // the derived ex2 + 1 by a lot: all accepted.
    bump(&mut theirs["buffers"]["y"][1], 2f64.powi(-21));
    let v0 = theirs["buffers"]["v"][0].as_f64().unwrap();
    bump(&mut theirs["buffers"]["v"][0], v0 * 2f64.powi(-24));
    bump(&mut theirs["buffers"]["z"][2], 0.5);
    let near = compare(&theirs);
    assert!(near.differences.is_empty(), "{:?}", near.differences);
    // Past the bound, or any change to an exact element, is a difference.
    bump(&mut theirs["buffers"]["y"][2], 2f64.powi(-18));
    bump(&mut theirs["buffers"]["w"][0], 2f64.powi(-20));
    let far = compare(&theirs);
    assert_eq!(far.differences.len(), 2, "{:?}", far.differences);
    assert!(
        far.differences[0].contains("'w' element 0"),
        "{:?}",
        far.differences
    );
    assert!(
        far.differences[1].contains("sin.approx.f32"),
        "{:?}",
        far.differences
    );
}
