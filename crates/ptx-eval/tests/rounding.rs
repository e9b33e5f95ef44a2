//! IEEE arithmetic in each rounding mode through whole instructions:
//! `add`/`sub`/`mul`/`fma`/`mad`/`div`/`sqrt`/`rcp` with `.rn`, `.rz`,
//! `.rm`, `.rp`, `.ftz` and `.sat` on f32 and f64. The exhaustive checks
//! of the arithmetic itself are `exec::ieee`'s unit tests; these check
//! that each instruction reaches it with its mode. Values worked out by
//! hand (the reasoning is next to each).

mod one_thread;

/// Runs `inst` (reading `%f1`, `%f2`, `%f3`, writing `%f4`) on f32 inputs.
fn f32_op(inst: &str, a: f32, b: f32, c: f32) -> u32 {
    let ptx = format!(
        ".version 7.0\n.target sm_80\n.address_size 64\n\
         .visible .entry k(.param .u64 k_in, .param .u64 k_out)\n{{\n\
         \t.reg .f32 %f<5>;\n\t.reg .b64 %x<4>;\n\
         \tld.param.u64 %x1, [k_in];\n\tld.param.u64 %x2, [k_out];\n\
         \tld.global.f32 %f1, [%x1];\n\tld.global.f32 %f2, [%x1+4];\n\
         \tld.global.f32 %f3, [%x1+8];\n\t{inst};\n\
         \tst.global.f32 [%x2], %f4;\n\tret;\n}}\n"
    );
    one_thread::run(inst, &ptx, &[a.to_bits(), b.to_bits(), c.to_bits()], 1)[0]
}

/// The same with f64 registers `%d1..%d4`.
fn f64_op(inst: &str, a: f64, b: f64, c: f64) -> u64 {
    let ptx = format!(
        ".version 7.0\n.target sm_80\n.address_size 64\n\
         .visible .entry k(.param .u64 k_in, .param .u64 k_out)\n{{\n\
         \t.reg .f64 %d<5>;\n\t.reg .b64 %x<4>;\n\
         \tld.param.u64 %x1, [k_in];\n\tld.param.u64 %x2, [k_out];\n\
         \tld.global.f64 %d1, [%x1];\n\tld.global.f64 %d2, [%x1+8];\n\
         \tld.global.f64 %d3, [%x1+16];\n\t{inst};\n\
         \tst.global.f64 [%x2], %d4;\n\tret;\n}}\n"
    );
    let words: Vec<u32> = [a, b, c]
        .iter()
        .flat_map(|v| [v.to_bits() as u32, (v.to_bits() >> 32) as u32])
        .collect();
    let out = one_thread::run(inst, &ptx, &words, 2);
    out[0] as u64 | (out[1] as u64) << 32
}

const ONE_THIRD_DOWN: u32 = 0x3eaa_aaaa;
const ONE_THIRD_UP: u32 = 0x3eaa_aaab;

#[test]
fn division_and_reciprocal_in_each_mode() {
    // 1/3 = 0x3eaaaaaa.aaa…: the tail is 2/3 of a unit, so .rn rounds up.
    for (m, want) in [
        ("rn", ONE_THIRD_UP),
        ("rz", ONE_THIRD_DOWN),
        ("rm", ONE_THIRD_DOWN),
        ("rp", ONE_THIRD_UP),
    ] {
        assert_eq!(
            f32_op(&format!("div.{m}.f32 %f4, %f1, %f2"), 1.0, 3.0, 0.0),
            want,
            "div.{m}"
        );
        assert_eq!(
            f32_op(&format!("rcp.{m}.f32 %f4, %f2"), 0.0, 3.0, 0.0),
            want,
            "rcp.{m}"
        );
    }
    // Negative: -1/3 rounds toward zero under .rz and .rp.
    assert_eq!(
        f32_op("div.rz.f32 %f4, %f1, %f2", -1.0, 3.0, 0.0),
        ONE_THIRD_DOWN | 1 << 31
    );
    assert_eq!(
        f32_op("div.rm.f32 %f4, %f1, %f2", -1.0, 3.0, 0.0),
        ONE_THIRD_UP | 1 << 31
    );
    // f64: 1/3 = 0x3fd5555555555555.55…: .rp adds one unit.
    assert_eq!(
        f64_op("div.rn.f64 %d4, %d1, %d2", 1.0, 3.0, 0.0),
        0x3fd5_5555_5555_5555
    );
    assert_eq!(
        f64_op("div.rp.f64 %d4, %d1, %d2", 1.0, 3.0, 0.0),
        0x3fd5_5555_5555_5556
    );
    assert_eq!(
        f64_op("rcp.rz.f64 %d4, %d2", 0.0, 3.0, 0.0),
        0x3fd5_5555_5555_5555
    );
    // .ftz flushes a subnormal divisor: 1/+0 = +inf.
    let sub = f32::from_bits(1);
    assert_eq!(
        f32_op("rcp.rn.ftz.f32 %f4, %f2", 0.0, sub, 0.0),
        0x7f80_0000
    );
    assert_eq!(
        f32_op("div.rn.ftz.f32 %f4, %f1, %f2", 1.0, sub, 0.0),
        0x7f80_0000
    );
}

