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
//! - [`check`]: reading the check file and checking the input;
//! - [`dump`]: the annotated input dump.
//!
//! Both buffers are canonicalised first (CRLF → LF; runs of blanks → one
//! space unless `--strict-whitespace`), as LLVM does.
#![deny(missing_docs)]

pub mod check;
pub mod dump;
pub mod numeric;
pub mod pattern;
pub mod posix;
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
    parse_args_as("FileCheck", "FileCheck", args)
}

/// Every option name LLVM 14's FileCheck registers (its own and LLVM's
/// generic ones), for "Did you mean" suggestions.
const OPTION_NAMES: &[&str] = &[
    "color",
    "D",
    "allow-deprecated-dag-overlap",
    "allow-empty",
    "allow-unused-prefixes",
    "check-prefix",
    "check-prefixes",
    "comment-prefixes",
    "crash-diagnostics-dir",
    "debug-counter",
    "disable-symbolication",
    "dump-input",
    "dump-input-context",
    "dump-input-filter",
    "enable-var-scope",
    "ignore-case",
    "implicit-check-not",
    "info-output-file",
    "input-file",
    "match-full-lines",
    "print-debug-counter",
    "rng-seed",
    "sort-timers",
    "stats",
    "stats-json",
    "strict-whitespace",
    "track-memory",
    "treat-scalable-fixed-error-as-warning",
    "v",
    "vv",
    "h",
    "help",
    "help-hidden",
    "help-list",
    "help-list-hidden",
    "print-all-options",
    "print-options",
    "version",
];

/// The registered option nearest to `name` (LLVM's `LookupNearestOption`).
fn nearest_option(name: &str, value: Option<&str>) -> String {
    let mut best: Option<(usize, &str)> = None;
    for o in OPTION_NAMES {
        let d = pattern::edit_distance(o.as_bytes(), name.as_bytes());
        if best.is_none_or(|(bd, _)| d < bd) {
            best = Some((d, o));
        }
    }
    let o = best.map_or("", |b| b.1);
    let dashes = if o.len() == 1 { "-" } else { "--" };
    match value {
        Some(v) if !v.is_empty() => format!("{dashes}{o}={v}"),
        _ => format!("{dashes}{o}"),
    }
}

/// Mutable state of one command-line parse.
struct ParseState {
    o: Options,
    dumps: Vec<DumpInput>,
    filters: Vec<Filter>,
    contexts: Vec<usize>,
    input_file: String,
}

/// Applies one option (`name`, with `inline` after `=`), taking a separate
/// value from `args[*i]` when it needs one.
fn apply_option(
    st: &mut ParseState,
    name: &str,
    inline: Option<&str>,
    args: &[String],
    i: &mut usize,
) -> Result<(), String> {
    let dashes = if name.len() == 1 { "-" } else { "--" };
    let value = |i: &mut usize| -> Result<String, String> {
        if let Some(v) = inline {
            return Ok(v.to_string());
        }
        match args.get(*i) {
            Some(v) => {
                *i += 1;
                Ok(v.clone())
            }
            None => Err(format!("for the {dashes}{name} option: requires a value!")),
        }
    };
    let flag = || -> Result<bool, String> {
        match inline {
            None | Some("true" | "TRUE" | "True" | "1") => Ok(true),
            Some("false" | "FALSE" | "False" | "0") => Ok(false),
            Some(v) => Err(format!(
                "for the {dashes}{name} option: '{v}' is invalid value for boolean argument! Try 0 or 1"
            )),
        }
    };
    let o = &mut st.o;
    match name {
        "check-prefix" => o.check_prefixes.push(value(i)?),
        "check-prefixes" => o
            .check_prefixes
            .extend(value(i)?.split(',').map(String::from)),
        "comment-prefixes" => o
            .comment_prefixes
            .extend(value(i)?.split(',').map(String::from)),
        "implicit-check-not" => o.implicit_check_not.push(value(i)?),
        "input-file" => st.input_file = value(i)?,
        "dump-input" => {
            let v = value(i)?;
            st.dumps.push(match v.as_str() {
                "help" => DumpInput::Help,
                "always" => DumpInput::Always,
                "fail" => DumpInput::Fail,
                "never" => DumpInput::Never,
                _ => {
                    return Err(format!(
                        "for the --dump-input option: Cannot find option named '{v}'!"
                    ))
                }
            });
        }
        "dump-input-filter" => {
            let v = value(i)?;
            st.filters.push(match v.as_str() {
                "all" => Filter::All,
                "annotation-full" => Filter::AnnotationFull,
                "annotation" => Filter::Annotation,
                "error" => Filter::Error,
                _ => {
                    return Err(format!(
                        "for the --dump-input-filter option: Cannot find option named '{v}'!"
                    ))
                }
            });
        }
        "dump-input-context" => {
            let v = value(i)?;
            match v.parse::<u32>() {
                Ok(n) => st.contexts.push(n as usize),
                Err(_) => return Err(format!(
                    "for the --dump-input-context option: '{v}' value invalid for uint argument!"
                )),
            }
        }
        "color" => {
            flag()?;
        }
        "allow-deprecated-dag-overlap" => o.allow_deprecated_dag_overlap = flag()?,
        "allow-unused-prefixes" => o.allow_unused_prefixes = flag()?,
        "match-full-lines" => o.match_full_lines = flag()?,
        "strict-whitespace" => o.strict_whitespace = flag()?,
        "ignore-case" => o.ignore_case = flag()?,
        "allow-empty" => o.allow_empty = flag()?,
        "enable-var-scope" => o.enable_var_scope = flag()?,
        "v" => {
            if flag()? {
                o.verbose = o.verbose.max(1);
            }
        }
        "vv" => {
            if flag()? {
                o.verbose = 2;
            }
        }
        "help" | "h" | "help-hidden" => st.dumps.push(DumpInput::Help),
        _ => return Err(String::new()),
    }
    Ok(())
}

