//! The SASS report: what ptxas makes of our output, against the
//! compiler's own PTX, per file of the real-compiler corpus.
//!
//! ```text
//! cargo bench -p ptx-opt --bench sass -- [--corpus DIR]... [--filter TEXT]...
//!     [--variants O2,copy-prop,...] [--guard] [--worse] [--jobs N] [--markdown]
//!     [--bin PTX_OPT]
//! ```
//!
//! For each `.ptx` file under the corpus directories (default
//! `corpus/real/ptx`), each compiled for its own `.target` by ptxas 13.5:
//! the SASS instructions and registers of the input, then for `-O2` and for
//! each pass of `-O2` run alone, the change in instructions and registers,
//! and the `mov`s and blocks leaving SSA added under `-O2`. `-O2` runs with
//! the size guard off unless `--guard` is given, so that the passes and
//! leaving SSA are what is measured. A closing line gives totals and how
//! many files got worse or better in each column; ptxas refusing an output
//! is reported and makes the run fail. `--bin` runs the variants through
//! another `ptx-opt` binary instead (`BIN -passes=PIPELINE`, to compare an
//! older build; no size guard, no copy counts). Needs ptxas and nvdisasm
//! (`scripts/install-bench-tools.sh`).

use ptx_opt::sass::{self, Sass, Tools};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

struct Args {
    corpora: Vec<PathBuf>,
    filters: Vec<String>,
    variants: Vec<String>,
    guard: bool,
    worse_only: bool,
    jobs: usize,
    markdown: bool,
    bin: Option<PathBuf>,
}

const USAGE: &str =
    "usage: cargo bench -p ptx-opt --bench sass -- [--corpus DIR]... [--filter TEXT]...
    [--variants O2,copy-prop,...] [--guard] [--worse] [--jobs N] [--markdown] [--bin PTX_OPT]";

/// Stops with a message and the usage (exit status 2).
fn usage_error(message: &str) -> ! {
    eprintln!("sass: {message}\n{USAGE}");
    std::process::exit(2)
}

/// The value after `flag`.
fn value(it: &mut impl Iterator<Item = String>, flag: &str) -> String {
    it.next()
        .unwrap_or_else(|| usage_error(&format!("{flag} needs a value")))
}

fn parse_args(root: &Path) -> Args {
    let mut a = Args {
        corpora: Vec::new(),
        filters: Vec::new(),
        variants: Vec::new(),
        guard: false,
        worse_only: false,
        jobs: std::thread::available_parallelism().map_or(2, |n| n.get()),
        markdown: false,
        bin: None,
    };
    let mut it = std::env::args().skip(1);
    while let Some(x) = it.next() {
        match x.as_str() {
            "--corpus" => {
                // cargo bench runs in the package folder: relative paths
                // are taken from the workspace root.
                let d = PathBuf::from(value(&mut it, "--corpus"));
                a.corpora
                    .push(if d.is_absolute() { d } else { root.join(d) });
            }
            "--filter" => a.filters.push(value(&mut it, "--filter")),
            "--variants" => {
                a.variants = value(&mut it, "--variants")
                    .split(',')
                    .map(String::from)
                    .collect()
            }
            "--guard" => a.guard = true,
            "--worse" => a.worse_only = true,
            "--markdown" => a.markdown = true,
            "--bin" => a.bin = Some(value(&mut it, "--bin").into()),
            "--jobs" => {
                a.jobs = value(&mut it, "--jobs")
                    .parse()
                    .unwrap_or_else(|_| usage_error("--jobs needs a number"))
            }
            "--help" | "-h" => {
                println!("{USAGE}");
                std::process::exit(0)
            }
            // cargo bench passes --bench.
            "--bench" => {}
            other => usage_error(&format!("unknown argument '{other}'")),
        }
    }
    if a.corpora.is_empty() {
        a.corpora.push(root.join("corpus/real/ptx"));
    }
    if a.variants.is_empty() {
        a.variants.push("O2".into());
        let mut seen = Vec::new();
        for p in ptx_passes::pipeline::O2 {
            if !seen.contains(p) {
                seen.push(*p);
                a.variants.push(p.to_string());
            }
        }
    }
    a
}

/// One variant's outcome on one file.
enum Cell {
    Sass(Sass, ptx_opt::OutOfSsaReport),
    Failed(String),
}

