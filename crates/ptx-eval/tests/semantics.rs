//! Per-instruction semantics: one instruction in a kernel, run on many
//! inputs, compared with reference values computed here from the ISA's
//! definitions (not from the evaluator).

use serde_json::json;

/// Runs `body` with `%r2..%r5` = the thread's four inputs; returns `%r10`
/// of each thread. `threads` lanes run (one CTA).
fn run_body(body: &str, inputs: &[[u32; 4]]) -> Vec<u32> {
    let src = format!(
        r#".version 7.8
.target sm_90
.address_size 64
.visible .entry k(.param .u64 pin, .param .u64 pout)
{{
	.reg .b32 %r<20>;
	.reg .b64 %rd<10>;
	.reg .pred %p<8>;
	.reg .f32 %f<8>;
	ld.param.u64 %rd1, [pin];
	ld.param.u64 %rd2, [pout];
	mov.u32 %r1, %tid.x;
	mul.wide.u32 %rd3, %r1, 16;
	add.s64 %rd4, %rd1, %rd3;
	ld.global.u32 %r2, [%rd4];
	ld.global.u32 %r3, [%rd4+4];
	ld.global.u32 %r4, [%rd4+8];
	ld.global.u32 %r5, [%rd4+12];
	mov.u32 %r10, 0;
{body}
	mul.wide.u32 %rd5, %r1, 4;
	add.s64 %rd6, %rd2, %rd5;
	st.global.u32 [%rd6], %r10;
	ret;
}}
"#
    );
    let module = ptx_parse::parse_module(&src)
        .unwrap_or_else(|d| panic!("{}", d.render("body", src.as_bytes())));
    let flat: Vec<u32> = inputs.iter().flatten().copied().collect();
    let case = json!({
        "block": [inputs.len(), 1, 1],
        "buffers": {"in": {"type": "u32", "data": flat}, "out": {"type": "u32", "zeros": inputs.len()}},
        "params": [{"buffer": "in"}, {"buffer": "out"}],
    });
    let out = ptx_eval::case::run_case(&module, &case.to_string(), 1 << 30)
        .unwrap_or_else(|e| panic!("{body}: {e}"));
    out["buffers"]["out"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap() as u32)
        .collect()
}

/// A small deterministic generator (SplitMix64).
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    /// Random words biased towards edge values.
    fn word(&mut self) -> u32 {
        const EDGES: [u32; 8] = [0, 1, 2, 31, 32, 0x7fff_ffff, 0x8000_0000, 0xffff_ffff];
        let r = self.next();
        if r.is_multiple_of(4) {
            EDGES[(r >> 8) as usize % EDGES.len()]
        } else {
            (r >> 16) as u32
        }
    }
    fn inputs(&mut self, n: usize) -> Vec<[u32; 4]> {
        (0..n)
            .map(|_| [self.word(), self.word(), self.word(), self.word()])
            .collect()
    }
}

/// Checks `body` against `reference(a, b, c, d)` on 64 random input rows.
fn check(body: &str, seed: u64, reference: impl Fn(u32, u32, u32, u32) -> u32) {
    let mut rng = Rng(seed);
    for _ in 0..4 {
        let inputs = rng.inputs(64);
        let got = run_body(body, &inputs);
        for (k, (row, g)) in inputs.iter().zip(&got).enumerate() {
            let want = reference(row[0], row[1], row[2], row[3]);
            assert_eq!(
                *g, want,
                "{body}: thread {k} inputs {row:x?}: got {g:#x}, want {want:#x}"
            );
        }
    }
}

#[test]
fn lop3_every_lut_matches_its_truth_table() {
    for lut in 0..256u32 {
        let body = format!("\tlop3.b32 %r10, %r2, %r3, %r4, {lut};");
        check(&body, lut as u64, |a, b, c, _| {
            // Bit i of the result is LUT[(a_i << 2) | (b_i << 1) | c_i].
            (0..32).fold(0, |acc, i| {
                let idx = ((a >> i) & 1) << 2 | ((b >> i) & 1) << 1 | ((c >> i) & 1);
                acc | ((lut >> idx) & 1) << i
            })
        });
    }
}

