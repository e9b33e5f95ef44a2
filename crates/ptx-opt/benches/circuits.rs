//! The `lop3-fuse` large-circuit report: `cargo bench -p ptx-opt --bench
//! circuits` (add `-- --markdown` for the table in `docs/passes/lop3-fuse.md`,
//! `-- NAME…` to run some circuits only).
//!
//! Each netlist in `benches/circuits/*.aig` (written by
//! `scripts/gen-circuits.sh`: ABC's generators and yosys on the Verilog in
//! `circuits/src/`, all structurally hashed by ABC) is bit-sliced into a PTX
//! kernel by `ptx-netlist`, and the same AIG is handed to ABC. Columns: the
//! AIG's ANDs; logic instructions (`and`/`or`/`xor`/`not`/`lop3` `.b32`) in
//! the kernel and after `-passes=lop3-fuse`; the pass's wall time (parse,
//! pass and print, release build, best of three); ABC's 3-LUT counts for
//! `strash; if -K 3 -a` and `strash; dch -f; if -K 3 -a; mfs2`; and the
//! check. The check reads the logic of our output back into a netlist and
//! compares it with the input: on every input assignment up to 20 inputs,
//! else on 4,096 random vectors, then proves it with ABC's SAT-based `cec`
//! (or, when that takes more than a minute, by collapsing the miter to
//! BDDs and proving its output constant).
//! A circuit whose check fails makes the bench exit non-zero.
//!
//! The S-box suite follows (`benches/sboxes/*.aig`, written by
//! `scripts/gen-sboxes.py`: each S-box's truth tables through ABC's
//! `read_truth`, so neither side picks its input), with its total against
//! ABC's best of the two scripts.
//!
//! `ABC` names the ABC binary (default `berkeley-abc`); without it the ABC
//! columns print `-` and the proof is skipped.

use ptx_netlist::{aiger, ptx, sim, Netlist};
use ptx_opt::{process_with, Config};
use ptx_passes::registry::lookup;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

/// Logic instructions in PTX text.
fn logic_count(ptx: &str) -> u32 {
    ptx.lines()
        .filter(|l| {
            let t = l.trim_start();
            ["and.b32", "or.b32", "xor.b32", "not.b32", "lop3.b32"]
                .iter()
                .any(|op| t.starts_with(op))
        })
        .count() as u32
}

/// ABC's LUT count (`nd`) after `script` on the AIG file.
fn abc_luts(abc: &Path, aig: &Path, script: &str) -> Option<u32> {
    let cmd = format!("read {}; {script}; print_stats", aig.display());
    let out = Command::new(abc).args(["-c", &cmd]).output().ok()?;
    let text = String::from_utf8_lossy(&out.stdout);
    let at = text.find(" nd =")? + 5;
    text[at..]
        .trim_start()
        .split(|c: char| !c.is_ascii_digit())
        .next()?
        .parse()
        .ok()
}

