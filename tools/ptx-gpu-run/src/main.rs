//! `ptx-gpu-run`: runs a `ptx-eval` case on the GPU and prints the same
//! result JSON (`buffers`, plus the `device` it ran on).
//!
//! ```text
//! ptx-gpu-run FILE.ptx --case CASE.json
//! ptx-gpu-run --batch MANIFEST.jsonl [-o RESULTS.jsonl] [--repeat N] [--case-timeout S]
//! ptx-gpu-run --info
//! ```
//!
//! `--batch` reads one `{"id", "ptx", "case"}` object per line (paths
//! relative to the manifest), keeps one context for all of them, and writes
//! one `{"id", "result"}` or `{"id", "error"}` line per case, flushed as it
//! goes so a killed run keeps what it finished. `--repeat N` runs each case
//! N times and reports a case whose runs differ as nondeterministic. A case
//! that takes longer than `--case-timeout` seconds (default 60; a JIT
//! compile can take minutes) or poisons the context (an illegal address)
//! is reported, and a new process carries on with the next line
//! (`--start`, `--append`).
//!
//! Exit status: 0 on success, 1 when the input or the run fails, 2 when
//! there is no CUDA driver or device.

use ptx_gpu_run::{prepare, Gpu, GpuError, Loaded};
use serde_json::{json, Value as Json};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

const USAGE: &str = "usage: ptx-gpu-run FILE.ptx --case CASE.json\n       ptx-gpu-run --batch MANIFEST.jsonl [-o RESULTS.jsonl] [--repeat N] [--case-timeout S]\n       ptx-gpu-run --info";

enum Mode {
    One { file: String, case: String },
    Batch(BatchOpts),
    Info,
}

fn main() -> ExitCode {
    match real_main() {
        Ok(()) => ExitCode::SUCCESS,
        Err((status, msg)) => {
            if msg.contains(": error: ") {
                eprintln!("{msg}");
            } else {
                eprintln!("ptx-gpu-run: error: {msg}");
            }
            ExitCode::from(status)
        }
    }
}

fn args() -> Result<Mode, String> {
    let (mut file, mut case, mut batch, mut out, mut info) = (None, None, None, None, false);
    let (mut start, mut append, mut repeat, mut case_timeout) = (0usize, false, 1u32, 60u64);
    let num = |v: String, name: &str| {
        v.parse::<u64>()
            .map_err(|_| format!("{name} takes a non-negative integer"))
    };
    let mut it = std::env::args().skip(1);
    while let Some(a) = it.next() {
        let (flag, inline) = match a.split_once('=') {
            Some((f, v)) if f.starts_with('-') => (f.to_string(), Some(v.to_string())),
            _ => (a.clone(), None),
        };
        let mut value = |name: &str| {
            inline
                .clone()
                .or_else(|| it.next())
                .ok_or_else(|| format!("{name} needs a value"))
        };
        match flag.trim_start_matches('-') {
            "case" if flag.starts_with('-') => case = Some(value("--case")?),
            "batch" if flag.starts_with('-') => batch = Some(value("--batch")?),
            "o" if flag.starts_with('-') => out = Some(value("-o")?),
            "info" if flag.starts_with('-') => info = true,
            "start" if flag.starts_with('-') => start = num(value("--start")?, "--start")? as usize,
            "append" if flag.starts_with('-') => append = true,
            "repeat" if flag.starts_with('-') => {
                repeat = num(value("--repeat")?, "--repeat")?.clamp(1, 100) as u32
            }
            "case-timeout" if flag.starts_with('-') => {
                case_timeout = num(value("--case-timeout")?, "--case-timeout")?
            }
            "h" | "help" if flag.starts_with('-') => {
                println!("{USAGE}");
                std::process::exit(0);
            }
            _ if flag.starts_with('-') && flag != "-" => {
                return Err(format!("unknown option '{flag}'\n{USAGE}"))
            }
            _ if file.is_none() => file = Some(a),
            _ => return Err(format!("more than one input file\n{USAGE}")),
        }
    }
    Ok(match (file, case, batch, info) {
        (Some(file), Some(case), None, false) => Mode::One { file, case },
        (None, None, Some(manifest), false) => Mode::Batch(BatchOpts {
            manifest,
            out,
            start,
            append,
            repeat,
            case_timeout,
        }),
        (None, None, None, true) => Mode::Info,
        _ => return Err(USAGE.to_string()),
    })
}

