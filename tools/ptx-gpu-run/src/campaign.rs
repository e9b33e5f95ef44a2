//! The differential campaign's cases: what runs on the GPU and what the
//! evaluator says it should give.
//!
//! Four groups, each entry a PTX file plus a `ptx-eval` case:
//!
//! * `corpus`: every kernel of the repository's PTX corpus (`llc` output,
//!   `llvm-stress`, the evaluator's kernels, the legacy corpus) whose
//!   pointer parameters can be given buffers: the evaluator decides, an
//!   entry is kept when it runs to the end on the case.
//! * `gen`: programs of the random generator (`ptx_eval::gen`).
//! * `inst`: one kernel per instruction form (set/setp/selp, lop3 with all
//!   256 LUTs, the vop2 family, vote and vote.sync in divergent warps,
//!   prmt/bfe/bfi/shf, integer and f32 arithmetic, the `.approx`
//!   functions), each thread reading
//!   `a[i]`, `b[i]`, `c[i]` (edge values crossed, then random words) and
//!   writing `out[i]`.
//! * variants: each of the above after a pass (`-O2`, the lowerings, the
//!   lop3 and set passes), compared on the GPU with its original.

use ptx_eval::case::Case;
use ptx_eval::rng::splitmix;
use serde_json::{json, Value as Json};
use std::fmt::Write as _;

/// One PTX module of the campaign with its kernels' cases.
pub struct Module {
    /// File name (no directory), e.g. `inst-lop3.ptx`.
    pub file: String,
    /// Group: `corpus`, `gen` or `inst`.
    pub group: &'static str,
    /// The PTX text.
    pub text: String,
    /// `(entry id, case JSON, what the entry tests)`.
    pub cases: Vec<(String, Json, String)>,
    /// Pipelines (`ptx-opt` arguments) whose output is run as a variant.
    pub variants: Vec<&'static [&'static str]>,
}

/// Edge words: small shift/position amounts, half-word and word bounds,
/// float specials (±0, ±inf, quiet/signalling NaN, denormals, 1.0; the
/// high words of f64 infinity and NaN).
pub const EDGES: [u32; 26] = [
    0,
    1,
    2,
    7,
    15,
    16,
    31,
    32,
    33,
    0x7fff,
    0x8000,
    0xffff,
    0x1_0000,
    0x7fff_ffff,
    0x8000_0000,
    0xffff_ffff,
    0x7f80_0000,
    0xff80_0000,
    0x7fc0_0000,
    0x7f80_0001,
    0x3f80_0000,
    0x8000_0001,
    0x0000_8001,
    0x1234_5678,
    0x7ff0_0000,
    0x7ff8_0000,
];

/// Threads per per-instruction case.
pub const THREADS: usize = 1024;

/// The inputs of a per-instruction case: the first `26 × 26` threads take
/// every pair of edge words for `a` and `b` (with `c` an edge word too),
/// the rest random words, now and then an edge word.
pub fn inst_inputs(seed: u64) -> [Vec<u32>; 3] {
    let mut s = seed;
    let n = EDGES.len();
    let mut abc = [Vec::new(), Vec::new(), Vec::new()];
    for i in 0..THREADS {
        let mut word = |k: usize| -> u32 {
            let r = splitmix(&mut s);
            if i < n * n {
                match k {
                    0 => EDGES[i % n],
                    1 => EDGES[i / n],
                    _ => EDGES[(i * 7 + r as usize % 3) % n],
                }
            } else if r.is_multiple_of(8) {
                EDGES[(r >> 8) as usize % n]
            } else {
                (r >> 32) as u32
            }
        };
        let w = [word(0), word(1), word(2)];
        for k in 0..3 {
            abc[k].push(w[k]);
        }
    }
    abc
}

fn inst_case(entry: &str, seed: u64) -> Json {
    let [a, b, c] = inst_inputs(seed);
    json!({"entry": entry, "grid": [(THREADS / 256) as u32], "block": [256],
           "buffers": {"a": {"type": "u32", "data": a}, "b": {"type": "u32", "data": b},
                       "c": {"type": "u32", "data": c}, "out": {"type": "u32", "zeros": THREADS}},
           "params": [{"buffer": "a"}, {"buffer": "b"}, {"buffer": "c"}, {"buffer": "out"}]})
}

