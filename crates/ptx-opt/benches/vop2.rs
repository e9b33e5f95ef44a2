//! SASS cost of every vop2 form: for each form and each of sm_75, sm_80,
//! sm_90, sm_100 and sm_120, the SASS instructions a kernel gains from the
//! one vop2 instruction, compiled by ptxas as written (ptxas's own
//! emulation) and after `lower-vsub2`, against the same kernel with a
//! `sub.s32` in its place (operands loaded, result stored).
//!
//! ```text
//! cargo bench -p ptx-opt --bench vop2 [-- --markdown] [--quick] [--filter TEXT]
//! ```
//!
//! Forms: the six operations × eight type triples × plain/`.sat`/`.add`
//! × three destination masks (both halves, `.h0`, `.h1`), default
//! selectors, plus each operation with a non-default selector pair.
//! `--quick`: the s32 and u32 type triples only; `--filter TEXT`: the
//! forms whose name contains TEXT. Tools: `PTXAS`, `NVDISASM` (default: the copies
//! `scripts/install-bench-tools.sh` installs in `.tools/`); without them
//! the bench says so and stops.
//!
//! After the table it prints, per kind of form (plain, `.sat`, `.add`)
//! and target, the sums and their ratio; the goals (each full-mask
//! `vadd2`/`vsub2.s32.s32.s32.sat` at most 1/3 of ptxas on sm_80 and
//! sm_90, the `.add` forms at most 1/2 of ptxas on each target) as
//! met or missed; and each form longer than in the committed
//! `docs/passes/vop2-sass.md`. It exits 1 when a goal is missed or a form
//! got longer.

use ptx_opt::sass::{measure, Tools};
use ptx_opt::{process_with, Config};
use ptx_passes::registry::lookup;
use std::path::Path;

const TARGETS: [&str; 5] = ["sm_75", "sm_80", "sm_90", "sm_100", "sm_120"];

/// A form's index and (ptxas's, ours) per target.
type Row = (usize, [(u32, u32); 5]);

fn kernel(inst: &str, target: &str) -> String {
    format!(
        ".version 8.7\n.target {target}\n.address_size 64\n\
         .visible .entry k(.param .u64 p)\n{{\n.reg .b32 %r<8>;\n.reg .b64 %rd<2>;\n\
         ld.param.u64 %rd1, [p];\nld.global.v4.u32 {{%r1, %r2, %r3, %r4}}, [%rd1];\n\
         {inst}\nst.global.u32 [%rd1], %r5;\nret;\n}}\n"
    )
}

/// SASS instructions in the kernel `k` (cached in `target/sass-cache`).
fn sass(tools: &Tools, ptx: &str, target: &str) -> u32 {
    let s = measure(tools, ptx, target, Some(false))
        .unwrap_or_else(|e| panic!("ptxas refused: {e}\n{ptx}"));
    s.functions.get("k").map_or(0, |f| f.insts) as u32
}

