//! Reading the check file into check strings, and checking the input with
//! them: LLVM 14's `readCheckFile`, `FileCheckString::Check` (with its
//! `CheckDag`, `CheckNot`, `CheckNext`, `CheckSame`) and `checkInput`,
//! with the same messages in the same order.
//!
//! Diagnostics for the input dump ([`Diag`]) are gathered only when a dump
//! may be printed; as in LLVM, verbose (`-v`) remarks are then not
//! printed directly but shown in the dump.

use crate::numeric::{Format, Parser, Vars};
use crate::pattern::{CheckType, Found, Kind, MatchResult, ParseFailure, Pattern, PatternOptions};
use crate::source::{addr, DiagError, Level, SourceMgr};
use std::fmt::Write;

/// What a diagnostic says about a match, as `FileCheckDiag::MatchType`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MatchType {
    /// Expected and found.
    FoundAndExpected,
    /// Excluded (`-NOT`) but found.
    FoundButExcluded,
    /// Found on the wrong line.
    FoundButWrongLine,
    /// A `-DAG` match discarded for overlapping (`-vv`).
    FoundButDiscarded,
    /// An error found after the match (a value that does not fit).
    FoundErrorNote,
    /// Excluded and not found (`-vv`).
    NoneAndExcluded,
    /// Expected but not found.
    NoneButExpected,
    /// The pattern could not be matched (undefined variable, overflow).
    NoneForInvalidPattern,
    /// The fuzzy "possible intended match".
    Fuzzy,
}

/// One diagnostic for the input dump.
#[derive(Clone, Debug)]
pub struct Diag {
    /// The directive's type.
    pub ty: CheckType,
    /// The directive's pattern location (address).
    pub check_loc: usize,
    /// What happened.
    pub match_ty: MatchType,
    /// Input range: start line/column and end line/column (1-based).
    pub start: (usize, usize),
    /// End of the range.
    pub end: (usize, usize),
    /// A custom note (replaces the marker's note).
    pub note: String,
}

/// Options that shape checking.
#[derive(Clone, Debug, Default)]
pub struct Request {
    /// Check prefixes (defaults filled in).
    pub check_prefixes: Vec<String>,
    /// Comment prefixes (defaults filled in).
    pub comment_prefixes: Vec<String>,
    /// Whether the check prefixes are the default.
    pub default_check_prefix: bool,
    /// `--implicit-check-not`.
    pub implicit_check_not: Vec<String>,
    /// `-D` definitions (as written, without `-D`).
    pub defines: Vec<String>,
    /// Pattern options.
    pub pattern: PatternOptions,
    /// `--allow-unused-prefixes`.
    pub allow_unused_prefixes: bool,
    /// `--enable-var-scope`.
    pub enable_var_scope: bool,
    /// `--allow-deprecated-dag-overlap`.
    pub allow_deprecated_dag_overlap: bool,
    /// `-v`.
    pub verbose: bool,
    /// `-vv`.
    pub verbose_verbose: bool,
}

/// A positive directive with the `-DAG`/`-NOT` group before it.
pub struct CheckString {
    pat: Pattern,
    prefix: String,
    loc: usize,
    dag_nots: Vec<Pattern>,
}

/// The state of one run: buffers, variables, messages, diagnostics.
pub struct Checker<'a> {
    /// Buffers.
    pub sm: &'a SourceMgr,
    /// Variables.
    pub vars: Vars,
    /// Standard error so far.
    pub out: String,
    /// Dump diagnostics, when gathered.
    pub diags: Option<Vec<Diag>>,
    /// Options.
    pub req: &'a Request,
}

fn is_part_of_word(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'-' || c == b'_'
}

