//! Warp and CTA collectives (`redux.sync`, `match.any/all.sync`,
//! `bar.red`), `cp.async` with its groups, `ldu`, and the small bit and
//! sign instructions `copysign`, `bmsk`, with `membar`/`fence`/`nanosleep`
//! accepted as no-ops. Values are worked out from the PTX ISA's
//! definitions (§9.7.13 parallel synchronization, §9.7.9.25 cp.async,
//! §9.7.3 copysign, §9.7.1.17 bmsk); each case gives the arithmetic.

use serde_json::json;

/// Runs `body` with `threads` threads in one CTA (`%r1` = tid.x, `%rd9` =
/// the `in` buffer, `%rd8` = this thread's `out` word); returns `out`.
fn run(body: &str, threads: u32, input: &[u32]) -> Result<Vec<u32>, String> {
    let ptx = format!(
        ".version 8.0\n.target sm_90\n.address_size 64\n\
         .visible .entry k(.param .u64 k_in, .param .u64 k_out)\n{{\n\
         \t.reg .pred %p<4>;\n\t.reg .b32 %r<16>;\n\t.reg .b64 %rd<12>;\n\
         \t.shared .align 16 .b8 buf[1024];\n\
         \tld.param.u64 %rd9, [k_in];\n\tld.param.u64 %rd1, [k_out];\n\
         \tmov.u32 %r1, %tid.x;\n\tmul.wide.u32 %rd2, %r1, 4;\n\tadd.s64 %rd8, %rd1, %rd2;\n\
         {body}\n\tret;\n}}\n"
    );
    let module = ptx_parse::parse_module(&ptx).map_err(|d| d.message)?;
    let case = json!({"block": [threads], "buffers": {"in": {"type": "u32", "data": input},
                      "out": {"type": "u32", "zeros": threads}},
                      "params": [{"buffer": "in"}, {"buffer": "out"}]});
    let r = ptx_eval::case::run_case(&module, &case.to_string(), 1 << 22)
        .map_err(|e| format!("{e:?}"))?;
    Ok(r["buffers"]["out"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap() as u32)
        .collect())
}

/// `redux.sync` of a = 3·tid − 40 over the whole warp, stored by each.
fn redux(op: &str) -> Vec<u32> {
    run(
        &format!(
            "\tmad.lo.s32 %r2, %r1, 3, -40;\n\tredux.sync.{op} %r3, %r2, 0xffffffff;\n\tst.global.u32 [%rd8], %r3;"
        ),
        32,
        &[],
    )
    .unwrap()
}

#[test]
fn redux_reduces_over_the_membermask() {
    let a: Vec<i32> = (0..32).map(|l| 3 * l - 40).collect();
    // Σ(3l − 40) for l < 32 = 3·496 − 1280 = 208, in every lane.
    assert_eq!(redux("add.u32"), vec![208; 32]);
    // As signed, the least is −40 and the largest 53; as unsigned the
    // least is 2 (l = 14) and the largest −1 = 0xffffffff (l = 13).
    assert_eq!(redux("min.s32"), vec![(-40i32) as u32; 32]);
    assert_eq!(redux("max.s32"), vec![53; 32]);
    assert_eq!(redux("min.u32"), vec![2; 32]);
    assert_eq!(redux("max.u32"), vec![u32::MAX; 32]);
    let fold = |f: fn(u32, u32) -> u32, init: u32| a.iter().fold(init, |acc, &x| f(acc, x as u32));
    assert_eq!(redux("and.b32"), vec![fold(|x, y| x & y, u32::MAX); 32]);
    assert_eq!(redux("or.b32"), vec![fold(|x, y| x | y, 0); 32]);
    assert_eq!(redux("xor.b32"), vec![fold(|x, y| x ^ y, 0); 32]);
    // Half the warp with a mask naming only its half: lanes 0..15 get
    // Σ(3l − 40) for l < 16 = 360 − 640 = −280.
    let half = run(
        "\tsetp.lt.u32 %p1, %r1, 16;\n\t@!%p1 bra DONE;\n\tmad.lo.s32 %r2, %r1, 3, -40;\n\
         \tredux.sync.add.u32 %r3, %r2, 0xffff;\n\tst.global.u32 [%rd8], %r3;\nDONE:",
        32,
        &[],
    )
    .unwrap();
    assert_eq!(&half[..16], &[(-280i32) as u32; 16]);
    assert_eq!(&half[16..], &[0; 16]);
}