/// A kernel computing `%r4` (the result) from `%r1`, `%r2`, `%r3` (= `a`,
/// `b`, `c` of this thread) with `body`; `%r5`..`%r15`, `%p1`..`%p7`,
/// `%h1`..`%h3` (b16) and `%d1`..`%d3` (b64) are free for it.
fn inst_kernel(name: &str, body: &str) -> String {
    format!(
        ".visible .entry {name}(.param .u64 {name}_a, .param .u64 {name}_b, .param .u64 {name}_c, .param .u64 {name}_out)
{{
\t.reg .b32 %r<16>;
\t.reg .pred %p<8>;
\t.reg .b16 %h<4>;
\t.reg .b64 %d<5>;
\t.reg .b64 %x<8>;
\tmov.u32 %r5, %ctaid.x;
\tmov.u32 %r6, %ntid.x;
\tmov.u32 %r7, %tid.x;
\tmad.lo.s32 %r0, %r5, %r6, %r7;
\tmul.wide.u32 %x0, %r0, 4;
\tld.param.u64 %x1, [{name}_a];
\tadd.s64 %x1, %x1, %x0;
\tld.global.u32 %r1, [%x1];
\tld.param.u64 %x2, [{name}_b];
\tadd.s64 %x2, %x2, %x0;
\tld.global.u32 %r2, [%x2];
\tld.param.u64 %x3, [{name}_c];
\tadd.s64 %x3, %x3, %x0;
\tld.global.u32 %r3, [%x3];
{body}
\tld.param.u64 %x4, [{name}_out];
\tadd.s64 %x4, %x4, %x0;
\tst.global.u32 [%x4], %r4;
\tret;
}}
"
    )
}

/// Builds a per-instruction module: `forms` are `(kernel name, body,
/// description)`.
fn inst_module(
    name: &str,
    version: &str,
    target: &str,
    forms: Vec<(String, String, String)>,
    variants: Vec<&'static [&'static str]>,
) -> Module {
    let mut text = format!(
        "// ptx-gpu-run campaign: {name}\n.version {version}\n.target {target}\n.address_size 64\n\n"
    );
    let mut cases = Vec::new();
    for (k, (kernel, body, what)) in forms.into_iter().enumerate() {
        let body: String = body
            .lines()
            .map(|l| format!("\t{};\n", l.trim().trim_end_matches(';')))
            .collect();
        text.push_str(&inst_kernel(&kernel, body.trim_end_matches('\n')));
        text.push('\n');
        let seed = (k as u64 + 1).wrapping_mul(0x2545_f491_4f6c_dd1d) ^ name.len() as u64;
        cases.push((kernel.clone(), inst_case(&kernel, seed), what));
    }
    Module {
        file: format!("inst-{name}.ptx"),
        group: "inst",
        text,
        cases,
        variants,
    }
}

/// A form computing one instruction into `%r4`.
fn form(kernels: &mut Vec<(String, String, String)>, prefix: &str, body: String, what: String) {
    let name = format!("{prefix}_{}", kernels.len());
    kernels.push((name, body, what));
}

const INT_CMPS: [&str; 10] = ["eq", "ne", "lt", "le", "gt", "ge", "lo", "ls", "hi", "hs"];
const FLOAT_CMPS: [&str; 14] = [
    "eq", "ne", "lt", "le", "gt", "ge", "equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan",
];
const SETP_TO_R4: &str = "selp.u32 %r5, 1, 0, %p1\nselp.u32 %r6, 2, 0, %p2\nor.b32 %r4, %r5, %r6";