#[test]
fn shifts_of_32_or_more_clamp() {
    // shl/shr.u32 give 0 for amounts ≥ 32; shr.s32 fills with the sign.
    check(
        "\tand.b32 %r6, %r3, 63;\n\tshl.b32 %r10, %r2, %r6;",
        1,
        |a, b, _, _| {
            let s = b & 63;
            if s >= 32 {
                0
            } else {
                a << s
            }
        },
    );
    check(
        "\tand.b32 %r6, %r3, 63;\n\tshr.u32 %r10, %r2, %r6;",
        2,
        |a, b, _, _| {
            let s = b & 63;
            if s >= 32 {
                0
            } else {
                a >> s
            }
        },
    );
    check(
        "\tand.b32 %r6, %r3, 63;\n\tshr.s32 %r10, %r2, %r6;",
        3,
        |a, b, _, _| ((a as i32) >> (b & 63).min(31)) as u32,
    );
    // The full 32-bit amount counts, not its low five bits.
    check("\tshl.b32 %r10, %r2, %r3;", 4, |a, b, _, _| {
        if b >= 32 {
            0
        } else {
            a << b
        }
    });
}

#[test]
fn integer_arithmetic() {
    check("\tadd.s32 %r10, %r2, %r3;", 10, |a, b, _, _| {
        a.wrapping_add(b)
    });
    check("\tsub.s32 %r10, %r2, %r3;", 11, |a, b, _, _| {
        a.wrapping_sub(b)
    });
    check("\tmul.lo.s32 %r10, %r2, %r3;", 12, |a, b, _, _| {
        a.wrapping_mul(b)
    });
    check("\tmul.hi.u32 %r10, %r2, %r3;", 13, |a, b, _, _| {
        ((a as u64 * b as u64) >> 32) as u32
    });
    check("\tmul.hi.s32 %r10, %r2, %r3;", 14, |a, b, _, _| {
        ((a as i32 as i64 * b as i32 as i64) >> 32) as u32
    });
    check("\tmad.lo.s32 %r10, %r2, %r3, %r4;", 15, |a, b, c, _| {
        a.wrapping_mul(b).wrapping_add(c)
    });
    check("\tmin.s32 %r10, %r2, %r3;", 16, |a, b, _, _| {
        (a as i32).min(b as i32) as u32
    });
    check("\tmax.u32 %r10, %r2, %r3;", 17, |a, b, _, _| a.max(b));
    check("\tneg.s32 %r10, %r2;", 18, |a, _, _, _| a.wrapping_neg());
    check("\tabs.s32 %r10, %r2;", 19, |a, _, _, _| {
        (a as i32).wrapping_abs() as u32
    });
    check("\tnot.b32 %r10, %r2;", 20, |a, _, _, _| !a);
    check("\tcnot.b32 %r10, %r2;", 21, |a, _, _, _| (a == 0) as u32);
    check(
        "\tmul.wide.s32 %rd7, %r2, %r3;\n\tshr.u64 %rd8, %rd7, 32;\n\tcvt.u32.u64 %r10, %rd8;",
        22,
        |a, b, _, _| ((a as i32 as i64 * b as i32 as i64) >> 32) as u32,
    );
}

