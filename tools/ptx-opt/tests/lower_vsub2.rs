//! `lower-vsub2` is bit-exact: for every form it lowers (vadd2/vsub2 × the
//! eight type combinations × every destination mask), the kernel runs in
//! the evaluator before and after on every combination of edge half-words
//! in `a` and `b` (12⁴ = 20,736 pairs) and on 100,000 random triples; the
//! stored words must be identical, and the vop2 must be gone (except the
//! all-u32 full-mask form, which stays native because ptxas does it in
//! fewer instructions).

use ptx_opt::{process_with, Config};
use ptx_passes::registry::lookup;
use serde_json::json;

const HALVES: [u32; 12] = [
    0, 1, 2, 0x7fff, 0x8000, 0x8001, 0xfffe, 0xffff, 0x00ff, 0xff00, 0x5555, 0xaaaa,
];

fn kernel(inst: &str) -> String {
    format!(
        ".version 7.0\n.target sm_80\n.address_size 64\n\
         .visible .entry k(.param .u64 pin, .param .u64 pout)\n{{\n\
         .reg .b32 %r<8>;\n.reg .b64 %rd<8>;\n\
         ld.param.u64 %rd1, [pin];\nld.param.u64 %rd2, [pout];\n\
         mov.u32 %r4, %ctaid.x;\nmov.u32 %r5, %ntid.x;\nmov.u32 %r6, %tid.x;\nmad.lo.s32 %r7, %r4, %r5, %r6;\n\
         mul.wide.u32 %rd3, %r7, 12;\nadd.s64 %rd4, %rd1, %rd3;\n\
         ld.global.u32 %r1, [%rd4];\nld.global.u32 %r2, [%rd4+4];\nld.global.u32 %r3, [%rd4+8];\n\
         {inst}\n\
         mul.wide.u32 %rd5, %r7, 4;\nadd.s64 %rd6, %rd2, %rd5;\nst.global.u32 [%rd6], %r3;\nret;\n}}\n"
    )
}

fn inputs() -> Vec<u32> {
    let mut v = Vec::new();
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x as u32
    };
    for &a1 in &HALVES {
        for &a0 in &HALVES {
            for &b1 in &HALVES {
                for &b0 in &HALVES {
                    v.extend([a1 << 16 | a0, b1 << 16 | b0, next()]);
                }
            }
        }
    }
    for _ in 0..100_000 {
        v.extend([next(), next(), next()]);
    }
    v
}

fn run(ptx: &str, data: &[u32]) -> serde_json::Value {
    let m = ptx_parse::parse_module(ptx).unwrap();
    let n = data.len() / 3;
    assert_eq!(n % 256, 0);
    let case = json!({
        "grid": [n / 256, 1, 1], "block": [256, 1, 1],
        "buffers": {"in": {"type": "u32", "data": data}, "out": {"type": "u32", "zeros": n}},
        "params": [{"buffer": "in"}, {"buffer": "out"}]
    });
    ptx_eval::case::run_case(&m, &case.to_string(), 1 << 34).unwrap()["buffers"]["out"].clone()
}

#[test]
fn every_lowered_form_is_bit_exact() {
    let mut data = inputs();
    // Whole blocks of 256.
    while !(data.len() / 3).is_multiple_of(256) {
        data.extend([0, 0, 0]);
    }
    let mut cfg = Config::default();
    cfg.passes
        .push((lookup("lower-vsub2").unwrap(), Vec::new()));
    cfg.instrumentation.verify_each = true;
    let mut forms = 0;
    for op in ["vadd2", "vsub2"] {
        for d in ["u32", "s32"] {
            for a in ["u32", "s32"] {
                for b in ["u32", "s32"] {
                    for mask in ["", ".h0", ".h1", ".h10"] {
                        let src = kernel(&format!("{op}.{d}.{a}.{b} %r3{mask}, %r1, %r2, %r3;"));
                        let out = process_with(src.as_bytes(), &cfg).unwrap().text;
                        // The all-u32 full-mask form stays native (cheaper).
                        let native = [d, a, b] == ["u32"; 3] && (mask.is_empty() || mask == ".h10");
                        assert_eq!(out.contains(op), native, "{op}.{d}.{a}.{b}{mask}:\n{out}");
                        assert_eq!(run(&src, &data), run(&out, &data), "{op}.{d}.{a}.{b}{mask}");
                        forms += 1;
                    }
                }
            }
        }
    }
    assert_eq!(forms, 64);
}

#[test]
fn other_forms_are_left_alone() {
    let mut cfg = Config::default();
    cfg.passes
        .push((lookup("lower-vsub2").unwrap(), Vec::new()));
    for inst in [
        "vsub2.s32.s32.s32.sat %r3, %r1, %r2, %r3;",
        "vadd2.u32.u32.u32.add %r3, %r1, %r2, %r3;",
        "vsub2.s32.s32.s32 %r3, %r1.h01, %r2, %r3;",
        "vabsdiff2.u32.u32.u32 %r3, %r1, %r2, %r3;",
    ] {
        let out = process_with(kernel(inst).as_bytes(), &cfg).unwrap().text;
        assert!(out.contains(inst.split(' ').next().unwrap()), "{out}");
    }
}
