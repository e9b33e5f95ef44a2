//! Regression tests for what the GPU cross-check (`scripts/gpu-campaign.sh`,
//! docs/evaluator.md) found: each case is one the evaluator got wrong, with
//! the inputs the campaign reported and the value the H200 gave.

use serde_json::json;

/// Runs `body` (reading `%r1`, `%r2`, `%r3`, writing `%r4`) for one thread
/// on `a`, `b`, `c`; returns `%r4`.
fn run(body: &str, a: u32, b: u32, c: u32) -> u32 {
    let ptx = format!(
        ".version 7.8\n.target sm_90\n.address_size 64\n\
         .visible .entry k(.param .u64 k_in, .param .u64 k_out)\n{{\n\
         \t.reg .b32 %r<16>;\n\t.reg .pred %p<8>;\n\t.reg .b64 %d<5>;\n\t.reg .b64 %x<4>;\n\
         \tld.param.u64 %x1, [k_in];\n\tld.param.u64 %x2, [k_out];\n\
         \tld.global.u32 %r1, [%x1];\n\tld.global.u32 %r2, [%x1+4];\n\tld.global.u32 %r3, [%x1+8];\n\
         {body}\n\tst.global.u32 [%x2], %r4;\n\tret;\n}}\n"
    );
    let module = ptx_parse::parse_module(&ptx).unwrap_or_else(|d| panic!("{}", d.message));
    let case = json!({"block": [1], "buffers": {"in": {"type": "u32", "data": [a, b, c]},
                      "out": {"type": "u32", "zeros": 1}},
                      "params": [{"buffer": "in"}, {"buffer": "out"}]});
    let r = ptx_eval::case::run_case(&module, &case.to_string(), 1 << 20).unwrap();
    r["buffers"]["out"][0].as_u64().unwrap() as u32
}

fn one(inst: &str, a: u32, b: u32, c: u32) -> u32 {
    run(&format!("\t{inst};"), a, b, c)
}

/// An f64 operation on x = b:a and y = c:b (high:low words); both words of
/// the result.
fn f64_op(op: &str, a: u32, b: u32, c: u32) -> u64 {
    let body = |take: &str| {
        format!(
            "\tcvt.u64.u32 %d1, %r1;\n\tcvt.u64.u32 %d0, %r2;\n\tshl.b64 %d0, %d0, 32;\n\tor.b64 %d1, %d1, %d0;\n\
             \tcvt.u64.u32 %d2, %r2;\n\tcvt.u64.u32 %d0, %r3;\n\tshl.b64 %d0, %d0, 32;\n\tor.b64 %d2, %d2, %d0;\n\
             \t{op};\n{take}\tcvt.u32.u64 %r4, %d3;"
        )
    };
    let lo = run(&body(""), a, b, c) as u64;
    let hi = run(&body("\tshr.b64 %d3, %d3, 32;\n"), a, b, c) as u64;
    hi << 32 | lo
}

#[test]
fn f32_nan_results_are_canonical() {
    // The GPU gives 0x7fffffff for every f32 NaN result, whatever came in.
    assert_eq!(
        one("add.rn.f32 %r4, %r1, %r2", 0xffff_ffff, 0, 0),
        0x7fff_ffff
    );
    assert_eq!(
        one("mul.rn.f32 %r4, %r1, %r2", 0xffff_ffff, 0, 0),
        0x7fff_ffff
    );
    assert_eq!(
        one("fma.rn.f32 %r4, %r1, %r2, %r3", 2, 0, 0xffff_ffff),
        0x7fff_ffff
    );
    assert_eq!(one("abs.f32 %r4, %r1", 0x7fc0_0000, 0, 0), 0x7fff_ffff);
    assert_eq!(one("neg.f32 %r4, %r1", 0x7fff_ffff, 0, 0), 0x7fff_ffff);
    assert_eq!(one("div.rn.f32 %r4, %r1, %r2", 0, 0, 0), 0x7fff_ffff);
    // Not NaN: the sign operations stay bit operations.
    assert_eq!(one("neg.f32 %r4, %r1", 0, 0, 0), 0x8000_0000);
    assert_eq!(one("abs.f32 %r4, %r1", 0xff80_0000, 0, 0), 0x7f80_0000);
}