#[test]
fn bit_field_and_permute() {
    check("\tbfe.u32 %r10, %r2, %r3, %r4;", 30, |a, b, c, _| {
        let (pos, len) = ((b & 0xff).min(32), (c & 0xff).min(32));
        let field = if pos >= 32 { 0 } else { a >> pos };
        if len >= 32 {
            field
        } else {
            field & ((1u32 << len) - 1)
        }
    });
    check("\tbfe.s32 %r10, %r2, %r3, %r4;", 31, |a, b, c, _| {
        let (pos, len) = (b & 0xff, c & 0xff);
        // The sign bit is bit min(pos + len - 1, 31); len 0 gives 0.
        if len == 0 {
            return 0;
        }
        let sbit = (pos + len - 1).min(31);
        let sign = (a >> sbit) & 1;
        (0..32).fold(0, |acc, i| {
            let bit = if i < len && pos + i <= 31 {
                (a >> (pos + i)) & 1
            } else {
                sign
            };
            acc | bit << i
        })
    });
    check("\tbfi.b32 %r10, %r2, %r3, %r4, %r5;", 32, |a, b, c, d| {
        let (pos, len) = (c & 0xff, d & 0xff);
        (0..32).fold(b, |acc, i| {
            if i >= pos && i < pos.saturating_add(len) && i < 32 {
                (acc & !(1 << i)) | (((a >> (i - pos)) & 1) << i)
            } else {
                acc
            }
        })
    });
    check("\tprmt.b32 %r10, %r2, %r3, %r4;", 33, |a, b, c, _| {
        let bytes = (a as u64) | (b as u64) << 32;
        (0..4).fold(0, |acc, k| {
            let sel = (c >> (4 * k)) & 0xf;
            let mut byte = (bytes >> (8 * (sel & 7))) as u32 & 0xff;
            if sel & 8 != 0 {
                byte = if byte & 0x80 != 0 { 0xff } else { 0 };
            }
            acc | byte << (8 * k)
        })
    });
}

#[test]
fn compares_set_and_select() {
    check(
        "\tsetp.lt.s32 %p1, %r2, %r3;\n\tselp.b32 %r10, %r4, %r5, %p1;",
        40,
        |a, b, c, d| if (a as i32) < (b as i32) { c } else { d },
    );
    check(
        "\tsetp.hi.u32 %p1, %r2, %r3;\n\tselp.b32 %r10, 1, 0, %p1;",
        41,
        |a, b, _, _| (a > b) as u32,
    );
    check("\tset.le.u32.s32 %r10, %r2, %r3;", 42, |a, b, _, _| {
        if (a as i32) <= (b as i32) {
            0xffff_ffff
        } else {
            0
        }
    });
    check(
        "\tsetp.ne.s32 %p2, %r4, 0;\n\tsetp.eq.and.s32 %p1|%p3, %r2, %r3, %p2;\n\tselp.b32 %r6, 1, 0, %p1;\n\tselp.b32 %r7, 2, 0, %p3;\n\tor.b32 %r10, %r6, %r7;",
        43,
        // p = (a == b) & q and its complement form (a != b) & q.
        |a, b, c, _| ((a == b && c != 0) as u32) | (((a != b) && c != 0) as u32) << 1,
    );
}

#[test]
fn float_compares_with_nan_are_unordered() {
    let nan = 0x7fc0_0000u32;
    let one = 1.0f32.to_bits();
    let rows = vec![
        [nan, one, 0, 0],
        [one, nan, 0, 0],
        [one, one, 0, 0],
        [nan, nan, 0, 0],
        [one, 2.0f32.to_bits(), 0, 0],
    ];
    for (cmp, want) in [
        ("eq", [0, 0, 1, 0, 0]),
        ("ne", [0, 0, 0, 0, 1]),
        ("lt", [0, 0, 0, 0, 1]),
        ("equ", [1, 1, 1, 1, 0]),
        ("neu", [1, 1, 0, 1, 1]),
        ("ltu", [1, 1, 0, 1, 1]),
        ("geu", [1, 1, 1, 1, 0]),
        ("num", [0, 0, 1, 0, 1]),
        ("nan", [1, 1, 0, 1, 0]),
    ] {
        let body = format!("\tmov.b32 %f1, %r2;\n\tmov.b32 %f2, %r3;\n\tsetp.{cmp}.f32 %p1, %f1, %f2;\n\tselp.b32 %r10, 1, 0, %p1;");
        assert_eq!(run_body(&body, &rows), want.to_vec(), "setp.{cmp}.f32");
    }
}