fn real_main() -> Result<(), (u8, String)> {
    let mode = args().map_err(|e| (1, e))?;
    // Read and check the inputs before touching the driver, so bad input
    // is reported the same way on every machine.
    let one = match &mode {
        Mode::One { file, case } => {
            let ptx = std::fs::read_to_string(file).map_err(|e| (1, format!("{file}: {e}")))?;
            let case_text =
                std::fs::read_to_string(case).map_err(|e| (1, format!("{case}: {e}")))?;
            let module = ptx_parse::parse_module(&ptx)
                .map_err(|d| (1, d.render(file, ptx.as_bytes()).trim_end().to_string()))?;
            let case = ptx_eval::case::Case::parse(&case_text).map_err(|e| (1, e))?;
            case.kernel(&module).map_err(|e| (1, e))?;
            Some((ptx, module, case))
        }
        _ => None,
    };
    let mut gpu = Gpu::open().map_err(|e| (e.exit_status(), e.to_string()))?;
    match mode {
        Mode::Info => {
            println!(
                "{}",
                json!({"device": gpu.name, "sm": gpu.sm(), "driver": gpu.driver_version})
            );
            Ok(())
        }
        Mode::One { .. } => {
            let (ptx, module, case) = one.expect("read above");
            let loaded = gpu.load(&ptx).map_err(|e| (1, e.to_string()))?;
            if !loaded.info_log.is_empty() {
                eprintln!("{}", loaded.info_log);
            }
            let out = gpu
                .run_case(&module, &loaded, &case)
                .map_err(|e| (e.exit_status(), e.to_string()))?;
            println!("{out}");
            Ok(())
        }
        Mode::Batch(o) => batch(&mut gpu, &o),
    }
}

/// The module loaded last, kept while consecutive cases share its file.
struct Cached {
    path: PathBuf,
    module: ptx_ir::Module,
    loaded: Result<Loaded, String>,
}

/// Batch settings that a continuation process inherits.
struct BatchOpts {
    manifest: String,
    out: Option<String>,
    start: usize,
    append: bool,
    repeat: u32,
    case_timeout: u64,
}

impl BatchOpts {
    /// Arguments of a process that carries on from manifest line `next`.
    fn continuation(&self, next: usize) -> Vec<String> {
        let mut a = vec![
            "--batch".to_string(),
            self.manifest.clone(),
            format!("--start={next}"),
            format!("--repeat={}", self.repeat),
            format!("--case-timeout={}", self.case_timeout),
        ];
        if let Some(o) = &self.out {
            a.extend(["-o".to_string(), o.clone(), "--append".to_string()]);
        }
        a
    }
}

/// The output shared by the worker and the watchdog: whoever hands over
/// to a continuation process sets `handed_over`, and nothing more is
/// written here after that.
struct Sink {
    out: Box<dyn Write + Send>,
    handed_over: bool,
}

/// Runs a continuation process and exits with its status. A CUDA context
/// cannot recover from a sticky error, and a JIT compile cannot be
/// cancelled, so a fresh process is the only way to go on.
fn hand_over(o: &BatchOpts, next: usize) -> ! {
    let exe = std::env::current_exe().unwrap_or_else(|_| PathBuf::from("ptx-gpu-run"));
    let status = std::process::Command::new(exe)
        .args(o.continuation(next))
        .status()
        .map(|s| s.code().unwrap_or(1))
        .unwrap_or(1);
    std::process::exit(status)
}