fn pipeline_of(variant: &str) -> String {
    match variant {
        "O1" | "O2" | "O3" => format!("default<{variant}>"),
        p => p.to_string(),
    }
}

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let args = parse_args(&root);
    let Some(tools) = Tools::find(&root) else {
        eprintln!("sass report: ptxas or nvdisasm missing; run scripts/install-bench-tools.sh");
        std::process::exit(2);
    };
    let mut files: Vec<PathBuf> = args
        .corpora
        .iter()
        .flat_map(|c| sass::ptx_files(c))
        .filter(|p| {
            let s = p.to_string_lossy();
            args.filters.is_empty() || args.filters.iter().any(|f| s.contains(f.as_str()))
        })
        .collect();
    files.sort();
    let nv = args.variants.len();
    // Column 0 is the input; then one per variant.
    let cells: Vec<Mutex<Vec<Option<Cell>>>> = files
        .iter()
        .map(|_| Mutex::new((0..=nv).map(|_| None).collect()))
        .collect();
    let next = AtomicUsize::new(0);
    std::thread::scope(|s| {
        for _ in 0..args.jobs.max(1) {
            s.spawn(|| loop {
                let k = next.fetch_add(1, Ordering::Relaxed);
                if k >= files.len() {
                    break;
                }
                let row = measure_file(&tools, &files[k], &args);
                *cells[k].lock().unwrap() = row.into_iter().map(Some).collect();
            });
        }
    });
    let rows: Vec<Vec<Cell>> = cells
        .into_iter()
        .map(|c| {
            c.into_inner()
                .unwrap()
                .into_iter()
                .map(Option::unwrap)
                .collect()
        })
        .collect();
    let failed = print_report(&root, &files, &rows, &args);
    if failed {
        std::process::exit(1);
    }
}

fn measure_file(tools: &Tools, path: &Path, args: &Args) -> Vec<Cell> {
    let fail = |m: String| {
        (0..=args.variants.len())
            .map(|_| Cell::Failed(m.clone()))
            .collect()
    };
    let Ok(src) = std::fs::read_to_string(path) else {
        return fail("unreadable".into());
    };
    let Some(arch) = sass::target_of(&src) else {
        return fail("no .target".into());
    };
    let base = match sass::measure(tools, &src, &arch, None) {
        Ok(s) => s,
        Err(e) => return fail(format!("input refused: {e}")),
    };
    let reloc = Some(base.relocatable);
    let mut row = vec![Cell::Sass(base, Default::default())];
    for v in &args.variants {
        let guard = args.guard && matches!(v.as_str(), "O1" | "O2" | "O3");
        let result = match &args.bin {
            Some(bin) => run_binary(bin, &src, &pipeline_of(v)).map(|t| (t, Default::default())),
            None => sass::optimize(&src, &pipeline_of(v), guard),
        };
        row.push(match result {
            Err(e) => Cell::Failed(format!("ptx-opt: {e}")),
            Ok((text, report)) => match sass::measure(tools, &text, &arch, reloc) {
                Ok(s) => Cell::Sass(s, report),
                Err(e) => Cell::Failed(format!("output refused: {e}")),
            },
        });
    }
    row
}

/// `bin -passes=PIPELINE` on `src`, through a temporary file.
fn run_binary(bin: &Path, src: &str, pipeline: &str) -> Result<String, String> {
    let dir = std::env::temp_dir().join(format!(
        "ptx-opt-sass-bin-{}-{:?}",
        std::process::id(),
        std::thread::current().id()
    ));
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let (input, output) = (dir.join("in.ptx"), dir.join("out.ptx"));
    std::fs::write(&input, src).map_err(|e| e.to_string())?;
    let run = std::process::Command::new(bin)
        .arg(format!("-passes={pipeline}"))
        .arg(&input)
        .arg("-o")
        .arg(&output)
        .output()
        .map_err(|e| format!("cannot run {}: {e}", bin.display()))?;
    let text = std::fs::read_to_string(&output);
    let _ = std::fs::remove_dir_all(&dir);
    if !run.status.success() {
        return Err(String::from_utf8_lossy(&run.stderr).into_owned());
    }
    text.map_err(|e| e.to_string())
}

/// Sums over a set of files that every column measured.
#[derive(Clone, Default)]
struct Totals {
    files: usize,
    base: (u64, u64),
    /// Per variant: change in instructions and registers, files with a
    /// function worse, files better (and none worse).
    change: Vec<(i64, i64, usize, usize)>,
}

impl Totals {
    fn add(&mut self, base: &Sass, cells: &[Cell]) {
        self.files += 1;
        self.base.0 += base.insts();
        self.base.1 += base.regs();
        self.change.resize(cells.len(), (0, 0, 0, 0));
        for (t, cell) in self.change.iter_mut().zip(cells) {
            if let Cell::Sass(s, _) = cell {
                let di = s.insts() as i64 - base.insts() as i64;
                let dr = s.regs() as i64 - base.regs() as i64;
                let w = !s.worse_than(base).is_empty();
                t.0 += di;
                t.1 += dr;
                t.2 += usize::from(w);
                t.3 += usize::from(!w && (di < 0 || dr < 0));
            }
        }
    }

