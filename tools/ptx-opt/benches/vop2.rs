//! SASS cost of every vop2 form: for each form and each of sm_75, sm_80,
//! sm_90, sm_100 and sm_120, the SASS instructions a kernel gains from the
//! one vop2 instruction, compiled by ptxas as written (ptxas's own
//! emulation) and after `lower-vsub2`, against the same kernel with a
//! `sub.s32` in its place (operands loaded, result stored).
//!
//! ```text
//! cargo bench -p ptx-opt --bench vop2 [-- --markdown] [-- --quick]
//! ```
//!
//! Forms: the six operations × eight type triples × plain/`.sat`/`.add`
//! × three destination masks (both halves, `.h0`, `.h1`), default
//! selectors, plus each operation with a non-default selector pair. `--quick`: the s32 and u32 type triples
//! only. Tools: `PTXAS`, `NVDISASM` (default: the copies
//! `scripts/install-bench-tools.sh` installs in `.tools/`); without them
//! the bench says so and stops.

use ptx_opt::{process_with, Config};
use ptx_passes::registry::lookup;
use std::path::{Path, PathBuf};
use std::process::Command;

const TARGETS: [&str; 5] = ["sm_75", "sm_80", "sm_90", "sm_100", "sm_120"];

fn kernel(inst: &str, target: &str) -> String {
    format!(
        ".version 8.7\n.target {target}\n.address_size 64\n\
         .visible .entry k(.param .u64 p)\n{{\n.reg .b32 %r<8>;\n.reg .b64 %rd<2>;\n\
         ld.param.u64 %rd1, [p];\nld.global.v4.u32 {{%r1, %r2, %r3, %r4}}, [%rd1];\n\
         {inst}\nst.global.u32 [%rd1], %r5;\nret;\n}}\n"
    )
}

fn tool(env: &str, default: &Path) -> Option<PathBuf> {
    let p = std::env::var_os(env)
        .map(PathBuf::from)
        .unwrap_or_else(|| default.to_path_buf());
    Command::new(&p)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
        .then_some(p)
}

/// SASS instructions in the kernel (NOPs and the trailing self-branch out).
fn sass(ptxas: &Path, nvdisasm: &Path, ptx: &str, target: &str, dir: &Path) -> u32 {
    let (src, cubin) = (dir.join("k.ptx"), dir.join("k.cubin"));
    std::fs::write(&src, ptx).unwrap();
    let st = Command::new(ptxas)
        .arg(format!("-arch={target}"))
        .arg(&src)
        .arg("-o")
        .arg(&cubin)
        .status()
        .unwrap();
    assert!(st.success(), "ptxas refused:\n{ptx}");
    let out = Command::new(nvdisasm)
        .arg("-c")
        .arg(&cubin)
        .output()
        .unwrap();
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter(|l| {
            let t = l.trim_start();
            t.starts_with("/*") && t.len() > 8 && t.as_bytes()[6] == b'*'
        })
        .filter(|l| !l.contains("NOP") && !l.contains(" BRA "))
        .count() as u32
}

fn main() {
    let markdown = std::env::args().any(|a| a == "--markdown");
    let quick = std::env::args().any(|a| a == "--quick");
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let (Some(ptxas), Some(nvdisasm)) = (
        tool("PTXAS", &repo.join(".tools/cuda/nvidia/cu13/bin/ptxas")),
        tool(
            "NVDISASM",
            &repo.join(".tools/cuda/nvidia/cu13/bin/nvdisasm"),
        ),
    ) else {
        println!("vop2 bench: needs ptxas and nvdisasm (scripts/install-bench-tools.sh)");
        return;
    };
    let dir = std::env::temp_dir().join(format!("vop2-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut cfg = Config::default();
    cfg.passes
        .push((lookup("lower-vsub2").unwrap(), Vec::new()));
    let base: Vec<u32> = TARGETS
        .iter()
        .map(|t| {
            sass(
                &ptxas,
                &nvdisasm,
                &kernel("sub.s32 %r5, %r1, %r2;", t),
                t,
                &dir,
            )
        })
        .collect();
    let types: &[[&str; 3]] = if quick {
        &[["s32"; 3], ["u32"; 3]]
    } else {
        &[
            ["u32", "u32", "u32"],
            ["u32", "u32", "s32"],
            ["u32", "s32", "u32"],
            ["u32", "s32", "s32"],
            ["s32", "u32", "u32"],
            ["s32", "u32", "s32"],
            ["s32", "s32", "u32"],
            ["s32", "s32", "s32"],
        ]
    };
    let mut forms: Vec<String> = Vec::new();
    for op in ["vadd2", "vsub2", "vavrg2", "vabsdiff2", "vmin2", "vmax2"] {
        for [d, a, b] in types {
            for mode in ["", ".sat", ".add"] {
                for mask in ["", ".h0", ".h1"] {
                    forms.push(format!("{op}.{d}.{a}.{b}{mode} %r5{mask}, %r1, %r2, %r3;"));
                }
            }
        }
        forms.push(format!("{op}.s32.s32.s32 %r5, %r1.h01, %r2.h23, %r3;"));
    }
    if markdown {
        println!("| form | {} |", TARGETS.join(" | "));
        println!("|---|{}", "---|".repeat(TARGETS.len()));
    }
    // (sum of ptxas's, sum of ours) per kind of form, for the summary.
    let mut totals: std::collections::BTreeMap<&str, (u32, u32, u32)> = Default::default();
    for form in &forms {
        let mut cells = Vec::new();
        for (k, t) in TARGETS.iter().enumerate() {
            let src = kernel(form, t);
            let native = sass(&ptxas, &nvdisasm, &src, t, &dir) - base[k];
            let lowered = process_with(src.as_bytes(), &cfg).unwrap().text;
            let ours = sass(&ptxas, &nvdisasm, &lowered, t, &dir) - base[k];
            cells.push(format!("+{native} / +{ours}"));
            let kind = if form.contains(".sat") {
                "sat"
            } else if form.contains(".add") {
                "add"
            } else {
                "plain"
            };
            let e = totals.entry(kind).or_default();
            e.0 += native;
            e.1 += ours;
            e.2 += 1;
        }
        let name = form.split(' ').next().unwrap().to_string()
            + form
                .split(' ')
                .nth(1)
                .and_then(|d| d.strip_suffix(','))
                .and_then(|d| d.split_once('.'))
                .map_or(String::new(), |(_, m)| format!(" .{m}"))
                .as_str()
            + if form.contains(".h01") {
                " (a.h01, b.h23)"
            } else {
                ""
            };
        if markdown {
            println!("| `{name}` | {} |", cells.join(" | "));
        } else {
            println!("{name:40} {}", cells.join("  "));
        }
    }
    println!("\ncells: SASS instructions added by ptxas's emulation / after lower-vsub2");
    for (kind, (native, ours, n)) in totals {
        println!(
            "{kind:6} forms × targets: {n:4}  ptxas {native:6}  ours {ours:6}  ratio {:.2}",
            ours as f64 / native.max(1) as f64
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
