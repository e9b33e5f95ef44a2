//! Half-precision `add`/`sub`/`mul`/`fma` on `.f16`, `.bf16` and their x2
//! forms (each half rounded once, `.ftz`, `.sat`, `.relu`, canonical NaN),
//! and `neg`/`abs` on each half's sign. Values worked out by hand.

mod one_thread;

/// Runs `inst` on `.b32` registers `%r1`, `%r2`, `%r3` (inputs) and `%r4`.
fn op(inst: &str, a: u32, b: u32, c: u32) -> u32 {
    let ptx = format!(
        ".version 7.8\n.target sm_90\n.address_size 64\n\
         .visible .entry k(.param .u64 k_in, .param .u64 k_out)\n{{\n\
         \t.reg .b32 %r<5>;\n\t.reg .b16 %h<5>;\n\t.reg .b64 %x<4>;\n\
         \tld.param.u64 %x1, [k_in];\n\tld.param.u64 %x2, [k_out];\n\
         \tld.global.b32 %r1, [%x1];\n\tld.global.b32 %r2, [%x1+4];\n\
         \tld.global.b32 %r3, [%x1+8];\n\tmov.b32 %r4, 0;\n\t{inst};\n\
         \tst.global.b32 [%x2], %r4;\n\tret;\n}}\n"
    );
    one_thread::run(inst, &ptx, &[a, b, c], 1)[0]
}

/// The same for a scalar 16-bit form: `%h1..%h3` from the low halves,
/// the result `%h4` in the low half of the output.
fn op16(inst: &str, a: u32, b: u32, c: u32) -> u32 {
    op(
        &format!(
            "cvt.u16.u32 %h1, %r1;\n\tcvt.u16.u32 %h2, %r2;\n\tcvt.u16.u32 %h3, %r3;\n\t\
             {inst};\n\tcvt.u32.u16 %r4, %h4"
        ),
        a,
        b,
        c,
    )
}

const ONE: u32 = 0x3c00; // f16 1.0
const TWO: u32 = 0x4000;
const HALF: u32 = 0x3800;

#[test]
fn f16_arithmetic_rounds_each_half_once() {
    assert_eq!(op16("add.f16 %h4, %h1, %h2", ONE, ONE, 0), TWO);
    assert_eq!(op16("sub.rn.f16 %h4, %h1, %h2", ONE, TWO, 0), 0xbc00);
    assert_eq!(op16("mul.f16 %h4, %h1, %h2", TWO, HALF, 0), ONE);
    // 1 + 2^-11 is half a unit above 1: ties to even, so 1.
    assert_eq!(op16("add.f16 %h4, %h1, %h2", ONE, 0x1000, 0), ONE);
    // 1 + 3 * 2^-12 is past the tie: 1 + 2^-10.
    assert_eq!(op16("add.f16 %h4, %h1, %h2", ONE, 0x1200, 0), 0x3c01);
    // fma rounds once: (1 + 2^-10)^2 - (1 + 2^-9) = 2^-20 (subnormal
    // 0x0010); rounding the product first would leave 0.
    assert_eq!(
        op16("fma.rn.f16 %h4, %h1, %h2, %h3", 0x3c01, 0x3c01, 0xbc02),
        0x0010
    );
    // x2: each half on its own, high and low.
    assert_eq!(
        op(
            "add.rn.f16x2 %r4, %r1, %r2",
            ONE << 16 | TWO,
            TWO << 16 | TWO,
            0
        ),
        0x4200 << 16 | 0x4400
    );
    assert_eq!(
        op(
            "fma.rn.f16x2 %r4, %r1, %r2, %r3",
            TWO << 16 | TWO,
            HALF << 16 | TWO,
            ONE << 16 | ONE
        ),
        TWO << 16 | 0x4500
    );
}

#[test]
fn bf16_and_the_clamps() {
    // bf16 1.0 = 0x3f80; 1 + 2^-8 ties to even (1.0); times 3 = 0x4040.
    assert_eq!(op16("add.rn.bf16 %h4, %h1, %h2", 0x3f80, 0x3b80, 0), 0x3f80);
    assert_eq!(op16("mul.rn.bf16 %h4, %h1, %h2", 0x3f80, 0x4040, 0), 0x4040);
    assert_eq!(
        op(
            "fma.rn.bf16x2 %r4, %r1, %r2, %r3",
            0x4000_3f80,
            0x4000_3f80,
            0xbf80_bf80
        ),
        0x4040_0000
    );
    // .sat clamps to [0, 1], .relu takes negatives to zero.
    assert_eq!(op16("add.sat.f16 %h4, %h1, %h2", TWO, ONE, 0), ONE);
    assert_eq!(op16("sub.sat.f16 %h4, %h1, %h2", ONE, TWO, 0), 0);
    assert_eq!(
        op16("fma.rn.relu.f16 %h4, %h1, %h2, %h3", ONE, ONE, 0xc000),
        0
    );
    assert_eq!(
        op16(
            "fma.rn.relu.bf16 %h4, %h1, %h2, %h3",
            0x3f80,
            0x3f80,
            0x3f80
        ),
        0x4000
    );
    // .ftz flushes a subnormal f16 input (2^-24) to zero.
    assert_eq!(op16("add.ftz.f16 %h4, %h1, %h2", 1, 1, 0), 0);
    assert_eq!(op16("add.f16 %h4, %h1, %h2", 1, 1, 0), 2);
    // inf - inf is the canonical NaN.
    assert_eq!(op16("sub.f16 %h4, %h1, %h2", 0x7c00, 0x7c00, 0), 0x7fff);
}

#[test]
fn neg_and_abs_act_on_every_half() {
    assert_eq!(op("neg.f16x2 %r4, %r1", 0x3c00_0000, 0, 0), 0xbc00_8000);
    assert_eq!(op("abs.bf16x2 %r4, %r1", 0xbf80_8001, 0, 0), 0x3f80_0001);
    assert_eq!(op16("neg.f16 %h4, %h1", 0x3c00, 0, 0), 0xbc00);
    // An integer neg of 16 bits stays two's complement.
    assert_eq!(op16("neg.s16 %h4, %h1", 1, 0, 0), 0xffff);
}