/// Parses the directive type after a prefix (`buf` starts at the prefix);
/// returns it and the text after it.
fn find_check_type<'b>(req: &Request, buf: &'b str, prefix: &str) -> (CheckType, &'b str) {
    let none = (CheckType::of(Kind::None), &buf[buf.len()..]);
    if buf.len() <= prefix.len() {
        return none;
    }
    let mut rest = &buf[prefix.len()..];
    if req.comment_prefixes.iter().any(|p| p == prefix) {
        if let Some(r) = rest.strip_prefix(':') {
            return (CheckType::of(Kind::Comment), r);
        }
        return none;
    }
    let modifiers = |ty: CheckType, rest: &'b str| -> (CheckType, &'b str) {
        if let Some(r) = rest.strip_prefix(':') {
            return (ty, r);
        }
        let Some(mut r) = rest.strip_prefix('{') else {
            return (CheckType::of(Kind::None), &rest[rest.len()..]);
        };
        let mut ty = ty;
        loop {
            r = r.trim_start();
            match r.strip_prefix("LITERAL") {
                Some(t) => {
                    ty.literal = true;
                    r = t;
                }
                None => return (CheckType::of(Kind::None), r),
            }
            r = r.trim_start();
            match r.strip_prefix(',') {
                Some(t) => r = t,
                None => break,
            }
        }
        match r.strip_prefix("}:") {
            Some(t) => (ty, t),
            None => (CheckType::of(Kind::None), r),
        }
    };
    if let Some(r) = rest.strip_prefix(':') {
        return (CheckType::of(Kind::Plain), r);
    }
    if rest.starts_with('{') {
        return modifiers(CheckType::of(Kind::Plain), rest);
    }
    let Some(r) = rest.strip_prefix('-') else {
        return none;
    };
    rest = r;
    if let Some(r) = rest.strip_prefix("COUNT-") {
        let bad = |r: &'b str| (CheckType::of(Kind::BadCount), r);
        let neg = r.starts_with('-');
        let digits = r[usize::from(neg)..]
            .bytes()
            .take_while(u8::is_ascii_digit)
            .count();
        if digits == 0 {
            return bad(r);
        }
        let end = usize::from(neg) + digits;
        let count: i128 = r[..end].parse().unwrap_or(i128::MAX);
        if count > i64::MAX as i128 {
            return bad(r);
        }
        let after = &r[end..];
        if count <= 0 || count > i32::MAX as i128 {
            return bad(after);
        }
        if !(after.starts_with(':') || after.starts_with('{')) {
            return bad(after);
        }
        let mut ty = CheckType::of(Kind::Plain);
        ty.count = count as usize;
        return modifiers(ty, after);
    }
    for combo in [
        "DAG-NOT:",
        "NOT-DAG:",
        "NEXT-NOT:",
        "NOT-NEXT:",
        "SAME-NOT:",
        "NOT-SAME:",
        "EMPTY-NOT:",
        "NOT-EMPTY:",
    ] {
        if rest.starts_with(combo) {
            return (CheckType::of(Kind::BadNot), rest);
        }
    }
    for (word, kind) in [
        ("NEXT", Kind::Next),
        ("SAME", Kind::Same),
        ("NOT", Kind::Not),
        ("DAG", Kind::Dag),
        ("LABEL", Kind::Label),
        ("EMPTY", Kind::Empty),
    ] {
        if let Some(r) = rest.strip_prefix(word) {
            return modifiers(CheckType::of(kind), r);
        }
    }
    (CheckType::of(Kind::None), rest)
}

/// The earliest (then longest) occurrence of any prefix in `buf`.
fn find_prefix<'p>(buf: &str, prefixes: &'p [String]) -> Option<(usize, &'p str)> {
    let mut best: Option<(usize, &str)> = None;
    for p in prefixes {
        if let Some(at) = buf.find(p.as_str()) {
            let better = match best {
                None => true,
                Some((b, bp)) => at < b || (at == b && p.len() > bp.len()),
            };
            if better {
                best = Some((at, p));
            }
        }
    }
    best
}

