//! `gpu-campaign`: the evaluator against the hardware, and every pass's
//! output against its input on the hardware.
//!
//! ```text
//! gpu-campaign prepare DIR [--root REPO] [--ptx-opt BIN] [--gen N] [--jobs J]
//! ptx-gpu-run --batch DIR/manifest.K.jsonl -o DIR/gpu.K.jsonl   (per shard)
//! gpu-campaign compare DIR
//! gpu-campaign export DIR
//! ```
//!
//! `prepare` writes the modules and cases (see `ptx_gpu_run::campaign`),
//! runs the evaluator on every case (keeping those it runs to the end),
//! runs `ptx-opt` for every variant, and shards the manifest. `compare`
//! reads every `gpu.*.jsonl`, prints a summary per group and each
//! mismatch with its instruction and inputs, writes `mismatches.jsonl`
//! and `summary.txt`, and exits 1 when anything differs.
//! `scripts/gpu-campaign.sh` runs the three steps.

use ptx_gpu_run::campaign::{self, Module};
use serde_json::{json, Value as Json};
use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::sync::Mutex;

const FUEL: u64 = 200_000_000;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let r = match args.first().map(String::as_str) {
        Some("prepare") => prepare(&args[1..]),
        Some("compare") => compare(&args[1..]),
        Some("export") => export(&args[1..]),
        _ => Err("usage: gpu-campaign prepare DIR [--root REPO] [--ptx-opt BIN] [--gen N] [--jobs J]\n       gpu-campaign compare DIR".into()),
    };
    match r {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("gpu-campaign: error: {e}");
            ExitCode::from(2)
        }
    }
}

struct Opts {
    dir: PathBuf,
    root: PathBuf,
    ptx_opt: PathBuf,
    gen: u64,
    jobs: usize,
}

fn opts(args: &[String]) -> Result<Opts, String> {
    let mut o = Opts {
        dir: PathBuf::new(),
        root: PathBuf::from("."),
        ptx_opt: std::env::current_exe()
            .ok()
            .and_then(|p| p.parent().map(|d| d.join("ptx-opt")))
            .unwrap_or_else(|| PathBuf::from("ptx-opt")),
        gen: 2000,
        jobs: std::thread::available_parallelism().map_or(2, |n| n.get()),
    };
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut val = || it.next().cloned().ok_or(format!("{a} needs a value"));
        match a.as_str() {
            "--root" => o.root = val()?.into(),
            "--ptx-opt" => o.ptx_opt = val()?.into(),
            "--gen" => o.gen = val()?.parse().map_err(|_| "--gen takes a count")?,
            "--jobs" => o.jobs = val()?.parse().map_err(|_| "--jobs takes a count")?,
            d if !d.starts_with('-') && o.dir.as_os_str().is_empty() => o.dir = d.into(),
            _ => return Err(format!("unexpected argument '{a}'")),
        }
    }
    if o.dir.as_os_str().is_empty() {
        return Err("no campaign directory given".into());
    }
    Ok(o)
}

fn corpus(root: &Path) -> Vec<Module> {
    let mut out = Vec::new();
    for (dir, legacy) in [
        ("crates/ptx-parse/tests/corpus/llc", false),
        ("crates/ptx-parse/tests/corpus/stress", false),
        ("crates/ptx-eval/tests/kernels", false),
        ("crates/ptx-opt/tests/legacy", true),
    ] {
        let Ok(rd) = std::fs::read_dir(root.join(dir)) else {
            continue;
        };
        let mut files: Vec<PathBuf> = rd.flatten().map(|e| e.path()).collect();
        files.retain(|p| p.extension().is_some_and(|x| x == "ptx"));
        files.sort();
        for p in files {
            let Ok(text) = std::fs::read_to_string(&p) else {
                continue;
            };
            let name = format!(
                "{}-{}",
                dir.rsplit('/').next().unwrap_or(dir),
                p.file_name().unwrap_or_default().to_string_lossy()
            );
            out.extend(campaign::corpus_module(&name, &text, legacy));
        }
    }
    out
}

/// What `prepare` records per entry.
struct Entry {
    id: String,
    group: &'static str,
    base: Option<String>,
    what: String,
    ptx: String,
    case: String,
    eval: Json,
    /// The evaluator's `approx` entries (`.approx` results compared
    /// within their bound), `null` when there are none.
    approx: Json,
}

