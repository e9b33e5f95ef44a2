//! An LLVM-compatible FileCheck.
//!
//! [`run`] takes a check file, an input and [`Options`] and returns what
//! LLVM 14's FileCheck prints and its exit code: 0 when every check holds,
//! 1 when one fails, 2 for a check-file or input error (1 for a bad
//! command line). The implementation follows LLVM's own structure, one
//! idea per module:
//!
//! - [`source`]: buffers and located messages (`SourceMgr`);
//! - [`posix`]: POSIX extended regexes, validated with `regcomp`'s errors;
//! - [`numeric`]: numeric blocks `[[#%x,VAR:EXPR]]`, values and formats;
//! - [`pattern`]: one directive's pattern, its matching and notes;
//! - [`read`]: reading the check file into check strings;
//! - [`check`]: checking the input with them;
//! - [`dump`]: the annotated input dump.
//!
//! Both buffers are canonicalised first (CRLF → LF; runs of blanks → one
//! space unless `--strict-whitespace`), as LLVM does.
#![deny(missing_docs)]

pub mod check;
mod cli;
pub mod dump;
pub mod numeric;
pub mod pattern;
pub mod posix;
pub mod read;
pub mod source;

use dump::Filter;
use pattern::PatternOptions;
use source::SourceMgr;
use std::fmt::Write;

/// A parsed FileCheck command line.
#[derive(Clone, Debug)]
pub struct Invocation {
    /// Options.
    pub options: Options,
    /// The check file (empty: not given).
    pub check_file: String,
    /// The input file (`-` for standard input).
    pub input_file: String,
    /// `--help`: print the options and stop.
    pub help: bool,
    /// `--version`: print the version and stop.
    pub version: bool,
}

/// Why a command line was not accepted: the message and exit code.
#[derive(Clone, Debug)]
pub struct CommandLineError {
    /// Message to print on standard error (without the final newline).
    pub message: String,
    /// Exit status.
    pub code: i32,
}

/// `-dump-input` values, in LLVM's precedence order (the largest given
/// wins).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum DumpInput {
    /// Never.
    Never,
    /// Only when a check fails (the default).
    Fail,
    /// Always.
    Always,
    /// Print the dump's legend and stop.
    Help,
}

/// FileCheck options.
#[derive(Clone, Debug)]
pub struct Options {
    /// Check prefixes (`--check-prefix`, `--check-prefixes`).
    pub check_prefixes: Vec<String>,
    /// Comment prefixes (`--comment-prefixes`).
    pub comment_prefixes: Vec<String>,
    /// `--allow-unused-prefixes`.
    pub allow_unused_prefixes: bool,
    /// `--implicit-check-not` patterns.
    pub implicit_check_not: Vec<String>,
    /// `--match-full-lines`.
    pub match_full_lines: bool,
    /// `--strict-whitespace`.
    pub strict_whitespace: bool,
    /// `--ignore-case`.
    pub ignore_case: bool,
    /// `--allow-empty`.
    pub allow_empty: bool,
    /// `--enable-var-scope`.
    pub enable_var_scope: bool,
    /// `-DNAME=VALUE` string variables and `-D#[FMT,]NAME=EXPR` numeric
    /// ones, as written after `-D`.
    pub defines: Vec<String>,
    /// `--dump-input`.
    pub dump_input: DumpInput,
    /// `--dump-input-filter` (default: `error`, or `all` with
    /// `--dump-input=always`).
    pub dump_input_filter: Option<Filter>,
    /// `--dump-input-context` (default 5).
    pub dump_input_context: usize,
    /// `-v` (1) / `-vv` (2).
    pub verbose: u8,
    /// `--allow-deprecated-dag-overlap`.
    pub allow_deprecated_dag_overlap: bool,
    /// `--color`: ANSI colors in messages and the dump.
    pub color: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            check_prefixes: Vec::new(),
            comment_prefixes: Vec::new(),
            allow_unused_prefixes: false,
            implicit_check_not: Vec::new(),
            match_full_lines: false,
            strict_whitespace: false,
            ignore_case: false,
            allow_empty: false,
            enable_var_scope: false,
            defines: Vec::new(),
            dump_input: DumpInput::Fail,
            dump_input_filter: None,
            dump_input_context: 5,
            verbose: 0,
            allow_deprecated_dag_overlap: false,
            color: false,
        }
    }
}

