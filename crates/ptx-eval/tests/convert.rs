//! `cvt` rounding, saturation and the packed forms, against values worked
//! out from the PTX ISA (§9.7.9.21, cvt) and IEEE 754 rounding; the fp8
//! formats are OCP's E4M3 (bias 7, largest 448, no infinities, NaN
//! `S.1111.111`) and E5M2 (bias 15, largest 57344). Each case says why its
//! value is what it is. These include the five conversions the GPU cross-
//! check found wrong (`cvt.rni/.rzi.f32.f32`, `cvt.sat` between signed and
//! unsigned, `cvt.rn.bf16.u32`, `cvt.rn.f16x2.f32`).

mod one_thread;

/// Runs `body` (reading `%r1`..`%r3`, also as b16 `%h1`..`%h3`, writing
/// `%r4`) for one thread.
fn run(body: &str, a: u32, b: u32, c: u32) -> u32 {
    let ptx = format!(
        ".version 8.6\n.target sm_90\n.address_size 64\n\
         .visible .entry k(.param .u64 k_in, .param .u64 k_out)\n{{\n\
         \t.reg .b32 %r<8>;\n\t.reg .b16 %h<8>;\n\t.reg .b64 %d<4>;\n\t.reg .b64 %x<4>;\n\
         \tld.param.u64 %x1, [k_in];\n\tld.param.u64 %x2, [k_out];\n\
         \tld.global.u32 %r1, [%x1];\n\tld.global.u32 %r2, [%x1+4];\n\tld.global.u32 %r3, [%x1+8];\n\
         \tcvt.u16.u32 %h1, %r1;\n\tcvt.u16.u32 %h2, %r2;\n\
         \t{body};\n\tst.global.u32 [%x2], %r4;\n\tret;\n}}\n"
    );
    one_thread::run(body, &ptx, &[a, b, c], 1)[0]
}

fn f(x: f32) -> u32 {
    x.to_bits()
}

#[test]
fn integer_rounding_between_floats_of_one_size() {
    // .rni rounds to the nearest integer, ties to even: 9.5 → 10, 10.5 → 10.
    assert_eq!(run("cvt.rni.f32.f32 %r4, %r1", f(9.5), 0, 0), f(10.0));
    assert_eq!(run("cvt.rni.f32.f32 %r4, %r1", f(10.5), 0, 0), f(10.0));
    assert_eq!(run("cvt.rni.f32.f32 %r4, %r1", f(-2.5), 0, 0), f(-2.0));
    // .rzi truncates, .rmi floors, .rpi ceils.
    assert_eq!(run("cvt.rzi.f32.f32 %r4, %r1", f(-2.7), 0, 0), f(-2.0));
    assert_eq!(run("cvt.rmi.f32.f32 %r4, %r1", f(-2.1), 0, 0), f(-3.0));
    assert_eq!(run("cvt.rpi.f32.f32 %r4, %r1", f(2.1), 0, 0), f(3.0));
    // Infinity stays; a NaN becomes the canonical f32 NaN.
    assert_eq!(
        run("cvt.rni.f32.f32 %r4, %r1", 0xff80_0000, 0, 0),
        0xff80_0000
    );
    assert_eq!(
        run("cvt.rzi.f32.f32 %r4, %r1", 0x7fc0_1234, 0, 0),
        0x7fff_ffff
    );
}

#[test]
fn saturation_between_signed_and_unsigned() {
    // .sat clamps to the destination's range: -5 has no u32 value → 0;
    // 0xffffffff as u32 is above i32::MAX → 0x7fffffff.
    assert_eq!(run("cvt.sat.u32.s32 %r4, %r1", (-5i32) as u32, 0, 0), 0);
    assert_eq!(
        run("cvt.sat.s32.u32 %r4, %r1", 0xffff_ffff, 0, 0),
        0x7fff_ffff
    );
    // Without .sat the bits are kept.
    assert_eq!(
        run("cvt.u32.s32 %r4, %r1", (-5i32) as u32, 0, 0),
        (-5i32) as u32
    );
    // 70000 into u16 saturates to 65535; -1 into u16 to 0.
    assert_eq!(
        run(
            "cvt.sat.u16.s32 %h4, %r1;\n\tcvt.u32.u16 %r4, %h4",
            70000,
            0,
            0
        ),
        65535
    );
    assert_eq!(
        run(
            "cvt.sat.u16.s32 %h4, %r1;\n\tcvt.u32.u16 %r4, %h4",
            u32::MAX,
            0,
            0
        ),
        0
    );
    // Float to [0, 1]: 1.5 → 1, -0.5 → 0, NaN → 0.
    assert_eq!(run("cvt.sat.f32.f32 %r4, %r1", f(1.5), 0, 0), f(1.0));
    assert_eq!(run("cvt.sat.f32.f32 %r4, %r1", f(-0.5), 0, 0), 0);
    assert_eq!(run("cvt.sat.f32.f32 %r4, %r1", 0x7fc0_0000, 0, 0), 0);
}