#[derive(Default)]
struct Tally {
    entries: Vec<Entry>,
    dropped: BTreeMap<String, usize>,
    findings: Vec<String>,
}

fn reason(e: &str) -> String {
    let e = e.trim_start_matches('@');
    let e = e.split_once(": ").map_or(e, |(_, m)| m);
    // Numbers vary per case; the kind of failure is what is tallied.
    let mut short = String::new();
    for c in e.chars().take(70) {
        if c.is_ascii_digit() {
            if !short.ends_with('N') {
                short.push('N');
            }
        } else {
            short.push(c);
        }
    }
    short
}

fn prepare_module(o: &Opts, m: &Module, tally: &Mutex<Tally>) -> Result<(), String> {
    let ptx_dir = o.dir.join("ptx");
    let case_dir = o.dir.join("cases");
    let write =
        |p: &Path, s: &str| std::fs::write(p, s).map_err(|e| format!("{}: {e}", p.display()));
    write(&ptx_dir.join(&m.file), &m.text)?;
    let module =
        ptx_parse::parse_module(&m.text).map_err(|d| d.render(&m.file, m.text.as_bytes()))?;
    let mut kept = Vec::new();
    let mut local = Tally::default();
    for (entry, case, what) in &m.cases {
        let case_file = format!("{}.{entry}.json", m.file);
        let text = case.to_string();
        let run = ptx_eval::case::run_case(&module, &text, FUEL).and_then(|r| {
            // Device addresses differ from the evaluator's: a result that
            // moves with the buffers cannot be compared.
            let moved = ptx_eval::case::run_case_at(&module, &text, FUEL, 0x1_0000)?;
            if r.get("unordered").is_some() {
                Err("the result depends on the order lanes are served in".to_string())
            } else if moved["buffers"] == r["buffers"] {
                Ok(r)
            } else {
                Err("the result depends on the buffers' addresses".to_string())
            }
        });
        match run {
            Ok(r) => {
                write(&case_dir.join(&case_file), &text)?;
                let id = format!("{}:{entry}", m.file);
                local.entries.push(Entry {
                    id: id.clone(),
                    group: m.group,
                    base: None,
                    what: what.clone(),
                    ptx: format!("ptx/{}", m.file),
                    case: format!("cases/{case_file}"),
                    eval: r["buffers"].clone(),
                    approx: r["approx"].clone(),
                });
                kept.push((entry, case_file, id, text, r["buffers"].clone(), what));
            }
            Err(e) => {
                *local
                    .dropped
                    .entry(format!("{}: {}", m.group, reason(&e)))
                    .or_default() += 1
            }
        }
    }
    if !kept.is_empty() {
        for (v, args) in m.variants.iter().enumerate() {
            let vfile = format!("{}.v{v}.ptx", m.file);
            let out = Command::new(&o.ptx_opt)
                .args(args.iter())
                .arg(ptx_dir.join(&m.file))
                .arg("-o")
                .arg(ptx_dir.join(&vfile))
                .output()
                .map_err(|e| format!("{}: {e}", o.ptx_opt.display()))?;
            let label = args.join(" ");
            if !out.status.success() {
                local.findings.push(format!(
                    "ptx-opt {label} failed on {}: {}",
                    m.file,
                    String::from_utf8_lossy(&out.stderr).trim()
                ));
                continue;
            }
            let vtext = std::fs::read_to_string(ptx_dir.join(&vfile)).map_err(|e| e.to_string())?;
            let vmod =
                ptx_parse::parse_module(&vtext).map_err(|d| d.render(&vfile, vtext.as_bytes()))?;
            for (entry, case_file, id, text, eval, what) in &kept {
                let r = ptx_eval::case::run_case(&vmod, text, FUEL);
                let (r, approx) = match r {
                    Ok(r) => (r["buffers"].clone(), r["approx"].clone()),
                    Err(e) => {
                        local.findings.push(format!(
                            "evaluator failed on {vfile}:{entry} ({label}): {e}"
                        ));
                        continue;
                    }
                };
                if &r != eval {
                    local.findings.push(format!(
                        "evaluator: {label} changed {id}: {:?}",
                        campaign::first_difference(eval, &r)
                    ));
                }
                local.entries.push(Entry {
                    id: format!("{id}@{label}"),
                    group: m.group,
                    base: Some(id.clone()),
                    what: format!("{what} after {label}"),
                    ptx: format!("ptx/{vfile}"),
                    case: format!("cases/{case_file}"),
                    eval: r,
                    approx,
                });
            }
        }
    }
    let mut t = tally.lock().expect("no panics while held");
    t.entries.extend(local.entries);
    for (k, n) in local.dropped {
        *t.dropped.entry(k).or_default() += n;
    }
    t.findings.extend(local.findings);
    Ok(())
}