fn compares() -> Module {
    let mut k = Vec::new();
    let cbit = "and.b32 %r9, %r3, 1\nsetp.ne.u32 %p3, %r9, 0";
    for (ty, cmps) in [
        ("u32", &INT_CMPS[..]),
        ("s32", &INT_CMPS[..6]),
        ("b32", &INT_CMPS[..2]),
        ("f32", &FLOAT_CMPS[..]),
    ] {
        for cmp in cmps {
            for dty in ["u32", "s32", "f32"] {
                let i = format!("set.{cmp}.{dty}.{ty} %r4, %r1, %r2");
                form(&mut k, "set", i.clone(), i);
            }
            let i = format!("setp.{cmp}.{ty} %p1|%p2, %r1, %r2");
            form(&mut k, "setp", format!("{i}\n{SETP_TO_R4}"), i);
            for bop in ["and", "or", "xor"] {
                let i = format!("set.{cmp}.{bop}.u32.{ty} %r4, %r1, %r2, !%p3");
                form(&mut k, "setb", format!("{cbit}\n{i}"), i);
                let i = format!("setp.{cmp}.{bop}.{ty} %p1|%p2, %r1, %r2, %p3");
                form(&mut k, "setpb", format!("{cbit}\n{i}\n{SETP_TO_R4}"), i);
            }
            if ty == "f32" {
                let i = format!("set.{cmp}.ftz.u32.f32 %r4, %r1, %r2");
                form(&mut k, "setftz", i.clone(), i);
            }
        }
    }
    // Half precision: the low half-words of a and b.
    for ty in ["f16", "bf16"] {
        for cmp in FLOAT_CMPS {
            let i = format!("setp.{cmp}.{ty} %p1, %h1, %h2");
            form(
                &mut k,
                "seth",
                format!("cvt.u16.u32 %h1, %r1\ncvt.u16.u32 %h2, %r2\n{i}\nselp.u32 %r4, 1, 0, %p1"),
                i,
            );
        }
    }
    // A set result used as a number: 0 or all ones, never 1.
    for second in [
        "set.eq.u32.s32 %r4, %r5, 1",
        "set.eq.u32.s32 %r4, %r5, -1",
        "set.ne.u32.u32 %r4, %r5, 0",
        "add.s32 %r4, %r5, 1",
        "and.b32 %r4, %r5, %r3",
    ] {
        let i = format!("set.ne.u32.s32 %r5, %r1, %r2; {second}");
        form(&mut k, "setchain", i.replace("; ", "\n"), i);
    }
    for ty in ["b32", "f32"] {
        let i = format!("selp.{ty} %r4, %r1, %r2, %p3");
        form(&mut k, "selp", format!("{cbit}\n{i}"), i);
    }
    for ty in ["s32", "f32"] {
        for dty in ["b32", "f32", "u32"] {
            let i = format!("slct.{dty}.{ty} %r4, %r1, %r2, %r3");
            form(&mut k, "slct", i.clone(), i);
        }
    }
    inst_module(
        "compare",
        "7.8",
        "sm_90",
        k,
        vec![&["-passes=set-fold"], &["-O2"]],
    )
}

fn lop3() -> Module {
    let mut k = Vec::new();
    for lut in 0..256 {
        let i = format!("lop3.b32 %r4, %r1, %r2, %r3, {lut}");
        form(&mut k, "lop3", i.clone(), i);
    }
    for bop in ["or", "and"] {
        for lut in [0x96, 0xe8, 0x00, 0xff, 0x80, 0x01] {
            let i = format!("lop3.{bop}.b32 %r5|%p1, %r1, %r2, %r3, {lut}, %p3");
            form(
                &mut k,
                "lop3p",
                format!("and.b32 %r9, %r3, 2\nsetp.ne.u32 %p3, %r9, 0\n{i}\nselp.u32 %r6, 0x80000001, 0, %p1\nxor.b32 %r4, %r5, %r6"),
                i,
            );
        }
    }
    inst_module(
        "lop3",
        "8.2",
        "sm_90",
        k,
        vec![&["-passes=lop3-expand"], &["-passes=lop3-expand,lop3-fuse"]],
    )
}

fn vop2(op: &'static str) -> Module {
    let mut k = Vec::new();
    let mut s = op.len() as u64 * 77;
    let tys = ["u32", "s32"];
    let sel = |s: &mut u64| -> String {
        let r = splitmix(s);
        if r.is_multiple_of(4) {
            String::new()
        } else {
            format!(".h{}{}", (r >> 8) % 4, (r >> 16) % 4)
        }
    };
    for dt in tys {
        for at in tys {
            for bt in tys {
                for second in ["", ".sat", ".add"] {
                    for mask in ["", ".h0", ".h1", ".h10"] {
                        for plain in [true, false] {
                            let (asel, bsel) = if plain {
                                (String::new(), String::new())
                            } else {
                                (sel(&mut s), sel(&mut s))
                            };
                            if !plain && asel.is_empty() && bsel.is_empty() {
                                continue;
                            }
                            let i = format!(
                                "{op}.{dt}.{at}.{bt}{second} %r4{mask}, %r1{asel}, %r2{bsel}, %r3"
                            );
                            // The destination is also the merge source.
                            form(&mut k, op, format!("mov.b32 %r4, %r3\n{i}"), i);
                        }
                    }
                }
            }
        }
    }
    inst_module(
        op,
        "7.8",
        "sm_90",
        k,
        vec![
            &["-passes=lower-vsub2", "--target=sm_90"],
            &["-passes=legalize", "--target=sm_90"],
        ],
    )
}

