//! Every vop2 form through `lower-vsub2`, checked in the evaluator on all
//! pairs of edge half-word pairs (12⁴ = 20,736) and 100,000 random
//! triples: the six operations × eight type triples × plain/`.sat`/`.add`
//! × four destination masks × four selector pairs (the default and three
//! others). Prints one line per operation and exits 1 on any difference.
//! (The test suite runs a shorter version: `tests/lower_vsub2.rs`.)
//!
//! ```text
//! cargo run --release -p ptx-opt --example vop2-sweep [RANDOM]
//! ```

use ptx_opt::{process_with, Config};
use ptx_passes::registry::lookup;

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

fn inputs(random: usize) -> Vec<u32> {
    let mut v = Vec::new();
    let mut x = 0x2545_F491_4F6C_DD1Du64;
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
    for _ in 0..random {
        v.extend([next(), next(), next()]);
    }
    while !(v.len() / 3).is_multiple_of(256) {
        v.extend([0, 0, 0]);
    }
    v
}

fn run(ptx: &str, data: &[u32]) -> Vec<u32> {
    let module = ptx_parse::parse_module(ptx).unwrap();
    let n = data.len() / 3;
    let mut m = ptx_eval::Machine::new(1 << 40);
    let input = m.global.alloc(data.len() as u64 * 4);
    for (k, w) in data.iter().enumerate() {
        m.global.write(input + 4 * k as u64, 4, *w as u128).unwrap();
    }
    let out = m.global.alloc(n as u64 * 4);
    let mut params = input.to_le_bytes().to_vec();
    params.extend(out.to_le_bytes());
    let launch = ptx_eval::Launch {
        grid: [(n / 256) as u32, 1, 1],
        block: [256, 1, 1],
    };
    ptx_eval::run(&module, "k", &launch, &params, &mut m).unwrap();
    (0..n as u64)
        .map(|k| m.global.read(out + 4 * k, 4).unwrap() as u32)
        .collect()
}

fn main() {
    let random = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(100_000);
    let data = inputs(random);
    let mut cfg = Config::default();
    cfg.passes
        .push((lookup("lower-vsub2").unwrap(), Vec::new()));
    cfg.instrumentation.verify_each = true;
    let sels = [
        ("", ""),
        (".h01", ".h23"),
        (".h32", ".h10"),
        (".h13", ".h02"),
    ];
    let start = std::time::Instant::now();
    let (mut forms, mut bad) = (0, 0);
    for op in ["vadd2", "vsub2", "vavrg2", "vabsdiff2", "vmin2", "vmax2"] {
        let mut here = 0;
        for d in ["u32", "s32"] {
            for a in ["u32", "s32"] {
                for b in ["u32", "s32"] {
                    for mode in ["", ".sat", ".add"] {
                        for mask in ["", ".h0", ".h1", ".h10"] {
                            for (asel, bsel) in sels {
                                let inst = format!(
                                    "{op}.{d}.{a}.{b}{mode} %r3{mask}, %r1{asel}, %r2{bsel}, %r3;"
                                );
                                let src = kernel(&inst);
                                let out = process_with(src.as_bytes(), &cfg).unwrap().text;
                                if run(&src, &data) != run(&out, &data) {
                                    eprintln!("DIFFERS: {inst}");
                                    bad += 1;
                                }
                                here += 1;
                            }
                        }
                    }
                }
            }
        }
        forms += here;
        println!(
            "{op}: {here} forms, {} inputs each, {:.0} s so far",
            data.len() / 3,
            start.elapsed().as_secs_f64()
        );
    }
    println!("{forms} forms, {bad} differ");
    std::process::exit(i32::from(bad > 0));
}
