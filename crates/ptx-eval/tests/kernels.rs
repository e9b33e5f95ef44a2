//! Real kernels, hand-written and `llc` output (`kernels/*.ll`, regenerated
//! by `kernels/gen.sh`), run on buffers with expected results computed
//! here in Rust.

use serde_json::{json, Value as Json};

fn run(file: &str, case: Json) -> Json {
    let path = format!("{}/tests/kernels/{file}", env!("CARGO_MANIFEST_DIR"));
    let src = std::fs::read_to_string(&path).unwrap();
    let module = ptx_parse::parse_module(&src)
        .unwrap_or_else(|d| panic!("{}", d.render(&path, src.as_bytes())));
    ptx_eval::case::run_case(&module, &case.to_string(), 1 << 32)
        .unwrap_or_else(|e| panic!("{file}: {e}"))
}

fn u64s(v: &Json) -> Vec<u64> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_u64().unwrap())
        .collect()
}

fn i64s(v: &Json) -> Vec<i64> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_i64().unwrap())
        .collect()
}

/// Deterministic pseudo-random words.
fn words(n: usize, seed: u64) -> Vec<u32> {
    let mut s = seed;
    (0..n)
        .map(|_| {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (s >> 33) as u32
        })
        .collect()
}

#[test]
fn vadd_guards_the_tail() {
    let (a, b) = (words(100, 1), words(100, 2));
    let out = run(
        "vadd.ptx",
        json!({"grid": [4], "block": [32], "buffers": {"a": {"type": "u32", "data": a}, "b": {"type": "u32", "data": b},
               "out": {"type": "u32", "zeros": 100}}, "params": [{"buffer": "a"}, {"buffer": "b"}, {"buffer": "out"}, {"s32": 90}]}),
    );
    let want: Vec<u64> = (0..100)
        .map(|i| {
            if i < 90 {
                a[i].wrapping_add(b[i]) as u64
            } else {
                0
            }
        })
        .collect();
    assert_eq!(u64s(&out["buffers"]["out"]), want);
}

#[test]
fn sumsq_runs_divergent_loops() {
    let n: Vec<u32> = (0..64).map(|t| (t * 7) % 50).collect();
    let out = run(
        "sumsq.ptx",
        json!({"block": [64], "buffers": {"in": {"type": "u32", "data": n}, "out": {"type": "u64", "zeros": 64}},
               "params": [{"buffer": "in"}, {"buffer": "out"}]}),
    );
    let want: Vec<u64> = n
        .iter()
        .map(|&k| (0..k as u64).map(|j| j * j).sum())
        .collect();
    assert_eq!(u64s(&out["buffers"]["out"]), want);
}

#[test]
fn reduce_synchronises_warps_at_barriers() {
    let input = words(4 * 128, 3);
    let out = run(
        "reduce.ptx",
        json!({"grid": [4], "block": [128], "buffers": {"in": {"type": "u32", "data": input}, "out": {"type": "u32", "zeros": 4}},
               "params": [{"buffer": "in"}, {"buffer": "out"}]}),
    );
    let want: Vec<u64> = input
        .chunks(128)
        .map(|c| c.iter().fold(0u32, |s, &x| s.wrapping_add(x)) as u64)
        .collect();
    assert_eq!(u64s(&out["buffers"]["out"]), want);
}

#[test]
fn bits_matches_rust_intrinsics() {
    let mut input = words(60, 4);
    input.extend([0, 1, 0x8000_0000, 0xffff_ffff]);
    let out = run(
        "bits.ptx",
        json!({"block": [64], "buffers": {"in": {"type": "u32", "data": input}, "out": {"type": "u32", "zeros": 512}},
               "params": [{"buffer": "in"}, {"buffer": "out"}]}),
    );
    let mut want = Vec::new();
    for &x in &input {
        let y = x ^ 1234567;
        let d = (y | 1) as i32;
        want.extend([
            x.count_ones(),
            x.leading_zeros(),
            x.swap_bytes(),
            x.rotate_left(y & 31),
            (x as i32).wrapping_div(d) as u32,
            (x as i32).wrapping_rem(d) as u32,
            (x as i32).min(y as i32) as u32,
            x.max(y),
        ]);
    }
    assert_eq!(
        u64s(&out["buffers"]["out"]),
        want.iter().map(|&v| v as u64).collect::<Vec<_>>()
    );
}

#[test]
fn narrow_types_extend_and_truncate() {
    let a: Vec<u32> = (0..32).map(|t| (t * 37 % 256) as u32).collect();
    let b: Vec<i32> = (0..32i32).map(|t| t * 2113 % 65536 - 32768).collect();
    let out = run(
        "narrow.ptx",
        json!({"block": [32], "buffers": {"a": {"type": "u8", "data": a}, "b": {"type": "s16", "data": b}, "out": {"type": "s16", "zeros": 32}},
               "params": [{"buffer": "a"}, {"buffer": "b"}, {"buffer": "out"}]}),
    );
    let want: Vec<i64> = a
        .iter()
        .zip(&b)
        .map(|(&x, &y)| (((x as i32 * y) >> 3) as i16) as i64)
        .collect();
    assert_eq!(i64s(&out["buffers"]["out"]), want);
}

