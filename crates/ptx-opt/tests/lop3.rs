//! `lop3-fuse` and `lop3-expand` on the benchmark kernels
//! (`benches/lop3/*.ptx`, bit-sliced logic compiled by `llc`):
//! `--check-each` finds no difference, every round function becomes one
//! lop3, no kernel gets more logic instructions, expanding and fusing again
//! gives the same count, and `ptxas` accepts every output (when installed;
//! required under CI).

use ptx_opt::{process_with, Config};
use ptx_passes::registry::lookup;
use std::path::{Path, PathBuf};
use std::process::Command;

fn kernels() -> Vec<(String, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/lop3");
    let mut v: Vec<(String, String)> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "ptx"))
        .map(|p| {
            (
                p.file_stem().unwrap().to_string_lossy().to_string(),
                std::fs::read_to_string(&p).unwrap(),
            )
        })
        .collect();
    v.sort();
    assert!(v.len() >= 28, "benchmark kernels missing");
    v
}

fn run(src: &str, passes: &[&str]) -> String {
    let mut cfg = Config::default();
    for p in passes {
        cfg.passes.push((lookup(p).unwrap(), Vec::new()));
    }
    cfg.instrumentation.check_each = Some(ptx_opt::check_each(16));
    cfg.instrumentation.verify_each = true;
    match process_with(src.as_bytes(), &cfg) {
        Ok(o) => o.text,
        Err((e, log)) => panic!("{e:?}\n{log}"),
    }
}

fn count(ptx: &str, words: &[&str]) -> usize {
    ptx.lines()
        .filter(|l| {
            let t = l.trim_start();
            let t = t
                .strip_prefix('@')
                .map_or(t, |r| r.split_once(' ').map_or(r, |x| x.1));
            words.iter().any(|w| t.starts_with(w))
        })
        .count()
}

const LOGIC: &[&str] = &["and.b32", "or.b32", "xor.b32", "not.b32", "lop3."];

fn ptxas() -> Option<PathBuf> {
    let local =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../.tools/cuda/nvidia/cu13/bin/ptxas");
    std::env::var_os("PTXAS")
        .map(PathBuf::from)
        .or(local.exists().then_some(local))
}

