//! `ldmatrix` and `mma.sync` used as real kernels use them: a warp
//! stages A and B in shared memory, loads the A fragment with
//! `ldmatrix.x4` and the B fragment with `ldmatrix.x2` (`.trans` for a
//! row-major f16 B; a K-contiguous "col" B for s8), reads C by the
//! accumulator layout (lane l: row l/4 and l/4 + 8, columns 2(l%4) and
//! 2(l%4)+1), multiplies, and stores D by the same layout. The expected D
//! is A·B + C computed here; the values are small integers, exact in f16
//! and f32, so any misplaced fragment element shows.

use serde_json::json;

fn run(ptx: &str, input: &[u32], outputs: usize) -> Vec<u32> {
    let module = ptx_parse::parse_module(ptx).unwrap_or_else(|d| panic!("{}", d.message));
    let case = json!({"block": [32], "buffers": {"in": {"type": "u32", "data": input},
                      "out": {"type": "u32", "zeros": outputs}},
                      "params": [{"buffer": "in"}, {"buffer": "out"}]});
    let r = ptx_eval::case::run_case(&module, &case.to_string(), 1 << 22)
        .unwrap_or_else(|e| panic!("{e:?}"));
    r["buffers"]["out"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap() as u32)
        .collect()
}

/// f16 bits of a small integer.
fn h(v: i32) -> u32 {
    let mag = match v.abs() {
        0 => 0,
        1 => 0x3c00,
        2 => 0x4000,
        3 => 0x4200,
        _ => unreachable!(),
    };
    if v < 0 {
        mag | 0x8000
    } else {
        mag
    }
}

/// The kernel: copies `staged` words of `in` to shared, then runs
/// `frags` (A into %r10..%r13, B into %r14..%r15), loads C from word
/// `c_at` of `in`, the `mma`, and stores D to `out`.
fn kernel(staged: u32, frags: &str, c_at: u32, mma: &str, acc: &str) -> String {
    format!(
        ".version 8.0\n.target sm_80\n.address_size 64\n\
         .visible .entry k(.param .u64 k_in, .param .u64 k_out)\n{{\n\
         \t.reg .pred %p<2>;\n\t.reg .b32 %r<40>;\n\t.reg .{acc} %f<8>;\n\t.reg .b64 %rd<16>;\n\
         \t.shared .align 16 .b8 sh[2048];\n\
         \tld.param.u64 %rd1, [k_in];\n\tld.param.u64 %rd2, [k_out];\n\
         \tmov.u32 %r1, %tid.x;\n\tmov.u64 %rd4, sh;\n\
         \tmov.u32 %r30, %r1;\n\
         COPY:\n\tsetp.ge.u32 %p1, %r30, {staged};\n\t@%p1 bra STAGED;\n\
         \tmul.wide.u32 %rd10, %r30, 4;\n\tadd.s64 %rd11, %rd1, %rd10;\n\tld.global.u32 %r31, [%rd11];\n\
         \tadd.s64 %rd12, %rd4, %rd10;\n\tst.shared.u32 [%rd12], %r31;\n\tadd.u32 %r30, %r30, 32;\n\tbra COPY;\n\
         STAGED:\n\tbar.sync 0;\n\
         \tand.b32 %r2, %r1, 15;\n\tshr.u32 %r3, %r1, 4;\n\
         {frags}\n\
         \tshr.u32 %r20, %r1, 2;\n\tand.b32 %r21, %r1, 3;\n\
         \tshl.b32 %r22, %r20, 3;\n\tshl.b32 %r23, %r21, 1;\n\tadd.u32 %r24, %r22, %r23;\n\
         \tadd.u32 %r25, %r24, {c_at};\n\tmul.wide.u32 %rd5, %r25, 4;\n\tadd.s64 %rd6, %rd1, %rd5;\n\
         \tld.global.v2.{acc} {{%f0, %f1}}, [%rd6];\n\tld.global.v2.{acc} {{%f2, %f3}}, [%rd6+256];\n\
         \t{mma} {{%f4, %f5, %f6, %f7}}, {{%r10, %r11, %r12, %r13}}, {{%r14, %r15}}, {{%f0, %f1, %f2, %f3}};\n\
         \tmul.wide.u32 %rd7, %r24, 4;\n\tadd.s64 %rd8, %rd2, %rd7;\n\
         \tst.global.v2.{acc} [%rd8], {{%f4, %f5}};\n\tst.global.v2.{acc} [%rd8+256], {{%f6, %f7}};\n\
         \tret;\n}}\n"
    )
}