fn prepare(args: &[String]) -> Result<bool, String> {
    let o = opts(args)?;
    for d in ["ptx", "cases"] {
        std::fs::create_dir_all(o.dir.join(d)).map_err(|e| e.to_string())?;
    }
    let mut modules = campaign::inst_modules();
    modules.extend(corpus(&o.root));
    modules.extend(campaign::gen_modules(0, o.gen));
    let tally = Mutex::new(Tally::default());
    let next = Mutex::new(0usize);
    let errors = Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..o.jobs.max(1) {
            s.spawn(|| loop {
                let k = {
                    let mut n = next.lock().expect("no panics while held");
                    *n += 1;
                    *n - 1
                };
                let Some(m) = modules.get(k) else { break };
                if let Err(e) = prepare_module(&o, m, &tally) {
                    errors.lock().expect("no panics while held").push(e);
                }
            });
        }
    });
    let errors = errors.into_inner().expect("threads joined");
    if let Some(e) = errors.first() {
        return Err(e.clone());
    }
    let mut t = tally.into_inner().expect("threads joined");
    // Deterministic order: by file, originals before their variants.
    t.entries
        .sort_by(|a, b| (&a.ptx, &a.id).cmp(&(&b.ptx, &b.id)));
    let mut entries = String::new();
    for e in &t.entries {
        let _ = writeln!(
            entries,
            "{}",
            json!({"id": e.id, "group": e.group, "base": e.base, "what": e.what,
                   "ptx": e.ptx, "case": e.case, "eval": e.eval,
                   "approx": e.approx})
        );
    }
    std::fs::write(o.dir.join("entries.jsonl"), entries).map_err(|e| e.to_string())?;
    // Shards: whole PTX files, so a module is JIT-compiled once.
    let jobs = o.jobs.max(1);
    let mut shards = vec![String::new(); jobs];
    let mut sizes = vec![0usize; jobs];
    let mut by_file: BTreeMap<&str, Vec<&Entry>> = BTreeMap::new();
    for e in &t.entries {
        by_file.entry(&e.ptx).or_default().push(e);
    }
    let mut files: Vec<_> = by_file.into_iter().collect();
    files.sort_by_key(|(_, v)| std::cmp::Reverse(v.len()));
    for (_, es) in files {
        let k = (0..jobs).min_by_key(|&k| sizes[k]).expect("jobs >= 1");
        sizes[k] += es.len();
        for e in es {
            let _ = writeln!(
                shards[k],
                "{}",
                json!({"id": e.id, "ptx": e.ptx, "case": e.case})
            );
        }
    }
    for (k, s) in shards.iter().enumerate() {
        std::fs::write(o.dir.join(format!("manifest.{k}.jsonl")), s).map_err(|e| e.to_string())?;
    }
    let mut groups: BTreeMap<(&str, bool), usize> = BTreeMap::new();
    for e in &t.entries {
        *groups.entry((e.group, e.base.is_some())).or_default() += 1;
    }
    println!(
        "prepared {} entries in {}:",
        t.entries.len(),
        o.dir.display()
    );
    for ((g, v), n) in groups {
        println!("  {g:7} {:9} {n}", if v { "variants" } else { "originals" });
    }
    println!("not run (the evaluator could not run the case to the end):");
    for (k, n) in &t.dropped {
        println!("  {n:5}  {k}");
    }
    for f in &t.findings {
        println!("FINDING: {f}");
    }
    std::fs::write(o.dir.join("findings.txt"), t.findings.join("\n")).map_err(|e| e.to_string())?;
    Ok(t.findings.is_empty())
}