#[test]
fn benchmark_kernels_map_correctly_and_never_grow() {
    let ptxas = ptxas();
    if ptxas.is_none() && std::env::var_os("CI").is_some() {
        panic!("ptxas is required under CI (scripts/install-ptxas.sh)");
    }
    let dir = std::env::temp_dir().join(format!("ptx-opt-lop3-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (mut before_total, mut after_total) = (0, 0);
    for (name, src) in kernels() {
        let out = run(&src, &["lop3-fuse"]);
        let (before, after) = (count(&src, LOGIC), count(&out, LOGIC));
        assert!(after <= before, "{name}: {before} -> {after}");
        before_total += before;
        after_total += after;
        let round = ["md5_", "sha1_", "sha256_", "ripemd_"]
            .iter()
            .any(|p| name.starts_with(p));
        if round {
            assert_eq!((after, count(&out, &["lop3."])), (1, 1), "{name}:\n{out}");
        }
        // Expanding and fusing again never loses: the same count, or fewer
        // where the expanded form exposes equivalent logic (sbox_present:
        // 11, then 9, as a second run of lop3-fuse finds too).
        let again = run(&run(&out, &["lop3-expand"]), &["lop3-fuse"]);
        assert!(count(&again, LOGIC) <= after, "{name} round trip:\n{again}");
        assert_eq!(count(&run(&out, &["lop3-expand"]), &["lop3"]), 0, "{name}");
        if let Some(ptxas) = &ptxas {
            let file = dir.join(format!("{name}.ptx"));
            std::fs::write(&file, &out).unwrap();
            let st = Command::new(ptxas)
                .args(["-arch=sm_80", "-o"])
                .arg(dir.join(format!("{name}.cubin")))
                .arg(&file)
                .output()
                .unwrap();
            assert!(
                st.status.success(),
                "{name}: {}",
                String::from_utf8_lossy(&st.stderr)
            );
        }
    }
    // The suite as a whole shrinks by more than half (364 -> 127 when
    // written; see docs/passes/lop3-fuse.md).
    assert!(
        after_total * 2 < before_total,
        "{before_total} -> {after_total}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn below_sm_50_nothing_is_fused() {
    let (_, src) = kernels().into_iter().find(|k| k.0 == "md5_f").unwrap();
    let old = src.replace(".target sm_80", ".target sm_35");
    let out = run(&old, &["lop3-fuse"]);
    assert_eq!(count(&out, &["lop3"]), 0, "{out}");
    assert_eq!(count(&out, LOGIC), count(&src, LOGIC));
}

/// `lop3-fuse` alone (with the predicate form enabled by PTX 8.2) on the
/// generated programs: `--check-each` finds no difference, and the pass
/// has work to do on many of them.
#[test]
fn generated_programs_keep_their_meaning() {
    let (mut changed, mut predicate_form) = (0, 0);
    for seed in 0..400u64 {
        let src = ptx_eval::gen::program(seed)
            .replace(".version 7.0\n.target sm_75", ".version 8.2\n.target sm_80");
        let out = run(&src, &["lop3-fuse"]);
        assert!(count(&out, LOGIC) <= count(&src, LOGIC), "seed {seed}");
        changed += u32::from(out != ptx_opt::process(src.as_bytes()).unwrap());
        predicate_form += u32::from(out.contains("lop3.or.b32") || out.contains("lop3.and.b32"));
    }
    assert!(changed > 100, "only {changed} of 400 programs changed");
    assert!(predicate_form > 0, "the d|p form was never used");
}

/// An S-box netlist as ABC writes it from the truth table (a sum of
/// products), bit-sliced into PTX.
fn sbox_kernel(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("benches/sboxes/{name}.aig"));
    let net = ptx_netlist::read_file(&path).unwrap();
    ptx_netlist::ptx::to_ptx(&net, name)
}

fn run_with_params(src: &str, pass: &str, params: &[&str]) -> String {
    let mut cfg = Config::default();
    cfg.passes.push((
        lookup(pass).unwrap(),
        params.iter().map(|p| p.to_string()).collect(),
    ));
    cfg.instrumentation.check_each = Some(ptx_opt::check_each(16));
    cfg.instrumentation.verify_each = true;
    match process_with(src.as_bytes(), &cfg) {
        Ok(o) => o.text,
        Err((e, log)) => panic!("{e:?}\n{log}"),
    }
}

/// Window resynthesis rebuilds an S-box from its truth tables: the
/// PRESENT S-box's sum-of-products netlist maps to at most 10 lop3s (ABC's
/// best flow: 14), where the mapping of the netlist as written takes more;
/// checked on random launches by `--check-each`.
#[test]
fn sbox_windows_are_resynthesised() {
    let src = sbox_kernel("present");
    let plain = count(&run_with_params(&src, "lop3-fuse", &["no-choices"]), LOGIC);
    let out = count(&run_with_params(&src, "lop3-fuse", &[]), LOGIC);
    assert!(out <= 10 && out < plain, "{out} (as written: {plain})");
}

/// A DES S-box behind the six key xors of a round (as a bit-sliced key
/// search writes it) is found as one window: the reconvergence-driven
/// cut stops at the xors, and the four outputs are rebuilt together.
#[test]
fn sbox_behind_key_xors_is_one_window() {
    let sbox = sbox_kernel("des_s1");
    // Feed each S-box input through an xor with a key word loaded beside
    // it: the inputs become xors of two loaded words.
    let mut out = String::new();
    let mut keys = 0;
    for line in sbox.lines() {
        out.push_str(line);
        out.push('\n');
        if line.trim_start().starts_with("ld.global.u32") && keys < 6 {
            // ld.global.u32 %rN, [%rdM+K];
            let reg = line
                .split_whitespace()
                .nth(1)
                .unwrap()
                .trim_end_matches(',');
            out.push_str(&format!(
                "ld.global.u32 %key{keys}, [%rd1+{}];\nxor.b32 {reg}, {reg}, %key{keys};\n",
                256 + 4 * keys
            ));
            keys += 1;
        }
    }
    assert_eq!(keys, 6, "{sbox}");
    let out = out.replacen("{\n", "{\n.reg .b32 %key<6>;\n", 1);
    let plain = count(&run_with_params(&out, "lop3-fuse", &["no-choices"]), LOGIC);
    let fused = count(&run_with_params(&out, "lop3-fuse", &[]), LOGIC);
    assert!(fused + 20 <= plain, "{fused} (as written: {plain})");
}

/// A network of more than 1,000 logic nodes also gets a refactored copy
/// mapped (`restructure.rs`): on the int-to-float circuit that copy wins
/// (fewer lop3s than with `no-refactor`), and the result computes every
/// output of the netlist on 4,096 random vectors.
#[test]
fn a_large_network_takes_its_refactored_copy() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/circuits/int2float.aig");
    let net = ptx_netlist::read_file(&path).unwrap();
    let src = ptx_netlist::ptx::to_ptx(&net, "int2float");
    let map = |params: &[&str]| {
        let mut cfg = Config::default();
        cfg.passes.push((
            lookup("lop3-fuse").unwrap(),
            params.iter().map(|p| p.to_string()).collect(),
        ));
        cfg.instrumentation.verify_each = true;
        process_with(src.as_bytes(), &cfg)
            .unwrap_or_else(|(e, log)| panic!("{e:?}\n{log}"))
            .text
    };
    let plain = count(&map(&["no-refactor"]), LOGIC);
    let out = map(&[]);
    let fused = count(&out, LOGIC);
    assert!(fused < plain, "refactored copy: {fused}, without: {plain}");
    let names: Vec<String> = net.outputs.iter().map(|o| o.0.clone()).collect();
    let ours = ptx_netlist::ptx::from_ptx(&out, &net.inputs, &names).unwrap();
    assert_eq!(ptx_netlist::sim::equivalent(&net, &ours, 64), Ok(None));
}