#[test]
fn f32_ftz_min_max_and_nan_modifier() {
    assert_eq!(
        one("add.rn.ftz.f32 %r4, %r1, %r2", 1, 0, 0),
        0,
        "subnormal flushed"
    );
    assert_eq!(one("add.rn.f32 %r4, %r1, %r2", 1, 0, 0), 1);
    assert_eq!(
        one("min.f32 %r4, %r1, %r2", 0, 0x8000_0000, 0),
        0x8000_0000,
        "-0 < +0"
    );
    assert_eq!(one("max.f32 %r4, %r1, %r2", 0x8000_0000, 0, 0), 0);
    assert_eq!(
        one("min.f32 %r4, %r1, %r2", 0x7fc0_0000, 5, 0),
        5,
        "NaN ignored"
    );
    assert_eq!(
        one("min.NaN.f32 %r4, %r1, %r2", 0x7fff_ffff, 0, 0),
        0x7fff_ffff
    );
    assert_eq!(
        one("max.NaN.f32 %r4, %r1, %r2", 0, 0xffc0_0000, 0),
        0x7fff_ffff
    );
}

#[test]
fn float_to_int_conversions_round_and_saturate() {
    assert_eq!(
        one("cvt.rni.s32.f32 %r4, %r1", 0x7f80_0000, 0, 0),
        0x7fff_ffff
    );
    assert_eq!(
        one("cvt.rni.s32.f32 %r4, %r1", 0xff80_0000, 0, 0),
        0x8000_0000
    );
    assert_eq!(
        one("cvt.rzi.u32.f32 %r4, %r1", 0x5714_52d9, 0, 0),
        0xffff_ffff
    );
    assert_eq!(
        one("cvt.rzi.u32.f32 %r4, %r1", 0xbf80_0000, 0, 0),
        0,
        "-1.0 clamps to 0"
    );
    assert_eq!(
        one("cvt.rni.s32.f32 %r4, %r1", 0x7fc0_0000, 0, 0),
        0,
        "NaN gives 0"
    );
    // 2.5 rounds to even, down and up as asked.
    assert_eq!(one("cvt.rni.s32.f32 %r4, %r1", 0x4020_0000, 0, 0), 2);
    assert_eq!(
        one("cvt.rmi.s32.f32 %r4, %r1", 0xc020_0000, 0, 0),
        (-3i32) as u32
    );
    assert_eq!(one("cvt.rpi.s32.f32 %r4, %r1", 0x4020_0000, 0, 0), 3);
}

#[test]
fn saturating_add_sub_and_mul24() {
    assert_eq!(
        one("add.sat.s32 %r4, %r1, %r2", 0x7fff_ffff, 1, 0),
        0x7fff_ffff
    );
    assert_eq!(
        one("sub.sat.s32 %r4, %r1, %r2", 0x8000_0000, 1, 0),
        0x8000_0000
    );
    assert_eq!(one("add.s32 %r4, %r1, %r2", 0x7fff_ffff, 1, 0), 0x8000_0000);
    assert_eq!(one("mul24.hi.s32 %r4, %r1, %r2", 1, 1, 0), 0, "bits 16..47");
    assert_eq!(
        one("mul24.hi.u32 %r4, %r1, %r2", 0xff_ffff, 0xff_ffff, 0),
        0xffff_fe00
    );
    assert_eq!(
        one("mul24.lo.s32 %r4, %r1, %r2", 0x80_0000, 2, 0),
        0xff00_0000
    );
}