/// Writes the GPU's results for the original entries, without the input
/// buffers of per-instruction cases, to `results-GROUP.jsonl`: small
/// enough to bring back from a GPU machine, and enough to compare a fixed
/// evaluator with the hardware again (`compare` reads them as `gpu.*`).
fn export(args: &[String]) -> Result<bool, String> {
    let o = opts(args)?;
    let mut groups: HashMap<String, String> = HashMap::new();
    let entries =
        std::fs::read_to_string(o.dir.join("entries.jsonl")).map_err(|e| e.to_string())?;
    let mut group_of: HashMap<String, String> = HashMap::new();
    for line in entries.lines() {
        let e: Json = serde_json::from_str(line).map_err(|e| e.to_string())?;
        if e["base"].is_null() {
            group_of.insert(
                e["id"].as_str().unwrap_or_default().to_string(),
                e["group"].as_str().unwrap_or_default().to_string(),
            );
        }
    }
    for ent in std::fs::read_dir(&o.dir)
        .map_err(|e| e.to_string())?
        .flatten()
    {
        let n = ent.file_name().to_string_lossy().to_string();
        if !(n.starts_with("gpu.") && n.ends_with(".jsonl")) {
            continue;
        }
        for line in std::fs::read_to_string(ent.path())
            .map_err(|e| e.to_string())?
            .lines()
        {
            let Ok(mut v) = serde_json::from_str::<Json>(line) else {
                continue;
            };
            let Some(g) = v["id"].as_str().and_then(|id| group_of.get(id)).cloned() else {
                continue;
            };
            if g == "inst" {
                if let Some(b) = v["result"]["buffers"].as_object_mut() {
                    b.retain(|k, _| k == "out");
                }
            }
            let _ = writeln!(groups.entry(g).or_default(), "{v}");
        }
    }
    for (g, text) in groups {
        std::fs::write(o.dir.join(format!("results-{g}.jsonl")), text)
            .map_err(|e| e.to_string())?;
    }
    Ok(true)
}

