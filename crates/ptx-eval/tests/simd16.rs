//! `add`/`min`/`max` on `.u16x2`/`.s16x2` (PTX 8.0, sm_90): each half-word
//! on its own. (They used to run as one 16-bit operation on the low half.)

use serde_json::json;

fn run(inst: &str, a: u32, b: u32) -> u32 {
    let ptx = format!(
        ".version 8.0\n.target sm_90\n.address_size 64\n\
         .visible .entry k(.param .u64 k_o)\n{{\n\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<2>;\n\
         \tld.param.u64 %rd1, [k_o];\n\tld.global.u32 %r1, [%rd1];\n\tld.global.u32 %r2, [%rd1+4];\n\
         \t{inst} %r3, %r1, %r2;\n\tst.global.u32 [%rd1+8], %r3;\n\tret;\n}}\n"
    );
    let module = ptx_parse::parse_module(&ptx).unwrap();
    let case = json!({"block": [1], "buffers": {"o": {"type": "u32", "data": [a, b, 0]}},
                      "params": [{"buffer": "o"}]});
    let r = ptx_eval::case::run_case(&module, &case.to_string(), 1 << 20).unwrap();
    r["buffers"]["o"][2].as_u64().unwrap() as u32
}

#[test]
fn half_words_are_independent() {
    let (a, b) = (0xffff_0001, 0x0000_ffff); // a = (-1, 1), b = (0, -1)
    assert_eq!(run("min.s16x2", a, b), 0xffff_ffff);
    assert_eq!(run("max.s16x2", a, b), 0x0000_0001);
    assert_eq!(run("min.u16x2", a, b), 0x0000_0001);
    assert_eq!(run("max.u16x2", a, b), 0xffff_ffff);
    assert_eq!(run("max.relu.s16x2", 0x8000_8000, 0xfffe_0003), 0x0000_0003);
    // No carry from the low half into the high one.
    assert_eq!(run("add.u16x2", 0x0001_ffff, 0x0001_0001), 0x0002_0000);
    assert_eq!(run("add.s16x2", 0x7fff_0000, 0x0001_0000), 0x8000_0000);
}
