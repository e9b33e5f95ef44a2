//! The `.approx`/`.full` float functions (`rcp`, `sqrt`, `rsqrt`, `lg2`,
//! `ex2`, `sin`, `cos`, `div`), which the evaluator models as the correctly
//! rounded value (the hardware is within the ISA's stated bound of it),
//! with `.ftz` flushing subnormal inputs and results and NaN results
//! canonical. Values chosen so the exact result is representable.

mod one_thread;

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
