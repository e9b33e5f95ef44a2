//! Three-input `min`/`max` (PTX ISA 8.8, sm_100+; Triton writes
//! `max.f32 d, a, b, c` for sm_120): the two-input rule applied twice, so
//! a NaN input is ignored (and wins under `.NaN`, giving the canonical
//! NaN), `-0 < +0`, and `.ftz` flushes subnormals.

mod one_thread;

fn one(inst: &str, ty: &str, x: [u32; 3]) -> u32 {
    let ptx = format!(
        ".version 8.8\n.target sm_100\n.address_size 64\n\
         .visible .entry k(.param .u64 k_in, .param .u64 k_out)\n{{\n\
         \t.reg .{ty} %v<8>;\n\t.reg .b64 %x<4>;\n\
         \tld.param.u64 %x1, [k_in];\n\tld.param.u64 %x2, [k_out];\n\
         \tld.global.{ty} %v1, [%x1];\n\tld.global.{ty} %v2, [%x1+4];\n\tld.global.{ty} %v3, [%x1+8];\n\
         \t{inst} %v4, %v1, %v2, %v3;\n\tst.global.{ty} [%x2], %v4;\n\tret;\n}}\n"
    );
    one_thread::run(inst, &ptx, &x, 1)[0]
}

fn f(x: f32) -> u32 {
    x.to_bits()
}

#[test]
fn three_input_float_min_max() {
    assert_eq!(one("max.f32", "f32", [f(1.0), f(-2.0), f(3.0)]), f(3.0));
    assert_eq!(one("min.f32", "f32", [f(1.0), f(-2.0), f(3.0)]), f(-2.0));
    // A NaN input is ignored; under .NaN it wins.
    assert_eq!(one("max.f32", "f32", [f(1.0), 0x7fc0_0000, f(0.5)]), f(1.0));
    assert_eq!(
        one("max.NaN.f32", "f32", [f(1.0), 0x7fc0_0000, f(0.5)]),
        0x7fff_ffff
    );
    // -0 < +0.
    assert_eq!(one("max.f32", "f32", [f(-0.0), f(-0.0), f(0.0)]), f(0.0));
    assert_eq!(one("min.f32", "f32", [f(0.0), f(-0.0), f(0.0)]), f(-0.0));
    // .ftz: the subnormal 2^-149 is 0, below 2^-126.
    assert_eq!(one("max.ftz.f32", "f32", [1, 0, 0x8000_0000]), 0);
    assert_eq!(one("max.f32", "f32", [1, 0, 0x8000_0000]), 1);
}

#[test]
fn three_input_integer_min_max() {
    assert_eq!(one("max.s32", "s32", [5, -7i32 as u32, 3]), 5);
    assert_eq!(one("min.s32", "s32", [5, -7i32 as u32, 3]), -7i32 as u32);
    // The same words unsigned: 0xfffffff9 is the largest.
    assert_eq!(one("max.u32", "u32", [5, -7i32 as u32, 3]), -7i32 as u32);
    assert_eq!(one("min.u32", "u32", [5, -7i32 as u32, 3]), 3);
}