#[test]
fn vote_sees_only_active_lanes() {
    // 20 threads: lanes 20..31 of the warp do not exist.
    let rows: Vec<[u32; 4]> = (0..20).map(|t| [(t % 3 == 0) as u32, 1, 0, 0]).collect();
    let ballot: u32 = (0..20).filter(|t| t % 3 == 0).map(|t| 1u32 << t).sum();
    let body = "\tsetp.ne.s32 %p1, %r2, 0;\n\tvote.sync.ballot.b32 %r10, %p1, -1;";
    assert_eq!(run_body(body, &rows), vec![ballot; 20]);
    // uni: every active lane agrees, even though inactive lanes would not.
    let body = "\tsetp.ne.s32 %p1, %r3, 0;\n\tvote.sync.uni.pred %p2, %p1, -1;\n\tselp.b32 %r10, 1, 0, %p2;";
    assert_eq!(run_body(body, &rows), vec![1; 20]);
    let body = "\tsetp.ne.s32 %p1, %r2, 0;\n\tvote.sync.uni.pred %p2, %p1, -1;\n\tselp.b32 %r10, 1, 0, %p2;";
    assert_eq!(run_body(body, &rows), vec![0; 20]);
    // Inside a branch only the lanes that took it vote.
    let body = "\tsetp.ne.s32 %p3, %r2, 0;\n\t@!%p3 bra SKIP;\n\tsetp.ne.s32 %p1, %r3, 0;\n\tvote.sync.all.pred %p2, %p1, -1;\n\tactivemask.b32 %r10;\nSKIP:";
    let want: Vec<u32> = (0..20)
        .map(|t| if t % 3 == 0 { ballot } else { 0 })
        .collect();
    assert_eq!(run_body(body, &rows), want);
}

#[test]
fn divergent_loops_reconverge() {
    // Collatz steps to reach 1 (bounded), a data-dependent loop per lane.
    let body = "\tand.b32 %r6, %r2, 1023;\n\tadd.s32 %r6, %r6, 1;\n\tmov.u32 %r10, 0;\nLOOP:\n\tsetp.eq.s32 %p1, %r6, 1;\n\t@%p1 bra DONE;\n\tand.b32 %r7, %r6, 1;\n\tsetp.eq.s32 %p2, %r7, 0;\n\t@%p2 bra EVEN;\n\tmad.lo.s32 %r6, %r6, 3, 1;\n\tbra NEXT;\nEVEN:\n\tshr.u32 %r6, %r6, 1;\nNEXT:\n\tadd.s32 %r10, %r10, 1;\n\tbra LOOP;\nDONE:\n\tactivemask.b32 %r8;\n\tsetp.ne.s32 %p3, %r8, -1;\n\t@%p3 mov.u32 %r10, 99999;";
    check(body, 50, |a, _, _, _| {
        let mut n = (a & 1023) + 1;
        let mut steps = 0;
        while n != 1 {
            n = if n % 2 == 0 { n / 2 } else { 3 * n + 1 };
            steps += 1;
        }
        steps
    });
}

#[test]
fn clock_is_deterministic_and_counts_up() {
    let body = "\tmov.u32 %r6, %clock;\n\tadd.s32 %r7, %r2, 1;\n\tadd.s32 %r7, %r7, 1;\n\tmov.u32 %r8, %clock;\n\tsub.s32 %r10, %r8, %r6;";
    let rows = vec![[0u32; 4]; 32];
    let first = run_body(body, &rows);
    assert_eq!(first, run_body(body, &rows));
    // Three instructions of 32 lanes ran between the two reads.
    assert_eq!(first, vec![3 * 32; 32]);
}

