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