#[test]
fn prmt_modes_and_bfind() {
    // f4e with c[1:0] = 1: bytes 1..4 of b:a.
    assert_eq!(
        one(
            "prmt.b32.f4e %r4, %r1, %r2, %r3",
            0x4433_2211,
            0x8877_6655,
            1
        ),
        0x5544_3322
    );
    assert_eq!(
        one(
            "prmt.b32.b4e %r4, %r1, %r2, %r3",
            0x4433_2211,
            0x8877_6655,
            0
        ),
        0x6677_8811
    );
    assert_eq!(
        one("prmt.b32.rc16 %r4, %r1, %r2, %r3", 0x4433_2211, 0, 1),
        0x4433_4433
    );
    assert_eq!(one("bfind.u32 %r4, %r1", 0x0001_0000, 0, 0), 16);
    assert_eq!(one("bfind.u32 %r4, %r1", 0, 0, 0), 0xffff_ffff);
    assert_eq!(one("bfind.s32 %r4, %r1", 0xffff_fff0, 0, 0), 3);
    assert_eq!(one("bfind.shiftamt.u32 %r4, %r1", 0x0001_0000, 0, 0), 15);
}

#[test]
fn f64_nan_results_follow_the_gpu() {
    // One NaN operand is passed on, quieted (y = c:b = 0x7ff0000000000000|..).
    assert_eq!(
        f64_op("add.rn.f64 %d3, %d1, %d2", 0xffff, 0, 0x7ff8_0000),
        0x7ff8_0000_0000_0000
    );
    // Two NaN operands: add/sub/mul/fma give the second.
    assert_eq!(
        f64_op("add.rn.f64 %d3, %d1, %d2", 0x20, 0x7fff_ffff, 0x7ff8_0000),
        0x7ff8_0000_7fff_ffff
    );
    assert_eq!(
        f64_op("mul.rn.f64 %d3, %d1, %d2", 2, 0x7fff_ffff, 0xffff_ffff),
        0xffff_ffff_7fff_ffff
    );
    // div.rn.f64 gives the first.
    assert_eq!(
        f64_op("div.rn.f64 %d3, %d1, %d2", 2, 0x7fff_ffff, 0xffff_ffff),
        0x7fff_ffff_0000_0002
    );
    // NaN from non-NaN inputs: the default NaN.
    assert_eq!(
        f64_op("div.rn.f64 %d3, %d1, %d2", 0, 0, 0),
        0xfff8_0000_0000_0000
    );
    assert_eq!(
        f64_op("sqrt.rn.f64 %d3, %d1", 1, 0x8000_0000, 0),
        0xfff8_0000_0000_0000
    );
    // abs/neg quiet a signalling NaN and keep its sign.
    assert_eq!(
        f64_op("abs.f64 %d3, %d1", 1, 0x7ff0_0000, 0),
        0x7ff8_0000_0000_0001
    );
    assert_eq!(
        f64_op("neg.f64 %d3, %d1", 0, 0xffff_ffff, 0),
        0xffff_ffff_0000_0000
    );
    // min/max of two NaNs: the second, quieted.
    assert_eq!(
        f64_op("min.f64 %d3, %d1, %d2", 0x20, 0x7fff_ffff, 0x7ff0_0000),
        0x7ff8_0000_7fff_ffff
    );
}

#[test]
fn float_initializers_of_module_variables() {
    // Was read as 0 (only integer initializers were understood).
    let ptx = ".version 7.8\n.target sm_90\n.address_size 64\n\
               .const .align 8 .f64 cpi = 0d400921FB54442D18;\n\
               .global .align 4 .f32 gf[2] = {0f3F800000, 2.5};\n\
               .visible .entry k(.param .u64 k_out)\n{\n\t.reg .b64 %d<4>;\n\t.reg .b32 %r<4>;\n\
               \tld.param.u64 %d1, [k_out];\n\tld.const.u64 %d2, [cpi];\n\tst.global.u64 [%d1], %d2;\n\
               \tld.global.u32 %r1, [gf+4];\n\tst.global.u32 [%d1+8], %r1;\n\tret;\n}\n";
    let module = ptx_parse::parse_module(ptx).unwrap();
    let case = json!({"block": [1], "buffers": {"out": {"type": "u32", "zeros": 3}}, "params": [{"buffer": "out"}]});
    let r = ptx_eval::case::run_case(&module, &case.to_string(), 1 << 20).unwrap();
    let out: Vec<u64> = r["buffers"]["out"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap())
        .collect();
    assert_eq!(out[1] << 32 | out[0], 0x4009_21FB_5444_2D18);
    assert_eq!(out[2], 2.5f32.to_bits() as u64);
}

