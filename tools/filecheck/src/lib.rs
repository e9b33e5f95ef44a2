//! An LLVM-compatible FileCheck.
//!
//! [`run`] takes a check file, an input and [`Options`] and returns what
//! LLVM's FileCheck would print to stderr and its exit code: 0 when every
//! check holds, 1 when one fails, 2 for a usage or check-file error.
//!
//! The matching follows LLVM: both buffers are canonicalised (CRLF → LF,
//! runs of blanks → one space unless `--strict-whitespace`); `CHECK-LABEL`s
//! are found first and cut the input into regions; within a region each
//! check is searched from the end of the previous match, after its group of
//! `CHECK-DAG`/`CHECK-NOT`s; `-NEXT`/`-SAME`/`-EMPTY` then check the lines
//! skipped, and `-NOT`s the text skipped.
#![deny(missing_docs)]

mod diag;
mod pattern;

use diag::Buffer;
use pattern::{Compiled, Piece, Unresolved, Vars};
use std::fmt::Write;

/// A parsed FileCheck command line.
#[derive(Clone, Debug)]
pub struct Invocation {
    /// Options.
    pub options: Options,
    /// The check file.
    pub check_file: String,
    /// The input file (`-` for standard input).
    pub input_file: String,
}

/// Why a command line was not accepted: the message and LLVM's exit code.
#[derive(Clone, Debug)]
pub struct CommandLineError {
    /// Message to print on standard error.
    pub message: String,
    /// Exit status.
    pub code: i32,
}

fn cl_err(msg: impl Into<String>) -> CommandLineError {
    CommandLineError {
        message: format!("FileCheck: {}", msg.into()),
        code: 1,
    }
}

/// Parses FileCheck arguments (without the program name), LLVM-style: one
/// dash or two, `=VALUE` or a separate value, `-DNAME=VALUE`.
/// `Ok(None)` means `--help` or `--dump-input=help` was handled.
pub fn parse_args(args: &[String]) -> Result<Option<Invocation>, CommandLineError> {
    let mut o = Options::default();
    let mut check_file: Option<String> = None;
    let mut input_file = "-".to_string();
    let mut i = 0;
    while i < args.len() {
        let a = args[i].clone();
        i += 1;
        if !a.starts_with('-') || a == "-" {
            if check_file.is_some() {
                return Err(cl_err("Too many positional arguments specified!\nCan specify at most 1 positional arguments: See: FileCheck --help"));
            }
            check_file = Some(a);
            continue;
        }
        let flag = a.trim_start_matches('-');
        let (name, inline) = match flag.split_once('=') {
            Some((n, v)) => (n.to_string(), Some(v.to_string())),
            None => (flag.to_string(), None),
        };
        if let Some(def) = flag.strip_prefix('D') {
            if def.is_empty() {
                return Err(cl_err("for the -D option: requires a value!"));
            }
            let Some((n, _)) = def.split_once('=') else {
                return Err(CommandLineError {
                    message: format!("Missing equal sign in command-line definition '-D{def}'"),
                    code: 2,
                });
            };
            if n.is_empty() || n == "#" {
                return Err(CommandLineError {
                    message: format!("Empty name in command-line definition '-D{def}'"),
                    code: 2,
                });
            }
            o.defines.push(def.to_string());
            continue;
        }
        let value = |i: &mut usize| -> Option<String> {
            if let Some(v) = &inline {
                return Some(v.clone());
            }
            let v = args.get(*i).cloned();
            *i += 1;
            v
        };
        let on = |v: &Option<String>| {
            v.as_deref()
                .is_none_or(|v| matches!(v, "true" | "1" | "TRUE" | "True"))
        };
        let need = |v: Option<String>, n: &str| {
            v.ok_or_else(|| cl_err(format!("option '{n}' requires a value")))
        };
        match name.as_str() {
            "check-prefix" => o.check_prefixes.push(need(value(&mut i), "check-prefix")?),
            "check-prefixes" => o.check_prefixes.extend(
                need(value(&mut i), "check-prefixes")?
                    .split(',')
                    .map(String::from),
            ),
            "comment-prefixes" => o.comment_prefixes.extend(
                need(value(&mut i), "comment-prefixes")?
                    .split(',')
                    .map(String::from),
            ),
            "implicit-check-not" => o
                .implicit_check_not
                .push(need(value(&mut i), "implicit-check-not")?),
            "input-file" => input_file = need(value(&mut i), "input-file")?,
            "dump-input" => match value(&mut i).as_deref() {
                Some("fail") => o.dump_input = DumpInput::Fail,
                Some("always") => o.dump_input = DumpInput::Always,
                Some("never") => o.dump_input = DumpInput::Never,
                Some("help") => return Ok(None),
                _ => return Err(cl_err("invalid value for option 'dump-input'")),
            },
            "dump-input-filter" | "dump-input-context" | "color" => {}
            "allow-deprecated-dag-overlap" => o.allow_deprecated_dag_overlap = on(&inline),
            "allow-unused-prefixes" => o.allow_unused_prefixes = on(&inline),
            "match-full-lines" => o.match_full_lines = on(&inline),
            "strict-whitespace" => o.strict_whitespace = on(&inline),
            "ignore-case" => o.ignore_case = on(&inline),
            "allow-empty" => o.allow_empty = on(&inline),
            "enable-var-scope" => o.enable_var_scope = on(&inline),
            "v" => o.verbose = o.verbose.max(1),
            "vv" => o.verbose = 2,
            "help" | "h" => return Ok(None),
            _ => {
                return Err(cl_err(format!(
                    "Unknown command line argument '{a}'.  Try: 'FileCheck --help'"
                )))
            }
        }
    }
    let Some(check_file) = check_file else {
        return Err(cl_err("Not enough positional command line arguments specified!\nMust specify at least 1 positional argument: See: FileCheck --help"));
    };
    Ok(Some(Invocation {
        options: o,
        check_file,
        input_file,
    }))
}

