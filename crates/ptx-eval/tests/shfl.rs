//! `shfl.sync` in every mode, against results worked out from the PTX
//! ISA's definition (9.7.9.6) and the CUDA `__shfl_*_sync(mask, v, x,
//! width)` spellings nvcc lowers to it (`c = (32 - width) << 8 | clamp`):
//! 32 threads, thread `l` offering `a = 3l + 1`, each storing what it
//! got and the predicate. A membermask naming lanes that do not execute
//! the shuffle, or leaving out lanes that do, is an error (undefined in
//! the ISA), not a value.

use serde_json::json;

fn kernel(mode: &str, b: &str, c: &str, mask: &str) -> String {
    format!(
        ".version 7.0\n.target sm_80\n.address_size 64\n\
         .visible .entry k(.param .u64 out)\n{{\n\
         .reg .pred %p<2>;\n.reg .b32 %r<8>;\n.reg .b64 %rd<4>;\n\
         ld.param.u64 %rd1, [out];\nmov.u32 %r1, %tid.x;\nmad.lo.s32 %r2, %r1, 3, 1;\n\
         shfl.sync.{mode}.b32 %r3|%p1, %r2, {b}, {c}, {mask};\n\
         selp.u32 %r4, 1, 0, %p1;\n\
         mul.wide.u32 %rd2, %r1, 8;\nadd.s64 %rd3, %rd1, %rd2;\n\
         st.global.v2.u32 [%rd3], {{%r3, %r4}};\nret;\n}}\n"
    )
}

/// (value, predicate) per thread, or the evaluator's error.
fn run(src: &str, threads: u32) -> Result<Vec<(u32, bool)>, String> {
    let module = ptx_parse::parse_module(src).map_err(|d| d.message)?;
    let case = json!({"block": [threads], "buffers": {"out": {"type": "u32", "zeros": 2 * threads}},
                      "params": [{"buffer": "out"}]});
    let r = ptx_eval::case::run_case(&module, &case.to_string(), 1 << 20)
        .map_err(|e| format!("{e:?}"))?;
    let out: Vec<u64> = r["buffers"]["out"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap())
        .collect();
    Ok(out.chunks(2).map(|p| (p[0] as u32, p[1] != 0)).collect())
}

/// Thread `l`'s expected result: lane `src(l)`'s value, or its own with
/// p false.
fn expect(src: impl Fn(u32) -> Option<u32>) -> Vec<(u32, bool)> {
    (0..32)
        .map(|l| match src(l) {
            Some(j) => (3 * j + 1, true),
            None => (3 * l + 1, false),
        })
        .collect()
}

#[test]
fn butterfly_down_up_and_index_over_the_whole_warp() {
    let full = "0xffffffff";
    // __shfl_xor_sync(m, v, 1): lane l ^ 1, always in range.
    assert_eq!(
        run(&kernel("bfly", "1", "31", full), 32).unwrap(),
        expect(|l| Some(l ^ 1))
    );
    // __shfl_down_sync(m, v, 4): lanes 28..31 would read past lane 31.
    assert_eq!(
        run(&kernel("down", "4", "31", full), 32).unwrap(),
        expect(|l| (l + 4 <= 31).then_some(l + 4))
    );
    // __shfl_up_sync(m, v, 2): c = 0; lanes 0 and 1 keep their own.
    assert_eq!(
        run(&kernel("up", "2", "0", full), 32).unwrap(),
        expect(|l| (l >= 2).then(|| l - 2))
    );
    // __shfl_sync(m, v, 5): everyone reads lane 5.
    assert_eq!(
        run(&kernel("idx", "5", "31", full), 32).unwrap(),
        expect(|_| Some(5))
    );
    // b is taken modulo 32: 37 is lane 5.
    assert_eq!(
        run(&kernel("idx", "37", "31", full), 32).unwrap(),
        expect(|_| Some(5))
    );
}

#[test]
fn width_8_segments() {
    let full = "0xffffffff";
    // width 8: c = 24 << 8 | clamp; segments of 8 lanes.
    let base = |l: u32| l & !7;
    assert_eq!(
        run(&kernel("down", "1", "0x181f", full), 32).unwrap(),
        expect(|l| (l < base(l) + 7).then_some(l + 1))
    );
    assert_eq!(
        run(&kernel("up", "1", "0x1800", full), 32).unwrap(),
        expect(|l| (l > base(l)).then(|| l - 1))
    );
    assert_eq!(
        run(&kernel("idx", "3", "0x181f", full), 32).unwrap(),
        expect(|l| Some(base(l) + 3))
    );
    assert_eq!(
        run(&kernel("bfly", "4", "0x181f", full), 32).unwrap(),
        expect(|l| Some(l ^ 4))
    );
}

#[test]
fn membermasks_the_isa_leaves_undefined_are_errors() {
    // 40 threads: the second warp has 8 lanes, the mask names 32.
    let e = run(&kernel("bfly", "1", "31", "0xffffffff"), 40).unwrap_err();
    assert!(e.contains("exited or do not execute it"), "{e}");
    // All 32 execute; the mask names only the low half.
    let e = run(&kernel("bfly", "1", "31", "0x0000ffff"), 32).unwrap_err();
    assert!(e.contains("leaves them out"), "{e}");
    // A mask naming exactly the threads there is fine.
    assert_eq!(
        run(&kernel("bfly", "1", "31", "0x0000ffff"), 16)
            .unwrap()
            .len(),
        16
    );
}
