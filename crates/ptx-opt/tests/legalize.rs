//! Legacy PTX reaches new targets: every file in `tests/legacy/` (written
//! for ISA 6.x and pre-Volta targets, with non-sync `vote` and vop2) goes
//! through `legalize` for sm_75 … sm_120 with `--check-each`; no non-sync
//! vote is left, `.version` is at least 6.2, and ptxas accepts the result
//! (required under CI). The same files moved to `.version 7.0` for sm_70
//! are refused by ptxas as they are, and accepted once legalized.

use ptx_opt::{process_with, Config};
use ptx_passes::registry::lookup;
use std::path::{Path, PathBuf};
use std::process::Command;

const TARGETS: &[&str] = &["sm_75", "sm_80", "sm_90", "sm_100", "sm_120"];

fn legacy() -> Vec<(String, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/legacy");
    let mut v: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "ptx"))
        .map(|p| {
            (
                p.file_name().unwrap().to_string_lossy().to_string(),
                std::fs::read_to_string(&p).unwrap(),
            )
        })
        .collect();
    v.sort();
    assert!(v.len() >= 3);
    v
}

fn legalize(src: &str, target: &str) -> String {
    let mut cfg = Config::default();
    cfg.passes.push((lookup("legalize").unwrap(), Vec::new()));
    cfg.target = Some(target.into());
    cfg.instrumentation.check_each = Some(ptx_opt::check_each(16));
    cfg.instrumentation.verify_each = true;
    process_with(src.as_bytes(), &cfg)
        .unwrap_or_else(|(e, log)| panic!("{e:?}\n{log}"))
        .text
}

fn ptxas() -> Option<PathBuf> {
    let local =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../.tools/cuda/nvidia/cu13/bin/ptxas");
    let p = std::env::var_os("PTXAS")
        .map(PathBuf::from)
        .or(local.exists().then_some(local));
    if p.is_none() && std::env::var_os("CI").is_some() {
        panic!("ptxas is required under CI (scripts/install-ptxas.sh)");
    }
    p
}

fn assemble(ptxas: &Path, text: &str, arch: &str) -> Result<(), String> {
    static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("ptx-opt-legalize-{}-{n}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (src, bin) = (
        dir.join(format!("{arch}.ptx")),
        dir.join(format!("{arch}.cubin")),
    );
    std::fs::write(&src, text).unwrap();
    let out = Command::new(ptxas)
        .arg(format!("-arch={arch}"))
        .arg("-o")
        .arg(&bin)
        .arg(&src)
        .output()
        .unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    if out.status.success() {
        Ok(())
    } else {
        Err(String::from_utf8_lossy(&out.stderr).into_owned())
    }
}

#[test]
fn legacy_files_reach_every_target() {
    let ptxas = ptxas();
    for (name, src) in legacy() {
        for t in TARGETS {
            let out = legalize(&src, t);
            for l in out.lines().filter(|l| l.contains("vote.")) {
                assert!(l.contains("vote.sync."), "{name} for {t}: {l}");
            }
            let version = out
                .lines()
                .find_map(|l| l.strip_prefix(".version "))
                .unwrap();
            let (a, b) = version.split_once('.').unwrap();
            let v = (a.parse::<u32>().unwrap(), b.parse::<u32>().unwrap());
            assert!(v >= (6, 2), "{name}: {version}");
            // --target retargets: the printed .target is the target, and
            // .version at least the least one that has it.
            assert!(
                out.contains(&format!("\n.target {t}\n")),
                "{name} for {t}:\n{out}"
            );
            let min = ptx_target::min_ptx_for(t.parse().unwrap()).unwrap();
            assert!(v >= (min.0, min.1), "{name} for {t}: {version}");
            if let Some(p) = &ptxas {
                assemble(p, &out, t).unwrap_or_else(|e| panic!("{name} for {t}: {e}\n{out}"));
            }
        }
    }
}

#[test]
fn moved_to_a_new_version_they_need_legalize() {
    let Some(ptxas) = ptxas() else { return };
    for (name, src) in legacy() {
        let moved = src
            .lines()
            .map(|l| {
                if l.starts_with(".version") {
                    ".version 7.0".to_string()
                } else if l.starts_with(".target") {
                    ".target sm_70".to_string()
                } else {
                    l.to_string()
                }
            })
            .collect::<Vec<_>>()
            .join("\n");
        let err = assemble(&ptxas, &moved, "sm_80").expect_err(&name);
        assert!(
            err.contains("without '.sync' is not supported"),
            "{name}: {err}"
        );
        assemble(&ptxas, &legalize(&moved, "sm_80"), "sm_80")
            .unwrap_or_else(|e| panic!("{name}: {e}"));
    }
}