    /// The totals line and the worse/better line for `label`.
    fn lines(&self, label: &str, width: usize, fmt: (&str, &str, &str), tail: &str) -> String {
        let (open, sep, close) = fmt;
        let mut a = format!(
            "{open}{:<width$}{sep}{:>11}",
            format!("{label} ({} files)", self.files),
            format!("{}/{}", self.base.0, self.base.1)
        );
        let mut b = format!("{open}{:<width$}{sep}{:>11}", "  files worse/better", "");
        for t in &self.change {
            let pct = 100.0 * t.0 as f64 / self.base.0.max(1) as f64;
            a += &format!("{sep}{:>12}", format!("{:+}/{:+} {pct:+.2}%", t.0, t.1));
            b += &format!("{sep}{:>12}", format!("{}/{}", t.2, t.3));
        }
        format!("{a}{sep}{tail:>10}{close}\n{b}{sep}{:>10}{close}", "")
    }
}

/// Prints the table; returns whether anything failed.
fn print_report(root: &Path, files: &[PathBuf], rows: &[Vec<Cell>], args: &Args) -> bool {
    let name = |p: &Path| {
        let c = root.join("corpus/real/ptx");
        p.strip_prefix(&c)
            .or_else(|_| p.strip_prefix(root))
            .unwrap_or(p)
            .display()
            .to_string()
    };
    let width = files
        .iter()
        .map(|p| name(p).len())
        .max()
        .unwrap_or(4)
        .max(28);
    let fmt = if args.markdown {
        ("| ", " | ", " |")
    } else {
        ("", "  ", "")
    };
    let (open, sep, close) = fmt;
    let nv = args.variants.len();
    let mut header = format!("{open}{:<width$}{sep}{:>11}", "file", "input");
    for v in &args.variants {
        header += &format!("{sep}{:>12}", v);
    }
    header += &format!("{sep}{:>10}{close}", "movs/blks");
    println!("{header}");
    let rule = || {
        let mut rule = format!("|{}|{}:|", "-".repeat(width + 2), "-".repeat(12));
        for _ in 0..=nv {
            rule += &format!("{}:|", "-".repeat(12));
        }
        rule
    };
    if args.markdown {
        println!("{}", rule());
    }
    let mut all_files = Totals::default();
    let mut by_folder: std::collections::BTreeMap<String, Totals> = Default::default();
    let (mut movs, mut blocks) = (0u64, 0u64);
    let mut failures = Vec::new();
    for (path, row) in files.iter().zip(rows) {
        let Cell::Sass(base, _) = &row[0] else {
            if let Cell::Failed(e) = &row[0] {
                failures.push(format!("{}: {e}", name(path)));
            }
            continue;
        };
        let mut line = format!(
            "{open}{:<width$}{sep}{:>11}",
            name(path),
            format!("{}/{}", base.insts(), base.regs())
        );
        let mut any_worse = false;
        let mut all = true;
        for (k, cell) in row[1..].iter().enumerate() {
            match cell {
                Cell::Sass(s, _) => {
                    let di = s.insts() as i64 - base.insts() as i64;
                    let dr = s.regs() as i64 - base.regs() as i64;
                    let w = !s.worse_than(base).is_empty();
                    any_worse |= w;
                    line += &format!(
                        "{sep}{:>12}",
                        format!("{}{:+}/{:+}", if w { "!" } else { "" }, di, dr)
                    );
                }
                Cell::Failed(e) => {
                    all = false;
                    failures.push(format!("{} [{}]: {e}", name(path), args.variants[k]));
                    line += &format!("{sep}{:>12}", "FAILED");
                }
            }
        }
        let o2 = args.variants.iter().position(|v| v == "O2");
        let added = o2.and_then(|k| match &row[k + 1] {
            Cell::Sass(_, r) => Some(r.copies),
            Cell::Failed(_) => None,
        });
        if let Some(c) = added {
            movs += u64::from(c.movs);
            blocks += u64::from(c.blocks);
        }
        line += &format!(
            "{sep}{:>10}{close}",
            added.map_or("-".into(), |c| format!("{}/{}", c.movs, c.blocks))
        );
        if all {
            all_files.add(base, &row[1..]);
            let folder = name(path)
                .rsplit_once('/')
                .map_or(String::new(), |(d, _)| d.to_string());
            by_folder.entry(folder).or_default().add(base, &row[1..]);
        }
        if !args.worse_only || any_worse || !all {
            println!("{line}");
        }
    }
    println!(
        "{}",
        all_files.lines("total", width, fmt, &format!("{movs}/{blocks}"))
    );
    if by_folder.len() > 1 {
        println!("\nby folder:");
        println!("{header}");
        if args.markdown {
            println!("{}", rule());
        }
        for (folder, t) in &by_folder {
            println!("{}", t.lines(folder, width, fmt, ""));
        }
    }
    println!(
        "\ncells: instructions/registers (input: totals; others: change from input; \
         '!': some function got more instructions or registers); -O2 {} the size guard",
        if args.guard { "with" } else { "without" }
    );
    for f in &failures {
        println!("FAILED {f}");
    }
    !failures.is_empty()
}