#[test]
fn integers_to_narrow_floats_round_once() {
    let bf16 = |body: &str, a: u32| run(&format!("{body};\n\tcvt.u32.u16 %r4, %h4"), a, 0, 0);
    // bf16 keeps 8 significant bits. 257 = 1.00000001b·2^8 lies halfway
    // between 256 and 258: ties to even → 256 (0x4380).
    assert_eq!(bf16("cvt.rn.bf16.u32 %h4, %r1", 257), 0x4380);
    // 511 is halfway between 510 (mantissa 1111111, odd) and 512 → 512.
    assert_eq!(bf16("cvt.rn.bf16.u32 %h4, %r1", 511), 0x4400);
    // Toward zero it is 510 (0x43ff).
    assert_eq!(bf16("cvt.rz.bf16.u32 %h4, %r1", 511), 0x43ff);
    // 2^24 + 1 in f32 (24 bits): rz → 2^24, rp → 2^24 + 2.
    assert_eq!(
        run("cvt.rz.f32.s32 %r4, %r1", 16_777_217, 0, 0),
        0x4b80_0000
    );
    assert_eq!(
        run("cvt.rp.f32.s32 %r4, %r1", 16_777_217, 0, 0),
        0x4b80_0001
    );
    assert_eq!(
        run("cvt.rm.f32.s32 %r4, %r1", (-16_777_217i32) as u32, 0, 0),
        0xcb80_0001
    );
    // u64 2^53 + 1 → f32 is 2^53 (0x5a000000): one rounding, not two.
    assert_eq!(
        run(
            "cvt.u64.u32 %d1, %r1;\n\tcvt.u64.u32 %d2, %r2;\n\tshl.b64 %d2, %d2, 32;\n\tor.b64 %d1, %d1, %d2;\n\tcvt.rn.f32.u64 %r4, %d1",
            1,
            0x0020_0000,
            0
        ),
        0x5a00_0000
    );
}

#[test]
fn two_f32_pack_into_f16x2_and_bf16x2() {
    // d = {a → upper half, b → lower half}: 1.0 → 0x3c00, -2.0 → 0xc000.
    assert_eq!(
        run("cvt.rn.f16x2.f32 %r4, %r1, %r2", f(1.0), f(-2.0), 0),
        0x3c00_c000
    );
    // 65520 is the f16 overflow threshold: .rn gives +inf, .satfinite the
    // largest finite 65504 (0x7bff); NaN gives the canonical 0x7fff.
    assert_eq!(
        run("cvt.rn.f16x2.f32 %r4, %r1, %r2", f(65520.0), 0x7fc0_0000, 0),
        0x7c00_7fff
    );
    assert_eq!(
        run(
            "cvt.rn.satfinite.f16x2.f32 %r4, %r1, %r2",
            f(65520.0),
            f(0.5),
            0
        ),
        0x7bff_3800
    );
    // .relu makes negatives +0; bf16: 1.0 → 0x3f80.
    assert_eq!(
        run("cvt.rn.relu.bf16x2.f32 %r4, %r1, %r2", f(-3.0), f(1.0), 0),
        0x0000_3f80
    );
}

#[test]
fn fp8_pairs_round_saturate_and_widen() {
    let to8 =
        |body: &str, a: u32, b: u32| run(&format!("{body};\n\tcvt.u32.u16 %r4, %h4"), a, b, 0);
    // e4m3: 448 is the largest (0x7e), 1.0 = 2^0 → exponent field 7 (0x38).
    assert_eq!(
        to8(
            "cvt.rn.satfinite.e4m3x2.f32 %h4, %r1, %r2",
            f(448.0),
            f(1.0)
        ),
        0x7e38
    );
    // Beyond the range saturates to 448; -0 keeps its sign (0x80).
    assert_eq!(
        to8(
            "cvt.rn.satfinite.e4m3x2.f32 %h4, %r1, %r2",
            f(1000.0),
            f(-0.0)
        ),
        0x7e80
    );
    // NaN → 0x7f; the smallest subnormal 2^-9 → 0x01, and 2^-10, halfway
    // to 0, rounds to even (0).
    assert_eq!(
        to8(
            "cvt.rn.satfinite.e4m3x2.f32 %h4, %r1, %r2",
            0x7fc0_0000,
            f(2f32.powi(-9))
        ),
        0x7f01
    );
    assert_eq!(
        to8(
            "cvt.rn.satfinite.e4m3x2.f32 %h4, %r1, %r2",
            f(2f32.powi(-10)),
            0
        ),
        0x0000
    );
    // e5m2: 1.0 → exponent field 15 (0x3c); 1e6 saturates to 57344 (0x7b).
    assert_eq!(
        to8("cvt.rn.satfinite.e5m2x2.f32 %h4, %r1, %r2", f(1.0), f(1e6)),
        0x3c7b
    );
    // From f16x2 (upper half to the upper byte): 2.0 (0x4000) → e4m3 0x40,
    // 0.5 (0x3800) → 0x30.
    assert_eq!(
        to8("cvt.rn.satfinite.e4m3x2.f16x2 %h4, %r1", 0x4000_3800, 0),
        0x4030
    );
    // Back to f16x2, exactly: 448 = 1.75·2^8 → 0x5f00, 1.0 → 0x3c00.
    assert_eq!(
        run("cvt.rn.f16x2.e4m3x2 %r4, %h1", 0x7e38, 0, 0),
        0x5f00_3c00
    );
}

#[test]
fn half_sources_convert_to_integers_and_f32() {
    // f16 0x4100 = 2.5: .rni → 2 (ties to even); f32 exactly 2.5.
    assert_eq!(run("cvt.rni.s32.f16 %r4, %h1", 0x4100, 0, 0), 2);
    assert_eq!(run("cvt.f32.f16 %r4, %h1", 0x4100, 0, 0), f(2.5));
    // f32 1/3 to f16: 0x3555 (0.333251953125 is nearest).
    assert_eq!(
        run(
            "cvt.rn.f16.f32 %h4, %r1;\n\tcvt.u32.u16 %r4, %h4",
            f(1.0 / 3.0),
            0,
            0
        ),
        0x3555
    );
}