#[test]
fn square_root_in_each_mode() {
    // sqrt(2) = 0x3fb504f3.3…: down for .rn/.rz/.rm, up for .rp.
    for (m, want) in [
        ("rn", 0x3fb5_04f3),
        ("rz", 0x3fb5_04f3),
        ("rm", 0x3fb5_04f3),
        ("rp", 0x3fb5_04f4),
    ] {
        assert_eq!(
            f32_op(&format!("sqrt.{m}.f32 %f4, %f1"), 2.0, 0.0, 0.0),
            want,
            "sqrt.{m}"
        );
    }
    // f64 sqrt(2) = 0x3ff6a09e667f3bcc.9…: .rn rounds up.
    assert_eq!(
        f64_op("sqrt.rn.f64 %d4, %d1", 2.0, 0.0, 0.0),
        0x3ff6_a09e_667f_3bcd
    );
    assert_eq!(
        f64_op("sqrt.rz.f64 %d4, %d1", 2.0, 0.0, 0.0),
        0x3ff6_a09e_667f_3bcc
    );
}

#[test]
fn add_sub_mul_fma_take_their_mode() {
    let tiny = f32::from_bits(1); // 2^-149
                                  // 1 + 2^-149 is 1 except rounding up.
    assert_eq!(
        f32_op("add.rp.f32 %f4, %f1, %f2", 1.0, tiny, 0.0),
        0x3f80_0001
    );
    assert_eq!(
        f32_op("add.rz.f32 %f4, %f1, %f2", 1.0, tiny, 0.0),
        0x3f80_0000
    );
    // 1 - 2^-149 is just below 1 under .rz and .rm.
    assert_eq!(
        f32_op("sub.rz.f32 %f4, %f1, %f2", 1.0, tiny, 0.0),
        0x3f7f_ffff
    );
    assert_eq!(
        f32_op("sub.rm.f32 %f4, %f1, %f2", 1.0, tiny, 0.0),
        0x3f7f_ffff
    );
    assert_eq!(
        f32_op("sub.rn.f32 %f4, %f1, %f2", 1.0, tiny, 0.0),
        0x3f80_0000
    );
    // x - x is -0 under .rm only.
    assert_eq!(
        f32_op("sub.rm.f32 %f4, %f1, %f2", 5.0, 5.0, 0.0),
        0x8000_0000
    );
    assert_eq!(f32_op("sub.rn.f32 %f4, %f1, %f2", 5.0, 5.0, 0.0), 0);
    // (1 + 2^-23)^2 = 1 + 2^-22 + 2^-46: the last term decides .rp.
    let a = f32::from_bits(0x3f80_0001);
    assert_eq!(f32_op("mul.rn.f32 %f4, %f1, %f2", a, a, 0.0), 0x3f80_0002);
    assert_eq!(f32_op("mul.rp.f32 %f4, %f1, %f2", a, a, 0.0), 0x3f80_0003);
    // fma keeps it: (1 + 2^-23)^2 - (1 + 2^-22) = 2^-46 exactly.
    let b = f32::from_bits(0x3f80_0002);
    assert_eq!(
        f32_op("fma.rn.f32 %f4, %f1, %f2, %f3", a, a, -b),
        2f32.powi(-46).to_bits()
    );
    assert_eq!(
        f32_op("mad.rz.f32 %f4, %f1, %f2, %f3", a, a, -b),
        2f32.powi(-46).to_bits()
    );
    // fma.rm of 1*1 + (-2^-149)... rounds to the value below 1.
    assert_eq!(
        f32_op("fma.rm.f32 %f4, %f1, %f2, %f3", 1.0, 1.0, -tiny),
        0x3f7f_ffff
    );
    // f64: 1 + 2^-1074 rounds up only under .rp.
    let t64 = f64::from_bits(1);
    assert_eq!(
        f64_op("add.rp.f64 %d4, %d1, %d2", 1.0, t64, 0.0),
        0x3ff0_0000_0000_0001
    );
    assert_eq!(
        f64_op("add.rn.f64 %d4, %d1, %d2", 1.0, t64, 0.0),
        0x3ff0_0000_0000_0000
    );
    assert_eq!(
        f64_op("fma.rp.f64 %d4, %d1, %d2, %d3", 1.0, 1.0, t64),
        0x3ff0_0000_0000_0001
    );
}

#[test]
fn saturation_and_flushing() {
    // .sat clamps to [0, 1] and takes NaN to +0.
    assert_eq!(
        f32_op("add.sat.f32 %f4, %f1, %f2", 0.75, 0.5, 0.0),
        1f32.to_bits()
    );
    assert_eq!(f32_op("sub.sat.f32 %f4, %f1, %f2", 0.25, 0.5, 0.0), 0);
    assert_eq!(
        f32_op("mul.sat.f32 %f4, %f1, %f2", 0.5, 0.5, 0.0),
        0.25f32.to_bits()
    );
    assert_eq!(
        f32_op("fma.rn.sat.f32 %f4, %f1, %f2, %f3", f32::INFINITY, 0.0, 1.0),
        0
    );
    // .ftz: a subnormal product flushes to a zero of its sign.
    let small = 2f32.powi(-70);
    assert_eq!(
        f32_op("mul.rn.ftz.f32 %f4, %f1, %f2", small, -small, 0.0),
        0x8000_0000
    );
    assert_eq!(
        f32_op("mul.rn.f32 %f4, %f1, %f2", small, -small, 0.0),
        (-2f32.powi(-140)).to_bits()
    );
    assert_eq!(
        f32_op("fma.rn.ftz.f32 %f4, %f1, %f2, %f3", small, small, 0.0),
        0
    );
}