#[test]
fn a_membermask_naming_absent_lanes_is_an_error() {
    let err = run(
        "\tsetp.lt.u32 %p1, %r1, 16;\n\t@!%p1 bra DONE;\n\tredux.sync.add.u32 %r3, %r1, 0xffffffff;\nDONE:",
        32,
        &[],
    )
    .unwrap_err();
    assert!(
        err.contains("redux.sync") && err.contains("undefined"),
        "{err}"
    );
}

#[test]
fn match_any_and_all_compare_lane_values() {
    // a = tid mod 3: lanes with equal residues share a mask.
    let any = run(
        "\trem.u32 %r2, %r1, 3;\n\tmatch.any.sync.b32 %r3, %r2, 0xffffffff;\n\tst.global.u32 [%rd8], %r3;",
        32,
        &[],
    )
    .unwrap();
    let residue_mask = |r: u32| {
        (0..32)
            .filter(|l| l % 3 == r)
            .fold(0u32, |acc, l| acc | 1 << l)
    };
    for (l, &got) in any.iter().enumerate() {
        assert_eq!(got, residue_mask(l as u32 % 3), "lane {l}");
    }
    // match.all: the values differ → 0 and p false (stored as 0 + p).
    let all = |value: &str| {
        run(
            &format!(
                "\t{value};\n\tmatch.all.sync.b32 %r3|%p2, %r2, 0xffffffff;\n\
                 \tselp.u32 %r4, 1, 0, %p2;\n\tadd.u32 %r3, %r3, %r4;\n\tst.global.u32 [%rd8], %r3;"
            ),
            32,
            &[],
        )
        .unwrap()
    };
    assert_eq!(all("rem.u32 %r2, %r1, 3"), vec![0; 32]);
    // Equal everywhere → the membermask, p true: 0xffffffff + 1 wraps to 0,
    // so store the mask alone with a lane value of 7.
    let same = run(
        "\tmov.u32 %r2, 7;\n\tmatch.all.sync.b32 %r3|%p2, %r2, 0xffffffff;\n\
         \t@%p2 st.global.u32 [%rd8], %r3;",
        32,
        &[],
    )
    .unwrap();
    assert_eq!(same, vec![u32::MAX; 32]);
}

#[test]
fn bar_red_reduces_over_the_whole_cta() {
    // 64 threads (two warps); c = (tid mod 5 == 0): 13 of 64 true.
    let popc = run(
        "\trem.u32 %r2, %r1, 5;\n\tsetp.eq.u32 %p1, %r2, 0;\n\
         \tbar.red.popc.u32 %r3, 0, %p1;\n\tst.global.u32 [%rd8], %r3;",
        64,
        &[],
    )
    .unwrap();
    assert_eq!(popc, vec![13; 64]);
    let pred = |op: &str, c: &str| {
        run(
            &format!(
                "\t{c};\n\tbar.red.{op}.pred %p2, 0, %p1;\n\tselp.u32 %r3, 1, 0, %p2;\n\tst.global.u32 [%rd8], %r3;"
            ),
            64,
            &[],
        )
        .unwrap()
    };
    // and: all 64 have tid < 64; not all have tid < 63. or: one has tid 63.
    assert_eq!(pred("and", "setp.lt.u32 %p1, %r1, 64"), vec![1; 64]);
    assert_eq!(pred("and", "setp.lt.u32 %p1, %r1, 63"), vec![0; 64]);
    assert_eq!(pred("or", "setp.eq.u32 %p1, %r1, 63"), vec![1; 64]);
    assert_eq!(pred("or", "setp.eq.u32 %p1, %r1, 99"), vec![0; 64]);
    // A negated predicate counts the false ones: 64 − 13 = 51.
    let not = run(
        "\trem.u32 %r2, %r1, 5;\n\tsetp.eq.u32 %p1, %r2, 0;\n\
         \tbar.red.popc.u32 %r3, 0, !%p1;\n\tst.global.u32 [%rd8], %r3;",
        64,
        &[],
    )
    .unwrap();
    assert_eq!(not, vec![51; 64]);
}