/// The buffers after running kernel `k` of `ptx` on two blocks of 83
/// threads (a partial last warp) that each store one word to `out`.
fn two_blocks(ptx: &str) -> serde_json::Value {
    let case = r#"{"grid": [2,1,1], "block": [83,1,1],
        "buffers": {"out": {"type": "u32", "zeros": 166}}, "params": [{"buffer": "out"}]}"#;
    let m = ptx_parse::parse_module(ptx).unwrap();
    ptx_eval::case::run_case(&m, case, 1 << 26).unwrap()["buffers"].clone()
}

/// The distinct words stored to `out`.
fn distinct(buffers: &serde_json::Value) -> std::collections::BTreeSet<String> {
    buffers["out"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.to_string())
        .collect()
}

/// The lowered votes compute the same in divergent warps, several warps per
/// block, with inactive lanes (a partial last warp).
#[test]
fn lowered_votes_match_in_divergent_code() {
    let (_, src) = legacy()
        .into_iter()
        .find(|l| l.0 == "vote_divergent.ptx")
        .unwrap();
    let a = two_blocks(&src);
    for t in TARGETS {
        let out = legalize(&src, t);
        assert_eq!(a, two_blocks(&out), "{t}");
    }
    // The votes really differ between lanes and warps.
    let vals = distinct(&a);
    assert!(vals.len() > 3, "{vals:?}");
}

/// `vote.sync` with masks that are not provably full, on targets without
/// `vote.sync`: through the non-sync ballot on sm_20, through per-lane
/// `vote.any`/`vote.all` (and 32 votes for a ballot) on sm_12. The masks
/// are those the `.sync` contract allows (exactly the lanes that execute
/// the vote: a divergent branch, a guard); the kernel runs in the
/// evaluator before and after on two blocks of 83 threads.
#[test]
fn votes_a_target_lacks_go_through_ballot() {
    let src = "\
.version 6.0
.target sm_30
.address_size 64
.visible .entry k(.param .u64 out)
{
	.reg .pred %p<12>;
	.reg .b32 %r<24>;
	.reg .b64 %rd<4>;
	ld.param.u64 %rd1, [out];
	mov.u32 %r1, %tid.x;
	and.b32 %r2, %r1, 3;
	setp.lt.u32 %p2, %r1, 40;
	mov.u32 %r10, 7;
	setp.eq.u32 %p1, %r2, 0;
	@%p1 bra $SKIP;
	activemask.b32 %r3;
	and.b32 %r4, %r1, 8;
	setp.ne.u32 %p3, %r4, 0;
	vote.sync.any.pred %p4, %p3, %r3;
	vote.sync.all.pred %p5, !%p3, %r3;
	vote.sync.uni.pred %p6, %p2, %r3;
	vote.sync.uni.pred %p9, %p3, %r3;
	vote.sync.ballot.b32 %r5, %p3, %r3;
	vote.sync.ballot.b32 %r6, %p2, %r3;
	@%p2 vote.sync.any.pred %p7, !%p3, %r6;
	@%p2 vote.sync.all.pred %p10, %p3, %r6;
	@%p2 vote.sync.uni.pred %p8, %p3, %r6;
	@%p2 vote.sync.ballot.b32 %r11, !%p3, %r6;
	vote.ballot.b32 %r7, %p3;
	@%p2 vote.ballot.b32 %r12, %p3;
	selp.u32 %r13, 1, 0, %p4;
	selp.u32 %r14, 2, 0, %p5;
	selp.u32 %r15, 4, 0, %p6;
	selp.u32 %r16, 8, 0, %p9;
	selp.u32 %r17, 16, 0, %p7;
	selp.u32 %r18, 32, 0, %p8;
	selp.u32 %r19, 64, 0, %p10;
	add.s32 %r10, %r13, %r14;
	add.s32 %r10, %r10, %r15;
	add.s32 %r10, %r10, %r16;
	add.s32 %r10, %r10, %r17;
	add.s32 %r10, %r10, %r18;
	add.s32 %r10, %r10, %r19;
	xor.b32 %r10, %r10, %r5;
	shl.b32 %r20, %r6, 1;
	xor.b32 %r10, %r10, %r20;
	shl.b32 %r21, %r7, 2;
	xor.b32 %r10, %r10, %r21;
	@%p2 xor.b32 %r10, %r10, %r11;
	@%p2 add.s32 %r10, %r10, %r12;
$SKIP:
	mul.wide.u32 %rd2, %r1, 4;
	add.s64 %rd3, %rd1, %rd2;
	st.global.u32 [%rd3], %r10;
	ret;
}
";
    let before = two_blocks(src);
    let vals = distinct(&before);
    assert!(vals.len() > 4, "the votes must differ: {vals:?}");
    for target in ["sm_20", "sm_12"] {
        let out = legalize(src, target);
        assert!(!out.contains("vote.sync"), "{target}:\n{out}");
        assert_eq!(
            out.contains("vote.ballot"),
            target == "sm_20",
            "{target}:\n{out}"
        );
        assert_eq!(two_blocks(&out), before, "{target}:\n{out}");
    }
}