/// ABC's output for `cmd`, or `None` if it did not finish in `secs`.
fn abc_run(abc: &Path, cmd: &str, secs: u64) -> Option<String> {
    let mut child = Command::new(abc)
        .args(["-c", cmd])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .ok()?;
    let start = Instant::now();
    loop {
        if child.try_wait().ok()?.is_some() {
            break;
        }
        if start.elapsed().as_secs() >= secs {
            let _ = child.kill();
            let _ = child.wait();
            return None;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let out = child.wait_with_output().ok()?;
    Some(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// Whether ABC proves two AIGER files equivalent, and how: its SAT-based
/// `cec` first, then, when that runs past a minute (SAT is slow on deep
/// restructured xor logic), the miter collapsed to BDDs and the result
/// proved constant. `None` when neither finishes.
fn abc_cec(abc: &Path, a: &Path, b: &Path) -> Option<(bool, &'static str)> {
    let cmd = format!("cec {} {}", a.display(), b.display());
    if let Some(text) = abc_run(abc, &cmd, 60) {
        return Some((text.contains("Networks are equivalent"), "cec"));
    }
    let cmd = format!(
        "miter {} {}; collapse; strash; sat",
        a.display(),
        b.display()
    );
    let text = abc_run(abc, &cmd, 120)?;
    Some((text.contains("UNSATISFIABLE"), "bdd"))
}

struct Row {
    name: String,
    ands: usize,
    before: u32,
    after: u32,
    secs: f64,
    abc_area: Option<u32>,
    abc_best: Option<u32>,
    check: String,
    ok: bool,
}

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    let markdown = args.iter().any(|a| a == "--markdown");
    let only: Vec<&String> = args.iter().filter(|a| !a.starts_with("--")).collect();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = root.join("benches/circuits");
    let abc = std::env::var_os("ABC")
        .map(PathBuf::from)
        .unwrap_or_else(|| "berkeley-abc".into());
    let abc = Command::new(&abc)
        .args(["-c", "quit"])
        .output()
        .is_ok_and(|o| o.status.success())
        .then_some(abc);
    let tmp = std::env::temp_dir().join(format!("ptx-opt-circuits-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).expect("temp dir");
    let mut cfg = Config::default();
    cfg.passes
        .push((lookup("lop3-fuse").expect("registered"), Vec::new()));
    let ctx = Suite {
        abc: abc.as_deref(),
        tmp: &tmp,
        cfg: &cfg,
        markdown,
        only: &only,
    };
    let rows = ctx.run(&dir, "circuit");
    summarize_circuits(&rows);
    println!();
    let sboxes = ctx.run(&root.join("benches/sboxes"), "S-box");
    summarize_sboxes(&sboxes);
    let _ = std::fs::remove_dir_all(&tmp);
    if rows.iter().chain(&sboxes).any(|r| !r.ok) {
        eprintln!("circuits: a check failed");
        std::process::exit(1);
    }
}

/// What every suite run shares.
struct Suite<'a> {
    abc: Option<&'a Path>,
    tmp: &'a Path,
    cfg: &'a Config,
    markdown: bool,
    only: &'a [&'a String],
}

impl Suite<'_> {
    /// Checks `out` (our PTX of `net`) against `net`: by simulation
    /// (every input assignment up to [`sim::EXHAUSTIVE_INPUTS`] inputs,
    /// else random vectors), then by ABC's proof. The text for the
    /// table, and whether the check passed.
    fn check(&self, name: &str, net: &Netlist, out: &str) -> (String, bool) {
        let out_names: Vec<String> = net.outputs.iter().map(|o| o.0.clone()).collect();
        let ours = match ptx::from_ptx(out, &net.inputs, &out_names) {
            Err(e) => return (format!("unreadable: {e}"), false),
            Ok(ours) => ours,
        };
        match sim::equivalent(net, &ours, 64) {
            Err(e) => return (e, false),
            Ok(Some((o, _))) => return (format!("output {o} differs"), false),
            Ok(None) => {}
        }
        let sim = if net.inputs.len() <= sim::EXHAUSTIVE_INPUTS {
            "exhaustive"
        } else {
            "4096 random"
        };
        let proof = self.abc.and_then(|abc| {
            let a = self.tmp.join(format!("{name}.in.aig"));
            let b = self.tmp.join(format!("{name}.out.aig"));
            std::fs::write(&a, aiger::write(net)).ok()?;
            std::fs::write(&b, aiger::write(&ours)).ok()?;
            abc_cec(abc, &a, &b)
        });
        match proof {
            Some((true, how)) => (format!("{sim} + {how}"), true),
            Some((false, how)) => (format!("{how}: NOT EQUIVALENT"), false),
            None => (format!("{sim} (no proof in time)"), true),
        }
    }

    /// Maps and checks every netlist of `dir`, printing a row each.
    fn run(&self, dir: &Path, what: &str) -> Vec<Row> {
        let (abc, cfg, markdown, only) = (self.abc, self.cfg, self.markdown, self.only);
        let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
            .expect("benches/circuits")
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "aig"))
            .filter(|p| {
                let stem = p.file_stem().unwrap().to_string_lossy();
                only.is_empty() || only.iter().any(|o| **o == stem)
            })
            .collect();
        files.sort();
        let mut rows = Vec::new();
        for file in &files {
            let name = file.file_stem().unwrap().to_string_lossy().to_string();
            let net: Netlist =
                ptx_netlist::read_file(file).unwrap_or_else(|e| panic!("{name}: {e}"));
            let src = ptx::to_ptx(&net, &name);
            let mut secs = f64::INFINITY;
            let mut out = String::new();
            for _ in 0..3 {
                // Cold: no window synthesised by an earlier run.
                ptx_passes::lop3_fuse::clear_cache();
                let t = Instant::now();
                out = match process_with(src.as_bytes(), cfg) {
                    Ok(o) => o.text,
                    Err((e, log)) => panic!("{name}: {e:?}\n{log}"),
                };
                secs = secs.min(t.elapsed().as_secs_f64());
            }
            let (check, ok) = self.check(&name, &net, &out);
            let luts = |script: &str| abc.and_then(|abc| abc_luts(abc, file, script));
            let row = Row {
                name,
                ands: net.ands.len(),
                before: logic_count(&src),
                after: logic_count(&out),
                secs,
                abc_area: luts("strash; if -K 3 -a"),
                abc_best: luts("strash; dch -f; if -K 3 -a; mfs2"),
                check,
                ok,
            };
            if !markdown {
                print_row(&row);
            }
            rows.push(row);
        }
        if markdown {
            println!("| {what} | ANDs | logic in | lop3-fuse | time | ABC `if -a` | ABC `dch; if -a; mfs2` | check |");
            println!("|---|---|---|---|---|---|---|---|");
            for r in &rows {
                println!("| {} |", r.cells().join(" | "));
            }
        }
        rows
    }
}

