//! Extended-precision arithmetic (PTX ISA 9.7.2): `add.cc`/`addc`,
//! `sub.cc`/`subc` (CC.CF is the borrow: `subc` computes `a - (b + CF)`),
//! `mad.cc`/`madc`, in 32 and 64 bits, against values worked out by hand:
//! multi-word sums and differences as nvcc and hand-written bignum code
//! write them.

mod one_thread;

/// Runs `body` for one thread with `%r1..%r4` = `x`; returns `%r5..%r8`.
fn run(body: &str, x: [u32; 4]) -> [u32; 4] {
    let ptx = format!(
        ".version 7.0\n.target sm_80\n.address_size 64\n\
         .visible .entry k(.param .u64 k_in, .param .u64 k_out)\n{{\n\
         \t.reg .b32 %r<12>;\n\t.reg .b64 %x<4>;\n\t.reg .b64 %rd<8>;\n\
         \tld.param.u64 %x1, [k_in];\n\tld.param.u64 %x2, [k_out];\n\
         \tld.global.v4.u32 {{%r1, %r2, %r3, %r4}}, [%x1];\n\
         \tmov.u32 %r5, 0;\n\tmov.u32 %r6, 0;\n\tmov.u32 %r7, 0;\n\tmov.u32 %r8, 0;\n\
         {body}\n\tst.global.v4.u32 [%x2], {{%r5, %r6, %r7, %r8}};\n\tret;\n}}\n"
    );
    let out = one_thread::run(body, &ptx, &x, 4);
    [out[0], out[1], out[2], out[3]]
}

#[test]
fn two_word_add_and_sub() {
    // (0x00000001_ffffffff) + (0x00000002_00000001) = 0x00000004_00000000.
    let add = "\tadd.cc.u32 %r5, %r1, %r3;\n\taddc.u32 %r6, %r2, %r4;";
    assert_eq!(run(add, [0xffff_ffff, 1, 1, 2]), [0, 4, 0, 0]);
    // No carry: 5 + 6, 1 + 2.
    assert_eq!(run(add, [5, 1, 6, 2]), [11, 3, 0, 0]);
    // (0x00000005_00000000) - (0x00000002_00000001) = 0x00000002_ffffffff:
    // the low word borrows, the high word pays it.
    let sub = "\tsub.cc.u32 %r5, %r1, %r3;\n\tsubc.u32 %r6, %r2, %r4;";
    assert_eq!(run(sub, [0, 5, 1, 2]), [0xffff_ffff, 2, 0, 0]);
    assert_eq!(run(sub, [7, 5, 1, 2]), [6, 3, 0, 0]);
}

#[test]
fn carry_chains_through_several_words() {
    // 0xffffffff_ffffffff_ffffffff + 1 = 1_00000000_00000000_00000000:
    // the carry ripples through addc.cc and lands in the last addc.
    let body = "\tadd.cc.u32 %r5, %r1, %r4;\n\taddc.cc.u32 %r6, %r2, 0;\n\
                \taddc.cc.u32 %r7, %r3, 0;\n\taddc.u32 %r8, 0, 0;";
    assert_eq!(run(body, [u32::MAX, u32::MAX, u32::MAX, 1]), [0, 0, 0, 1]);
    // addc without .cc leaves CC.CF alone: the second addc sees the first
    // add.cc's carry too.
    let body = "\tadd.cc.u32 %r5, %r1, %r2;\n\taddc.u32 %r6, 0, 0;\n\taddc.u32 %r7, 0, 0;";
    assert_eq!(run(body, [u32::MAX, 1, 0, 0]), [0, 1, 1, 0]);
}

#[test]
fn sixty_four_bit_and_multiply_add_carries() {
    // 64-bit: 0xffffffff_ffffffff + 1 carries into addc.u64 (high word 0).
    let body = "\tmov.b64 %rd1, {%r1, %r2};\n\tcvt.u64.u32 %rd2, %r3;\n\
                \tadd.cc.u64 %rd3, %rd1, %rd2;\n\taddc.u64 %rd4, 0, 0;\n\
                \tmov.b64 {%r5, %r6}, %rd3;\n\tmov.b64 {%r7, %r8}, %rd4;";
    assert_eq!(run(body, [u32::MAX, u32::MAX, 1, 0]), [0, 0, 1, 0]);
    // 0xffffffff * 2 = 0x1_fffffffe: lo + 3 = 0x1_00000001 carries, and
    // madc.hi adds it to the high part 1: 2.
    let body = "\tmad.lo.cc.u32 %r5, %r1, %r2, %r3;\n\tmadc.hi.u32 %r6, %r1, %r2, 0;";
    assert_eq!(run(body, [u32::MAX, 2, 3, 0]), [1, 2, 0, 0]);
    // Signed: -1 * 3 = -3 (lo 0xfffffffd), + 2 = 0xffffffff, no carry;
    // hi of -3 is 0xffffffff.
    let body = "\tmad.lo.cc.s32 %r5, %r1, %r2, %r3;\n\tmadc.hi.s32 %r6, %r1, %r2, 0;";
    assert_eq!(run(body, [u32::MAX, 3, 2, 0]), [u32::MAX, u32::MAX, 0, 0]);
}