/// What FileCheck printed and how it exited.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// Exit status: 0 pass, 1 check failure, 2 check-file or input error.
    pub code: i32,
    /// Everything written to standard error.
    pub stderr: String,
    /// Everything written to standard output (`-dump-input=help`).
    pub stdout: String,
}

/// Parses FileCheck arguments (without the program name), as LLVM's
/// `cl` does: one dash or two, `=VALUE` or a separate value, `-DNAME=V`.
pub fn parse_args(args: &[String]) -> Result<Invocation, CommandLineError> {
    cli::parse_args_as("FileCheck", "FileCheck", args)
}

/// Runs a whole FileCheck command line: `args` (after `FILECHECK_OPTS`
/// words, which the caller prepends), with `stdin` as the input when it is
/// `-`.
pub fn run_command(args: &[String], stdin: &[u8]) -> Outcome {
    run_command_as("FileCheck", args, stdin)
}

/// [`run_command`] for a program invoked as `argv0` (named in messages).
pub fn run_command_as(argv0: &str, args: &[String], stdin: &[u8]) -> Outcome {
    let prog = std::path::Path::new(argv0)
        .file_name()
        .and_then(|f| f.to_str())
        .unwrap_or(argv0);
    let fail = |code: i32, stderr: String| Outcome {
        code,
        stderr,
        stdout: String::new(),
    };
    let inv = match cli::parse_args_as(prog, argv0, args) {
        Ok(inv) => inv,
        Err(e) => return fail(e.code, format!("{}\n", e.message)),
    };
    if inv.help {
        return Outcome {
            code: 0,
            stderr: String::new(),
            stdout: cli::HELP.replace("USAGE: FileCheck", &format!("USAGE: {prog}")),
        };
    }
    if inv.version {
        return Outcome {
            code: 0,
            stderr: String::new(),
            stdout: format!(
                "{prog} (ptx-opt {}): LLVM 14.0.6 FileCheck's syntax, options and messages\n",
                env!("CARGO_PKG_VERSION")
            ),
        };
    }
    if inv.options.dump_input == DumpInput::Help {
        return Outcome {
            code: 0,
            stderr: String::new(),
            stdout: dump::HELP.to_string(),
        };
    }
    if inv.check_file.is_empty() {
        return fail(2, "<check-file> not specified\n".into());
    }
    let mut bad_defines = String::new();
    for d in &inv.options.defines {
        match d.find('=') {
            None => {
                let _ = writeln!(
                    bad_defines,
                    "Missing equal sign in command-line definition '-D{d}'"
                );
            }
            Some(0) => {
                let _ = writeln!(
                    bad_defines,
                    "Missing variable name in command-line definition '-D{d}'"
                );
            }
            _ => {}
        }
    }
    if !bad_defines.is_empty() {
        return fail(2, bad_defines);
    }
    if let Some(msg) = validate_prefixes(&inv.options) {
        return fail(2, msg);
    }
    let read = |path: &str, stdin: &[u8]| -> std::io::Result<String> {
        if path == "-" {
            Ok(String::from_utf8_lossy(stdin).into_owned())
        } else {
            std::fs::read(path).map(|b| String::from_utf8_lossy(&b).into_owned())
        }
    };
    let check_src = match read(&inv.check_file, stdin) {
        Ok(s) => s,
        Err(e) => {
            return fail(
                2,
                format!(
                    "Could not open check file '{}': {}\n",
                    inv.check_file,
                    io_message(&e)
                ),
            )
        }
    };
    let input = if inv.input_file == "-" {
        Ok(String::from_utf8_lossy(stdin).into_owned())
    } else {
        read(&inv.input_file, stdin)
    };
    let input_name = if inv.input_file == "-" {
        "<stdin>".to_string()
    } else {
        inv.input_file.clone()
    };
    let mut command_line = format!("FileCheck command line:  {argv0}");
    for a in args {
        let _ = write!(command_line, " {a}");
    }
    run_full(
        &inv.check_file,
        &check_src,
        &input_name,
        input.map_err(|e| io_message(&e)),
        &inv.options,
        &command_line,
    )
}