/// Runs a whole FileCheck command line: `args` (after `FILECHECK_OPTS`
/// words, which the caller prepends), with `stdin` as the input when it is
/// `-`. Returns the exit status and what goes to standard error.
pub fn run_command(args: &[String], stdin: &[u8]) -> Outcome {
    let inv = match parse_args(args) {
        Ok(Some(inv)) => inv,
        Ok(None) => {
            return Outcome {
                code: 0,
                stderr: USAGE.to_string(),
            }
        }
        Err(e) => {
            return Outcome {
                code: e.code,
                stderr: format!("{}\n", e.message),
            }
        }
    };
    let check_src = match std::fs::read(&inv.check_file) {
        Ok(b) => String::from_utf8_lossy(&b).into_owned(),
        Err(e) => {
            return Outcome {
                code: 2,
                stderr: format!("Could not open check file '{}': {e}\n", inv.check_file),
            }
        }
    };
    let (input_name, input_src) = if inv.input_file == "-" {
        (
            "<stdin>".to_string(),
            String::from_utf8_lossy(stdin).into_owned(),
        )
    } else {
        match std::fs::read(&inv.input_file) {
            Ok(b) => (
                inv.input_file.clone(),
                String::from_utf8_lossy(&b).into_owned(),
            ),
            Err(e) => {
                return Outcome {
                    code: 2,
                    stderr: format!("Could not open input file '{}': {e}\n", inv.input_file),
                }
            }
        }
    };
    run(
        &inv.check_file,
        &check_src,
        &input_name,
        &input_src,
        &inv.options,
    )
}

/// `--help` text.
pub const USAGE: &str = "USAGE: FileCheck [options] <check-file>\n\nOptions: --check-prefix(es), --comment-prefixes, --allow-unused-prefixes, --implicit-check-not, --match-full-lines, --strict-whitespace, --ignore-case, --input-file, -D, --allow-empty, --enable-var-scope, --dump-input, -v\n";

/// When to print the annotated input dump.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DumpInput {
    /// Only when a check fails (the default).
    Fail,
    /// Always.
    Always,
    /// Never.
    Never,
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
    /// `-D NAME=VALUE` string variables and `-D#NAME=VALUE` numeric ones.
    pub defines: Vec<String>,
    /// `--dump-input`.
    pub dump_input: DumpInput,
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
            verbose: 0,
            allow_deprecated_dag_overlap: false,
        }
    }
}

/// What FileCheck printed and how it exited.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// Exit status: 0 pass, 1 check failure, 2 usage or check-file error.
    pub code: i32,
    /// Everything written to standard error.
    pub stderr: String,
}

/// Directive kinds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// `CHECK:`
    Plain,
    /// `CHECK-NEXT:`
    Next,
    /// `CHECK-SAME:`
    Same,
    /// `CHECK-NOT:`
    Not,
    /// `CHECK-DAG:`
    Dag,
    /// `CHECK-LABEL:`
    Label,
    /// `CHECK-EMPTY:`
    Empty,
    /// `CHECK-COUNT-n:`
    Count(usize),
    /// End of the check file (holds trailing DAG/NOT groups).
    Eof,
}

impl Kind {
    fn suffix(self) -> &'static str {
        match self {
            Kind::Plain | Kind::Eof => "",
            Kind::Next => "-NEXT",
            Kind::Same => "-SAME",
            Kind::Not => "-NOT",
            Kind::Dag => "-DAG",
            Kind::Label => "-LABEL",
            Kind::Empty => "-EMPTY",
            Kind::Count(_) => "-COUNT",
        }
    }
}

/// Which buffer a pattern was written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Origin {
    Check,
    CommandLine(usize),
}

/// One directive of the check file.
#[derive(Clone, Debug)]
struct Directive {
    kind: Kind,
    literal: bool,
    prefix: String,
    pieces: Vec<Piece>,
    /// Pattern start (for messages).
    pos: usize,
    origin: Origin,
}

impl Directive {
    fn name(&self) -> String {
        let lit = if self.literal && self.kind != Kind::Empty {
            "{LITERAL}"
        } else {
            ""
        };
        format!("{}{}{lit}", self.prefix, self.kind.suffix())
    }
    fn count(&self) -> usize {
        match self.kind {
            Kind::Count(n) => n,
            _ => 1,
        }
    }
}

/// A positive check with the DAG/NOT group before it.
struct CheckString {
    pat: Directive,
    dag_nots: Vec<Directive>,
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

fn is_part_of_word(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'-' || c == b'_'
}

/// One marker of the annotated input dump.
struct Ann {
    /// `check:LINE` style label (an index suffix is added when printing).
    label: String,
    /// Input range; may span lines (the newline counts as a column).
    start: usize,
    end: usize,
    /// `'\0'`: a note with no marker.
    marker: char,
    text: String,
}

struct Ctx<'a> {
    anns: Vec<Ann>,
    out: String,
    check: Buffer<'a>,
    input: Buffer<'a>,
    cmdline: Vec<String>,
    opts: &'a Options,
}

