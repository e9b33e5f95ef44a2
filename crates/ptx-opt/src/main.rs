//! `ptx-opt`: parse, verify, transform and print PTX, with `opt`'s
//! conventions. See `docs/cli.md`.

use ptx_opt::{Config, Error};
use ptx_passes::{pipeline, registry};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

// mimalloc: see `ptx_opt::alloc`.
ptx_opt::use_mimalloc!();

#[derive(Default)]
struct Options {
    input: Option<String>,
    output: Option<String>,
    passes: Option<String>,
    level: Option<u8>,
    target: Option<String>,
    size_guard: Option<bool>,
    print_passes: bool,
    print_pipeline: bool,
    debug_only: Vec<String>,
    config: Config,
    /// What `--check-each` compared, per function.
    check_tally: Option<std::sync::Arc<ptx_opt::CheckTally>>,
    /// `--check-each-strict`: a function with no launch compared is an error.
    check_strict: bool,
}

const USAGE: &str = "\
OVERVIEW: ptx-opt: PTX optimizer in the manner of LLVM's opt

USAGE: ptx-opt [options] [input.ptx | -]

OPTIONS (one dash or two):
  -o <file>                 write output to <file> ('-' for stdout)
  -passes=<pipeline>        run a pipeline, e.g. 'function(copy-prop,dce)'
  -O0 -O1 -O2 -O3           run the default<On> pipeline
  --target=sm_XX            build for sm_XX (also -mcpu=sm_XX): the passes see it,
                            the printed .target becomes it and .version rises
                            to the least that has it
  --keep-target             with --target: print the module's .target/.version
  --ptx-version=X.Y         print this .version; error if a pass needs newer
  --print-passes            list the registered passes
  --print-pipeline-passes   print the pipeline that would run, and exit
  --print-after-all         dump the IR after every pass (to stderr)
  --print-before-all        dump the IR before every pass
  --print-after=<pass>      dump the IR after each run of <pass>
  --print-before=<pass>     dump the IR before each run of <pass>
  --print-changed           dump the IR after each pass that changed it
  --verify-each             verify after every pass
  --check-each[=N]          run each kernel before and after every pass on N
                            random launches (default 64) and compare stores;
                            warns for a function none of whose launches the
                            evaluator could run (--stats: counts per function)
  --check-each-strict       that warning is an error (implies --check-each)
  --time-passes             report the time spent in each pass
  --debug-pass-manager      log each pass as it runs
  --opt-bisect-limit=<N>    run only the first N pass executions
  --stats                   instruction counts by opcode, before and after,
                            and the copies leaving SSA added
  --size-guard[=on|off]     print a function as it came when the passes made
                            it larger (instructions plus copies); on with -O1..-O3
  --no-size-guard           the same as --size-guard=off
  --threads=<N>             threads for a large input, each taking a part of
                            its functions (default: every CPU; 1: one thread)
  -debug-only=<pass,...>    debug output of the named passes (RUST_LOG works too)
  --help, --version
";