fn parse_args_as(prog: &str, argv0: &str, args: &[String]) -> Result<Invocation, CommandLineError> {
    let mut st = ParseState {
        o: Options::default(),
        dumps: Vec::new(),
        filters: Vec::new(),
        contexts: Vec::new(),
        input_file: "-".to_string(),
    };
    let mut positionals: Vec<String> = Vec::new();
    // LLVM reports every bad argument, then exits with status 1.
    let mut errors: Vec<String> = Vec::new();
    let mut positional_only = false;
    let mut i = 0;
    while i < args.len() {
        let a = args[i].clone();
        i += 1;
        if positional_only || !a.starts_with('-') || a == "-" {
            positionals.push(a);
            continue;
        }
        if a == "--" {
            positional_only = true;
            continue;
        }
        let flag = a.strip_prefix("--").unwrap_or(&a[1..]);
        if let Some(def) = flag.strip_prefix('D') {
            if def.is_empty() {
                errors.push("for the -D option: requires a value!".into());
            } else {
                st.o.defines.push(def.to_string());
            }
            continue;
        }
        let (name, inline) = match flag.split_once('=') {
            Some((n, v)) => (n, Some(v)),
            None => (flag, None),
        };
        match apply_option(&mut st, name, inline, args, &mut i) {
            Ok(()) => {}
            Err(e) if e.is_empty() => {
                errors.push(format!(
                    "Unknown command line argument '{a}'.  Try: '{argv0} --help'"
                ));
                errors.push(format!("Did you mean '{}'?", nearest_option(name, inline)));
            }
            Err(e) => errors.push(e),
        }
    }
    if positionals.len() > 1 {
        errors.push(format!(
            "Too many positional arguments specified!\nCan specify at most 1 positional arguments: See: {argv0} --help"
        ));
    }
    if !errors.is_empty() {
        let message: Vec<String> = errors.iter().map(|e| format!("{prog}: {e}")).collect();
        return Err(CommandLineError {
            message: message.join("\n"),
            code: 1,
        });
    }
    let mut o = st.o;
    if let Some(&d) = st.dumps.iter().max() {
        o.dump_input = d;
    }
    o.dump_input_filter = st.filters.iter().max().copied();
    if let Some(&c) = st.contexts.iter().max() {
        o.dump_input_context = c;
    }
    Ok(Invocation {
        options: o,
        check_file: positionals.into_iter().next().unwrap_or_default(),
        input_file: st.input_file,
    })
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
    let inv = match parse_args_as(prog, argv0, args) {
        Ok(inv) => inv,
        Err(e) => return fail(e.code, format!("{}\n", e.message)),
    };
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
        );
    }
    Outcome {
        code,
        stderr: out,
        stdout: String::new(),
    }
}