/// The text LLVM's `std::error_code::message` gives.
fn io_message(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::NotFound => "No such file or directory".into(),
        std::io::ErrorKind::PermissionDenied => "Permission denied".into(),
        _ => {
            let s = e.to_string();
            s.split(" (os error").next().unwrap_or(&s).to_string()
        }
    }
}

/// Replaces CRLF by LF and, unless `strict`, runs of blanks by one space.
pub fn canonicalize(s: &str, strict: bool) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\r' && chars.peek() == Some(&'\n') {
            continue;
        }
        if strict || (c != ' ' && c != '\t') {
            out.push(c);
            continue;
        }
        out.push(' ');
        while matches!(chars.peek(), Some(' ' | '\t')) {
            chars.next();
        }
    }
    out
}

/// LLVM's prefix rules: non-empty, `[A-Za-z0-9_-]`, unique among check and
/// comment prefixes (defaults count as taken when not overridden).
fn validate_prefixes(o: &Options) -> Option<String> {
    let mut seen: Vec<&str> = Vec::new();
    if o.check_prefixes.is_empty() {
        seen.push("CHECK");
    }
    if o.comment_prefixes.is_empty() {
        seen.extend(["COM", "RUN"]);
    }
    for (kind, list) in [
        ("check", &o.check_prefixes),
        ("comment", &o.comment_prefixes),
    ] {
        for p in list {
            if p.is_empty() {
                return Some(format!(
                    "error: supplied {kind} prefix must not be the empty string\n"
                ));
            }
            if !p
                .bytes()
                .all(|c| c.is_ascii_alphanumeric() || c == b'-' || c == b'_')
            {
                return Some(format!(
                    "error: supplied {kind} prefix must start with a letter and contain only alphanumeric characters, hyphens, and underscores: '{p}'\n"
                ));
            }
            if seen.contains(&p.as_str()) {
                return Some(format!(
                    "error: supplied {kind} prefix must be unique among check and comment prefixes: '{p}'\n"
                ));
            }
            seen.push(p);
        }
    }
    None
}

/// Runs FileCheck on a check file and an input held in memory.
pub fn run(
    check_name: &str,
    check_src: &str,
    input_name: &str,
    input_src: &str,
    opts: &Options,
) -> Outcome {
    if let Some(msg) = validate_prefixes(opts) {
        return Outcome {
            code: 2,
            stderr: msg,
            stdout: String::new(),
        };
    }
    let command_line = format!("FileCheck command line:  FileCheck {check_name}");
    run_full(
        check_name,
        check_src,
        input_name,
        Ok(input_src.to_string()),
        opts,
        &command_line,
    )
}