/// Votes in divergent warps: lanes whose `c & 3` is 0 skip the vote and
/// write a sentinel; the voted predicate comes from `a`.
fn votes(sync: bool) -> Module {
    let mut k = Vec::new();
    let preds = [
        ("and.b32 %r9, %r1, 1\nsetp.ne.u32 %p2, %r9, 0", "a&1"),
        ("and.b32 %r9, %r1, 255\nsetp.ne.u32 %p2, %r9, 0", "a&255"),
        ("setp.ne.u32 %p2, %r2, 7", "b!=7"),
    ];
    for (pcode, pwhat) in preds {
        for neg in ["", "!"] {
            for mode in ["any", "all", "uni", "ballot"] {
                for diverge in [true, false] {
                    let vote = match (sync, mode) {
                        (false, "ballot") => format!("vote.ballot.b32 %r4, {neg}%p2"),
                        (false, m) => {
                            format!("vote.{m}.pred %p1, {neg}%p2\nselp.u32 %r4, 1, 0, %p1")
                        }
                        (true, "ballot") => {
                            format!("activemask.b32 %r8\nvote.sync.ballot.b32 %r4, {neg}%p2, %r8")
                        }
                        (true, m) => format!(
                            "activemask.b32 %r8\nvote.sync.{m}.pred %p1, {neg}%p2, %r8\nselp.u32 %r4, 1, 0, %p1"
                        ),
                    };
                    let skip = format!("$SKIP{}", k.len());
                    let body = if diverge {
                        format!("mov.u32 %r4, 57005\nand.b32 %r10, %r3, 3\nsetp.eq.u32 %p4, %r10, 0\n@%p4 bra {skip}\n{pcode}\n{vote}\n{skip}:")
                    } else {
                        format!("{pcode}\n{vote}")
                    };
                    let what = format!(
                        "{} ({pwhat}{})",
                        vote.lines().find(|l| l.starts_with("vote")).unwrap_or(""),
                        if diverge {
                            ", lanes with c&3==0 inactive"
                        } else {
                            ""
                        }
                    );
                    form(&mut k, if sync { "votes" } else { "vote" }, body, what);
                }
            }
        }
    }
    // Guarded votes: lanes whose guard (bits 2..3 of c) is false take no
    // part, and with `.sync` the guard is copied onto `activemask` (what
    // `lower-vote` writes).
    for mode in ["any", "all", "uni", "ballot"] {
        let vote = match (sync, mode) {
            (false, "ballot") => "@%p5 vote.ballot.b32 %r4, %p2".to_string(),
            (false, m) => format!("@%p5 vote.{m}.pred %p1, %p2\n@%p5 selp.u32 %r4, 1, 0, %p1"),
            (true, "ballot") => {
                "@%p5 activemask.b32 %r8\n@%p5 vote.sync.ballot.b32 %r4, %p2, %r8".to_string()
            }
            (true, m) => format!(
                "@%p5 activemask.b32 %r8\n@%p5 vote.sync.{m}.pred %p1, %p2, %r8\n@%p5 selp.u32 %r4, 1, 0, %p1"
            ),
        };
        let body = format!(
            "mov.u32 %r4, 57005\nand.b32 %r11, %r3, 12\nsetp.ne.u32 %p5, %r11, 0\nand.b32 %r9, %r1, 1\nsetp.ne.u32 %p2, %r9, 0\n{vote}"
        );
        let what = format!(
            "{} (a&1, guarded by c&12)",
            vote.lines().find(|l| l.contains("vote")).unwrap_or("")
        );
        form(&mut k, if sync { "votes" } else { "vote" }, body, what);
    }
    // Labels are lines of their own: `inst_module` adds `;` to each line,
    // which must not follow a label.
    let mut m = if sync {
        inst_module(
            "vote-sync",
            "7.8",
            "sm_90",
            k,
            vec![&["-passes=legalize", "--target=sm_90"], &["-O2"]],
        )
    } else {
        inst_module(
            "vote-legacy",
            "6.0",
            "sm_60",
            k,
            vec![
                &["-passes=lower-vote", "--target=sm_90"],
                &["-passes=legalize", "--target=sm_90"],
            ],
        )
    };
    m.text = m.text.replace(":;\n", ":\n");
    m
}