fn main() {
    let markdown = std::env::args().any(|a| a == "--markdown");
    let quick = std::env::args().any(|a| a == "--quick");
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let Some(tools) = Tools::find(&repo) else {
        println!("vop2 bench: needs ptxas and nvdisasm (scripts/install-bench-tools.sh)");
        return;
    };
    let mut cfg = Config::default();
    cfg.passes
        .push((lookup("lower-vsub2").unwrap(), Vec::new()));
    let base: Vec<u32> = TARGETS
        .iter()
        .map(|t| sass(&tools, &kernel("sub.s32 %r5, %r1, %r2;", t), t))
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
    let filter = std::env::args()
        .skip_while(|a| a != "--filter")
        .nth(1)
        .unwrap_or_default();
    let recorded = recorded_table(&repo.join("docs/passes/vop2-sass.md"));
    if markdown {
        println!("| form | {} |", TARGETS.join(" | "));
        println!("|---|{}", "---|".repeat(TARGETS.len()));
    }
    // (sum of ptxas's, sum of ours, cells) per kind of form and target.
    let mut totals: std::collections::BTreeMap<(&str, usize), (u32, u32, u32)> = Default::default();
    let mut missed: Vec<String> = Vec::new();
    let forms: Vec<&String> = forms
        .iter()
        .filter(|f| form_name(f).contains(filter.as_str()))
        .collect();
    // (ptxas's, ours) per form and target, measured on two threads.
    let next = std::sync::atomic::AtomicUsize::new(0);
    let measured: Vec<Vec<Row>> = std::thread::scope(|s| {
        let work = || {
            let mut done = Vec::new();
            loop {
                let n = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some(form) = forms.get(n) else {
                    return done;
                };
                let mut row = [(0, 0); 5];
                for (k, t) in TARGETS.iter().enumerate() {
                    let src = kernel(form, t);
                    let lowered = process_with(src.as_bytes(), &cfg).unwrap().text;
                    row[k] = (
                        sass(&tools, &src, t) - base[k],
                        sass(&tools, &lowered, t) - base[k],
                    );
                }
                done.push((n, row));
            }
        };
        let threads: Vec<_> = (0..2).map(|_| s.spawn(work)).collect();
        threads.into_iter().map(|t| t.join().unwrap()).collect()
    });
    let mut rows: Vec<Row> = measured.into_iter().flatten().collect();
    rows.sort_by_key(|r| r.0);
    for (n, row) in rows {
        let form = forms[n];
        let name = form_name(form);
        let mut cells = Vec::new();
        for (k, t) in TARGETS.iter().enumerate() {
            let (native, ours) = row[k];
            cells.push(format!("+{native} / +{ours}"));
            let kind = if form.contains(".sat") {
                "sat"
            } else if form.contains(".add") {
                "add"
            } else {
                "plain"
            };
            let e = totals.entry((kind, k)).or_default();
            e.0 += native;
            e.1 += ours;
            e.2 += 1;
            if let Some(&was) = recorded.get(&(name.clone(), k)) {
                if ours > was {
                    missed.push(format!("{name} on {t}: +{ours}, was +{was}"));
                }
            }
            let full_sat = ["vadd2.s32.s32.s32.sat", "vsub2.s32.s32.s32.sat"].contains(&&*name);
            if full_sat && matches!(*t, "sm_80" | "sm_90") && 3 * ours > native {
                missed.push(format!(
                    "{name} on {t}: +{ours}, above 1/3 of ptxas's +{native}"
                ));
            }
        }
        if markdown {
            println!("| `{name}` | {} |", cells.join(" | "));
        } else {
            println!("{name:40} {}", cells.join("  "));
        }
    }
    println!("\ncells: SASS instructions added by ptxas's emulation / after lower-vsub2");
    for ((kind, k), (native, ours, n)) in &totals {
        println!(
            "{kind:6} {:7} forms: {n:4}  ptxas {native:6}  ours {ours:6}  ratio {:.2}",
            TARGETS[*k],
            *ours as f64 / (*native).max(1) as f64
        );
        if *kind == "add" && filter.is_empty() && 2 * ours > *native {
            missed.push(format!(".add forms on {}: above 1/2 of ptxas", TARGETS[*k]));
        }
    }
    if missed.is_empty() {
        println!("goals met; no form longer than in docs/passes/vop2-sass.md");
    } else {
        for m in &missed {
            println!("MISSED: {m}");
        }
        std::process::exit(1);
    }
}

/// The table's name for a form: the instruction, the destination mask and
/// the non-default selectors.
fn form_name(form: &str) -> String {
    form.split(' ').next().unwrap().to_string()
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
        }
}

/// Our figure per (form name, target index) in the committed table's
/// `| \`name\` | +ptxas / +ours | … |` rows; empty without the file.
fn recorded_table(path: &Path) -> std::collections::HashMap<(String, usize), u32> {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let mut out = std::collections::HashMap::new();
    for line in text.lines() {
        let Some(rest) = line.strip_prefix("| `") else {
            continue;
        };
        let Some((name, cells)) = rest.split_once("` |") else {
            continue;
        };
        for (k, cell) in cells.split('|').filter(|c| c.contains('/')).enumerate() {
            if let Some(ours) = cell
                .split('/')
                .nth(1)
                .and_then(|x| x.trim().trim_start_matches('+').parse().ok())
            {
                out.insert((name.to_string(), k), ours);
            }
        }
    }
    out
}