fn run_full(
    check_name: &str,
    check_src: &str,
    input_name: &str,
    input: Result<String, String>,
    opts: &Options,
    command_line: &str,
) -> Outcome {
    let mut req = check::Request {
        check_prefixes: opts.check_prefixes.clone(),
        comment_prefixes: opts.comment_prefixes.clone(),
        default_check_prefix: opts.check_prefixes.is_empty(),
        implicit_check_not: opts.implicit_check_not.clone(),
        defines: opts.defines.clone(),
        pattern: PatternOptions {
            match_full_lines: opts.match_full_lines,
            strict_whitespace: opts.strict_whitespace,
            ignore_case: opts.ignore_case,
        },
        allow_unused_prefixes: opts.allow_unused_prefixes,
        enable_var_scope: opts.enable_var_scope,
        allow_deprecated_dag_overlap: opts.allow_deprecated_dag_overlap,
        verbose: opts.verbose >= 1,
        verbose_verbose: opts.verbose >= 2,
    };
    if req.check_prefixes.is_empty() {
        req.check_prefixes.push("CHECK".into());
    }
    if req.comment_prefixes.is_empty() {
        req.comment_prefixes = vec!["COM".into(), "RUN".into()];
    }
    let mut sm = SourceMgr::default();
    sm.color = opts.color;
    let check_text = canonicalize(check_src, opts.strict_whitespace);
    let check_buf = sm.add(check_name, check_text);
    let implicit: Vec<usize> = opts
        .implicit_check_not
        .iter()
        .map(|p| sm.add("command line", format!("-implicit-check-not='{p}'")))
        .collect();
    let defines = (!opts.defines.is_empty()).then(|| {
        let mut text = String::new();
        for (k, d) in opts.defines.iter().enumerate() {
            let prefix = format!("Global define #{}: ", k + 1);
            if !d.contains('=') {
                text.push_str(&prefix);
                text.push('\n');
            } else if d.starts_with('#') {
                let subst = d.replacen('=', ":", 1);
                let _ = writeln!(text, "{prefix}{d} (parsed as: [[{subst}]])");
            } else {
                let _ = writeln!(text, "{prefix}{d}");
            }
        }
        sm.add("Global defines", text)
    });
    // The input buffer is added up front so that locations stay stable;
    // LLVM reads it only after the check file, and so do we.
    let input_text = input
        .as_ref()
        .map(|t| canonicalize(t, opts.strict_whitespace))
        .unwrap_or_default();
    let input_buf = sm.add(input_name, input_text);
    let gather = opts.dump_input != DumpInput::Never;
    let mut checker = check::Checker {
        sm: &sm,
        vars: numeric::Vars::default(),
        out: String::new(),
        diags: gather.then(Vec::new),
        req: &req,
    };
    let checks = match checker.read_check_file(check_buf, &implicit, defines) {
        Ok(c) => c,
        Err(code) => {
            return Outcome {
                code,
                stderr: checker.out,
                stdout: String::new(),
            }
        }
    };
    let raw = match input {
        Ok(t) => t,
        Err(e) => {
            let _ = writeln!(checker.out, "Could not open input file '{input_name}': {e}");
            return Outcome {
                code: 2,
                stderr: checker.out,
                stdout: String::new(),
            };
        }
    };
    if raw.is_empty() && !opts.allow_empty {
        let _ = writeln!(checker.out, "FileCheck error: '{input_name}' is empty.");
        let _ = writeln!(checker.out, "{command_line}");
        return Outcome {
            code: 2,
            stderr: checker.out,
            stdout: String::new(),
        };
    }
    let input_text = sm.text(input_buf);
    let ok = checker.check_input(&checks, &input_text);
    let code = if ok { 0 } else { 1 };
    let mut out = std::mem::take(&mut checker.out);
    if opts.dump_input == DumpInput::Always || (code == 1 && opts.dump_input == DumpInput::Fail) {
        let filter = opts
            .dump_input_filter
            .unwrap_or(if opts.dump_input == DumpInput::Always {
                Filter::All
            } else {
                Filter::Error
            });
        dump::write(
            &mut out,
            &sm,
            input_name,
            check_name,
            check_buf,
            &implicit,
            &input_text,
            checker.diags.as_deref().unwrap_or(&[]),
            filter,
            opts.dump_input_context,
            opts.verbose >= 1,
        );
    }
    Outcome {
        code,
        stderr: out,
        stdout: String::new(),
    }
}