fn bits() -> Module {
    let mut k = Vec::new();
    for mode in ["", ".f4e", ".b4e", ".rc8", ".ecl", ".ecr", ".rc16"] {
        let i = format!("prmt.b32{mode} %r4, %r1, %r2, %r3");
        form(&mut k, "prmt", i.clone(), i);
    }
    for ty in ["u32", "s32"] {
        let i = format!("bfe.{ty} %r4, %r1, %r2, %r3");
        form(&mut k, "bfe", i.clone(), i);
        let i = format!("bfe.{ty} %r4, %r1, %r3, 8");
        form(&mut k, "bfe", i.clone(), i);
    }
    let i = "bfi.b32 %r4, %r1, %r2, %r3, %r5".to_string();
    form(&mut k, "bfi", format!("shr.u32 %r5, %r3, 8\n{i}"), i);
    let i = "bfi.b32 %r4, %r1, %r2, %r3, 8".to_string();
    form(&mut k, "bfi", i.clone(), i);
    for dir in ["l", "r"] {
        for mode in ["wrap", "clamp"] {
            let i = format!("shf.{dir}.{mode}.b32 %r4, %r1, %r2, %r3");
            form(&mut k, "shf", i.clone(), i);
        }
    }
    for i in [
        "shl.b32 %r4, %r1, %r3",
        "shr.u32 %r4, %r1, %r3",
        "shr.s32 %r4, %r1, %r3",
        "add.sat.s32 %r4, %r1, %r2",
        "sub.sat.s32 %r4, %r1, %r2",
        "mul.hi.u32 %r4, %r1, %r2",
        "mul.hi.s32 %r4, %r1, %r2",
        "mad.hi.u32 %r4, %r1, %r2, %r3",
        "mad.hi.s32 %r4, %r1, %r2, %r3",
        "mul24.lo.u32 %r4, %r1, %r2",
        "mul24.hi.s32 %r4, %r1, %r2",
        "min.s32 %r4, %r1, %r2",
        "max.u32 %r4, %r1, %r2",
        "abs.s32 %r4, %r1",
        "neg.s32 %r4, %r1",
        "popc.b32 %r4, %r1",
        "clz.b32 %r4, %r1",
        "brev.b32 %r4, %r1",
        "bfind.u32 %r4, %r1",
        "bfind.s32 %r4, %r1",
        "bfind.shiftamt.u32 %r4, %r1",
        "cnot.b32 %r4, %r1",
        "add.rn.f32 %r4, %r1, %r2",
        "sub.rn.f32 %r4, %r1, %r2",
        "mul.rn.f32 %r4, %r1, %r2",
        "fma.rn.f32 %r4, %r1, %r2, %r3",
        "add.rn.ftz.f32 %r4, %r1, %r2",
        "min.f32 %r4, %r1, %r2",
        "max.f32 %r4, %r1, %r2",
        "min.NaN.f32 %r4, %r1, %r2",
        "max.NaN.f32 %r4, %r1, %r2",
        "min.ftz.f32 %r4, %r1, %r2",
        "div.rn.f32 %r4, %r1, %r2",
        "sqrt.rn.f32 %r4, %r1",
        "mul24.hi.u32 %r4, %r1, %r2",
        "mul24.lo.s32 %r4, %r1, %r2",
        "abs.f32 %r4, %r1",
        "neg.f32 %r4, %r1",
    ] {
        form(&mut k, "int", i.to_string(), i.to_string());
    }
    for (cvt, what) in [
        ("cvt.rni.s32.f32 %r4, %r1", "cvt.rni.s32.f32"),
        ("cvt.rzi.u32.f32 %r4, %r1", "cvt.rzi.u32.f32"),
        ("cvt.rmi.s32.f32 %r4, %r1", "cvt.rmi.s32.f32"),
        ("cvt.rpi.s32.f32 %r4, %r1", "cvt.rpi.s32.f32"),
        ("cvt.rni.u32.f32 %r4, %r1", "cvt.rni.u32.f32"),
        ("cvt.rzi.s32.f32 %r4, %r1", "cvt.rzi.s32.f32"),
        ("cvt.rn.f32.s32 %r4, %r1", "cvt.rn.f32.s32"),
        ("cvt.rn.f32.u32 %r4, %r1", "cvt.rn.f32.u32"),
        ("cvt.s32.s16 %r4, %r1", "cvt.s32.s16"),
        ("cvt.u32.u8 %r4, %r1", "cvt.u32.u8"),
    ] {
        form(&mut k, "cvt", cvt.to_string(), what.to_string());
    }
    // f64: x = b:a and y = c:b (high:low words); the result's low or high
    // word is the output.
    for op in [
        "add.rn.f64 %d3, %d1, %d2",
        "sub.rn.f64 %d3, %d1, %d2",
        "mul.rn.f64 %d3, %d1, %d2",
        "fma.rn.f64 %d3, %d1, %d2, %d1",
        "div.rn.f64 %d3, %d1, %d2",
        "sqrt.rn.f64 %d3, %d1",
        "min.f64 %d3, %d1, %d2",
        "max.f64 %d3, %d1, %d2",
        "abs.f64 %d3, %d1",
        "neg.f64 %d3, %d1",
    ] {
        for (half, take) in [("low", ""), ("high", "shr.b64 %d3, %d3, 32\n")] {
            let body = format!(
                "cvt.u64.u32 %d1, %r1\ncvt.u64.u32 %d0, %r2\nshl.b64 %d0, %d0, 32\nor.b64 %d1, %d1, %d0\n\
                 cvt.u64.u32 %d2, %r2\ncvt.u64.u32 %d0, %r3\nshl.b64 %d0, %d0, 32\nor.b64 %d2, %d2, %d0\n\
                 {op}\n{take}cvt.u32.u64 %r4, %d3"
            );
            form(&mut k, "f64", body, format!("{op} ({half} word)"));
        }
    }
    // The approximate functions: compared within the bound the evaluator
    // states for each (ptx_eval::compare), not bit for bit.
    for i in [
        "rcp.approx.f32 %r4, %r1",
        "rcp.approx.ftz.f32 %r4, %r1",
        "sqrt.approx.f32 %r4, %r1",
        "rsqrt.approx.f32 %r4, %r1",
        "ex2.approx.f32 %r4, %r1",
        "ex2.approx.ftz.f32 %r4, %r1",
        "lg2.approx.f32 %r4, %r1",
        "sin.approx.f32 %r4, %r1",
        "cos.approx.f32 %r4, %r1",
        "tanh.approx.f32 %r4, %r1",
        "div.approx.f32 %r4, %r1, %r2",
        "div.full.f32 %r4, %r1, %r2",
        "ex2.approx.f16x2 %r4, %r1",
        "ex2.approx.ftz.bf16x2 %r4, %r1",
        "tanh.approx.f16x2 %r4, %r1",
        "tanh.approx.bf16x2 %r4, %r1",
    ] {
        form(&mut k, "approx", i.to_string(), i.to_string());
    }
    inst_module("bits", "7.8", "sm_90", k, vec![&["-O2"]])
}

