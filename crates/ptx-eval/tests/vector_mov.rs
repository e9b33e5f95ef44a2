//! `mov` with a vector operand, as nvcc writes it around half-precision
//! and 64-bit code: `mov.b32 d, {lo, hi}` packs equal-width parts (the
//! first in the low bits), `mov.b32 {lo, hi}, s` unpacks them, and
//! `mov.b64 d, {lo, hi}` joins two words. Values follow from the ISA's
//! definition of the vector forms (the first element is the least
//! significant).

mod one_thread;

fn one(body: &str, a: u32, b: u32) -> (u32, u32) {
    let ptx = format!(
        ".version 7.0\n.target sm_80\n.address_size 64\n\
         .visible .entry k(.param .u64 k_in, .param .u64 k_out)\n{{\n\
         \t.reg .b32 %r<8>;\n\t.reg .b16 %h<4>;\n\t.reg .b64 %x<4>;\n\
         \tld.param.u64 %x1, [k_in];\n\tld.param.u64 %x2, [k_out];\n\
         \tld.global.u32 %r1, [%x1];\n\tld.global.u32 %r2, [%x1+4];\n\
         {body}\n\tst.global.u32 [%x2], %r4;\n\tst.global.u32 [%x2+4], %r5;\n\tret;\n}}\n"
    );
    let out = one_thread::run(body, &ptx, &[a, b], 2);
    (out[0], out[1])
}

#[test]
fn pack_and_unpack_half_words() {
    // Unpack 0x89abcdef: low half 0xcdef, high half 0x89ab; pack them the
    // other way round.
    let body = "\tmov.b32 {%h1, %h2}, %r1;\n\tcvt.u32.u16 %r4, %h1;\n\tcvt.u32.u16 %r5, %h2;";
    assert_eq!(one(body, 0x89ab_cdef, 0), (0xcdef, 0x89ab));
    let body = "\tmov.b32 {%h1, %h2}, %r1;\n\tmov.b32 %r4, {%h2, %h1};\n\tmov.b32 %r5, {%h1, %h1};";
    assert_eq!(one(body, 0x89ab_cdef, 0), (0xcdef_89ab, 0xcdef_cdef));
}

#[test]
fn two_words_make_a_double_word() {
    // {lo, hi} = {0x11112222, 0x33334444}: 0x3333444411112222, whose
    // halves come back out with mov.b64 {lo, hi}.
    let body = "\tmov.b64 %x3, {%r1, %r2};\n\tshr.u64 %x3, %x3, 16;\n\tmov.b64 {%r4, %r5}, %x3;";
    assert_eq!(one(body, 0x1111_2222, 0x3333_4444), (0x4444_1111, 0x3333));
}