fn compare(args: &[String]) -> Result<bool, String> {
    let o = opts(args)?;
    let read = |p: &Path| std::fs::read_to_string(p).map_err(|e| format!("{}: {e}", p.display()));
    let mut gpu: HashMap<String, Json> = HashMap::new();
    let mut names: Vec<PathBuf> = std::fs::read_dir(&o.dir)
        .map_err(|e| e.to_string())?
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            let n = p.file_name().unwrap_or_default().to_string_lossy();
            (n.starts_with("gpu.") || n.starts_with("results-")) && n.ends_with(".jsonl")
        })
        .collect();
    names.sort();
    for p in &names {
        for line in read(p)?.lines() {
            if let Ok(v) = serde_json::from_str::<Json>(line) {
                if let Some(id) = v["id"].as_str() {
                    gpu.insert(id.to_string(), v);
                }
            }
        }
    }
    let mut entries: Vec<Json> = Vec::new();
    for line in read(&o.dir.join("entries.jsonl"))?.lines() {
        entries.push(serde_json::from_str(line).map_err(|e| e.to_string())?);
    }
    #[derive(Default)]
    struct Row {
        total: usize,
        same: usize,
        differ: usize,
        gpu_error: usize,
        missing: usize,
        /// Variants right on the GPU where their original was not.
        original_off: usize,
    }
    let mut rows: BTreeMap<String, Row> = BTreeMap::new();
    let mut errors: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut mismatches = String::new();
    let mut report = String::new();
    let mut shown: HashMap<String, usize> = HashMap::new();
    let gpu_buffers = |id: &str| {
        gpu.get(id)
            .and_then(|v| v.get("result"))
            .map(|r| r["buffers"].clone())
    };
    for e in &entries {
        let id = e["id"].as_str().unwrap_or_default();
        let variant = e["base"].as_str();
        let group = e["group"].as_str().unwrap_or_default();
        let key = format!(
            "{group} {}",
            if variant.is_some() {
                "pass vs original (GPU)"
            } else {
                "evaluator vs GPU"
            }
        );
        let row = rows.entry(key.clone()).or_default();
        row.total += 1;
        let Some(g) = gpu.get(id) else {
            row.missing += 1;
            continue;
        };
        if let Some(err) = g.get("error").and_then(Json::as_str) {
            row.gpu_error += 1;
            let first = err.lines().take(3).collect::<Vec<_>>().join(" | ");
            errors.entry(first).or_default().push(id.to_string());
            continue;
        }
        let got = g["result"]["buffers"].clone();
        // Exported results keep only the output buffer of inst cases.
        let restrict = |w: Json| match (w, got.as_object()) {
            (Json::Object(mut m), Some(g)) if g.len() < m.len() => {
                m.retain(|k, _| g.contains_key(k));
                Json::Object(m)
            }
            (w, _) => w,
        };
        // Originals against the evaluator; variants against their
        // original on the GPU (and the evaluator, which agrees with it).
        let want = match variant {
            Some(b) => match gpu_buffers(b) {
                Some(w) => w,
                None => e["eval"].clone(),
            },
            None => e["eval"].clone(),
        };
        // An original with `.approx` results: the GPU need only be within
        // their bounds (ptx_eval::compare).
        if variant.is_none() && !e["approx"].is_null() {
            let case = read(&o.dir.join(e["case"].as_str().unwrap_or_default()))?;
            let ours = json!({"buffers": e["eval"], "approx": e["approx"]});
            let within = ptx_eval::compare::compare(&case, &ours, &g["result"])
                .is_ok_and(|c| c.differences.is_empty());
            if within {
                row.same += 1;
                continue;
            }
        }
        let eval_agrees = campaign::first_difference(&restrict(e["eval"].clone()), &got).is_none();
        match campaign::first_difference(&restrict(want), &got) {
            None => row.same += 1,
            // The pass's output computes what the evaluator says, and the
            // original does not on this GPU: the original was miscompiled.
            Some(_) if variant.is_some() && eval_agrees => {
                row.original_off += 1;
                let _ = writeln!(
                    report,
                    "FIXED BY THE PASS [{key}] {}: the GPU gets the original wrong, this right",
                    e["what"].as_str().unwrap_or(id)
                );
            }
            Some((buf, i, w, gv)) => {
                row.differ += 1;
                let case = read(&o.dir.join(e["case"].as_str().unwrap_or_default()))
                    .ok()
                    .and_then(|t| ptx_eval::case::Case::parse(&t).ok());
                let inputs = case
                    .as_ref()
                    .filter(|_| group == "inst")
                    .map(|c| campaign::describe_inputs(c, i))
                    .unwrap_or_default();
                let eval_here = e["eval"][&buf][i].clone();
                let line = json!({"id": id, "what": e["what"], "buffer": buf, "index": i,
                                  "expected": w, "gpu": gv, "evaluator": eval_here, "inputs": inputs});
                let _ = writeln!(mismatches, "{line}");
                let n = shown.entry(key.clone()).or_default();
                *n += 1;
                if *n <= 25 {
                    let _ = writeln!(
                        report,
                        "MISMATCH [{key}] {}\n    {buf}[{i}]: expected {w}, GPU {gv} (evaluator {eval_here}){}{}",
                        e["what"].as_str().unwrap_or(id),
                        if inputs.is_empty() { "" } else { "; inputs " },
                        inputs
                    );
                }
            }
        }
    }
    let mut summary = String::new();
    let _ = writeln!(
        summary,
        "{:42} {:>7} {:>7} {:>7} {:>9} {:>8} {:>10}",
        "group", "cases", "same", "differ", "gpu-error", "missing", "orig-wrong"
    );
    let mut clean = true;
    for (k, r) in &rows {
        let _ = writeln!(
            summary,
            "{k:42} {:>7} {:>7} {:>7} {:>9} {:>8} {:>10}",
            r.total, r.same, r.differ, r.gpu_error, r.missing, r.original_off
        );
        clean &= r.differ == 0 && r.gpu_error == 0 && r.missing == 0;
    }
    for (msg, ids) in &errors {
        let _ = writeln!(
            summary,
            "GPU ERROR x{}: {msg}\n    e.g. {}",
            ids.len(),
            ids[0]
        );
    }
    print!("{report}{summary}");
    std::fs::write(o.dir.join("mismatches.jsonl"), mismatches).map_err(|e| e.to_string())?;
    std::fs::write(o.dir.join("summary.txt"), format!("{report}{summary}"))
        .map_err(|e| e.to_string())?;
    Ok(clean)
}