impl Ctx<'_> {
    fn annotate(
        &mut self,
        d: &Directive,
        start: usize,
        end: usize,
        marker: char,
        text: impl Into<String>,
    ) {
        let text = text.into();
        let kind = match d.kind {
            Kind::Plain | Kind::Eof => "check",
            Kind::Next => "next",
            Kind::Same => "same",
            Kind::Not => "not",
            Kind::Dag => "dag",
            Kind::Label => "label",
            Kind::Empty => "empty",
            Kind::Count(_) => "count",
        };
        let label = match d.origin {
            Origin::Check => format!("{kind}:{}", self.check.line_col(d.pos).0),
            Origin::CommandLine(k) => format!("{kind}:imp{}", k + 1),
        };
        self.anns.push(Ann {
            label,
            start,
            end,
            marker,
            text,
        });
    }

    fn at_pattern(&mut self, d: &Directive, kind: &str, msg: &str) {
        match d.origin {
            Origin::Check => self.check.message(&mut self.out, d.pos, kind, msg, 1),
            Origin::CommandLine(k) => {
                let text = self.cmdline[k].clone();
                let col = text.find('\'').map_or(0, |q| q + 1);
                let b = Buffer {
                    name: "command line",
                    text: &text,
                };
                b.message(&mut self.out, col, kind, msg, 1);
            }
        }
    }
}

/// Runs FileCheck.
pub fn run(
    check_name: &str,
    check_src: &str,
    input_name: &str,
    input_src: &str,
    opts: &Options,
) -> Outcome {
    let mut opts = opts.clone();
    let (user_checks, user_comments) = (
        !opts.check_prefixes.is_empty(),
        !opts.comment_prefixes.is_empty(),
    );
    if opts.check_prefixes.is_empty() {
        opts.check_prefixes.push("CHECK".into());
    }
    if opts.comment_prefixes.is_empty() {
        opts.comment_prefixes = vec!["COM".into(), "RUN".into()];
    }
    let opts = &opts;
    if let Some(msg) = validate_prefixes(user_checks, user_comments, opts) {
        return Outcome {
            code: 2,
            stderr: msg,
        };
    }
    let check_text = canonicalize(check_src, opts.strict_whitespace);
    let input_text = canonicalize(input_src, opts.strict_whitespace);
    let mut ctx = Ctx {
        anns: Vec::new(),
        out: String::new(),
        check: Buffer {
            name: check_name,
            text: &check_text,
        },
        input: Buffer {
            name: input_name,
            text: &input_text,
        },
        cmdline: Vec::new(),
        opts,
    };
    let checks = match parse_checks(&mut ctx) {
        Ok(c) => c,
        Err(ok) => {
            return Outcome {
                code: if ok { 0 } else { 2 },
                stderr: ctx.out,
            }
        }
    };
    if input_text.is_empty() && !opts.allow_empty {
        let _ = writeln!(ctx.out, "FileCheck error: '{input_name}' is empty.");
        return Outcome {
            code: 2,
            stderr: ctx.out,
        };
    }
    let mut vars = Vars::default();
    for d in &opts.defines {
        let (name, value) = d.split_once('=').unwrap_or((d, ""));
        if let Some(n) = name.strip_prefix('#') {
            // `-D#[%fmt,]NAME=VALUE`
            let (fmt, n) = match n.split_once(',') {
                Some((f, n)) => (pattern::format_from_spec(f.trim_start_matches('%')), n),
                None => (pattern::NumFormat::default(), n),
            };
            let v = value.trim();
            let v = match v.strip_prefix("0x") {
                Some(h) => i128::from_str_radix(h, 16).unwrap_or(0),
                None if matches!(fmt.kind, 'x' | 'X') => i128::from_str_radix(v, 16).unwrap_or(0),
                None => v.parse::<i128>().unwrap_or(0),
            };
            vars.numbers.insert(n.trim().to_string(), (v, fmt));
        } else {
            vars.strings.insert(name.to_string(), value.to_string());
        }
    }
    let ok = check_input(&mut ctx, &checks, &mut vars);
    let failed = !ok;
    if (failed && opts.dump_input == DumpInput::Fail) || opts.dump_input == DumpInput::Always {
        dump_input(&mut ctx);
    }
    Outcome {
        code: if failed { 1 } else { 0 },
        stderr: ctx.out,
    }
}

/// LLVM's prefix rules: non-empty, `[A-Za-z0-9_-]`, unique among check and
/// comment prefixes (defaults count as taken when not overridden).
fn validate_prefixes(user_checks: bool, user_comments: bool, o: &Options) -> Option<String> {
    let mut seen: Vec<&str> = Vec::new();
    if !user_checks {
        seen.push("CHECK");
    }
    if !user_comments {
        seen.extend(["COM", "RUN"]);
    }
    let lists: [(&str, bool, &Vec<String>); 2] = [
        ("check", user_checks, &o.check_prefixes),
        ("comment", user_comments, &o.comment_prefixes),
    ];
    for (kind, user, list) in lists {
        if !user {
            continue;
        }
        for p in list {
            if p.is_empty() {
                return Some(format!(
                    "error: supplied {kind} prefix must not be the empty string\n"
                ));
            }
            if !p.bytes().all(is_part_of_word) {
                return Some(format!(
                    "error: supplied {kind} prefix must start with a letter and contain only alphanumeric characters, hyphens, and underscores: '{p}'\n"
                ));
            }
            if seen.contains(&p.as_str()) {
                return Some(format!("error: supplied {kind} prefix must be unique among check and comment prefixes: '{p}'\n"));
            }
            seen.push(p);
        }
    }
    None
}