/// The per-instruction modules.
pub fn inst_modules() -> Vec<Module> {
    let mut out = vec![compares(), lop3(), bits(), votes(false), votes(true)];
    for op in ["vadd2", "vsub2", "vavrg2", "vabsdiff2", "vmin2", "vmax2"] {
        out.push(vop2(op));
    }
    out
}

/// The generated programs `first..first + n`, one kernel and case each.
pub fn gen_modules(first: u64, n: u64) -> Vec<Module> {
    (first..first + n)
        .map(|seed| {
            let mut s = seed ^ 0x5eed;
            let p: Vec<u32> = (0..3).map(|_| splitmix(&mut s) as u32).collect();
            let case = json!({"grid": [1], "block": [64],
                "buffers": {"out": {"type": "u32", "zeros": 64 * 16}},
                "params": [{"buffer": "out"}, {"u32": p[0]}, {"u32": p[1]}, {"u32": p[2]}]});
            Module {
                file: format!("gen-{seed}.ptx"),
                group: "gen",
                text: ptx_eval::gen::program(seed),
                cases: vec![("gen".into(), case, format!("gen::program({seed})"))],
                variants: vec![
                    &["-O2"],
                    &["-passes=legalize", "--target=sm_90"],
                    &["-passes=lop3-fuse"],
                    &["-passes=lop3-expand"],
                    &["-passes=set-fold"],
                ],
            }
        })
        .collect()
}