fn parse_args(args: &[String]) -> Result<Option<Options>, String> {
    let mut o = Options::default();
    let mut it = args.iter();
    let mut positional_only = false;
    while let Some(a) = it.next() {
        if positional_only || a == "-" || !a.starts_with('-') {
            set_input(&mut o, a)?;
            continue;
        }
        if a == "--" {
            positional_only = true;
            continue;
        }
        // Long options are accepted with one dash or two, as opt does.
        let flag = a.trim_start_matches('-');
        let (name, inline) = match flag.split_once('=') {
            Some((n, v)) => (n, Some(v.to_string())),
            None => (flag, None),
        };
        let mut value = |what: &str| -> Result<String, String> {
            match &inline {
                Some(v) => Ok(v.clone()),
                None => it
                    .next()
                    .cloned()
                    .ok_or_else(|| format!("option '-{what}' requires a value")),
            }
        };
        let pass_name = |v: &str| -> Result<String, String> {
            registry::lookup(v)
                .map(|_| v.to_string())
                .ok_or_else(|| format!("unknown pass name '{v}'"))
        };
        match name {
            "help" | "h" => {
                print!("{USAGE}");
                return Ok(None);
            }
            "version" => {
                println!("ptx-opt {}", env!("CARGO_PKG_VERSION"));
                return Ok(None);
            }
            "o" => o.output = Some(value("o")?),
            "passes" => o.passes = Some(value("passes")?),
            "O0" | "O1" | "O2" | "O3" => o.level = Some(name.as_bytes()[1] - b'0'),
            "target" | "mcpu" => {
                let t = value(name)?;
                ptx_opt::check_target_name(&t)?;
                o.config.target = Some(t.clone());
                o.target = Some(t);
            }
            "keep-target" => o.config.keep_target = true,
            "ptx-version" => {
                let v = value(name)?;
                let parsed = v
                    .split_once('.')
                    .and_then(|(a, b)| Some((a.parse::<u32>().ok()?, b.parse::<u32>().ok()?)))
                    .filter(|&(a, b)| (1..=9).contains(&a) && b <= 9);
                match parsed {
                    Some(p) => o.config.ptx_version = Some(p),
                    None => {
                        return Err(format!(
                            "invalid PTX ISA version '{v}': expected MAJOR.MINOR"
                        ))
                    }
                }
            }
            "print-passes" => o.print_passes = true,
            "print-pipeline-passes" => o.print_pipeline = true,
            "print-after-all" => o.config.instrumentation.print_after.push("*".into()),
            "print-before-all" => o.config.instrumentation.print_before.push("*".into()),
            "print-after" => o
                .config
                .instrumentation
                .print_after
                .push(pass_name(&value(name)?)?),
            "print-before" => o
                .config
                .instrumentation
                .print_before
                .push(pass_name(&value(name)?)?),
            "print-changed" => o.config.instrumentation.print_changed = true,
            "verify-each" => o.config.instrumentation.verify_each = true,
            "check-each" => {
                let n = match &inline {
                    Some(v) => v
                        .parse::<u32>()
                        .map_err(|_| format!("invalid value '{v}' for -check-each"))?,
                    None => 64,
                };
                let tally = std::sync::Arc::new(ptx_opt::CheckTally::default());
                o.config.instrumentation.check_each =
                    Some(ptx_opt::check_each_counting(n, Some(tally.clone())));
                o.check_tally = Some(tally);
            }
            "check-each-strict" => o.check_strict = true,
            "debug-pass-manager" => o.config.instrumentation.debug_pass_manager = true,
            "time-passes" => o.config.time_passes = true,
            "stats" => o.config.stats = true,
            "size-guard" => {
                o.size_guard = Some(match inline.as_deref() {
                    None | Some("on") => true,
                    Some("off") => false,
                    Some(v) => {
                        return Err(format!(
                            "invalid value '{v}' for -size-guard: expected 'on' or 'off'"
                        ))
                    }
                })
            }
            "no-size-guard" => o.size_guard = Some(false),
            "threads" => {
                let v = value(name)?;
                match v.parse::<usize>() {
                    Ok(n) if n >= 1 => o.config.threads = Some(n),
                    _ => {
                        return Err(format!(
                            "invalid value '{v}' for -threads: expected a positive integer"
                        ))
                    }
                }
            }
            "debug-only" => o
                .debug_only
                .extend(value(name)?.split(',').map(String::from)),
            "opt-bisect-limit" => {
                let v = value(name)?;
                let n: i64 = v
                    .parse()
                    .map_err(|_| format!("invalid value '{v}' for -opt-bisect-limit"))?;
                o.config.instrumentation.bisect_limit = (n >= 0).then_some(n as u64);
            }
            _ if name.starts_with('o') && name.len() > 1 && inline.is_none() => {
                o.output = Some(name[1..].to_string())
            }
            _ => return Err(format!("unknown option '{a}'")),
        }
    }
    if o.check_strict && o.check_tally.is_none() {
        let tally = std::sync::Arc::new(ptx_opt::CheckTally::default());
        o.config.instrumentation.check_each =
            Some(ptx_opt::check_each_counting(64, Some(tally.clone())));
        o.check_tally = Some(tally);
    }
    if o.passes.is_some() && o.level.is_some() {
        return Err("cannot specify -O# and -passes=; use -passes='default<O#>,other-pass'".into());
    }
    let text = match (&o.passes, o.level) {
        (Some(p), _) => p.clone(),
        (None, Some(l)) => format!("default<O{l}>"),
        (None, None) => String::new(),
    };
    if !text.is_empty() {
        let elems = pipeline::parse(&text)?;
        o.config.passes = pipeline::resolve(&elems)?;
    }
    // The size guard is part of the -O levels; an explicit -passes shows
    // what its passes do unless asked.
    o.config.size_guard = o.size_guard.unwrap_or(o.level.is_some_and(|l| l > 0));
    Ok(Some(o))
}

/// Debug output through `tracing`: `-debug-only=dce,cse` (targets are pass
/// names, as with LLVM's `DEBUG_TYPE`) or any `RUST_LOG` filter.
/// Returns whether debug output is on.
fn init_tracing(debug_only: &[String]) -> bool {
    let filter = if !debug_only.is_empty() {
        debug_only
            .iter()
            .map(|n| format!("{n}=debug"))
            .collect::<Vec<_>>()
            .join(",")
    } else if let Ok(env) = std::env::var("RUST_LOG") {
        env
    } else {
        return false;
    };
    let Ok(filter) = tracing_subscriber::EnvFilter::try_new(&filter) else {
        eprintln!("ptx-opt: warning: invalid debug filter '{filter}'");
        return false;
    };
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .without_time()
        .with_ansi(false)
        .try_init()
        .is_ok()
}

