//! `dp2a`, `dp4a`, `sad` and `cvt.pack.sat.{u16,s16}.s32`, the
//! instructions `lower-vsub2` emits for the `.add`, `vabsdiff2` and `.sat`
//! vop2 forms, against values worked out by hand from the PTX ISA's
//! semantics (§9.7.1.23–24, §9.7.1.9 and §9.7.9.22;
//! `../shared/tools/ptxref.py` does not model them). Each case names the
//! parts it multiplies, subtracts or clamps.

mod one_thread;

/// Runs `inst` (reading `%r1`, `%r2`, `%r3`, writing `%r4`) for one thread.
fn one(inst: &str, a: u32, b: u32, c: u32) -> u32 {
    let ptx = format!(
        ".version 7.0\n.target sm_80\n.address_size 64\n\
         .visible .entry k(.param .u64 k_in, .param .u64 k_out)\n{{\n\
         \t.reg .b32 %r<8>;\n\t.reg .b64 %x<4>;\n\
         \tld.param.u64 %x1, [k_in];\n\tld.param.u64 %x2, [k_out];\n\
         \tld.global.u32 %r1, [%x1];\n\tld.global.u32 %r2, [%x1+4];\n\tld.global.u32 %r3, [%x1+8];\n\
         \t{inst};\n\tst.global.u32 [%x2], %r4;\n\tret;\n}}\n"
    );
    one_thread::run(inst, &ptx, &[a, b, c], 1)[0]
}

#[test]
fn dp2a_multiplies_half_words_by_the_chosen_bytes() {
    // 10 + 1·2 + 65535·3 (a's halves unsigned, b's bytes 0 and 1).
    let d = one(
        "dp2a.lo.u32.u32 %r4, %r1, %r2, %r3",
        0xffff_0001,
        0x0000_0302,
        10,
    );
    assert_eq!(d, 0x0003_0009);
    // 32767·(-128) + (-32768)·(-1): a signed, b's bytes 2 and 3 signed.
    let d = one(
        "dp2a.hi.s32.s32 %r4, %r1, %r2, %r3",
        0x8000_7fff,
        0xff80_0000,
        0,
    );
    assert_eq!(d, 0xffc0_8080);
    // 5 + (-1)·255 + (-1)·255: signed halves, unsigned bytes.
    let d = one(
        "dp2a.lo.s32.u32 %r4, %r1, %r2, %r3",
        0xffff_ffff,
        0x0000_ffff,
        5,
    );
    assert_eq!(d, 0xffff_fe07);
    // The same bytes read as s8 are -1: 5 + 65535·(-1) + 65535·(-1).
    let d = one(
        "dp2a.lo.u32.s32 %r4, %r1, %r2, %r3",
        0xffff_ffff,
        0x0000_ffff,
        5,
    );
    assert_eq!(d, 5u32.wrapping_sub(2 * 65535));
    // An immediate b: 257 is bytes (1, 1), so c + a.lo + a.hi.
    let d = one("dp2a.lo.s32.u32 %r4, %r1, 257, %r3", 0x8000_7fff, 0, 100);
    assert_eq!(d, 100 + 32767 - 32768_i32 as u32);
}

#[test]
fn dp4a_multiplies_bytes_and_wraps_in_32_bits() {
    assert_eq!(
        one(
            "dp4a.u32.u32 %r4, %r1, %r2, %r3",
            0xffff_ffff,
            0xffff_ffff,
            0
        ),
        4 * 255 * 255
    );
    // Bytes (1, 127, -1, -128) · (2, -1, -128, 127) + (-1).
    let d = one(
        "dp4a.s32.s32 %r4, %r1, %r2, %r3",
        0x80ff_7f01,
        0x7f80_ff02,
        0xffff_ffff,
    );
    assert_eq!(d, 0xffff_c082);
    // 255·255 + 0xffffffff wraps to 65024.
    assert_eq!(
        one("dp4a.u32.u32 %r4, %r1, %r2, %r3", 0xff, 0xff, u32::MAX),
        65024
    );
}

#[test]
fn cvt_pack_clamps_both_values_and_puts_a_high() {
    // 40000 → 32767 (high), -40000 → -32768 (low).
    let d = one(
        "cvt.pack.sat.s16.s32 %r4, %r1, %r2",
        40000,
        -40000i32 as u32,
        0,
    );
    assert_eq!(d, 0x7fff_8000);
    // -5 → 0 (high), 70000 → 65535 (low).
    let d = one("cvt.pack.sat.u16.s32 %r4, %r1, %r2", -5i32 as u32, 70000, 0);
    assert_eq!(d, 0x0000_ffff);
    // In range: kept; -1 is 0xffff as s16.
    let d = one("cvt.pack.sat.s16.s32 %r4, %r1, %r2", u32::MAX, 0x12, 0);
    assert_eq!(d, 0xffff_0012);
    // INT_MIN and INT_MAX: the s32 sources are signed.
    let d = one(
        "cvt.pack.sat.u16.s32 %r4, %r1, %r2",
        0x8000_0000,
        0x7fff_ffff,
        0,
    );
    assert_eq!(d, 0x0000_ffff);
    let d = one(
        "cvt.pack.sat.s16.s32 %r4, %r1, %r2",
        0x8000_0000,
        0x7fff_ffff,
        0,
    );
    assert_eq!(d, 0x8000_7fff);
    // The bounds themselves are kept.
    let d = one(
        "cvt.pack.sat.s16.s32 %r4, %r1, %r2",
        32767,
        -32768i32 as u32,
        0,
    );
    assert_eq!(d, 0x7fff_8000);
    let d = one("cvt.pack.sat.u16.s32 %r4, %r1, %r2", 65535, 0, 0);
    assert_eq!(d, 0xffff_0000);
}

#[test]
fn sad_adds_the_absolute_difference_at_the_type_width() {
    // 10 + |5 - (-3)|.
    assert_eq!(one("sad.s32 %r4, %r1, %r2, %r3", 5, -3i32 as u32, 10), 18);
    // Unsigned: |3 - 0xffffffff| = 0xfffffffc.
    assert_eq!(
        one("sad.u32 %r4, %r1, %r2, %r3", 3, u32::MAX, 0),
        0xffff_fffc
    );
    // The same words signed: |3 - (-1)| = 4.
    assert_eq!(one("sad.s32 %r4, %r1, %r2, %r3", 3, u32::MAX, 0), 4);
    // INT_MIN against INT_MAX: 2^32 - 1, exact before the 32-bit sum.
    assert_eq!(
        one("sad.s32 %r4, %r1, %r2, %r3", 0x8000_0000, 0x7fff_ffff, 0),
        u32::MAX
    );
    // The sum wraps: 0xffffffff + 1.
    assert_eq!(one("sad.u32 %r4, %r1, %r2, %r3", 0, 1, u32::MAX), 0);
}