/// Prints the input with the diagnostics' markers under the lines they
/// concern, eliding lines more than five away from where a marker starts.
fn dump_input(ctx: &mut Ctx) {
    let input = ctx.input.text;
    let _ = write!(
        ctx.out,
        "\nInput file: {}\nCheck file: {}\n\n-dump-input=help explains the following input dump.\n\nInput was:\n<<<<<<\n",
        ctx.input.name, ctx.check.name
    );
    // Line start offsets.
    let mut starts = vec![0usize];
    for (k, c) in input.bytes().enumerate() {
        if c == b'\n' && k + 1 < input.len() {
            starts.push(k + 1);
        }
    }
    let nlines = if input.is_empty() { 0 } else { starts.len() };
    let line_of = |pos: usize| starts.partition_point(|&s| s <= pos).max(1) - 1;
    // Labels: `'N` suffixes when a check has several markers.
    let mut labels: Vec<String> = Vec::new();
    for (k, a) in ctx.anns.iter().enumerate() {
        let same = ctx.anns.iter().filter(|b| b.label == a.label).count();
        let idx = ctx.anns[..k].iter().filter(|b| b.label == a.label).count();
        labels.push(if same > 1 {
            format!("{}'{idx}", a.label)
        } else {
            a.label.clone()
        });
    }
    let lw = labels
        .iter()
        .map(|l| l.len())
        .max()
        .unwrap_or(0)
        .max(nlines.to_string().len())
        + 3;
    let anchors: Vec<usize> = ctx
        .anns
        .iter()
        .map(|a| line_of(a.start.min(input.len().saturating_sub(1))))
        .collect();
    let near = |l: usize| anchors.is_empty() || anchors.iter().any(|&a| l + 5 >= a && l <= a + 5);
    let mut visible: Vec<bool> = (0..nlines).map(near).collect();
    // Runs too short to be worth three dots stay visible.
    let mut l = 0;
    while l < nlines {
        if visible[l] {
            l += 1;
            continue;
        }
        let run_end = (l..nlines).find(|&k| visible[k]).unwrap_or(nlines);
        if run_end - l < 4 {
            visible[l..run_end].iter_mut().for_each(|v| *v = true);
        }
        l = run_end;
    }
    let mut eliding = false;
    for l in 0..nlines {
        if !visible[l] {
            if !eliding {
                for _ in 0..3 {
                    let _ = writeln!(ctx.out, "{:>lw$}", ".");
                }
                eliding = true;
            }
            continue;
        }
        eliding = false;
        let ls = starts[l];
        let le = input[ls..].find('\n').map_or(input.len(), |k| ls + k);
        let text = &input[ls..le];
        let _ = writeln!(ctx.out, "{:>lw$}: {text} ", l + 1);
        let width = le - ls + 1;
        for (k, a) in ctx.anns.iter().enumerate() {
            let a_end = if a.marker == '\0' {
                a.start + 1
            } else {
                a.end.max(a.start + 1)
            };
            if a_end <= ls || a.start > le {
                continue;
            }
            let first = a.start >= ls;
            let from = a.start.max(ls) - ls;
            let to = if a.marker == '\0' {
                from
            } else {
                (a_end.min(le + 1) - ls).max(from + 1)
            };
            let mut line = format!("{:<w$}", labels[k], w = lw + 2);
            line.push_str(&" ".repeat(from));
            for c in from..to {
                line.push(if first && c == from { a.marker } else { '~' });
            }
            if first {
                let col = to.max(width);
                line.push_str(&" ".repeat(col - to + 1));
                line.push_str(&a.text);
            }
            let _ = writeln!(ctx.out, "{}", line.trim_end());
        }
    }
    ctx.out.push_str(">>>>>>\n");
}

/// Finds the next directive at or after `from`: (prefix start, prefix,
/// kind or comment, offset just past the colon).
enum Found {
    Comment {
        line_end: usize,
    },
    Directive {
        at: usize,
        prefix: String,
        kind: Kind,
        literal: bool,
        after: usize,
    },
    Error,
}

