//! NVIDIA's `ptxas` accepts everything we print, plain and after `-O2`,
//! for every corpus and hand-written file it accepts as input.
//!
//! `ptxas` comes from the `nvidia-cuda-nvcc` wheel that
//! `scripts/install-ptxas.sh` puts in `.tools/`. Without it the test is
//! skipped locally and fails under CI (`CI` set), where it must run.

use std::path::{Path, PathBuf};
use std::process::Command;

mod vop2_harness;

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn find_ptxas() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("PTXAS") {
        return Some(PathBuf::from(p));
    }
    let local = workspace().join(".tools/cuda/nvidia/cu13/bin/ptxas");
    if local.exists() {
        return Some(local);
    }
    Command::new("ptxas")
        .arg("--version")
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|_| "ptxas".into())
}

/// ptxas, or `None` (the test is skipped) when it is missing outside CI;
/// under CI a missing ptxas fails the test.
fn ptxas_or_skip() -> Option<PathBuf> {
    let found = find_ptxas();
    if found.is_none() {
        assert!(
            std::env::var_os("CI").is_none(),
            "ptxas is required under CI: run scripts/install-ptxas.sh"
        );
        eprintln!("skipped: ptxas not found (run scripts/install-ptxas.sh)");
    }
    found
}

/// The `-arch` to check a file with: its own target when newer than sm_80.
fn arch_for(src: &str) -> String {
    let target = src
        .lines()
        .find_map(|l| l.trim().strip_prefix(".target "))
        .unwrap_or("sm_80");
    let first = target.split(',').next().unwrap_or("").trim();
    let num: u32 = first
        .trim_start_matches("sm_")
        .trim_end_matches(['a', 'f'])
        .parse()
        .unwrap_or(80);
    if num > 80 {
        first.to_string()
    } else {
        "sm_80".into()
    }
}

fn assembles(ptxas: &Path, arch: &str, file: &Path) -> Result<(), String> {
    assemble_with(ptxas, arch, file, &[])
}

/// [`assembles`] as relocatable code (`-c`): calls to functions defined
/// elsewhere are fine.
fn assembles_relocatable(ptxas: &Path, arch: &str, file: &Path) -> Result<(), String> {
    assemble_with(ptxas, arch, file, &["-c"])
}

fn assemble_with(ptxas: &Path, arch: &str, file: &Path, extra: &[&str]) -> Result<(), String> {
    let out = Command::new(ptxas)
        .arg(format!("-arch={arch}"))
        .args(extra)
        .arg(file)
        .arg("-o")
        .arg("/dev/null")
        .output();
    match out {
        Ok(o) if o.status.success() => Ok(()),
        Ok(o) => Err(String::from_utf8_lossy(&o.stderr).into_owned()),
        Err(e) => Err(e.to_string()),
    }
}

fn o2_config() -> ptx_opt::Config {
    let elems = ptx_passes::pipeline::parse("default<O2>").unwrap();
    let mut c = ptx_opt::Config {
        passes: ptx_passes::pipeline::resolve(&elems).unwrap(),
        ..Default::default()
    };
    c.instrumentation.verify_each = true;
    c
}

