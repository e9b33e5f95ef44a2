//! The vop2 test harness shared by `tests/lower_vsub2.rs`,
//! `tests/ptxas.rs` and `examples/vop2-sweep.rs`: every form's spelling, a
//! one-instruction kernel over (a, b, c) triples, the edge half-words,
//! input generation and a direct evaluator run.

#![allow(dead_code)]

/// Edge half-words: zero, one, the signed limits and their neighbours,
/// byte and alternating patterns.
pub const HALVES: [u32; 12] = [
    0, 1, 2, 0x7fff, 0x8000, 0x8001, 0xfffe, 0xffff, 0x00ff, 0xff00, 0x5555, 0xaaaa,
];

/// A kernel whose thread `t` loads `%r1, %r2, %r3` from triple `t` of the
/// first buffer, runs `inst` and stores `%r3` to word `t` of the second.
pub fn kernel(inst: &str) -> String {
    kernel_for(inst, "7.0", "sm_80")
}

/// [`kernel`] with another `.version` and `.target`.
pub fn kernel_for(inst: &str, version: &str, target: &str) -> String {
    format!(
        ".version {version}\n.target {target}\n.address_size 64\n\
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

/// Every pair of `halves` pairs as (a, b) with a random c, then `random`
/// random triples, from xorshift seeded with `seed`.
pub fn inputs_from(halves: &[u32], random: usize, seed: u64) -> Vec<u32> {
    let mut v = Vec::new();
    let mut x = seed;
    let mut next = || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x as u32
    };
    for &a1 in halves {
        for &a0 in halves {
            for &b1 in halves {
                for &b0 in halves {
                    v.extend([a1 << 16 | a0, b1 << 16 | b0, next()]);
                }
            }
        }
    }
    for _ in 0..random {
        v.extend([next(), next(), next()]);
    }
    v
}

/// `data` padded with zero triples to whole blocks of 256 threads.
pub fn padded(mut data: Vec<u32>) -> Vec<u32> {
    while !(data.len() / 3).is_multiple_of(256) {
        data.extend([0, 0, 0]);
    }
    data
}

/// Runs the kernel on `data` (triples a, b, c per thread, whole blocks of
/// 256); returns `out`. Straight through the evaluator's API: no JSON for
/// half a million words.
pub fn run(ptx: &str, data: &[u32]) -> Vec<u32> {
    let module = ptx_parse::parse_module(ptx).unwrap();
    let n = data.len() / 3;
    assert_eq!(n % 256, 0);
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

/// `lower-vsub2` alone, with the verifier after it.
pub fn lower_config() -> ptx_opt::Config {
    let mut cfg = ptx_opt::Config::default();
    cfg.passes.push((
        ptx_passes::registry::lookup("lower-vsub2").unwrap(),
        Vec::new(),
    ));
    cfg.instrumentation.verify_each = true;
    cfg
}

/// A vop2 spelling without its merge mask: `op.d.a.b` and a mode (`""`,
/// `".sat"` or `".add"`).
pub struct Form {
    pub op: &'static str,
    pub d: &'static str,
    pub a: &'static str,
    pub b: &'static str,
    pub mode: &'static str,
}

impl Form {
    /// `vadd2.u32.s32.u32.sat`.
    pub fn spelling(&self) -> String {
        format!("{}.{}.{}.{}{}", self.op, self.d, self.a, self.b, self.mode)
    }
}

/// Every vop2 op × type triple × mode: 6 × 8 × 3 forms.
pub fn forms() -> Vec<Form> {
    let types = ["u32", "s32"];
    let mut out = Vec::new();
    for op in ["vadd2", "vsub2", "vavrg2", "vabsdiff2", "vmin2", "vmax2"] {
        for d in types {
            for a in types {
                for b in types {
                    for mode in ["", ".sat", ".add"] {
                        out.push(Form { op, d, a, b, mode });
                    }
                }
            }
        }
    }
    out
}