/// Parses the check file; `Err(ok)` stops the run (`ok`: with status 0).
fn parse_checks(ctx: &mut Ctx) -> Result<Vec<CheckString>, bool> {
    let opts = ctx.opts;
    let text = ctx.check.text;
    let b = text.as_bytes();
    let mut prefixes: Vec<(&str, bool)> = opts
        .check_prefixes
        .iter()
        .map(|p| (p.as_str(), false))
        .collect();
    prefixes.extend(opts.comment_prefixes.iter().map(|p| (p.as_str(), true)));
    let mut used = vec![false; opts.check_prefixes.len()];
    let mut checks: Vec<CheckString> = Vec::new();
    let mut group: Vec<Directive> = Vec::new();
    let (mut str_names, mut num_names): (Vec<String>, Vec<String>) = (Vec::new(), Vec::new());
    let mut pos = 0;
    while pos < b.len() {
        // Earliest prefix occurrence that starts a word; longest on ties.
        let mut best: Option<(usize, usize)> = None;
        for (k, (p, _)) in prefixes.iter().enumerate() {
            let mut from = pos;
            while let Some(off) = text[from..].find(p) {
                let at = from + off;
                if at > 0 && is_part_of_word(b[at - 1]) {
                    from = at + 1;
                    continue;
                }
                let better = match best {
                    None => true,
                    Some((bat, bk)) => at < bat || (at == bat && p.len() > prefixes[bk].0.len()),
                };
                if better {
                    best = Some((at, k));
                }
                break;
            }
        }
        let Some((at, k)) = best else { break };
        let (prefix, is_comment) = prefixes[k];
        match classify(ctx, at, prefix, is_comment) {
            None => {
                pos = at + 1;
                continue;
            }
            Some(Found::Error) => return Err(false),
            Some(Found::Comment { line_end }) => {
                pos = line_end;
                continue;
            }
            Some(Found::Directive {
                at,
                prefix,
                kind,
                literal,
                after,
            }) => {
                if let Some(i) = opts.check_prefixes.iter().position(|p| *p == prefix) {
                    used[i] = true;
                }
                let line_end = text[after..].find('\n').map_or(text.len(), |k| after + k);
                let mut start = after;
                if !(opts.strict_whitespace && opts.match_full_lines) {
                    while start < line_end && (b[start] == b' ' || b[start] == b'\t') {
                        start += 1;
                    }
                }
                let mut end = line_end;
                if !(opts.strict_whitespace && opts.match_full_lines) {
                    while end > start && (b[end - 1] == b' ' || b[end - 1] == b'\t') {
                        end -= 1;
                    }
                }
                let pat = &text[start..end];
                let line = text[..at].matches('\n').count() + 1;
                pos = line_end;
                if pat.is_empty() && kind != Kind::Empty {
                    let msg = format!("found empty check string with prefix '{prefix}:'");
                    ctx.check.message(&mut ctx.out, start, "error", &msg, 1);
                    return Err(false);
                }
                if !pat.is_empty() && kind == Kind::Empty {
                    let msg = format!(
                        "found non-empty check string for empty check with prefix '{prefix}:'"
                    );
                    ctx.check.message(&mut ctx.out, start, "error", &msg, 1);
                    return Err(false);
                }
                let pieces = match pattern::parse(pat, start, line, literal) {
                    Ok(p) => p,
                    Err(e) => {
                        ctx.check.message(&mut ctx.out, e.pos, "error", &e.msg, 1);
                        return Err(false);
                    }
                };
                for p in &pieces {
                    let (name, numeric) = match p {
                        Piece::DefStr { name, .. } => (name, false),
                        Piece::DefNum { name, .. } => (name, true),
                        _ => continue,
                    };
                    let clash = if numeric {
                        str_names.contains(name)
                    } else {
                        num_names.contains(name)
                    };
                    if clash {
                        let what = if numeric { "string" } else { "numeric" };
                        let at = text[start..end]
                            .rfind(name.as_str())
                            .map_or(start, |k| start + k);
                        let msg = format!("{what} variable with name '{name}' already exists");
                        ctx.check.message(&mut ctx.out, at, "error", &msg, 1);
                        return Err(false);
                    }
                    if numeric {
                        num_names.push(name.clone());
                    } else {
                        str_names.push(name.clone());
                    }
                }
                if kind == Kind::Label
                    && pieces
                        .iter()
                        .any(|p| !matches!(p, Piece::Lit(_) | Piece::Regex(_)))
                {
                    let msg = format!("found '{prefix}-LABEL:' with variable definition or use");
                    ctx.check.message(&mut ctx.out, at, "error", &msg, 1);
                    return Err(false);
                }
                if matches!(kind, Kind::Next | Kind::Same | Kind::Empty) && checks.is_empty() {
                    let msg = format!(
                        "found '{prefix}{}' without previous '{prefix}: line",
                        kind.suffix()
                    );
                    ctx.check.message(&mut ctx.out, at, "error", &msg, 1);
                    return Err(false);
                }
                let d = Directive {
                    kind,
                    literal,
                    prefix,
                    pieces,
                    pos: start,
                    origin: Origin::Check,
                };
                if matches!(kind, Kind::Dag | Kind::Not) {
                    group.push(d);
                } else {
                    let dag_nots = std::mem::take(&mut group);
                    checks.push(CheckString { pat: d, dag_nots });
                }
            }
        }
    }
    let any_used = used.iter().any(|&u| u);
    let unused: Vec<&String> = opts
        .check_prefixes
        .iter()
        .zip(&used)
        .filter(|(_, &u)| !u)
        .map(|(p, _)| p)
        .collect();
    if !any_used || (!opts.allow_unused_prefixes && !unused.is_empty()) {
        let list: Vec<&String> = if any_used {
            unused
        } else {
            opts.check_prefixes.iter().collect()
        };
        let names: Vec<String> = list.iter().map(|p| format!("'{p}:'")).collect();
        let s = if names.len() == 1 { "" } else { "es" };
        let _ = writeln!(
            ctx.out,
            "error: no check strings found with prefix{s} {}",
            names.join(", ")
        );
        return Err(false);
    }
    // Implicit CHECK-NOTs join every DAG/NOT group.
    let mut implicit = Vec::new();
    for (k, p) in opts.implicit_check_not.iter().enumerate() {
        ctx.cmdline.push(format!("-implicit-check-not='{p}'"));
        if p.is_empty() {
            // LLVM reports this and then stops, with exit status 0.
            let text = ctx.cmdline[k].clone();
            let b = Buffer {
                name: "command line",
                text: &text,
            };
            b.message(
                &mut ctx.out,
                21,
                "error",
                "found empty check string with prefix 'IMPLICIT-CHECK:'",
                1,
            );
            return Err(true);
        }
        let pieces = pattern::parse(p, 0, 1, false).unwrap_or_else(|_| vec![Piece::Lit(p.clone())]);
        implicit.push(Directive {
            kind: Kind::Not,
            literal: false,
            prefix: opts.check_prefixes[0].clone(),
            pieces,
            pos: 0,
            origin: Origin::CommandLine(k),
        });
    }
    checks.push(CheckString {
        pat: Directive {
            kind: Kind::Eof,
            literal: false,
            prefix: String::new(),
            pieces: Vec::new(),
            pos: text.len(),
            origin: Origin::Check,
        },
        dag_nots: group,
    });
    if !implicit.is_empty() {
        for c in &mut checks {
            let mut g = implicit.clone();
            g.append(&mut c.dag_nots);
            c.dag_nots = g;
        }
    }
    Ok(checks)
}