/// Each thread copies 16 bytes `in[4t..4t+4]` to shared `buf[16t]` with
/// cp.async, then reads word `word` of its neighbour's copy back after
/// the wait (`wait`), storing it.
fn cp_async(copy: &str, wait: &str) -> Vec<u32> {
    let input: Vec<u32> = (0..32).map(|x| 100 + x).collect();
    run(
        &format!(
            "\tmul.wide.u32 %rd3, %r1, 16;\n\tadd.s64 %rd4, %rd9, %rd3;\n\
             \tmov.u64 %rd5, buf;\n\tadd.s64 %rd6, %rd5, %rd3;\n\
             \t{copy};\n\tcp.async.commit_group;\n\t{wait};\n\tbar.sync 0;\n\
             \tld.shared.u32 %r5, [%rd6+4];\n\tst.global.u32 [%rd8], %r5;"
        ),
        8,
        &input,
    )
    .unwrap()
}

#[test]
fn cp_async_lands_at_the_wait() {
    // Thread t copies words 4t..4t+3 (values 100 + 4t + i); word 1 is
    // 101 + 4t.
    let want: Vec<u32> = (0..8).map(|t| 101 + 4 * t).collect();
    assert_eq!(
        cp_async(
            "cp.async.cg.shared.global [%rd6], [%rd4], 16",
            "cp.async.wait_group 0"
        ),
        want
    );
    assert_eq!(
        cp_async(
            "cp.async.ca.shared.global [%rd6], [%rd4], 16",
            "cp.async.wait_all"
        ),
        want
    );
    // A source size of 4 copies one word and zero-fills the rest.
    assert_eq!(
        cp_async(
            "cp.async.ca.shared.global [%rd6], [%rd4], 16, 4",
            "cp.async.wait_all"
        ),
        vec![0; 8]
    );
    // Before the wait nothing has landed: waiting for all but the newest
    // group leaves the only group pending.
    assert_eq!(
        cp_async(
            "cp.async.cg.shared.global [%rd6], [%rd4], 16",
            "cp.async.wait_group 1"
        ),
        vec![0; 8]
    );
}

#[test]
fn ldu_copysign_bmsk_and_the_no_ops() {
    let input = [0x4040_0000u32, 0xbf80_0000, 5, 0x7fc0_0000];
    // ldu.global reads like ld: in[2] = 5.
    let got = run(
        "\tldu.global.u32 %r2, [%rd9+8];\n\tmembar.gl;\n\tfence.acq_rel.gpu;\n\tnanosleep.u32 100;\n\
         \tst.global.u32 [%rd8], %r2;",
        1,
        &input,
    )
    .unwrap();
    assert_eq!(got, vec![5]);
    // copysign(a = -1.0, b = 3.0) = -3.0; the sign of a NaN is copied too.
    let cs = |a: usize, b: usize| {
        run(
            &format!(
                "\tld.global.u32 %r2, [%rd9+{}];\n\tld.global.u32 %r3, [%rd9+{}];\n\
                 \tcopysign.f32 %r4, %r2, %r3;\n\tst.global.u32 [%rd8], %r4;",
                4 * a,
                4 * b
            ),
            1,
            &input,
        )
        .unwrap()[0]
    };
    assert_eq!(cs(1, 0), 0xc040_0000);
    assert_eq!(cs(0, 3), 0x7fc0_0000);
    assert_eq!(cs(1, 3), 0xffc0_0000);
    let bmsk = |mode: &str, a: u32, b: u32| {
        run(
            &format!(
                "\tmov.u32 %r2, {a};\n\tmov.u32 %r3, {b};\n\tbmsk.{mode}.b32 %r4, %r2, %r3;\n\tst.global.u32 [%rd8], %r4;"
            ),
            1,
            &[],
        )
        .unwrap()[0]
    };
    // 4 ones from bit 8: 0xf00; cut at bit 31: a = 28, b = 8 → 0xf0000000.
    assert_eq!(bmsk("clamp", 8, 4), 0x0000_0f00);
    assert_eq!(bmsk("clamp", 28, 8), 0xf000_0000);
    // .clamp: a ≥ 32 gives 0, b ≥ 32 all ones from a.
    assert_eq!(bmsk("clamp", 32, 4), 0);
    assert_eq!(bmsk("clamp", 4, 40), 0xffff_fff0);
    // .wrap takes both modulo 32: a = 36 → 4, b = 33 → 1.
    assert_eq!(bmsk("wrap", 36, 33), 0x10);
}