fn set_input(o: &mut Options, a: &str) -> Result<(), String> {
    if o.input.is_some() {
        return Err(format!("more than one input file given ('{a}')"));
    }
    o.input = Some(a.to_string());
    Ok(())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut opts = match parse_args(&args) {
        Ok(Some(o)) => o,
        Ok(None) => return ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("ptx-opt: error: {e}");
            return ExitCode::from(1);
        }
    };
    // Debug output stays in source order: one thread unless asked.
    if init_tracing(&opts.debug_only) && opts.config.threads.is_none() {
        opts.config.threads = Some(1);
    }
    if opts.print_passes {
        println!("Function passes:");
        for p in registry::PASSES {
            println!(
                "  {}{}",
                p.name,
                if p.params.is_empty() {
                    String::new()
                } else {
                    format!("<{}>", p.params.join(";"))
                }
            );
        }
        println!("Function pipelines:\n  default<O0>\n  default<O1>\n  default<O2>\n  default<O3>");
        return ExitCode::SUCCESS;
    }
    if opts.print_pipeline {
        println!("{}", pipeline::canonical(&opts.config.passes));
        return ExitCode::SUCCESS;
    }
    match run(&opts) {
        Ok(()) => ExitCode::SUCCESS,
        Err(msg) => {
            eprint!("{msg}");
            ExitCode::from(1)
        }
    }
}

fn run(opts: &Options) -> Result<(), String> {
    let input = opts.input.as_deref().unwrap_or("-");
    let (name, bytes) = if input == "-" {
        let mut v = Vec::new();
        std::io::stdin()
            .read_to_end(&mut v)
            .map_err(|e| format!("ptx-opt: error: cannot read standard input: {e}\n"))?;
        ("<stdin>".to_string(), v)
    } else {
        let v = std::fs::read(input)
            .map_err(|e| format!("ptx-opt: error: cannot read '{input}': {e}\n"))?;
        (input.to_string(), v)
    };
    let out = match ptx_opt::process_with(&bytes, &opts.config) {
        Ok(o) => o,
        Err((e, log)) => {
            eprint!("{log}");
            return Err(match e {
                Error::Source(d) => d.render(&name, &bytes),
                Error::Plain(m) => format!("ptx-opt: error: {m}\n"),
            });
        }
    };
    eprint!("{}", out.log);
    if let Some(tally) = &opts.check_tally {
        report_checks(tally, opts.config.stats, opts.check_strict)?;
    }
    match opts.output.as_deref() {
        None | Some("-") => {
            let mut stdout = std::io::stdout().lock();
            stdout
                .write_all(out.text.as_bytes())
                .and_then(|_| stdout.flush())
                .map_err(|e| format!("ptx-opt: error: cannot write standard output: {e}\n"))
        }
        Some(path) => write_atomically(Path::new(path), out.text.as_bytes())
            .map_err(|e| format!("ptx-opt: error: cannot write '{path}': {e}\n")),
    }
}

/// What `--check-each` compared: per function under `--stats`; a warning
/// for each function none of whose launches could run (the evaluator's
/// reason), an error instead under `--check-each-strict`.
fn report_checks(tally: &ptx_opt::CheckTally, stats: bool, strict: bool) -> Result<(), String> {
    let map = tally.functions.lock().unwrap_or_else(|e| e.into_inner());
    let mut unchecked = 0;
    for (name, c) in map.iter() {
        if stats {
            eprintln!(
                "check-each: '{name}': {} of {} launches compared over {} checks",
                c.compared, c.drawn, c.checks
            );
        }
        if c.compared == 0 {
            unchecked += 1;
            let why = c
                .skipped_because
                .as_deref()
                .unwrap_or("no launch completed");
            eprintln!(
                "ptx-opt: {}: --check-each compared no launch of '{name}': {why}",
                if strict { "error" } else { "warning" }
            );
        }
    }
    if strict && unchecked > 0 {
        return Err(format!(
            "ptx-opt: error: --check-each-strict: {unchecked} function(s) had no launch compared\n"
        ));
    }
    Ok(())
}

/// Writes `data` to a temporary file next to `path`, then renames it over
/// `path`, so a failure never leaves a half-written output behind. Like
/// LLVM's tools it does not `fsync` (durability across a crash of the
/// machine is the build system's business; writing the 15 MB benchmark
/// output, the flush added about a sixth to the whole run). An
/// existing path that is not a regular file (`/dev/null`, a FIFO, a
/// terminal) is written directly: renaming over it would replace the
/// device with a file.
fn write_atomically(path: &Path, data: &[u8]) -> std::io::Result<()> {
    if std::fs::metadata(path).is_ok_and(|m| !m.is_file()) {
        return std::fs::OpenOptions::new()
            .write(true)
            .open(path)?
            .write_all(data);
    }
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let file = path
        .file_name()
        .map(|f| f.to_string_lossy().into_owned())
        .unwrap_or_default();
    let tmp: PathBuf = dir.join(format!(".{file}.ptx-opt-{}.tmp", std::process::id()));
    let result = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(data)?;
        std::fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}