/// Reads the directive (if any) that prefix `prefix` at `at` starts.
fn classify(ctx: &mut Ctx, at: usize, prefix: &str, comment: bool) -> Option<Found> {
    let text = ctx.check.text;
    let rest = &text[at + prefix.len()..];
    if comment {
        if rest.starts_with(':') {
            let line_end = text[at..].find('\n').map_or(text.len(), |k| at + k);
            return Some(Found::Comment { line_end });
        }
        return None;
    }
    let (kind, after_kind) = if rest.starts_with(':') || rest.starts_with('{') {
        (Kind::Plain, 0)
    } else if let Some(r) = rest.strip_prefix('-') {
        let words = [
            ("NEXT", Kind::Next),
            ("SAME", Kind::Same),
            ("NOT", Kind::Not),
            ("DAG", Kind::Dag),
            ("LABEL", Kind::Label),
            ("EMPTY", Kind::Empty),
        ];
        if let Some(c) = r.strip_prefix("COUNT-") {
            let digits: String = c.chars().take_while(|c| c.is_ascii_digit()).collect();
            let n: usize = digits.parse().unwrap_or(0);
            let after = &c[digits.len()..];
            if n == 0 || !(after.starts_with(':') || after.starts_with('{')) {
                let pos = at + prefix.len() + 7 + digits.len();
                let msg = format!("invalid count in -COUNT specification on prefix '{prefix}'");
                ctx.check.message(&mut ctx.out, pos, "error", &msg, 1);
                return Some(Found::Error);
            }
            (Kind::Count(n), 7 + digits.len())
        } else {
            let mut found = None;
            for (w, k) in words {
                if let Some(after) = r.strip_prefix(w) {
                    if after.starts_with(':') || after.starts_with('{') {
                        found = Some((k, 1 + w.len()));
                        break;
                    }
                    let combo = (k == Kind::Not
                        && (after.starts_with("-DAG")
                            || after.starts_with("-NEXT")
                            || after.starts_with("-SAME")
                            || after.starts_with("-EMPTY")))
                        || (k != Kind::Not && after.starts_with("-NOT"));
                    if combo {
                        let msg = format!("unsupported -NOT combo on prefix '{prefix}'");
                        ctx.check
                            .message(&mut ctx.out, at + prefix.len() + 1, "error", &msg, 1);
                        return Some(Found::Error);
                    }
                }
            }
            found?
        }
    } else {
        return None;
    };
    let mut tail = &rest[after_kind..];
    let mut literal = false;
    while let Some(r) = tail.strip_prefix('{') {
        let end = r.find('}')?;
        if &r[..end] == "LITERAL" {
            literal = true;
        } else {
            return None;
        }
        tail = &r[end + 1..];
    }
    if !tail.starts_with(':') {
        return None;
    }
    let after = text.len() - tail.len() + 1;
    Some(Found::Directive {
        at,
        prefix: prefix.to_string(),
        kind,
        literal,
        after,
    })
}

/// A match: start and end offsets in the input.
#[derive(Clone, Copy, Debug)]
struct Match {
    start: usize,
    end: usize,
}

enum MatchErr {
    NotFound(Vec<(String, String)>),
    Undefined(Vec<(String, usize)>),
    Overflow(usize),
}

fn find(
    ctx: &Ctx,
    d: &Directive,
    vars: &mut Vars,
    from: usize,
    to: usize,
) -> Result<(Match, Compiled), MatchErr> {
    let o = ctx.opts;
    let text = &ctx.input.text[..to];
    if d.kind == Kind::Empty {
        // An empty line: a newline followed by the end of a line.
        let re = fancy_regex::Regex::new("(?m)\\n$").expect("valid regex");
        let c = Compiled {
            regex: re,
            defs: Vec::new(),
            uses: Vec::new(),
        };
        return match c.regex.find_from_pos(text, from) {
            Ok(Some(m)) => Ok((
                Match {
                    start: m.start() + 1,
                    end: m.start() + 1,
                },
                c,
            )),
            _ => Err(MatchErr::NotFound(Vec::new())),
        };
    }
    let full = o.match_full_lines && d.kind != Kind::Not;
    let c = match pattern::compile(&d.pieces, vars, full, o.strict_whitespace, o.ignore_case) {
        Ok(c) => c,
        Err(Unresolved::Undefined(u)) => return Err(MatchErr::Undefined(u)),
        Err(Unresolved::Overflow(p)) => return Err(MatchErr::Overflow(p)),
    };
    match c.regex.captures_from_pos(text, from) {
        Ok(Some(caps)) => {
            let m = caps.get(0).expect("whole match");
            pattern::define(&c, &caps, vars);
            Ok((
                Match {
                    start: m.start(),
                    end: m.end(),
                },
                c,
            ))
        }
        _ => Err(MatchErr::NotFound(c.uses)),
    }
}

/// LLVM's `Regex::escape`.
fn llvm_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if "()^$|*+?.[]\\{}".contains(c) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// The text LLVM measures edit distances against: the fixed string of a
/// literal pattern, else its regular expression without substitutions.
fn example_string(ctx: &Ctx, d: &Directive) -> String {
    let o = ctx.opts;
    let full = o.match_full_lines && d.kind != Kind::Not;
    if d.kind == Kind::Empty {
        return "(\n$)".into();
    }
    if !full && d.pieces.iter().all(|p| matches!(p, Piece::Lit(_))) {
        let mut s: String = d
            .pieces
            .iter()
            .map(|p| {
                if let Piece::Lit(l) = p {
                    l.as_str()
                } else {
                    ""
                }
            })
            .collect();
        if o.ignore_case {
            s = s.to_lowercase();
        }
        return s;
    }
    let mut re = String::new();
    if full {
        re.push('^');
        if !o.strict_whitespace {
            re.push_str(" *");
        }
    }
    for p in &d.pieces {
        match p {
            Piece::Lit(l) => re.push_str(&llvm_escape(l)),
            Piece::Regex(r) | Piece::DefStr { regex: r, .. } => {
                re.push('(');
                re.push_str(r);
                re.push(')');
            }
            Piece::DefNum {
                format,
                constraint: None,
                ..
            } => {
                re.push('(');
                re.push_str(&format.llvm_wildcard());
                re.push(')');
            }
            _ => {}
        }
    }
    if full {
        if !o.strict_whitespace {
            re.push_str(" *");
        }
        re.push('$');
    }
    re
}