/// Cases for every kernel of a corpus file: 8-byte parameters get a
/// buffer of random words (64 KiB), narrower ones small values. Whether a
/// case is usable is for the evaluator to say.
pub fn corpus_module(file: &str, text: &str, legacy: bool) -> Option<Module> {
    let module = ptx_parse::parse_module(text).ok()?;
    let mut cases = Vec::new();
    for f in module
        .functions()
        .filter(|f| f.kind == ptx_ir::FuncKind::Entry && f.has_body)
    {
        let (slots, _) = ptx_eval::param_layout(f);
        let mut s = f.name.len() as u64 * 1_000_003 + text.len() as u64;
        let mut buffers = serde_json::Map::new();
        let mut params = Vec::new();
        for (k, &(_, size)) in slots.iter().enumerate() {
            if size == 8 {
                let name = format!("p{k}");
                let data: Vec<u32> = (0..16384)
                    .map(|_| (splitmix(&mut s) >> 40) as u32 & 0xff)
                    .collect();
                buffers.insert(name.clone(), json!({"type": "u32", "data": data}));
                params.push(json!({ "buffer": name }));
            } else if size == 4 {
                params.push(json!({"u32": splitmix(&mut s) % 64}));
            } else if size == 2 {
                params.push(json!({"u16": splitmix(&mut s) % 64}));
            } else {
                params.push(json!({"u8": splitmix(&mut s) % 64}));
            }
        }
        // One warp: kernels written to be compiled, not run, often let
        // threads of different warps race on the same words.
        let case = json!({"entry": &*f.name, "grid": [1], "block": [32],
                          "buffers": buffers, "params": params});
        cases.push((f.name.to_string(), case, format!("{file}: {}", f.name)));
    }
    if cases.is_empty() {
        return None;
    }
    Some(Module {
        file: format!("corpus-{}", file.replace('/', "-")),
        group: "corpus",
        text: text.to_string(),
        cases,
        variants: if legacy {
            vec![&["-passes=legalize", "--target=sm_90"]]
        } else {
            vec![&["-O2"]]
        },
    })
}

/// The first difference between two results' `buffers`: `(buffer, index,
/// expected, got)`.
pub fn first_difference(want: &Json, got: &Json) -> Option<(String, usize, Json, Json)> {
    let (Some(w), Some(g)) = (want.as_object(), got.as_object()) else {
        return Some((String::new(), 0, want.clone(), got.clone()));
    };
    for (name, wv) in w {
        let gv = g.get(name).cloned().unwrap_or(Json::Null);
        let (Some(wa), Some(ga)) = (wv.as_array(), gv.as_array()) else {
            return Some((name.clone(), 0, wv.clone(), gv));
        };
        for i in 0..wa.len().max(ga.len()) {
            let (a, b) = (wa.get(i), ga.get(i));
            if a != b {
                return Some((
                    name.clone(),
                    i,
                    a.cloned().unwrap_or(Json::Null),
                    b.cloned().unwrap_or(Json::Null),
                ));
            }
        }
    }
    None
}

/// The inputs `a`, `b`, `c` of thread `i` of a per-instruction case, as text.
pub fn describe_inputs(case: &Case, i: usize) -> String {
    let mut s = String::new();
    for b in &case.buffers {
        if b.name != "out" && i < b.data.len() {
            let _ = write!(s, "{}=0x{:08x} ", b.name, b.data[i]);
        }
    }
    s.trim_end().to_string()
}