#[test]
fn shared_memory_is_sized_exactly() {
    // A kernel reading past its only shared array: the GPU faults
    // (CUDA_ERROR_ILLEGAL_ADDRESS); the evaluator used to allow 48 KiB more.
    let ptx = ".version 7.8\n.target sm_90\n.address_size 64\n\
               .visible .entry k(.param .u64 k_out)\n{\n\t.shared .align 4 .b8 tile[16];\n\
               \t.reg .b64 %d<4>;\n\t.reg .b32 %r<4>;\n\tld.param.u64 %d1, [k_out];\n\
               \tld.shared.u32 %r1, [tile+64];\n\tst.global.u32 [%d1], %r1;\n\tret;\n}\n";
    let module = ptx_parse::parse_module(ptx).unwrap();
    let case = json!({"block": [1], "buffers": {"out": {"type": "u32", "zeros": 1}}, "params": [{"buffer": "out"}]});
    let e = ptx_eval::case::run_case(&module, &case.to_string(), 1 << 20).unwrap_err();
    assert!(e.contains("out-of-range"), "{e}");
    // With an `extern .shared` array the launch has dynamic shared memory.
    let dynamic = ptx.replace(
        ".visible .entry",
        ".extern .shared .align 4 .b8 dyn[];\n.visible .entry",
    );
    let module = ptx_parse::parse_module(&dynamic).unwrap();
    assert!(ptx_eval::case::run_case(&module, &case.to_string(), 1 << 20).is_ok());
}

#[test]
fn order_dependent_runs_are_flagged() {
    // Every lane stores its own id to one word: which one wins is up to
    // the hardware (the campaign saw vec4i and select_kernel differ).
    let ptx = ".version 7.8\n.target sm_90\n.address_size 64\n\
               .visible .entry k(.param .u64 k_out)\n{\n\t.reg .b64 %d<4>;\n\t.reg .b32 %r<4>;\n\
               \tld.param.u64 %d1, [k_out];\n\tmov.u32 %r1, %tid.x;\n\tst.global.u32 [%d1], %r1;\n\tret;\n}\n";
    let module = ptx_parse::parse_module(ptx).unwrap();
    let case = json!({"block": [4], "buffers": {"out": {"type": "u32", "zeros": 1}}, "params": [{"buffer": "out"}]});
    let r = ptx_eval::case::run_case(&module, &case.to_string(), 1 << 20).unwrap();
    assert_eq!(r["unordered"], 1);
    // The same value from every lane is not a conflict.
    let same = ptx.replace("mov.u32 %r1, %tid.x", "mov.u32 %r1, 7");
    let module = ptx_parse::parse_module(&same).unwrap();
    let r = ptx_eval::case::run_case(&module, &case.to_string(), 1 << 20).unwrap();
    assert!(r.get("unordered").is_none());
}

#[test]
fn reading_before_a_buffer_is_out_of_range() {
    // stencil3 read `in[-1]`; with buffers back to back that was the last
    // word of the buffer before, and the GPU read something else.
    let ptx = ".version 7.8\n.target sm_90\n.address_size 64\n\
               .visible .entry k(.param .u64 k_a, .param .u64 k_b)\n{\n\t.reg .b64 %d<4>;\n\t.reg .b32 %r<4>;\n\
               \tld.param.u64 %d1, [k_b];\n\tld.global.u32 %r1, [%d1+-4];\n\tst.global.u32 [%d1], %r1;\n\tret;\n}\n";
    let module = ptx_parse::parse_module(ptx).unwrap();
    let case = json!({"block": [1], "buffers": {"a": {"type": "u32", "zeros": 64}, "b": {"type": "u32", "zeros": 1}},
                      "params": [{"buffer": "a"}, {"buffer": "b"}]});
    let e = ptx_eval::case::run_case(&module, &case.to_string(), 1 << 20).unwrap_err();
    assert!(e.contains("out-of-range"), "{e}");
}