#[test]
fn mma_m16n8k16_f16_with_ldmatrix_fragments() {
    let a = |i: i32, k: i32| (i * 3 + k) % 7 - 3;
    let b = |k: i32, n: i32| (k + 2 * n) % 5 - 2;
    let c = |i: i32, n: i32| (i - n) as f32;
    let mut input = Vec::new();
    // A, 16×16 f16 row-major (words 0..128), element 2j low.
    for i in 0..16 {
        for k in (0..16).step_by(2) {
            input.push(h(a(i, k + 1)) << 16 | h(a(i, k)));
        }
    }
    // B, 16×8 f16 row-major (words 128..192).
    for k in 0..16 {
        for n in (0..8).step_by(2) {
            input.push(h(b(k, n + 1)) << 16 | h(b(k, n)));
        }
    }
    // C, 16×8 f32 (words 192..320).
    for i in 0..16 {
        for n in 0..8 {
            input.push(c(i, n).to_bits());
        }
    }
    // A: lane l points at row l % 16, column 8·(l / 16) (32 bytes a row);
    // B: lane l at row l % 16 (16 bytes a row, after A's 512 bytes).
    let frags =
        "\tmul.lo.u32 %r4, %r2, 32;\n\tmul.lo.u32 %r5, %r3, 16;\n\tadd.u32 %r6, %r4, %r5;\n\
                 \tcvt.u64.u32 %rd3, %r6;\n\tadd.s64 %rd9, %rd4, %rd3;\n\
                 \tldmatrix.sync.aligned.m8n8.x4.shared.b16 {%r10, %r11, %r12, %r13}, [%rd9];\n\
                 \tmul.lo.u32 %r7, %r2, 16;\n\tadd.u32 %r7, %r7, 512;\n\tcvt.u64.u32 %rd13, %r7;\n\
                 \tadd.s64 %rd14, %rd4, %rd13;\n\
                 \tldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%r14, %r15}, [%rd14];";
    let ptx = kernel(
        192,
        frags,
        192,
        "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32",
        "f32",
    );
    let got = run(&ptx, &input, 128);
    for i in 0..16 {
        for n in 0..8 {
            let want = (0..16).map(|k| a(i, k) * b(k, n)).sum::<i32>() as f32 + c(i, n);
            assert_eq!(
                f32::from_bits(got[(i * 8 + n) as usize]),
                want,
                "D[{i}][{n}]"
            );
        }
    }
}

#[test]
fn mma_m16n8k32_s8_with_ldmatrix_fragments() {
    let a = |i: i32, k: i32| ((i * 7 + k * 3) % 255) - 127;
    let b = |k: i32, n: i32| ((k * 5 + n * 11) % 200) - 100;
    let c = |i: i32, n: i32| i * 1000 - n;
    let bytes = |v: [i32; 4]| {
        v.iter()
            .enumerate()
            .fold(0u32, |acc, (j, &x)| acc | ((x as u8 as u32) << (8 * j)))
    };
    let mut input = Vec::new();
    // A, 16×32 s8 row-major (words 0..128).
    for i in 0..16 {
        for k in (0..32).step_by(4) {
            input.push(bytes([a(i, k), a(i, k + 1), a(i, k + 2), a(i, k + 3)]));
        }
    }
    // B stored K-contiguous per column ("col"): 8 rows n × 32 bytes k
    // (words 128..192).
    for n in 0..8 {
        for k in (0..32).step_by(4) {
            input.push(bytes([b(k, n), b(k + 1, n), b(k + 2, n), b(k + 3, n)]));
        }
    }
    for i in 0..16 {
        for n in 0..8 {
            input.push(c(i, n) as u32);
        }
    }
    // A: lane l at row l % 16, byte column 16·(l / 16); B: lane l (< 16)
    // at row l % 8, byte column 16·(l / 8).
    let frags = "\tmul.lo.u32 %r4, %r2, 32;\n\tmul.lo.u32 %r5, %r3, 16;\n\tadd.u32 %r6, %r4, %r5;\n\
                 \tcvt.u64.u32 %rd3, %r6;\n\tadd.s64 %rd9, %rd4, %rd3;\n\
                 \tldmatrix.sync.aligned.m8n8.x4.shared.b16 {%r10, %r11, %r12, %r13}, [%rd9];\n\
                 \tand.b32 %r8, %r1, 7;\n\tshr.u32 %r9, %r1, 3;\n\tand.b32 %r9, %r9, 1;\n\
                 \tmul.lo.u32 %r7, %r8, 32;\n\tmul.lo.u32 %r9, %r9, 16;\n\tadd.u32 %r7, %r7, %r9;\n\
                 \tadd.u32 %r7, %r7, 512;\n\tcvt.u64.u32 %rd13, %r7;\n\tadd.s64 %rd14, %rd4, %rd13;\n\
                 \tldmatrix.sync.aligned.m8n8.x2.shared.b16 {%r14, %r15}, [%rd14];";
    let ptx = kernel(
        192,
        frags,
        192,
        "mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32",
        "s32",
    );
    let got = run(&ptx, &input, 128);
    for i in 0..16 {
        for n in 0..8 {
            let want = (0..32).map(|k| a(i, k) * b(k, n)).sum::<i32>() + c(i, n);
            assert_eq!(got[(i * 8 + n) as usize] as i32, want, "D[{i}][{n}]");
        }
    }
}