#[test]
fn ptxas_accepts_printed_output() {
    let Some(ptxas) = ptxas_or_skip() else {
        return;
    };
    let root = workspace().join("crates/ptx-parse/tests");
    let tmp = std::env::temp_dir().join(format!("ptx-opt-ptxas-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let (mut checked, mut rejected_inputs) = (0, 0);
    let mut failures = Vec::new();
    for dir in ["corpus/llc", "corpus/llvm-nvptx", "corpus/stress", "forms"] {
        let mut files: Vec<PathBuf> = std::fs::read_dir(root.join(dir))
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        files.retain(|p| p.extension().is_some_and(|x| x == "ptx"));
        files.sort();
        for path in files {
            let src = std::fs::read_to_string(&path).unwrap();
            let arch = arch_for(&src);
            if assembles(&ptxas, &arch, &path).is_err() {
                rejected_inputs += 1;
                continue;
            }
            let printed = ptx_opt::process(src.as_bytes()).unwrap();
            let out = tmp.join(path.file_name().unwrap());
            std::fs::write(&out, printed).unwrap();
            if let Err(e) = assembles(&ptxas, &arch, &out) {
                failures.push(format!("{}: {e}", path.display()));
            }
            // And after the -O2 pipeline.
            let o2 = ptx_opt::process_with(src.as_bytes(), &o2_config())
                .unwrap_or_else(|_| panic!("{}: -O2 failed", path.display()));
            std::fs::write(&out, o2.text).unwrap();
            if let Err(e) = assembles(&ptxas, &arch, &out) {
                failures.push(format!("{} (-O2): {e}", path.display()));
            }
            checked += 1;
        }
    }
    let _ = std::fs::remove_dir_all(&tmp);
    eprintln!(
        "ptxas accepted {checked} printed files ({rejected_inputs} inputs it rejects were skipped)"
    );
    assert!(checked >= 90, "only {checked} files checked");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// LLVM's own NVPTX tests (`corpus/llvm-nvptx`) are mostly written for
/// sm_20..sm_60, which ptxas 13.5 no longer assembles. Retargeted to sm_80
/// (`--target=sm_80`, which also raises `.version`), every file whose text,
/// retargeted the same way by hand, ptxas accepts (as relocatable code:
/// some call functions defined elsewhere) must still assemble after the
/// round trip and after -O2.
#[test]
fn ptxas_accepts_llvm_nvptx_tests_retargeted() {
    let Some(ptxas) = ptxas_or_skip() else {
        return;
    };
    let dir = workspace().join("crates/ptx-parse/tests/corpus/llvm-nvptx");
    let tmp = std::env::temp_dir().join(format!("ptx-opt-llvm-nvptx-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    let (mut checked, mut skipped) = (0, 0);
    let mut failures = Vec::new();
    for path in files {
        let src = std::fs::read_to_string(&path).unwrap();
        // The hand-made retarget: the target line, and the version ptxas
        // wants for sm_80 when the file's is older.
        let by_hand: String = src
            .lines()
            .map(|l| {
                let t = l.trim_start();
                if t.starts_with(".target ") {
                    ".target sm_80".to_string()
                } else if t.starts_with(".version ") {
                    ".version 7.0".to_string()
                } else {
                    l.to_string()
                }
            })
            .collect::<Vec<_>>()
            .join("\n");
        let input = tmp.join(path.file_name().unwrap());
        std::fs::write(&input, &by_hand).unwrap();
        if assembles_relocatable(&ptxas, "sm_80", &input).is_err() {
            skipped += 1;
            continue;
        }
        for (what, passes) in [("round trip", ""), ("-O2", "default<O2>")] {
            let passes = if passes.is_empty() {
                Vec::new()
            } else {
                ptx_passes::pipeline::resolve(&ptx_passes::pipeline::parse(passes).unwrap())
                    .unwrap()
            };
            let config = ptx_opt::Config {
                passes,
                target: Some("sm_80".into()),
                ..Default::default()
            };
            let out = ptx_opt::process_with(src.as_bytes(), &config)
                .unwrap_or_else(|e| panic!("{}: {what}: {e:?}", path.display()));
            std::fs::write(&input, out.text).unwrap();
            if let Err(e) = assembles_relocatable(&ptxas, "sm_80", &input) {
                failures.push(format!("{} ({what}): {e}", path.display()));
            }
        }
        checked += 1;
    }
    let _ = std::fs::remove_dir_all(&tmp);
    eprintln!(
        "ptxas accepted {checked} retargeted LLVM NVPTX tests ({skipped} it rejects even retargeted by hand: 32-bit code, which ptxas 13 no longer assembles, and removed forms)"
    );
    assert!(checked >= 50, "only {checked} files checked");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Every vop2 form after `lower-vsub2` (six operations × eight type
/// triples × plain/`.sat`/`.add` × three masks, and a selector pair), in
/// one kernel per target, assembles for sm_75, sm_80, sm_90, sm_100 and
/// sm_120 — the half-word SIMD instructions included where they are used
/// (sm_90 and newer at this `.version`).
#[test]
fn ptxas_accepts_every_vop2_lowering() {
    let Some(ptxas) = ptxas_or_skip() else {
        return;
    };
    let mut body = String::new();
    let mut n = 10;
    for form in vop2_harness::forms() {
        for (mask, sel) in [("", ""), (".h0", ".h01"), (".h1", "")] {
            body.push_str(&format!(
                "\t{} %r{n}{mask}, %r1{sel}, %r2, %r3;\n\txor.b32 %r4, %r4, %r{n};\n",
                form.spelling()
            ));
            n += 1;
        }
    }
    let tmp = std::env::temp_dir().join(format!("ptx-opt-vop2-ptxas-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let cfg = vop2_harness::lower_config();
    let mut failures = Vec::new();
    // PTX 6.4 is below cvt.pack's 6.5; 8.7 has the 16x2 forms from sm_90.
    for (target, version) in [
        ("sm_75", "6.4"),
        ("sm_75", "6.5"),
        ("sm_75", "8.7"),
        ("sm_80", "8.7"),
        ("sm_90", "8.7"),
        ("sm_100", "8.7"),
        ("sm_120", "8.7"),
    ] {
        let src = format!(
            ".version {version}\n.target {target}\n.address_size 64\n\
             .visible .entry k(.param .u64 p)\n{{\n\t.reg .b32 %r<{n}>;\n\t.reg .b64 %rd<2>;\n\
             \tld.param.u64 %rd1, [p];\n\tld.global.v4.u32 {{%r1, %r2, %r3, %r4}}, [%rd1];\n\
             {body}\tst.global.u32 [%rd1], %r4;\n\tret;\n}}\n"
        );
        let out = ptx_opt::process_with(src.as_bytes(), &cfg).unwrap().text;
        assert!(!out.contains("vsub2.s32"), "{target}: not lowered");
        assert_eq!(out.contains("16x2"), target != "sm_75" && target != "sm_80");
        assert_eq!(
            out.contains("cvt.pack.sat"),
            version != "6.4",
            "{target} {version}"
        );
        assert!(out.contains("dp2a.lo"), "{target} {version}");
        let file = tmp.join(format!("{target}-{version}.ptx"));
        std::fs::write(&file, &out).unwrap();
        if let Err(e) = assembles(&ptxas, target, &file) {
            failures.push(format!("{target}: {e}"));
        }
    }
    let _ = std::fs::remove_dir_all(&tmp);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A `.loc` that only a deleted instruction carried, but that a later
/// `inlined_at` names, is still printed before it: ptxas refuses an
/// `inlined_at` site no earlier `.loc` showed ("used in inlined_at
/// directive must be used in a preceding .loc directive").
#[test]
fn inlined_at_sites_survive_deleted_instructions() {
    let src = ".version 8.0\n.target sm_80\n.address_size 64\n\
        .visible .entry k(.param .u64 p)\n{\n\
        \t.reg .b32 %r<4>;\n\t.reg .b64 %rd<2>;\n\
        \t.loc 1 5 0\n\tld.param.u64 %rd1, [p];\n\
        \t.loc 1 47 9\n\tmov.u32 %r3, 5;\n\
        \t.loc 2 439 9, function_name $L__info_string0, inlined_at 1 47 9\n\
        \tmov.u32 %r1, %tid.x;\n\
        \t.loc 1 48 2\n\tst.global.u32 [%rd1], %r1;\n\tret;\n}\n\
        \t.file 1 \"k.cu\"\n\t.file 2 \"inl.h\"\n\
        \t.section .debug_str\n\t{\n$L__info_string0:\n.b8 102,0\n\t}\n";
    let elems = ptx_passes::pipeline::parse("dce").unwrap();
    let cfg = ptx_opt::Config {
        passes: ptx_passes::pipeline::resolve(&elems).unwrap(),
        ..Default::default()
    };
    let out = ptx_opt::process_with(src.as_bytes(), &cfg).unwrap().text;
    assert!(
        !out.contains("mov.u32 \t%r3, 5"),
        "dce left the dead mov:\n{out}"
    );
    let site = out.find(".loc\t1 47 9").expect("the site's .loc is kept");
    let inlined = out.find("inlined_at 1 47 9").unwrap();
    assert!(site < inlined, "{out}");
    let Some(ptxas) = ptxas_or_skip() else {
        return;
    };
    let dir = std::env::temp_dir().join(format!("ptx-opt-loc-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("k.ptx");
    std::fs::write(&file, &out).unwrap();
    let r = assembles(&ptxas, "sm_80", &file);
    let _ = std::fs::remove_dir_all(&dir);
    r.unwrap_or_else(|e| panic!("{e}\n{out}"));
}

/// ptxas 13.5 crashes (segfault, sm_80 and sm_90) on a `lop3` whose result
/// `setp.eq … 0` tests when the predicate guards a store; it was found on
/// a Triton kernel, where `lop3-fuse` fused `tid & 31` and `| tid >> 5`
/// into `lop3.b32 d, tid, tid >> 5, 0x1f, 0xec`. `lop3-fuse` leaves such a
/// piece as it is: its output assembles on every target, while the fused
/// form still crashes this ptxas (so the test guards the right form).
#[test]
fn lop3_fuse_avoids_the_form_that_crashes_ptxas() {
    let Some(ptxas) = ptxas_or_skip() else {
        return;
    };
    let kernel = |body: &str| {
        format!(
            ".version 8.0\n.target sm_80\n.address_size 64\n\
             .visible .entry k(.param .u64 p)\n{{\n\t.reg .pred %p<3>;\n\t.reg .b32 %r<8>;\n\
             \t.reg .b64 %rd<2>;\n\tld.param.u64 %rd1, [p];\n\tmov.u32 %r1, %tid.x;\n\
             \tshr.u32 %r3, %r1, 5;\n{body}\n\tsetp.eq.s32 %p1, %r4, 0;\n\
             \t@%p1 st.global.u32 [%rd1], %r1;\n\tret;\n}}\n"
        )
    };
    let tmp = std::env::temp_dir().join(format!("ptx-opt-lop3-crash-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let src = kernel("\tand.b32 %r2, %r1, 31;\n\tor.b32 %r4, %r2, %r3;");
    let mut cfg = ptx_opt::Config::default();
    cfg.passes.push((
        ptx_passes::registry::lookup("lop3-fuse").unwrap(),
        Vec::new(),
    ));
    let out = ptx_opt::process_with(src.as_bytes(), &cfg).unwrap().text;
    assert!(!out.contains("lop3"), "fused the crashing form:\n{out}");
    let file = tmp.join("ours.ptx");
    std::fs::write(&file, &out).unwrap();
    for arch in ["sm_80", "sm_90", "sm_120"] {
        assembles(&ptxas, arch, &file).unwrap_or_else(|e| panic!("{arch}: {e}"));
    }
    let fused = tmp.join("fused.ptx");
    std::fs::write(&fused, kernel("\tlop3.b32 %r4, %r1, %r3, 0x1f, 0xec;")).unwrap();
    let crashed = Command::new(&ptxas)
        .args(["-arch=sm_80", "-o", "/dev/null"])
        .arg(&fused)
        .status()
        .unwrap();
    let _ = std::fs::remove_dir_all(&tmp);
    assert!(
        !crashed.success(),
        "this ptxas no longer crashes on the fused form"
    );
}

/// The arch- and family-specific forms (`wgmma`, `setmaxnreg`, `tcgen05`,
/// `mma .kind::f8f6f4`, the fp4/fp6/ue8m0 `cvt`s, f32 `redux`, `cvt.rs`):
/// on every target from sm_90 to sm_121, with and without `a`/`f`, the
/// parser accepts exactly where ptxas does.
#[test]
fn arch_specific_forms_are_accepted_exactly_where_ptxas_accepts_them() {
    let Some(ptxas) = ptxas_or_skip() else {
        return;
    };
    let forms = [
        "wgmma.fence.sync.aligned;",
        "setmaxnreg.inc.sync.aligned.u32 240;",
        "tcgen05.fence::before_thread_sync;",
        "mma.sync.aligned.m16n8k32.row.col.kind::f8f6f4.f32.e4m3.e4m3.f32 {%f1, %f2, %f3, %f4}, {%r1, %r2, %r3, %r1}, {%r2, %r3}, {%f1, %f2, %f3, %f4};",
        "cvt.rn.satfinite.e2m1x2.f32 %b1, %f1, %f2;",
        "cvt.rz.satfinite.ue8m0x2.f32 %h1, %f1, %f2;",
        "redux.sync.min.f32 %f1, %f2, 0xffffffff;",
        "cvt.rs.f16x2.f32 %r1, %f1, %f2, %r2;",
        // Not arch-specific: accepted from sm_100 on.
        "add.rn.f32x2 %rd3, %rd1, %rd2;",
        "clusterlaunchcontrol.query_cancel.is_canceled.pred.b128 %p1, %rq;",
        "st.bulk.weak.shared::cta [%r1], 128, 0;",
    ];
    let mut targets = vec!["sm_90".to_string(), "sm_90a".to_string()];
    for n in [100, 103, 110, 120, 121] {
        for s in ["", "a", "f"] {
            targets.push(format!("sm_{n}{s}"));
        }
    }
    let tmp = std::env::temp_dir().join(format!("ptx-opt-arch-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let mut differ = Vec::new();
    let mut accepted = 0;
    for form in forms {
        for t in &targets {
            let text = format!(
                ".version 9.0\n.target {t}\n.address_size 64\n.visible .entry k(.param .u64 p)\n{{\n\
                 \t.reg .pred %p<4>;\n\t.reg .b8 %b<4>;\n\t.reg .b16 %h<4>;\n\t.reg .b32 %r<6>;\n\
                 \t.reg .f32 %f<6>;\n\t.reg .b64 %rd<4>;\n\t.reg .b128 %rq;\n\t{form}\n\tret;\n}}\n"
            );
            let path = tmp.join("k.ptx");
            std::fs::write(&path, &text).unwrap();
            let theirs = assembles(&ptxas, t, &path).is_ok();
            let ours = ptx_parse::parse_module(&text).is_ok();
            accepted += ours as u32;
            if ours != theirs {
                differ.push(format!("{form} on {t}: ptxas {theirs}, ptx-parse {ours}"));
            }
        }
    }
    assert!(differ.is_empty(), "{}", differ.join("\n"));
    // Each form is accepted somewhere, and refused somewhere.
    assert!(accepted > 20 && accepted < 11 * 17 - 20, "{accepted}");
}