impl Checker<'_> {
    fn message(&mut self, loc: usize, level: Level, msg: &str, ranges: &[(usize, usize)]) {
        self.sm.message(&mut self.out, loc, level, msg, ranges);
    }

    fn add_diag(
        &mut self,
        ty: CheckType,
        check_loc: usize,
        match_ty: MatchType,
        range: (usize, usize),
        note: String,
    ) {
        let start = self.sm.line_col(range.0);
        let end = self.sm.line_col(range.1);
        if let Some(d) = &mut self.diags {
            d.push(Diag {
                ty,
                check_loc,
                match_ty,
                start,
                end,
                note,
            });
        }
    }

    /// `-D` definitions, LLVM's `defineCmdlineVariables`: errors printed,
    /// `false` on any.
    fn define_cmdline(&mut self, sm_defines: Option<usize>) -> bool {
        let Some(id) = sm_defines else {
            return true;
        };
        let text = self.sm.text(id);
        // Located errors print as diagnostics; an undefined variable or an
        // overflow while evaluating prints its bare message, as in LLVM.
        let mut errors: Vec<DiagError> = Vec::new();
        let mut plain: Vec<(usize, String)> = Vec::new();
        for (k, line) in text.split('\n').enumerate() {
            if k >= self.req.defines.len() {
                break;
            }
            let def = &self.req.defines[k];
            let prefix = format!("Global define #{}: ", k + 1);
            let body = &line[prefix.len().min(line.len())..];
            if !def.contains('=') {
                // The definition's slot is empty: at the line start.
                errors.push(DiagError::at_str(
                    &body[..0],
                    "missing equal sign in global definition",
                ));
                continue;
            }
            if let Some(num) = def.strip_prefix('#') {
                // `#FMT,NAME=EXPR (parsed as: [[#FMT,NAME:EXPR]])`
                let start = body.find("[[").map_or(0, |k| k + 2) + 1;
                let expr = &body[start..start + num.len()];
                let mut p = Parser {
                    sm: self.sm,
                    vars: &mut self.vars,
                    line: None,
                };
                match p.block(expr, false) {
                    Ok((e, d)) => {
                        let value = e.ast.as_ref().map(|a| a.eval(&self.vars));
                        match value {
                            Some(Ok(v)) => {
                                if let Some(d) = d {
                                    self.vars.numeric[d].value = Some(v);
                                    let name = self.vars.numeric[d].name.clone();
                                    self.vars.numeric_table.insert(name, d);
                                }
                            }
                            Some(Err(crate::numeric::EvalError::Undefined(names))) => {
                                for n in names {
                                    let msg = format!("undefined variable: {}", self.sm.slice(n));
                                    plain.push((errors.len(), msg));
                                }
                            }
                            // LLVM 14 crashes on `-D#N=` (no expression); we
                            // report it as the overflow it cannot evaluate.
                            Some(Err(crate::numeric::EvalError::Overflow)) | None => {
                                plain.push((errors.len(), "overflow error".into()));
                            }
                        }
                    }
                    Err(mut e) => errors.append(&mut e),
                }
                continue;
            }
            let def_text = &body[..def.len().min(body.len())];
            let (name_part, value) = def_text.split_once('=').unwrap_or((def_text, ""));
            let mut t = name_part;
            let (name, pseudo) = match crate::numeric::parse_variable(&mut t) {
                Ok(v) => v,
                Err(e) => {
                    errors.push(e);
                    continue;
                }
            };
            if pseudo || !t.is_empty() {
                errors.push(DiagError::at_str(
                    name_part,
                    format!("invalid name in string variable definition '{name_part}'"),
                ));
                continue;
            }
            if self.vars.numeric_table.contains_key(name) {
                errors.push(DiagError::at_str(
                    name,
                    format!("numeric variable with name '{name}' already exists"),
                ));
                continue;
            }
            self.vars
                .strings
                .entry(name.to_string())
                .or_insert_with(|| (value.to_string(), None));
            self.vars.defined_strings.insert(name.to_string());
        }
        // In the order they were found: `plain[k].0` is how many located
        // errors came before it.
        let mut p = plain.iter().peekable();
        for (k, e) in errors.iter().enumerate() {
            while let Some((_, msg)) = p.next_if(|(at, _)| *at == k) {
                let _ = writeln!(self.out, "{msg}");
            }
            self.sm.error(&mut self.out, e);
            self.out.push('\n');
        }
        for (_, msg) in p {
            let _ = writeln!(self.out, "{msg}");
        }
        errors.is_empty() && plain.is_empty()
    }

    /// Reads the check file (buffer `check`): the check strings, or the
    /// exit status after the messages were written.
    pub fn read_check_file(
        &mut self,
        check: usize,
        implicit: &[usize],
        defines: Option<usize>,
    ) -> Result<Vec<CheckString>, i32> {
        if !self.define_cmdline(defines) {
            return Err(2);
        }
        let line_var = self.vars.make("@LINE", Format::UNSIGNED, None);
        self.vars.line_var = line_var;
        self.vars.numeric_table.insert("@LINE".into(), line_var);
        let req = self.req;
        let mut implicit_nots = Vec::new();
        for (k, &id) in implicit.iter().enumerate() {
            let text = self.sm.text(id);
            let pat = &text[21..21 + req.implicit_check_not[k].len()];
            let mut p = Pattern::new(CheckType::of(Kind::Not), None, addr(pat));
            let mut out = std::mem::take(&mut self.out);
            // LLVM ignores the result: an error is reported, checking goes on.
            let _ = p.parse(
                pat,
                "IMPLICIT-CHECK",
                self.sm,
                &mut self.vars,
                req.pattern,
                &mut out,
            );
            self.out = out;
            implicit_nots.push(p);
        }
        let text = self.sm.text(check);
        let mut dag_nots = implicit_nots.clone();
        let mut line = 1usize;
        let mut found_prefixes = vec![false; req.check_prefixes.len()];
        let mut all: Vec<String> = req.check_prefixes.clone();
        all.extend(req.comment_prefixes.iter().cloned());
        let mut checks: Vec<CheckString> = Vec::new();
        let mut buf: &str = &text;
        loop {
            // FindFirstMatchingPrefix.
            let mut found: Option<(&str, CheckType, &str)> = None;
            while !buf.is_empty() {
                let Some((loc, prefix)) = find_prefix(buf, &all) else {
                    break;
                };
                let skipped = &buf[..loc];
                buf = &buf[loc..];
                line += skipped.matches('\n').count();
                if skipped.is_empty()
                    || !is_part_of_word(*skipped.as_bytes().last().unwrap_or(&b' '))
                {
                    let (ty, after) = find_check_type(req, buf, prefix);
                    if ty.kind != Kind::None {
                        found = Some((prefix, ty, after));
                        break;
                    }
                }
                let mut end = prefix.len();
                while end < buf.len() && is_part_of_word(buf.as_bytes()[end]) {
                    end += 1;
                }
                buf = &buf[end..];
            }
            let Some((prefix, ty, after)) = found else {
                break;
            };
            let prefix = prefix.to_string();
            if ty.kind != Kind::Comment {
                if let Some(i) = req.check_prefixes.iter().position(|p| *p == prefix) {
                    found_prefixes[i] = true;
                }
            }
            let prefix_start = addr(buf);
            buf = if after.is_empty() {
                &buf[prefix.len()..]
            } else {
                after
            };
            if ty.kind == Kind::BadNot {
                self.message(
                    addr(buf),
                    Level::Error,
                    &format!("unsupported -NOT combo on prefix '{prefix}'"),
                    &[],
                );
                return Err(2);
            }
            if ty.kind == Kind::BadCount {
                self.message(
                    addr(buf),
                    Level::Error,
                    &format!("invalid count in -COUNT specification on prefix '{prefix}'"),
                    &[],
                );
                return Err(2);
            }
            let o = req.pattern;
            if !(o.strict_whitespace && o.match_full_lines) {
                buf = match buf.find(|c| c != ' ' && c != '\t') {
                    Some(k) => &buf[k..],
                    None => &buf[buf.len()..],
                };
            }
            let eol = buf.find(['\n', '\r']).unwrap_or(buf.len());
            let pattern_loc = addr(buf);
            let pat_text = &buf[..eol];
            buf = &buf[eol..];
            if ty.kind == Kind::Comment {
                continue;
            }
            let mut p = Pattern::new(ty, Some(line), pattern_loc);
            let mut out = std::mem::take(&mut self.out);
            let parsed = p.parse(pat_text, &prefix, self.sm, &mut self.vars, o, &mut out);
            self.out = out;
            if let Err(ParseFailure { code }) = parsed {
                return Err(code);
            }
            if ty.kind == Kind::Label && p.has_variable() {
                self.message(
                    prefix_start,
                    Level::Error,
                    &format!("found '{prefix}-LABEL:' with variable definition or use"),
                    &[],
                );
                return Err(2);
            }
            if matches!(ty.kind, Kind::Next | Kind::Same | Kind::Empty) && checks.is_empty() {
                let word = match ty.kind {
                    Kind::Next => "NEXT",
                    Kind::Empty => "EMPTY",
                    _ => "SAME",
                };
                self.message(
                    prefix_start,
                    Level::Error,
                    &format!("found '{prefix}-{word}' without previous '{prefix}: line"),
                    &[],
                );
                return Err(2);
            }
            if matches!(ty.kind, Kind::Dag | Kind::Not) {
                dag_nots.push(p);
                continue;
            }
            checks.push(CheckString {
                pat: p,
                prefix,
                loc: pattern_loc,
                dag_nots: std::mem::replace(&mut dag_nots, implicit_nots.clone()),
            });
        }
        // Distinct prefixes not found (a prefix given twice counts once).
        let mut missing: Vec<&String> = Vec::new();
        let mut distinct: Vec<&String> = Vec::new();
        for (i, p) in req.check_prefixes.iter().enumerate() {
            if !distinct.contains(&p) {
                distinct.push(p);
            }
            let used = req
                .check_prefixes
                .iter()
                .zip(&found_prefixes)
                .any(|(q, &f)| q == p && f);
            if !used && !missing.contains(&p) && i < found_prefixes.len() {
                missing.push(p);
            }
        }
        missing.sort();
        let none_found = missing.len() == distinct.len();
        let some_unused = !req.allow_unused_prefixes && !missing.is_empty();
        if (none_found || some_unused) && (implicit_nots.is_empty() || !req.default_check_prefix) {
            let s = if missing.len() > 1 { "es " } else { " " };
            let names: Vec<String> = missing.iter().map(|p| format!("'{p}:'")).collect();
            let _ = writeln!(
                self.out,
                "error: no check strings found with prefix{s}{}",
                names.join(", ")
            );
            return Err(2);
        }
        if !dag_nots.is_empty() {
            let eof_loc = addr(buf);
            checks.push(CheckString {
                pat: Pattern::new(CheckType::of(Kind::Eof), Some(line + 1), eof_loc),
                prefix: req.check_prefixes[0].clone(),
                loc: eof_loc,
                dag_nots,
            });
        }
        Ok(checks)
    }

    /// LLVM's `ProcessMatchResult`: records a diagnostic (or re-marks the
    /// last ones of the same pattern) and returns the range.
    #[allow(clippy::too_many_arguments)]
    fn process_match(
        &mut self,
        match_ty: MatchType,
        pat: &Pattern,
        loc: usize,
        buf: &str,
        pos: usize,
        len: usize,
        adjust_prev: bool,
    ) -> (usize, usize) {
        let range = (addr(buf) + pos, addr(buf) + pos + len);
        if let Some(d) = &mut self.diags {
            if adjust_prev {
                if let Some(last) = d.last().map(|x| x.check_loc) {
                    for x in d.iter_mut().rev().take_while(|x| x.check_loc == last) {
                        x.match_ty = match_ty;
                    }
                }
                return range;
            }
        }
        self.add_diag(pat.ty, loc, match_ty, range, String::new());
        range
    }

    fn substitution_diags(&mut self, pat: &Pattern, range: (usize, usize), match_ty: MatchType) {
        for note in pat.substitution_notes(&self.vars, self.sm) {
            self.add_diag(pat.ty, pat.loc, match_ty, (range.0, range.0), note);
        }
    }

    fn substitution_messages(&mut self, pat: &Pattern, range: (usize, usize)) {
        for note in pat.substitution_notes(&self.vars, self.sm) {
            self.message(range.0, Level::Note, &note, &[]);
        }
    }

    /// LLVM's `printMatch`: `true` if an error was reported.
    #[allow(clippy::too_many_arguments)]
    fn print_match(
        &mut self,
        expected: bool,
        prefix: &str,
        loc: usize,
        pat: &Pattern,
        nth: usize,
        buf: &str,
        found: Found,
        errors: Vec<DiagError>,
    ) -> bool {
        let has_error = !expected || !errors.is_empty();
        let req = self.req;
        let mut print = true;
        if !has_error {
            if !req.verbose {
                return false;
            }
            if !req.verbose_verbose && pat.ty.kind == Kind::Eof {
                return false;
            }
            print = self.diags.is_none();
        }
        let match_ty = if expected {
            MatchType::FoundAndExpected
        } else {
            MatchType::FoundButExcluded
        };
        let range = self.process_match(match_ty, pat, loc, buf, found.pos, found.len, false);
        if self.diags.is_some() {
            self.substitution_diags(pat, range, match_ty);
            for (note, r) in pat.capture_notes(&self.vars) {
                self.add_diag(pat.ty, pat.loc, match_ty, r, note);
            }
        }
        if !print {
            return has_error;
        }
        let mut msg = format!(
            "{}: {} string found in input",
            pat.ty.description(prefix),
            if expected { "expected" } else { "excluded" }
        );
        if pat.ty.count > 1 {
            let _ = write!(msg, " ({nth} out of {})", pat.ty.count);
        }
        let level = if expected {
            Level::Remark
        } else {
            Level::Error
        };
        self.message(loc, level, &msg, &[]);
        self.message(range.0, Level::Note, "found here", &[range]);
        self.substitution_messages(pat, range);
        for (note, r) in pat.capture_notes(&self.vars) {
            self.message(r.0, Level::Note, &note, &[r]);
        }
        for e in errors {
            self.sm.error(&mut self.out, &e);
            self.add_diag(
                pat.ty,
                loc,
                MatchType::FoundErrorNote,
                e.range,
                e.msg.clone(),
            );
        }
        has_error
    }

    /// LLVM's `printNoMatch`: `true` if an error was reported.
    #[allow(clippy::too_many_arguments)]
    fn print_no_match(
        &mut self,
        expected: bool,
        prefix: &str,
        loc: usize,
        pat: &Pattern,
        nth: usize,
        buf: &str,
        errors: Vec<DiagError>,
    ) -> bool {
        let mut has_error = expected;
        let mut pattern_error = false;
        let mut match_ty = if expected {
            MatchType::NoneButExpected
        } else {
            MatchType::NoneAndExcluded
        };
        let mut messages = Vec::new();
        for e in &errors {
            has_error = true;
            pattern_error = true;
            match_ty = MatchType::NoneForInvalidPattern;
            self.sm.error(&mut self.out, e);
            messages.push(e.msg.clone());
        }
        let mut print = true;
        if !has_error {
            if !self.req.verbose_verbose {
                return false;
            }
            print = self.diags.is_none();
        }
        let range = self.process_match(match_ty, pat, loc, buf, 0, buf.len(), false);
        if self.diags.is_some() {
            for m in messages {
                self.add_diag(pat.ty, loc, match_ty, (range.0, range.0), m);
            }
            self.substitution_diags(pat, range, match_ty);
        }
        if !print {
            return has_error;
        }
        if !pattern_error {
            let mut msg = format!(
                "{}: {} string not found in input",
                pat.ty.description(prefix),
                if expected { "expected" } else { "excluded" }
            );
            if pat.ty.count > 1 {
                let _ = write!(msg, " ({nth} out of {})", pat.ty.count);
            }
            let level = if expected {
                Level::Error
            } else {
                Level::Remark
            };
            self.message(loc, level, &msg, &[]);
            self.message(range.0, Level::Note, "scanning from here", &[]);
        }
        self.substitution_messages(pat, range);
        if expected {
            if let Some(best) = pat.fuzzy_match(buf) {
                let r = self.process_match(MatchType::Fuzzy, pat, pat.loc, buf, best, 0, false);
                self.message(r.0, Level::Note, "possible intended match here", &[]);
            }
        }
        has_error
    }

    #[allow(clippy::too_many_arguments)]
    fn report(
        &mut self,
        expected: bool,
        prefix: &str,
        loc: usize,
        pat: &Pattern,
        nth: usize,
        buf: &str,
        r: MatchResult,
    ) -> bool {
        match r.found {
            Some(f) => self.print_match(expected, prefix, loc, pat, nth, buf, f, r.errors),
            None => self.print_no_match(expected, prefix, loc, pat, nth, buf, r.errors),
        }
    }

    fn count_newlines(s: &str) -> (usize, Option<usize>) {
        let b = s.as_bytes();
        let mut n = 0;
        let mut first = None;
        let mut i = 0;
        while let Some(k) = b[i..].iter().position(|&c| c == b'\n' || c == b'\r') {
            i += k;
            n += 1;
            if i + 1 < b.len() && (b[i + 1] == b'\n' || b[i + 1] == b'\r') && b[i] != b[i + 1] {
                i += 1;
            }
            i += 1;
            if n == 1 {
                first = Some(i);
            }
        }
        (n, first)
    }

    fn check_next(&mut self, cs: &CheckString, region: &str) -> bool {
        let kind = cs.pat.ty.kind;
        if kind != Kind::Next && kind != Kind::Empty {
            return false;
        }
        let name = format!(
            "{}{}",
            cs.prefix,
            if kind == Kind::Empty {
                "-EMPTY"
            } else {
                "-NEXT"
            }
        );
        let (n, first) = Self::count_newlines(region);
        let end = addr(region) + region.len();
        if n == 0 {
            self.message(
                cs.loc,
                Level::Error,
                &format!("{name}: is on the same line as previous match"),
                &[],
            );
            self.message(end, Level::Note, "'next' match was here", &[]);
            self.message(addr(region), Level::Note, "previous match ended here", &[]);
            return true;
        }
        if n != 1 {
            self.message(
                cs.loc,
                Level::Error,
                &format!("{name}: is not on the line after the previous match"),
                &[],
            );
            self.message(end, Level::Note, "'next' match was here", &[]);
            self.message(addr(region), Level::Note, "previous match ended here", &[]);
            let at = addr(region) + first.unwrap_or(0);
            self.message(
                at,
                Level::Note,
                "non-matching line after previous match is here",
                &[],
            );
            return true;
        }
        false
    }

    fn check_same(&mut self, cs: &CheckString, region: &str) -> bool {
        if cs.pat.ty.kind != Kind::Same {
            return false;
        }
        let (n, _) = Self::count_newlines(region);
        if n != 0 {
            let msg = format!(
                "{}-SAME: is not on the same line as the previous match",
                cs.prefix
            );
            self.message(cs.loc, Level::Error, &msg, &[]);
            self.message(
                addr(region) + region.len(),
                Level::Note,
                "'next' match was here",
                &[],
            );
            self.message(addr(region), Level::Note, "previous match ended here", &[]);
            return true;
        }
        false
    }

    fn check_not(&mut self, cs: &CheckString, region: &str, nots: &[usize]) -> bool {
        let mut failed = false;
        for &k in nots {
            let pat = &cs.dag_nots[k];
            let r = pat.matches(region, self.sm, &mut self.vars);
            if self.report(false, &cs.prefix, pat.loc, pat, 1, region, r) {
                failed = true;
            }
        }
        failed
    }

    /// Matches the DAG/NOT group; the offset where the positive pattern
    /// starts searching, with the NOTs still to check.
    fn check_dag(&mut self, cs: &CheckString, buf: &str, nots: &mut Vec<usize>) -> Option<usize> {
        if cs.dag_nots.is_empty() {
            return Some(0);
        }
        let req = self.req;
        let mut start = 0usize;
        // Sorted, non-overlapping ranges of this group's matches.
        let mut ranges: Vec<(usize, usize)> = Vec::new();
        for (k, pat) in cs.dag_nots.iter().enumerate() {
            if pat.ty.kind == Kind::Not {
                nots.push(k);
                continue;
            }
            let mut pos = start;
            let mut len;
            let mut mi = 0usize;
            loop {
                let mbuf = &buf[pos..];
                let r = pat.matches(mbuf, self.sm, &mut self.vars);
                let found = r.found;
                let report = !r.errors.is_empty() || found.is_none() || req.verbose_verbose;
                if report && self.report(true, &cs.prefix, pat.loc, pat, 1, mbuf, r) {
                    return None;
                }
                let f = found?;
                len = f.len;
                pos += f.pos;
                let m = (pos, pos + len);
                if req.allow_deprecated_dag_overlap {
                    if ranges.is_empty() {
                        ranges.push(m);
                    } else {
                        ranges[0].0 = ranges[0].0.min(m.0);
                        ranges[0].1 = ranges[0].1.max(m.1);
                    }
                    break;
                }
                let mut overlap = false;
                while mi < ranges.len() {
                    if m.0 < ranges[mi].1 {
                        overlap = ranges[mi].0 < m.1;
                        break;
                    }
                    mi += 1;
                }
                if !overlap {
                    ranges.insert(mi, m);
                    break;
                }
                if req.verbose_verbose {
                    if self.diags.is_none() {
                        let old = (addr(buf) + ranges[mi].0, addr(buf) + ranges[mi].1);
                        self.message(
                            old.0,
                            Level::Note,
                            "match discarded, overlaps earlier DAG match here",
                            &[old],
                        );
                    } else if let Some(d) = &mut self.diags {
                        if let Some(last) = d.last().map(|x| x.check_loc) {
                            for x in d.iter_mut().rev().take_while(|x| x.check_loc == last) {
                                x.match_ty = MatchType::FoundButDiscarded;
                            }
                        }
                    }
                }
                pos = ranges[mi].1;
                mi += 1;
            }
            if !req.verbose_verbose {
                self.print_match(
                    true,
                    &cs.prefix,
                    pat.loc,
                    pat,
                    1,
                    buf,
                    Found { pos, len },
                    Vec::new(),
                );
            }
            let group_ends = cs
                .dag_nots
                .get(k + 1)
                .is_none_or(|n| n.ty.kind == Kind::Not);
            if group_ends {
                if !nots.is_empty() {
                    let region = &buf[start..ranges[0].0];
                    if self.check_not(cs, region, nots) {
                        return None;
                    }
                    nots.clear();
                }
                start = ranges.last().map_or(start, |r| r.1);
                ranges.clear();
            }
        }
        Some(start)
    }

    /// Checks one check string in `buf`: the match's offset and length.
    fn check(&mut self, cs: &CheckString, buf: &str, label_scan: bool) -> Option<(usize, usize)> {
        let mut last_pos = 0;
        let mut nots = Vec::new();
        if !label_scan {
            last_pos = self.check_dag(cs, buf, &mut nots)?;
        }
        let mut last_end = last_pos;
        let mut first_pos = 0;
        for i in 1..=cs.pat.ty.count {
            let mbuf = &buf[last_end..];
            let r = cs.pat.matches(mbuf, self.sm, &mut self.vars);
            let found = r.found;
            if self.report(true, &cs.prefix, cs.loc, &cs.pat, i, mbuf, r) {
                return None;
            }
            let f = found?;
            if i == 1 {
                first_pos = last_pos + f.pos;
            }
            last_end += f.pos + f.len;
        }
        let len = last_end - first_pos;
        if !label_scan {
            let pos = first_pos - last_pos;
            let mbuf = &buf[last_pos..];
            let skipped = &buf[last_pos..first_pos];
            if self.check_next(cs, skipped) || self.check_same(cs, skipped) {
                let verbose = self.req.verbose;
                self.process_match(
                    MatchType::FoundButWrongLine,
                    &cs.pat,
                    cs.loc,
                    mbuf,
                    pos,
                    len,
                    verbose,
                );
                return None;
            }
            if self.check_not(cs, skipped, &nots) {
                return None;
            }
        }
        Some((first_pos, len))
    }

    /// LLVM's `checkInput`: `true` when every check holds.
    pub fn check_input(&mut self, checks: &[CheckString], input: &str) -> bool {
        let mut failed = false;
        let mut buf = input;
        let (mut i, mut j) = (0, 0);
        let e = checks.len();
        loop {
            let mut region = buf;
            if j != e {
                let label = &checks[j];
                if label.pat.ty.kind != Kind::Label {
                    j += 1;
                    continue;
                }
                let Some((pos, len)) = self.check(label, buf, true) else {
                    return false;
                };
                region = &buf[..pos + len];
                buf = &buf[pos + len..];
                j += 1;
            }
            if i != 0 && self.req.enable_var_scope {
                self.clear_local_vars();
            }
            while i != j {
                match self.check(&checks[i], region, false) {
                    Some((pos, len)) => region = &region[pos + len..],
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

    fn clear_local_vars(&mut self) {
        self.vars.strings.retain(|k, _| k.starts_with('$'));
        let local: Vec<String> = self
            .vars
            .numeric_table
            .keys()
            .filter(|k| !k.starts_with('$'))
            .cloned()
            .collect();
        for name in local {
            if let Some(v) = self.vars.numeric_table.remove(&name) {
                self.vars.numeric[v].value = None;
            }
        }
    }
}