#[test]
fn ldmatrix_needs_the_whole_warp() {
    let ptx = ".version 8.0\n.target sm_80\n.address_size 64\n\
               .visible .entry k(.param .u64 k_in, .param .u64 k_out)\n{\n\
               \t.reg .pred %p<2>;\n\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<4>;\n\t.shared .align 16 .b8 sh[256];\n\
               \tmov.u32 %r1, %tid.x;\n\tsetp.lt.u32 %p1, %r1, 16;\n\t@!%p1 bra DONE;\n\
               \tmov.u64 %rd1, sh;\n\tldmatrix.sync.aligned.m8n8.x1.shared.b16 {%r2}, [%rd1];\nDONE:\n\tret;\n}\n";
    let module = ptx_parse::parse_module(ptx).unwrap();
    let case = json!({"block": [32], "buffers": {"in": {"type": "u32", "zeros": 1}, "out": {"type": "u32", "zeros": 1}},
                      "params": [{"buffer": "in"}, {"buffer": "out"}]});
    let err = ptx_eval::case::run_case(&module, &case.to_string(), 1 << 20).unwrap_err();
    assert!(format!("{err:?}").contains("all 32 must"), "{err:?}");
}

/// ldmatrix then stmatrix with the same addresses (and the same `.trans`)
/// put every element back where it came from.
fn round_trip(trans: &str) -> Vec<u32> {
    let input: Vec<u32> = (0..128).map(|x| ((2 * x + 1) << 16) | (2 * x)).collect();
    let ptx = format!(
        ".version 8.0\n.target sm_90\n.address_size 64\n\
         .visible .entry k(.param .u64 k_in, .param .u64 k_out)\n{{\n\
         \t.reg .pred %p<2>;\n\t.reg .b32 %r<40>;\n\t.reg .b64 %rd<16>;\n\
         \t.shared .align 16 .b8 sh[1024];\n\
         \tld.param.u64 %rd1, [k_in];\n\tld.param.u64 %rd2, [k_out];\n\
         \tmov.u32 %r1, %tid.x;\n\tmov.u64 %rd4, sh;\n\tmov.u32 %r30, %r1;\n\
         COPY:\n\tsetp.ge.u32 %p1, %r30, 128;\n\t@%p1 bra STAGED;\n\
         \tmul.wide.u32 %rd10, %r30, 4;\n\tadd.s64 %rd11, %rd1, %rd10;\n\tld.global.u32 %r31, [%rd11];\n\
         \tadd.s64 %rd12, %rd4, %rd10;\n\tst.shared.u32 [%rd12], %r31;\n\tadd.u32 %r30, %r30, 32;\n\tbra COPY;\n\
         STAGED:\n\tbar.sync 0;\n\
         \tand.b32 %r2, %r1, 15;\n\tshr.u32 %r3, %r1, 4;\n\
         \tmul.lo.u32 %r4, %r2, 32;\n\tmul.lo.u32 %r5, %r3, 16;\n\tadd.u32 %r6, %r4, %r5;\n\
         \tcvt.u64.u32 %rd3, %r6;\n\tadd.s64 %rd9, %rd4, %rd3;\n\tadd.s64 %rd13, %rd9, 512;\n\
         \tldmatrix.sync.aligned.m8n8.x4{trans}.shared.b16 {{%r10, %r11, %r12, %r13}}, [%rd9];\n\
         \tstmatrix.sync.aligned.m8n8.x4{trans}.shared.b16 [%rd13], {{%r10, %r11, %r12, %r13}};\n\
         \tbar.sync 0;\n\tmov.u32 %r30, %r1;\n\
         BACK:\n\tsetp.ge.u32 %p1, %r30, 128;\n\t@%p1 bra DONE;\n\
         \tmul.wide.u32 %rd10, %r30, 4;\n\tadd.s64 %rd12, %rd4, %rd10;\n\tld.shared.u32 %r31, [%rd12+512];\n\
         \tadd.s64 %rd11, %rd2, %rd10;\n\tst.global.u32 [%rd11], %r31;\n\tadd.u32 %r30, %r30, 32;\n\tbra BACK;\n\
         DONE:\n\tret;\n}}\n"
    );
    assert_eq!(run(&ptx, &input, 128), input);
    input
}

#[test]
fn stmatrix_undoes_ldmatrix() {
    round_trip("");
    round_trip(".trans");
}