fn batch(gpu: &mut Gpu, o: &BatchOpts) -> Result<(), (u8, String)> {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::{Arc, Mutex};
    use std::time::{Duration, Instant};
    let manifest = o.manifest.as_str();
    let text = std::fs::read_to_string(manifest).map_err(|e| (1, format!("{manifest}: {e}")))?;
    let dir = Path::new(manifest)
        .parent()
        .unwrap_or(Path::new("."))
        .to_path_buf();
    let out: Box<dyn Write + Send> = match &o.out {
        Some(p) => Box::new(
            std::fs::OpenOptions::new()
                .create(true)
                .write(true)
                .append(o.append)
                .truncate(!o.append)
                .open(p)
                .map_err(|e| (1, format!("{p}: {e}")))?,
        ),
        None => Box::new(std::io::stdout()),
    };
    let sink = Arc::new(Mutex::new(Sink {
        out,
        handed_over: false,
    }));
    let write = |line: &Json| -> Result<(), (u8, String)> {
        let mut s = sink.lock().unwrap_or_else(|e| e.into_inner());
        if s.handed_over {
            // The watchdog has handed over and will end the process.
            drop(s);
            loop {
                std::thread::park();
            }
        }
        writeln!(s.out, "{line}")
            .and_then(|_| s.out.flush())
            .map_err(|e| (1, format!("writing results: {e}")))
    };
    // The watchdog: a case (JIT included) that outlives the limit is
    // reported, and a continuation process takes the rest.
    let current = Arc::new(Mutex::new(None::<(Instant, String)>));
    let line_no = Arc::new(AtomicUsize::new(0));
    {
        let (current, line_no, sink) = (current.clone(), line_no.clone(), sink.clone());
        let limit = Duration::from_secs(o.case_timeout.max(1));
        let opts = BatchOpts {
            out: o.out.clone(),
            manifest: o.manifest.clone(),
            ..*o
        };
        std::thread::spawn(move || loop {
            std::thread::sleep(Duration::from_millis(200));
            let late = match &*current.lock().unwrap_or_else(|e| e.into_inner()) {
                Some((t, id)) if t.elapsed() > limit => Some(id.clone()),
                _ => None,
            };
            if let Some(id) = late {
                let mut s = sink.lock().unwrap_or_else(|e| e.into_inner());
                let msg = format!(
                    "timed out after {} s (the JIT compile or the kernel); the rest of the batch ran in a new process",
                    limit.as_secs()
                );
                let _ = writeln!(s.out, "{}", json!({"id": id, "error": msg}));
                let _ = s.out.flush();
                s.handed_over = true;
                drop(s);
                hand_over(&opts, line_no.load(Ordering::SeqCst) + 1);
            }
        });
    }
    let mut cached: Option<Cached> = None;
    for (n, line) in text.lines().enumerate().skip(o.start) {
        if line.trim().is_empty() {
            continue;
        }
        let entry: Json =
            serde_json::from_str(line).map_err(|e| (1, format!("{manifest}:{}: {e}", n + 1)))?;
        let field = |k: &str| {
            entry
                .get(k)
                .and_then(Json::as_str)
                .map(str::to_string)
                .ok_or_else(|| (1, format!("{manifest}:{}: '{k}' must be a string", n + 1)))
        };
        let (id, ptx_path, case_path) = (field("id")?, dir.join(field("ptx")?), field("case")?);
        line_no.store(n, Ordering::SeqCst);
        *current.lock().unwrap_or_else(|e| e.into_inner()) = Some((Instant::now(), id.clone()));
        let outcome = run_one(gpu, &mut cached, &ptx_path, &dir.join(case_path), o.repeat);
        *current.lock().unwrap_or_else(|e| e.into_inner()) = None;
        match outcome {
            Ok(r) => write(&json!({"id": id, "result": r}))?,
            Err(e @ GpuError::Launch(_)) => {
                write(&json!({"id": id, "error": e.to_string()}))?;
                sink.lock().unwrap_or_else(|e| e.into_inner()).handed_over = true;
                hand_over(o, n + 1);
            }
            Err(e) => write(&json!({"id": id, "error": e.to_string()}))?,
        }
    }
    Ok(())
}

fn run_one(
    gpu: &mut Gpu,
    cached: &mut Option<Cached>,
    ptx_path: &Path,
    case_path: &Path,
    repeat: u32,
) -> Result<Json, GpuError> {
    let io = |p: &Path, e: std::io::Error| GpuError::Run(format!("{}: {e}", p.display()));
    let case_text = std::fs::read_to_string(case_path).map_err(|e| io(case_path, e))?;
    if cached.as_ref().map(|c| c.path.as_path()) != Some(ptx_path) {
        if let Some(Cached { loaded: Ok(l), .. }) = cached.take() {
            gpu.unload(l);
        }
        let ptx = std::fs::read_to_string(ptx_path).map_err(|e| io(ptx_path, e))?;
        let (module, _) = prepare(&ptx, &case_text).map_err(GpuError::Run)?;
        let loaded = gpu.load(&ptx).map_err(|e| e.to_string());
        *cached = Some(Cached {
            path: ptx_path.to_path_buf(),
            module,
            loaded,
        });
    }
    let c = cached.as_ref().expect("just filled");
    let loaded = c.loaded.as_ref().map_err(|e| GpuError::Run(e.clone()))?;
    let case = ptx_eval::case::Case::parse(&case_text).map_err(GpuError::Run)?;
    let first = gpu.run_case(&c.module, loaded, &case)?;
    // Runs after the first must agree: a kernel whose result depends on
    // scheduling (a race, an atomic's returned value) is reported as such.
    for k in 1..repeat {
        let again = gpu.run_case(&c.module, loaded, &case)?;
        if again != first {
            return Err(GpuError::Run(format!(
                "nondeterministic: run {} differs from run 1",
                k + 1
            )));
        }
    }
    Ok(first)
}