fn edit_distance(a: &[u8], b: &[u8]) -> usize {
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, &x) in a.iter().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, &y) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = if x == y {
                prev
            } else {
                1 + prev.min(cur).min(row[j])
            };
            prev = cur;
        }
    }
    row[b.len()]
}

/// LLVM's "possible intended match here": the position within the first
/// 4 KiB of `[from, to)` whose text is closest to the pattern.
fn fuzzy_note(ctx: &mut Ctx, d: &Directive, from: usize, to: usize) {
    let example = example_string(ctx, d);
    let from = from.min(to);
    let buf = &ctx.input.text.as_bytes()[from..to];
    let ex = example.as_bytes();
    let mut best: Option<usize> = None;
    let mut best_q = 0.0f64;
    let mut lines = 0usize;
    for i in 0..buf.len().min(4096) {
        if buf[i] == b'\n' {
            lines += 1;
        }
        if buf[i] == b' ' || buf[i] == b'\t' {
            continue;
        }
        let end = (i + ex.len()).min(buf.len());
        let mut prefix = &buf[i..end];
        if let Some(nl) = prefix.iter().position(|&c| c == b'\n') {
            prefix = &prefix[..nl];
        }
        let q = edit_distance(prefix, ex) as f64 + lines as f64 / 100.0;
        if best.is_none() || q < best_q {
            best = Some(i);
            best_q = q;
        }
    }
    if let Some(b) = best {
        if b != 0 && best_q < 50.0 {
            ctx.input.message(
                &mut ctx.out,
                from + b,
                "note",
                "possible intended match here",
                1,
            );
            ctx.annotate(d, from + b, from + b + 1, '?', "possible intended match");
        }
    }
}

fn report_not_found(
    ctx: &mut Ctx,
    d: &Directive,
    err: MatchErr,
    from: usize,
    to: usize,
    nth: usize,
) {
    match err {
        MatchErr::Undefined(names) => {
            for (name, pos) in names {
                let msg = format!("undefined variable: {name}");
                ctx.check.message(&mut ctx.out, pos, "error", &msg, 1);
            }
            fuzzy_note(ctx, d, from, to);
        }
        MatchErr::Overflow(pos) => {
            let msg = "unable to substitute variable or numeric expression: overflow error";
            ctx.check.message(&mut ctx.out, pos, "error", msg, 1);
        }
        MatchErr::NotFound(uses) => {
            let mut msg = format!("{}: expected string not found in input", d.name());
            if d.count() > 1 {
                let _ = write!(msg, " ({nth} out of {})", d.count());
            }
            ctx.at_pattern(d, "error", &msg);
            ctx.input
                .message(&mut ctx.out, from, "note", "scanning from here", 1);
            ctx.annotate(d, from, to, 'X', "error: no match found");
            for (n, v) in uses {
                let msg = format!("with \"{n}\" equal to \"{v}\"");
                ctx.input.message(&mut ctx.out, from, "note", &msg, 1);
                ctx.annotate(d, from, from, '\0', msg);
            }
            fuzzy_note(ctx, d, from, to);
        }
    }
}

fn remark_found(ctx: &mut Ctx, d: &Directive, m: Match) {
    if ctx.opts.verbose == 0 {
        return;
    }
    let msg = format!("{}: expected string found in input", d.name());
    ctx.at_pattern(d, "remark", &msg);
    ctx.input.message(
        &mut ctx.out,
        m.start,
        "note",
        "found here",
        (m.end - m.start).max(1),
    );
}

/// Checks that no NOT pattern matches in `[from, to)`.
fn check_nots(ctx: &mut Ctx, nots: &[Directive], vars: &mut Vars, from: usize, to: usize) -> bool {
    for d in nots {
        let mut scratch = vars.clone();
        match find(ctx, d, &mut scratch, from, to) {
            Ok((m, c)) => {
                let msg = format!("{}: excluded string found in input", d.name());
                ctx.at_pattern(d, "error", &msg);
                ctx.input.message(
                    &mut ctx.out,
                    m.start,
                    "note",
                    "found here",
                    (m.end - m.start).max(1),
                );
                ctx.annotate(d, m.start, m.end, '!', "error: no match expected");
                for (n, v) in &c.uses {
                    let msg = format!("with \"{n}\" equal to \"{v}\"");
                    ctx.input.message(&mut ctx.out, m.start, "note", &msg, 1);
                    ctx.annotate(d, m.start, m.start, '\0', msg);
                }
                return false;
            }
            Err(MatchErr::NotFound(_)) => {}
            Err(e) => {
                report_not_found(ctx, d, e, from, to, 1);
                return false;
            }
        }
    }
    true
}