fn summarize_circuits(rows: &[Row]) {
    let sum = |f: &dyn Fn(&Row) -> Option<u32>| rows.iter().map(f).sum::<Option<u32>>();
    let ours: u32 = rows.iter().map(|r| r.after).sum();
    let area = sum(&|r| r.abc_area);
    let best = sum(&|r| r.abc_best);
    let min_best = sum(&|r| r.abc_area.zip(r.abc_best).map(|(a, b)| a.min(b)));
    println!();
    println!(
        "total: ours {ours}, ABC if -a {}, ABC dch+mfs2 {}, ABC best of both {}",
        show(area),
        show(best),
        show(min_best)
    );
    let big: Vec<&Row> = rows.iter().filter(|r| r.ands >= 1000).collect();
    let at_or_below = |r: &&Row, x: Option<u32>| x.is_some_and(|x| r.after <= x);
    println!(
        "circuits of 1,000+ ANDs at or below ABC if -a: {} of {}; at or below ABC's best: {} of {}",
        big.iter().filter(|r| at_or_below(r, r.abc_area)).count(),
        big.len(),
        big.iter()
            .filter(|r| at_or_below(r, r.abc_area.zip(r.abc_best).map(|(a, b)| a.min(b))))
            .count(),
        big.len()
    );
}

/// The S-box suite's totals against ABC's best (the target is
/// 0.85 of it).
fn summarize_sboxes(rows: &[Row]) {
    let ours: u32 = rows.iter().map(|r| r.after).sum();
    let best = rows
        .iter()
        .map(|r| r.abc_area.zip(r.abc_best).map(|(a, b)| a.min(b)))
        .sum::<Option<u32>>();
    println!();
    match best {
        Some(b) => println!(
            "S-boxes total: ours {ours}, ABC best of both {b}: {:.2}x",
            f64::from(ours) / f64::from(b)
        ),
        None => println!("S-boxes total: ours {ours}"),
    }
}

fn show(x: Option<u32>) -> String {
    x.map_or("-".to_string(), |v| v.to_string())
}

impl Row {
    /// The row's cells, in the table's column order.
    fn cells(&self) -> [String; 8] {
        [
            self.name.clone(),
            self.ands.to_string(),
            self.before.to_string(),
            self.after.to_string(),
            format!("{:.3} s", self.secs),
            show(self.abc_area),
            show(self.abc_best),
            self.check.clone(),
        ]
    }
}

fn print_row(r: &Row) {
    let c = r.cells();
    println!(
        "{:<10} ands {:>6}  in {:>6}  ours {:>6}  {:>9}  abc-a {:>6}  abc-best {:>6}  {}",
        c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]
    );
}