#[test]
fn arms_takes_every_switch_case() {
    let input = words(96, 5);
    let out = run(
        "arms.ptx",
        json!({"block": [96], "buffers": {"in": {"type": "u32", "data": input}, "out": {"type": "u32", "zeros": 96}},
               "params": [{"buffer": "in"}, {"buffer": "out"}]}),
    );
    let want: Vec<u64> = input
        .iter()
        .map(|&x| match x % 5 {
            0 => x.wrapping_mul(7),
            1 => !x,
            3 => x >> 4,
            _ => x.wrapping_add(100),
        } as u64)
        .collect();
    assert_eq!(u64s(&out["buffers"]["out"]), want);
}

#[test]
fn poly_is_bit_exact_in_f64() {
    let input: Vec<f64> = (0..32).map(|t| t as f64 * 0.37 - 5.0).collect();
    let out = run(
        "poly.ptx",
        json!({"block": [32], "buffers": {"in": {"type": "f64", "data": input}, "out": {"type": "f64", "zeros": 32}},
               "params": [{"buffer": "in"}, {"buffer": "out"}]}),
    );
    let got: Vec<f64> = out["buffers"]["out"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_f64().unwrap())
        .collect();
    // llc may contract into fma; compute what the PTX says, both ways.
    let ptx = std::fs::read_to_string(format!(
        "{}/tests/kernels/poly.ptx",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    let fused = ptx.contains("fma.rn.f64");
    for (x, g) in input.iter().zip(&got) {
        let x2 = x * x;
        let want = if fused {
            x2.mul_add(3.0, -x) + 0.5
        } else {
            x2 * 3.0 - x + 0.5
        };
        assert_eq!(g.to_bits(), want.to_bits(), "x = {x}");
    }
}

#[test]
fn saxpy_example_from_the_docs() {
    let path = format!(
        "{}/../../docs/examples/saxpy.ptx",
        env!("CARGO_MANIFEST_DIR")
    );
    let src = std::fs::read_to_string(path).unwrap();
    let module = ptx_parse::parse_module(&src).unwrap();
    let x: Vec<f32> = (0..200).map(|i| i as f32 * 0.25).collect();
    let y: Vec<f32> = (0..200).map(|i| 100.0 - i as f32).collect();
    let case = json!({"grid": [2], "block": [128], "buffers": {"x": {"type": "f32", "data": x}, "y": {"type": "f32", "data": y}},
                      "params": [{"buffer": "x"}, {"buffer": "y"}, {"f32": 1.5}, {"u32": 190}]});
    let out = ptx_eval::case::run_case(&module, &case.to_string(), 1 << 30).unwrap();
    for (i, v) in out["buffers"]["y"].as_array().unwrap().iter().enumerate() {
        let want = if i < 190 { 1.5f32 * x[i] + y[i] } else { y[i] };
        assert_eq!(v.as_f64().unwrap() as f32, want, "y[{i}]");
    }
}

#[test]
fn histogram_counts_with_atomics_across_ctas() {
    let input = words(1000, 6);
    let out = run(
        "histogram.ptx",
        json!({"grid": [3], "block": [64], "buffers": {"in": {"type": "u32", "data": input}, "bins": {"type": "u32", "zeros": 16}},
               "params": [{"buffer": "in"}, {"buffer": "bins"}, {"u32": 1000}]}),
    );
    let mut want = vec![0u64; 16];
    for x in &input {
        want[(x & 15) as usize] += 1;
    }
    assert_eq!(u64s(&out["buffers"]["bins"]), want);
}

#[test]
fn warpvote_ballot_rank_and_uni() {
    // Warp 0 mixed, warp 1 all odd, warp 2 partial (16 threads, all even).
    let mut input: Vec<u32> = (0..32).map(|t| t * t + 3).collect();
    input.extend((0..32).map(|t| 2 * t + 1));
    input.extend((0..16).map(|t| 2 * t));
    let out = run(
        "warpvote.ptx",
        json!({"block": [80], "buffers": {"in": {"type": "u32", "data": input}, "ballot": {"type": "u32", "zeros": 80},
               "rank": {"type": "u32", "zeros": 80}, "uni": {"type": "u32", "zeros": 80}},
               "params": [{"buffer": "in"}, {"buffer": "ballot"}, {"buffer": "rank"}, {"buffer": "uni"}]}),
    );
    let (mut ballot, mut rank, mut uni) = (vec![], vec![], vec![]);
    for warp in input.chunks(32) {
        let b: u32 = warp
            .iter()
            .enumerate()
            .filter(|(_, &x)| x & 1 == 1)
            .map(|(l, _)| 1 << l)
            .sum();
        let all = (if warp.len() == 32 {
            u64::MAX
        } else {
            (1u64 << warp.len()) - 1
        }) as u32;
        for lane in 0..warp.len() {
            ballot.push(b as u64);
            rank.push((b & ((1u64 << lane) - 1) as u32).count_ones() as u64);
            uni.push((b == 0 || b == all) as u64);
        }
    }
    assert_eq!(u64s(&out["buffers"]["ballot"]), ballot);
    assert_eq!(u64s(&out["buffers"]["rank"]), rank);
    assert_eq!(u64s(&out["buffers"]["uni"]), uni);
}

#[test]
fn scratch_uses_local_memory_and_generic_addresses() {
    let input = words(8 * 40, 7);
    let out = run(
        "scratch.ptx",
        json!({"block": [40], "buffers": {"in": {"type": "u32", "data": input}, "out": {"type": "u32", "zeros": 320}},
               "params": [{"buffer": "in"}, {"buffer": "out"}]}),
    );
    let want: Vec<u64> = input
        .chunks(8)
        .flat_map(|c| c.iter().rev().map(|&x| x as u64))
        .collect();
    assert_eq!(u64s(&out["buffers"]["out"]), want);
}

#[test]
fn matmul_in_a_2d_block() {
    let a: Vec<u32> = words(64, 8).iter().map(|x| x % 100).collect();
    let b: Vec<u32> = words(64, 9).iter().map(|x| x % 100).collect();
    let out = run(
        "matmul.ptx",
        json!({"block": [8, 8], "buffers": {"a": {"type": "u32", "data": a}, "b": {"type": "u32", "data": b}, "c": {"type": "u32", "zeros": 64}},
               "params": [{"buffer": "a"}, {"buffer": "b"}, {"buffer": "c"}]}),
    );
    let want: Vec<u64> = (0..64)
        .map(|e| {
            (0..8)
                .map(|k| (a[e / 8 * 8 + k] * b[k * 8 + e % 8]) as u64)
                .sum()
        })
        .collect();
    assert_eq!(u64s(&out["buffers"]["c"]), want);
}

#[test]
fn scan_in_shared_memory() {
    let input: Vec<u32> = words(256, 10).iter().map(|x| x % 1000).collect();
    let out = run(
        "scan.ptx",
        json!({"block": [256], "buffers": {"in": {"type": "u32", "data": input}, "out": {"type": "u32", "zeros": 256}},
               "params": [{"buffer": "in"}, {"buffer": "out"}]}),
    );
    let want: Vec<u64> = input
        .iter()
        .scan(0u64, |s, &x| {
            *s += x as u64;
            Some(*s)
        })
        .collect();
    assert_eq!(u64s(&out["buffers"]["out"]), want);
}

#[test]
fn fclamp_selects_with_float_compares() {
    let mut input: Vec<f32> = (0..28).map(|t| t as f32 * 0.45 - 6.0).collect();
    input.extend([f32::NAN, -0.0, f32::INFINITY, f32::NEG_INFINITY]);
    let data: Vec<Json> = input
        .iter()
        .map(|x| {
            if x.is_nan() {
                json!("nan")
            } else if x.is_infinite() {
                json!(if *x > 0.0 { "inf" } else { "-inf" })
            } else {
                json!(x)
            }
        })
        .collect();
    let out = run(
        "fclamp.ptx",
        json!({"block": [32], "buffers": {"in": {"type": "f32", "data": data}, "out": {"type": "f32", "zeros": 32}},
               "params": [{"buffer": "in"}, {"buffer": "out"}]}),
    );
    for (x, g) in input.iter().zip(out["buffers"]["out"].as_array().unwrap()) {
        let abs = if *x < 0.0 { -x } else { *x };
        let c1 = if *x > 4.0 { 4.0 } else { *x };
        let c2 = if *x < -4.0 { -4.0 } else { c1 };
        let want = if abs < 1.0 { x * x } else { c2 };
        let got = match g {
            Json::String(s) if s == "nan" => f32::NAN,
            Json::String(s) if s == "inf" => f32::INFINITY,
            Json::String(_) => f32::NEG_INFINITY,
            v => v.as_f64().unwrap() as f32,
        };
        assert_eq!(got.to_bits(), want.to_bits(), "x = {x}");
    }
}

#[test]
fn mix64_hashes_with_64_bit_arithmetic() {
    let seed: u64 = 0x0123_4567_89ab_cdef;
    let out = run(
        "mix64.ptx",
        json!({"grid": [3], "block": [50], "buffers": {"out": {"type": "u64", "zeros": 150}},
               "params": [{"u64": seed}, {"buffer": "out"}]}),
    );
    let want: Vec<u64> = (0..150u64)
        .map(|i| {
            let mut z = seed.wrapping_add(i.wrapping_mul(0x9e37_79b9_7f4a_7c15));
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        })
        .collect();
    assert_eq!(u64s(&out["buffers"]["out"]), want);
}

#[test]
fn gcd_loops_with_remainders() {
    let a: Vec<u32> = words(64, 11).iter().map(|x| x % 100_000).collect();
    let mut b: Vec<u32> = words(64, 12).iter().map(|x| x % 5_000).collect();
    b[3] = 0;
    let out = run(
        "gcd.ptx",
        json!({"block": [64], "buffers": {"a": {"type": "u32", "data": a}, "b": {"type": "u32", "data": b}, "out": {"type": "u32", "zeros": 192}},
               "params": [{"buffer": "a"}, {"buffer": "b"}, {"buffer": "out"}]}),
    );
    let mut want = Vec::new();
    for (&x, &y) in a.iter().zip(&b) {
        let (mut u, mut v) = (x, y);
        while v != 0 {
            (u, v) = (v, u % v);
        }
        want.extend([
            u as u64,
            (x.wrapping_sub(y) as i32).unsigned_abs() as u64,
            x.reverse_bits() as u64,
        ]);
    }
    assert_eq!(u64s(&out["buffers"]["out"]), want);
}

#[test]
fn transpose_through_a_shared_tile() {
    let input: Vec<u32> = (0..1024).collect();
    let out = run(
        "transpose.ptx",
        json!({"grid": [4, 4], "block": [8, 8], "buffers": {"in": {"type": "u32", "data": input}, "out": {"type": "u32", "zeros": 1024}},
               "params": [{"buffer": "in"}, {"buffer": "out"}]}),
    );
    let want: Vec<u64> = (0..1024u64).map(|e| (e % 32) * 32 + e / 32).collect();
    assert_eq!(u64s(&out["buffers"]["out"]), want);
}

#[test]
fn shist_uses_shared_and_global_atomics() {
    let input: Vec<u32> = words(512, 13).iter().map(|x| x & 0xff).collect();
    let out = run(
        "shist.ptx",
        json!({"grid": [4], "block": [128], "buffers": {"in": {"type": "u8", "data": input}, "bins": {"type": "u32", "zeros": 16}},
               "params": [{"buffer": "in"}, {"buffer": "bins"}]}),
    );
    let mut want = vec![0u64; 16];
    for x in &input {
        want[(x >> 4) as usize] += 1;
    }
    assert_eq!(u64s(&out["buffers"]["bins"]), want);
}

#[test]
fn early_exit_leaves_other_lanes_running() {
    let input: Vec<i64> = (0..64)
        .map(|t| {
            if t % 3 == 0 {
                -(t as i64) - 1
            } else {
                (t as i64) * 977
            }
        })
        .collect();
    let out = run(
        "early.ptx",
        json!({"block": [64], "buffers": {"in": {"type": "s32", "data": input}, "out": {"type": "u32", "zeros": 64}},
               "params": [{"buffer": "in"}, {"buffer": "out"}]}),
    );
    let want: Vec<u64> = input
        .iter()
        .map(|&x| {
            if x < 0 {
                0
            } else {
                (32 - (x as u32).leading_zeros()).max(1) as u64
            }
        })
        .collect();
    assert_eq!(u64s(&out["buffers"]["out"]), want);
}

#[test]
fn div64_divides_unsigned_and_signed() {
    let a: Vec<u64> = words(64, 14)
        .iter()
        .zip(words(64, 15))
        .map(|(&h, l)| (h as u64) << 32 | l as u64)
        .collect();
    let b: Vec<u64> = words(64, 16)
        .iter()
        .map(|&x| x as u64 >> (x % 24))
        .collect();
    let out = run(
        "div64.ptx",
        json!({"block": [64], "buffers": {"a": {"type": "u64", "data": a}, "b": {"type": "u64", "data": b},
               "q": {"type": "u64", "zeros": 64}, "r": {"type": "u64", "zeros": 64}},
               "params": [{"buffer": "a"}, {"buffer": "b"}, {"buffer": "q"}, {"buffer": "r"}]}),
    );
    let q: Vec<u64> = a.iter().zip(&b).map(|(&x, &y)| x / (y | 1)).collect();
    let r: Vec<u64> = a
        .iter()
        .zip(&b)
        .map(|(&x, &y)| (x as i64).wrapping_rem((y | 1) as i64) as u64)
        .collect();
    assert_eq!(u64s(&out["buffers"]["q"]), q);
    assert_eq!(u64s(&out["buffers"]["r"]), r);
}