#[test]
fn atomics_update_memory_and_return_the_old_value() {
    // Each thread updates its own first input word, then reads it back:
    // %r10 = new value, checked against the ISA definition; the returned
    // old value must be the original input.
    let atom = |op: &str, operands: &str| {
        format!("\tatom.global.{op} %r6, [%rd4], {operands};\n\tsetp.ne.s32 %p1, %r6, %r2;\n\t@%p1 trap;\n\tld.global.u32 %r10, [%rd4];")
    };
    check(&atom("add.u32", "%r3"), 60, |a, b, _, _| a.wrapping_add(b));
    check(&atom("min.s32", "%r3"), 61, |a, b, _, _| {
        (a as i32).min(b as i32) as u32
    });
    check(&atom("max.u32", "%r3"), 62, |a, b, _, _| a.max(b));
    check(&atom("and.b32", "%r3"), 63, |a, b, _, _| a & b);
    check(&atom("xor.b32", "%r3"), 64, |a, b, _, _| a ^ b);
    check(
        &atom("inc.u32", "%r3"),
        65,
        |a, b, _, _| if a >= b { 0 } else { a + 1 },
    );
    check(&atom("dec.u32", "%r3"), 66, |a, b, _, _| {
        if a == 0 || a > b {
            b
        } else {
            a - 1
        }
    });
    check(
        &atom("cas.b32", "%r3, %r4"),
        67,
        |a, b, c, _| if a == b { c } else { a },
    );
    // Equal compare values make cas swap.
    check(&atom("cas.b32", "%r2, %r4"), 68, |_, _, c, _| c);
    check(&atom("add.f32", "%r3"), 69, |a, b, _, _| {
        (f32::from_bits(a) + f32::from_bits(b)).to_bits()
    });
}

#[test]
fn float_division_and_square_root_round_to_nearest() {
    // A NaN result is the GPU's canonical 0x7fffffff (measured).
    let canon = |x: f32| if x.is_nan() { 0x7fff_ffff } else { x.to_bits() };
    check("\tmov.b32 %f1, %r2;\n\tmov.b32 %f2, %r3;\n\tdiv.rn.f32 %f3, %f1, %f2;\n\tmov.b32 %r10, %f3;", 70, |a, b, _, _| {
        canon(f32::from_bits(a) / f32::from_bits(b))
    });
    check(
        "\tmov.b32 %f1, %r2;\n\tsqrt.rn.f32 %f3, %f1;\n\tmov.b32 %r10, %f3;",
        71,
        |a, _, _, _| canon(f32::from_bits(a).sqrt()),
    );
}

/// `.ftz` flushes subnormal inputs before comparing; f16, bf16 and the x2
/// forms of `set` (the worked examples of ptx-semantics.md §2).
#[test]
fn ftz_and_half_precision_compares() {
    let neg_denorm = 0x8000_0001u32;
    let rows = vec![[neg_denorm, 0, 0, 0]];
    let run = |op: &str| run_body(&format!("\t{op} %r10, %r2, %r3;"), &rows)[0];
    assert_eq!(run("set.lt.u32.f32"), 0xffff_ffff);
    assert_eq!(run("set.lt.ftz.u32.f32"), 0);
    let half =
        |op: &str, a: u32, b: u32| run_body(&format!("\t{op} %r10, %r2, %r3;"), &[[a, b, 0, 0]])[0];
    // f16 sources live in the low half of the 32-bit register here.
    let f16 = |op: &str, a: u32, b: u32| {
        run_body(
            &format!("\t{{\n\t.reg .b16 %h<4>;\n\tcvt.u16.u32 %h1, %r2;\n\tcvt.u16.u32 %h2, %r3;\n\t{op} %h3, %h1, %h2;\n\tcvt.u32.u16 %r10, %h3;\n\t}}"),
            &[[a, b, 0, 0]],
        )[0]
    };
    assert_eq!(f16("set.lt.u16.f16", 0x3c00, 0x7e00), 0);
    assert_eq!(f16("set.ltu.u16.f16", 0x3c00, 0x7e00), 0xffff);
    assert_eq!(f16("set.lt.f16.f16", 0x3c00, 0x4000), 0x3c00);
    assert_eq!(
        f16("set.lt.ftz.f16.f16", 0x8001, 0x0000),
        0,
        "f16 subnormal flushed"
    );
    assert_eq!(f16("set.lt.f16.f16", 0x8001, 0x0000), 0x3c00);
    assert_eq!(
        half("set.lt.f16x2.f16x2", 0x3c00_4000, 0x4000_3c00),
        0x3c00_0000
    );
    assert_eq!(
        half("set.lt.u32.f16x2", 0x3c00_4000, 0x4000_3c00),
        0xffff_0000
    );
    assert_eq!(
        half("set.equ.bf16x2.bf16x2", 0x7fc0_3f80, 0x0000_3f80),
        0x3f80_3f80
    );
}