/// Matches a DAG/NOT group from `from`; returns where the positive check
/// starts searching and the NOTs left to check before it.
fn check_dag<'d>(
    ctx: &mut Ctx,
    group: &'d [Directive],
    vars: &mut Vars,
    from: usize,
    to: usize,
) -> Option<(usize, Vec<&'d Directive>)> {
    let mut start = from;
    let mut ranges: Vec<Match> = Vec::new();
    let mut nots: Vec<&Directive> = Vec::new();
    for (k, d) in group.iter().enumerate() {
        if d.kind == Kind::Not {
            nots.push(d);
            continue;
        }
        let mut pos = start;
        let m = loop {
            match find(ctx, d, vars, pos, to) {
                Ok((m, _)) => {
                    if ctx.opts.allow_deprecated_dag_overlap {
                        break m;
                    }
                    // Retry after the first earlier match this one overlaps.
                    match ranges.iter().find(|r| m.start < r.end) {
                        Some(r) if r.start < m.end || (m.start == m.end && r.start <= m.start) => {
                            pos = r.end
                        }
                        _ => break m,
                    }
                }
                Err(e) => {
                    report_not_found(ctx, d, e, pos, to, 1);
                    return None;
                }
            }
        };
        remark_found(ctx, d, m);
        ranges.push(m);
        ranges.sort_by_key(|r| r.start);
        let last_of_run = group.get(k + 1).is_none_or(|n| n.kind == Kind::Not);
        if last_of_run {
            if !nots.is_empty() {
                // NOTs before this run hold between the previous run and
                // this run's earliest match.
                let first = ranges[0].start;
                let owned: Vec<Directive> = nots.iter().map(|d| (*d).clone()).collect();
                if !check_nots(ctx, &owned, vars, start, first) {
                    return None;
                }
                nots.clear();
            }
            start = ranges.iter().map(|r| r.end).max().unwrap_or(start);
            ranges.clear();
        }
    }
    Some((start, nots))
}

fn count_newlines(s: &str) -> (usize, Option<usize>) {
    let first = s.find('\n');
    (s.matches('\n').count(), first)
}

/// Checks one check string in `[from, to)`; returns the end of its match.
fn check_one(
    ctx: &mut Ctx,
    cs: &CheckString,
    vars: &mut Vars,
    from: usize,
    to: usize,
) -> Option<usize> {
    let (start, nots) = check_dag(ctx, &cs.dag_nots, vars, from, to)?;
    let d = &cs.pat;
    if d.kind == Kind::Eof {
        let owned: Vec<Directive> = nots.iter().map(|d| (*d).clone()).collect();
        return check_nots(ctx, &owned, vars, start, to).then_some(to);
    }
    let mut pos = start;
    let mut first: Option<Match> = None;
    for nth in 1..=d.count() {
        match find(ctx, d, vars, pos, to) {
            Ok((m, _)) => {
                remark_found(ctx, d, m);
                first.get_or_insert(m);
                pos = m.end.max(if m.end == m.start && d.count() > 1 {
                    m.end + 1
                } else {
                    m.end
                });
            }
            Err(e) => {
                report_not_found(ctx, d, e, pos, to, nth);
                return None;
            }
        }
    }
    let m = first?;
    let skipped = &ctx.input.text[start..m.start];
    let (nl, first_nl) = count_newlines(skipped);
    match d.kind {
        Kind::Next | Kind::Empty => {
            if nl == 0 {
                let msg = format!("{}: is on the same line as previous match", d.name());
                ctx.at_pattern(d, "error", &msg);
                ctx.input
                    .message(&mut ctx.out, m.start, "note", "'next' match was here", 1);
                ctx.annotate(d, m.start, m.end, '!', "error: match on wrong line");
                ctx.input
                    .message(&mut ctx.out, start, "note", "previous match ended here", 1);
                return None;
            }
            if nl > 1 {
                let msg = format!("{}: is not on the line after the previous match", d.name());
                ctx.at_pattern(d, "error", &msg);
                ctx.input
                    .message(&mut ctx.out, m.start, "note", "'next' match was here", 1);
                ctx.annotate(d, m.start, m.end, '!', "error: match on wrong line");
                ctx.input
                    .message(&mut ctx.out, start, "note", "previous match ended here", 1);
                let after = start + first_nl.unwrap_or(0) + 1;
                ctx.input.message(
                    &mut ctx.out,
                    after,
                    "note",
                    "non-matching line after previous match is here",
                    1,
                );
                return None;
            }
        }
        Kind::Same if nl != 0 => {
            let msg = format!(
                "{}: is not on the same line as the previous match",
                d.name()
            );
            ctx.at_pattern(d, "error", &msg);
            ctx.input
                .message(&mut ctx.out, m.start, "note", "'next' match was here", 1);
            ctx.annotate(d, m.start, m.end, '!', "error: match on wrong line");
            ctx.input
                .message(&mut ctx.out, start, "note", "previous match ended here", 1);
            return None;
        }
        _ => {}
    }
    let owned: Vec<Directive> = nots.iter().map(|d| (*d).clone()).collect();
    if !check_nots(ctx, &owned, vars, start, m.start) {
        return None;
    }
    Some(pos)
}

fn check_input(ctx: &mut Ctx, checks: &[CheckString], vars: &mut Vars) -> bool {
    let len = ctx.input.text.len();
    let mut failed = false;
    let mut buf = 0; // start of the unscanned input
    let (mut i, mut j) = (0, 0);
    let e = checks.len();
    loop {
        let region: (usize, usize);
        if j == e {
            region = (buf, len);
        } else {
            let d = &checks[j].pat;
            if d.kind != Kind::Label {
                j += 1;
                continue;
            }
            // Scan to the next label, ignoring DAG/NOT and line checks.
            let mut scratch = vars.clone();
            match find(ctx, d, &mut scratch, buf, len) {
                Ok((m, _)) => {
                    region = (buf, m.end);
                    buf = m.end;
                }
                Err(err) => {
                    report_not_found(ctx, d, err, buf, len, 1);
                    return false;
                }
            }
            j += 1;
        }
        // The first region keeps command-line variables. (LLVM 14 keeps
        // numeric variables too: their uses are bound when parsed.)
        if i != 0 && ctx.opts.enable_var_scope {
            vars.strings.retain(|k, _| k.starts_with('$'));
        }
        let mut cur = region.0;
        while i != j {
            match check_one(ctx, &checks[i], vars, cur, region.1) {
                Some(end) => cur = end,
                None => {
                    failed = true;
                    i = j;
                    break;
                }
            }
            i += 1;
        }
        if j == e {
            break;
        }
    }
    !failed
}
