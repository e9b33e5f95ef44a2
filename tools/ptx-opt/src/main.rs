//! `ptx-opt`: parse, verify and print PTX, with `opt`'s conventions.
//!
//! ```text
//! ptx-opt [in.ptx | -] [-o out.ptx | -o -]
//! ```
//!
//! Errors are printed as `file:line:col: error: message` with the source
//! line and a caret, and the exit status is 1. An existing output file is
//! only replaced once the whole result is ready (written to a temporary
//! file beside it, then renamed).

use std::io::{Read, Write};

// The IR is built from many small allocations per function; mimalloc's
// size-class free lists serve them several times faster than glibc malloc.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

struct Options {
    input: Option<String>,
    output: Option<String>,
}

const USAGE: &str = "usage: ptx-opt [options] [input.ptx | -]\n\n\
options:\n  -o <file>      write output to <file> ('-' for stdout)\n  --help         show this help\n  --version      show the version\n";

fn parse_args(args: &[String]) -> Result<Option<Options>, String> {
    let mut o = Options {
        input: None,
        output: None,
    };
    let mut it = args.iter();
    let mut positional_only = false;
    while let Some(a) = it.next() {
        if positional_only {
            set_input(&mut o, a)?;
            continue;
        }
        if a == "--" {
            positional_only = true;
            continue;
        }
        // Long options are accepted with one dash or two, as opt does.
        let flag = a.strip_prefix("--").map(|s| format!("-{s}"));
        let flag = flag.as_deref().unwrap_or(a);
        match flag {
            "-help" | "-h" => {
                print!("{USAGE}");
                return Ok(None);
            }
            "-version" => {
                println!("ptx-opt {}", env!("CARGO_PKG_VERSION"));
                return Ok(None);
            }
            "-o" => match it.next() {
                Some(v) => o.output = Some(v.clone()),
                None => return Err("option '-o' requires a value".into()),
            },
            _ if flag.starts_with("-o=") => o.output = Some(flag[3..].to_string()),
            _ if flag.starts_with("-o") && flag.len() > 2 && !flag.starts_with("-o=") => {
                o.output = Some(flag[2..].to_string())
            }
            "-" => set_input(&mut o, a)?,
            _ if flag.starts_with('-') => return Err(format!("unknown option '{a}'")),
            _ => set_input(&mut o, a)?,
        }
    }
    Ok(Some(o))
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
    let opts = match parse_args(&args) {
        Ok(Some(o)) => o,
        Ok(None) => return ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("ptx-opt: error: {e}");
            eprint!("{USAGE}");
            return ExitCode::from(1);
        }
    };
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
    let text = ptx_opt::process(&bytes).map_err(|d| d.render(&name, &bytes))?;
    match opts.output.as_deref() {
        None | Some("-") => {
            let mut out = std::io::stdout().lock();
            out.write_all(text.as_bytes())
                .and_then(|_| out.flush())
                .map_err(|e| format!("ptx-opt: error: cannot write standard output: {e}\n"))
        }
        Some(path) => write_atomically(Path::new(path), text.as_bytes())
            .map_err(|e| format!("ptx-opt: error: cannot write '{path}': {e}\n")),
    }
}

/// Writes `data` to a temporary file next to `path`, then renames it over
/// `path`, so a failure never leaves a half-written output behind.
fn write_atomically(path: &Path, data: &[u8]) -> std::io::Result<()> {
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
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}
