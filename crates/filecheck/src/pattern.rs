//! One directive's pattern, as LLVM 14's `Pattern`: parsed into a fixed
//! string or a POSIX regular expression with substitution points, matched
//! against a slice of the input, and described in notes (substitutions,
//! captured variables, the fuzzy "possible intended match").
//!
//! Invariant: `regex` is POSIX syntax that [`posix::translate`] accepts
//! once the substitutions' values are inserted at their offsets; capture
//! group numbers are the ones LLVM assigns (`{{…}}` and definitions each
//! open one group, in order).

use crate::numeric::{self, Expression, Format, Vars};
use crate::posix;
use crate::source::{addr, DiagError, SourceMgr};
use std::collections::BTreeMap;
use std::fmt::Write;

/// Directive kinds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// `CHECK:` (and `CHECK-COUNT-n:`)
    Plain,
    /// `-NEXT`
    Next,
    /// `-SAME`
    Same,
    /// `-NOT`
    Not,
    /// `-DAG`
    Dag,
    /// `-LABEL`
    Label,
    /// `-EMPTY`
    Empty,
    /// A comment prefix.
    Comment,
    /// The end of the input (holds trailing DAG/NOT groups).
    Eof,
    /// `-NOT` combined with another suffix.
    BadNot,
    /// A bad `-COUNT-n`.
    BadCount,
    /// Not a directive.
    None,
}

/// A directive's type: kind, count and modifiers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CheckType {
    /// The kind.
    pub kind: Kind,
    /// `-COUNT-n` (1 otherwise).
    pub count: usize,
    /// `{LITERAL}`.
    pub literal: bool,
}

impl CheckType {
    /// A type of kind `kind`, count 1.
    pub fn of(kind: Kind) -> CheckType {
        CheckType {
            kind,
            count: 1,
            literal: false,
        }
    }

    /// The name in messages: `PREFIX-NEXT{LITERAL}`, `implicit EOF`, …
    pub fn description(&self, prefix: &str) -> String {
        let m = if self.literal { "{LITERAL}" } else { "" };
        let s = match self.kind {
            Kind::None => return "invalid".into(),
            Kind::Plain if self.count > 1 => "-COUNT",
            Kind::Plain => "",
            Kind::Next => "-NEXT",
            Kind::Same => "-SAME",
            Kind::Not => "-NOT",
            Kind::Dag => "-DAG",
            Kind::Label => "-LABEL",
            Kind::Empty => "-EMPTY",
            Kind::Comment => return prefix.to_string(),
            Kind::Eof => return "implicit EOF".into(),
            Kind::BadNot => return "bad NOT".into(),
            Kind::BadCount => return "bad COUNT".into(),
        };
        format!("{prefix}{s}{m}")
    }

    /// The label word of the input dump.
    pub fn abbreviation(&self) -> &'static str {
        match self.kind {
            Kind::Plain if self.count > 1 => "count",
            Kind::Plain => "check",
            Kind::Next => "next",
            Kind::Same => "same",
            Kind::Not => "not",
            Kind::Dag => "dag",
            Kind::Label => "label",
            Kind::Empty => "empty",
            Kind::Comment => "com",
            Kind::Eof => "eof",
            Kind::BadNot => "bad-not",
            Kind::BadCount => "bad-count",
            Kind::None => "none",
        }
    }
}

/// What a substitution inserts.
#[derive(Clone, Debug)]
enum SubstKind {
    /// A string variable's value.
    Str(String),
    /// A numeric expression's value.
    Num(Expression),
}

/// A value inserted into the regex at match time.
#[derive(Clone, Debug)]
struct Substitution {
    /// The text as written (addresses in the check buffer).
    from: (usize, usize),
    kind: SubstKind,
    /// Offset in `regex`.
    index: usize,
}

/// Options that shape patterns.
#[derive(Clone, Copy, Debug, Default)]
pub struct PatternOptions {
    /// `--match-full-lines`.
    pub match_full_lines: bool,
    /// `--strict-whitespace`.
    pub strict_whitespace: bool,
    /// `--ignore-case`.
    pub ignore_case: bool,
}

/// A parsed pattern.
#[derive(Clone, Debug)]
pub struct Pattern {
    /// The directive type.
    pub ty: CheckType,
    /// Where the pattern starts (address).
    pub loc: usize,
    /// The check-file line (none for implicit patterns).
    pub line: Option<usize>,
    fixed: String,
    regex: String,
    substitutions: Vec<Substitution>,
    /// String variable → capture group (sorted by name, as `std::map`).
    var_defs: BTreeMap<String, usize>,
    /// Numeric variable → (variable, capture group).
    num_defs: BTreeMap<String, (usize, usize)>,
    ignore_case: bool,
}

/// How parsing a pattern failed: messages already written, and the exit
/// status LLVM uses (2, or 1 for the bracket error that exits at once).
#[derive(Debug)]
pub struct ParseFailure {
    /// Exit status.
    pub code: i32,
}

/// A match: offset and length within the searched slice.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Found {
    /// Offset in the searched slice.
    pub pos: usize,
    /// Length.
    pub len: usize,
}

/// The outcome of [`Pattern::matches`], as LLVM's `MatchResult`.
#[derive(Debug, Default)]
pub struct MatchResult {
    /// The match, if any.
    pub found: Option<Found>,
    /// Errors (located): substitution failures before a match, value
    /// errors after one. Empty with no match means "not found".
    pub errors: Vec<DiagError>,
}

/// LLVM's `raw_ostream::write_escaped`.
pub fn write_escaped(s: &str) -> String {
    let mut out = String::new();
    for &c in s.as_bytes() {
        match c {
            b'\\' => out.push_str("\\\\"),
            b'\t' => out.push_str("\\t"),
            b'\n' => out.push_str("\\n"),
            b'"' => out.push_str("\\\""),
            0x20..=0x7e => out.push(c as char),
            _ => {
                let _ = write!(out, "\\{}{}{}", (c >> 6) & 7, (c >> 3) & 7, c & 7);
            }
        }
    }
    out
}

/// Levenshtein distance (`StringRef::edit_distance`).
pub fn edit_distance(a: &[u8], b: &[u8]) -> usize {
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

/// The end of a `[[…]]` block in `s` (offset of its `]]`): brackets nest,
/// a backslash escapes the next byte. `Err` is the offset of a `]` that
/// closes nothing.
fn regex_var_end(s: &[u8]) -> Result<Option<usize>, usize> {
    let mut depth = 0usize;
    let mut k = 0;
    while k < s.len() {
        if s[k..].starts_with(b"]]") && depth == 0 {
            return Ok(Some(k));
        }
        if s[k] == b'\\' {
            k += 2;
            continue;
        }
        match s[k] {
            b'[' => depth += 1,
            b']' => {
                if depth == 0 {
                    return Err(k);
                }
                depth -= 1;
            }
            _ => {}
        }
        k += 1;
    }
    Ok(None)
}

impl Pattern {
    /// An empty pattern of type `ty` (the EOF pattern needs nothing else).
    pub fn new(ty: CheckType, line: Option<usize>, loc: usize) -> Pattern {
        Pattern {
            ty,
            loc,
            line,
            fixed: String::new(),
            regex: String::new(),
            substitutions: Vec::new(),
            var_defs: BTreeMap::new(),
            num_defs: BTreeMap::new(),
            ignore_case: false,
        }
    }

    /// Whether the pattern defines or uses a variable (not allowed in
    /// `-LABEL`).
    pub fn has_variable(&self) -> bool {
        !(self.substitutions.is_empty() && self.var_defs.is_empty())
    }

    /// Parses `pat` (a slice of a check buffer) for prefix `prefix`,
    /// writing any error to `out`.
    pub fn parse(
        &mut self,
        pat: &str,
        prefix: &str,
        sm: &SourceMgr,
        vars: &mut Vars,
        o: PatternOptions,
        out: &mut String,
    ) -> Result<(), ParseFailure> {
        let full_lines = o.match_full_lines && self.ty.kind != Kind::Not;
        self.ignore_case = o.ignore_case;
        self.loc = addr(pat);
        let mut pat = pat;
        if !(o.strict_whitespace && o.match_full_lines) {
            pat = pat.trim_end_matches([' ', '\t']);
        }
        let fail = |out: &mut String, at: usize, msg: &str| {
            sm.message(out, at, crate::source::Level::Error, msg, &[]);
            Err(ParseFailure { code: 2 })
        };
        if pat.is_empty() && self.ty.kind != Kind::Empty {
            return fail(
                out,
                self.loc,
                &format!("found empty check string with prefix '{prefix}:'"),
            );
        }
        if !pat.is_empty() && self.ty.kind == Kind::Empty {
            return fail(
                out,
                self.loc,
                &format!("found non-empty check string for empty check with prefix '{prefix}:'"),
            );
        }
        if self.ty.kind == Kind::Empty {
            self.regex = "(\n$)".into();
            return Ok(());
        }
        if self.ty.literal {
            self.fixed = pat.to_string();
            return Ok(());
        }
        if !full_lines && (pat.len() < 2 || (!pat.contains("{{") && !pat.contains("[["))) {
            self.fixed = pat.to_string();
            return Ok(());
        }
        if full_lines {
            self.regex.push('^');
            if !o.strict_whitespace {
                self.regex.push_str(" *");
            }
        }
        let mut cur_paren = 1usize;
        let mut rest = pat;
        while !rest.is_empty() {
            if rest.starts_with("{{") {
                let Some(end) = rest.find("}}") else {
                    return fail(
                        out,
                        addr(rest),
                        "found start of regex string with no end '}}'",
                    );
                };
                self.regex.push('(');
                cur_paren += 1;
                self.add_regex(&rest[2..end], &mut cur_paren, sm, out)?;
                self.regex.push(')');
                rest = &rest[end + 2..];
                continue;
            }
            // Extra `[`s before a `[[` are literal.
            if rest.starts_with("[[") && !rest.starts_with("[[[") {
                let unparsed = &rest[2..];
                let end = match regex_var_end(unparsed.as_bytes()) {
                    Ok(e) => e,
                    Err(k) => {
                        sm.message(
                            out,
                            addr(unparsed) + k,
                            crate::source::Level::Error,
                            "missing closing \"]\" for regex variable",
                            &[],
                        );
                        return Err(ParseFailure { code: 1 });
                    }
                };
                let Some(end) = end else {
                    return fail(out, addr(rest), "Invalid substitution block, no ]] found");
                };
                let mut block = &unparsed[..end];
                let mut num_block = match block.strip_prefix('#') {
                    Some(b) => {
                        block = b;
                        true
                    }
                    None => false,
                };
                rest = &unparsed[end + 2..];
                let mut is_def = false;
                let mut subst_needed = false;
                let mut legacy = false;
                let mut def_name = String::new();
                let mut subst_str: &str = "";
                let mut match_regex: Option<&str> = None;
                let mut wildcard = String::new();
                let mut insert_at = self.regex.len();
                if !num_block {
                    let var_end = block.find(':');
                    let head = &block[..var_end.unwrap_or(block.len())];
                    if let Some(sp) = head.find([' ', '\t']) {
                        return fail(out, addr(block) + sp, "unexpected whitespace");
                    }
                    let orig = block;
                    let mut t = block;
                    let (name, pseudo) = match numeric::parse_variable(&mut t) {
                        Ok(v) => v,
                        Err(e) => {
                            sm.error(out, &e);
                            out.push('\n');
                            return Err(ParseFailure { code: 2 });
                        }
                    };
                    is_def = var_end.is_some();
                    subst_needed = !is_def;
                    if is_def {
                        let Some(after) = t.strip_prefix(':').filter(|_| !pseudo) else {
                            return fail(
                                out,
                                addr(name),
                                "invalid name in string variable definition",
                            );
                        };
                        if vars.numeric_table.contains_key(name) {
                            return fail(
                                out,
                                addr(name),
                                &format!("numeric variable with name '{name}' already exists"),
                            );
                        }
                        def_name = name.to_string();
                        match_regex = Some(after);
                    } else if pseudo {
                        block = orig;
                        legacy = true;
                        num_block = true;
                    } else {
                        if !t.is_empty() {
                            return fail(out, addr(name), "invalid name in string variable use");
                        }
                        subst_str = name;
                    }
                }
                let mut expression = None;
                let mut defined_num = None;
                if num_block {
                    let mut parser = numeric::Parser {
                        sm,
                        vars,
                        line: self.line,
                    };
                    match parser.block(block, legacy) {
                        Ok((e, d)) => {
                            subst_needed = e.ast.is_some();
                            if let Some(d) = d {
                                is_def = true;
                                def_name = vars.numeric[d].name.clone();
                                defined_num = Some(d);
                            }
                            if subst_needed {
                                subst_str = block;
                            } else {
                                wildcard = e.format.wildcard();
                            }
                            expression = Some(e);
                        }
                        Err(errs) => {
                            for e in errs {
                                sm.error(out, &e);
                                out.push('\n');
                            }
                            return Err(ParseFailure { code: 2 });
                        }
                    }
                }
                if is_def {
                    self.regex.push('(');
                    insert_at += 1;
                    if let Some(d) = defined_num {
                        self.num_defs.insert(def_name.clone(), (d, cur_paren));
                        vars.numeric_table.insert(def_name.clone(), d);
                    } else {
                        self.var_defs.insert(def_name.clone(), cur_paren);
                        vars.defined_strings.insert(def_name.clone());
                    }
                    cur_paren += 1;
                }
                if let Some(re) = match_regex.filter(|r| !r.is_empty()) {
                    self.add_regex(re, &mut cur_paren, sm, out)?;
                } else if !wildcard.is_empty() {
                    let t = posix::translate(&wildcard).expect("valid wildcard");
                    self.regex.push_str(&wildcard);
                    cur_paren += t.groups;
                }
                if is_def {
                    self.regex.push(')');
                }
                if subst_needed {
                    let backref = if num_block {
                        None
                    } else {
                        self.var_defs.get(subst_str).copied()
                    };
                    if let Some(group) = backref {
                        if !(1..=9).contains(&group) {
                            return fail(
                                out,
                                addr(subst_str),
                                "Can't back-reference more than 9 variables",
                            );
                        }
                        let _ = write!(self.regex, "\\{group}");
                    } else {
                        let kind = match expression {
                            Some(e) if num_block => SubstKind::Num(e),
                            _ => SubstKind::Str(subst_str.to_string()),
                        };
                        self.substitutions.push(Substitution {
                            from: sm.range_of(subst_str),
                            kind,
                            index: insert_at,
                        });
                    }
                }
                continue;
            }
            // Literal text up to the next `{{` or `[[` (searched from the
            // second character, so a literal `[` before `[[` stays here).
            let first = rest.chars().next().map_or(1, char::len_utf8);
            let find_from_1 = |pat: &str| rest[first..].find(pat).map(|k| k + first);
            let fixed_end = match (find_from_1("{{"), find_from_1("[[")) {
                (Some(a), Some(b)) => a.min(b),
                (Some(a), None) | (None, Some(a)) => a,
                (None, None) => rest.len(),
            };
            self.regex.push_str(&posix::escape(&rest[..fixed_end]));
            rest = &rest[fixed_end..];
        }
        if full_lines {
            if !o.strict_whitespace {
                self.regex.push_str(" *");
            }
            self.regex.push('$');
        }
        Ok(())
    }

    fn add_regex(
        &mut self,
        re: &str,
        cur_paren: &mut usize,
        sm: &SourceMgr,
        out: &mut String,
    ) -> Result<(), ParseFailure> {
        match posix::translate(re) {
            Ok(t) => {
                self.regex.push_str(re);
                *cur_paren += t.groups;
                Ok(())
            }
            Err(e) => {
                sm.message(
                    out,
                    addr(re),
                    crate::source::Level::Error,
                    &format!("invalid regex: {e}"),
                    &[],
                );
                Err(ParseFailure { code: 2 })
            }
        }
    }

    /// The value a substitution inserts (regex-escaped for strings), or
    /// why it has none.
    fn subst_value(&self, s: &Substitution, vars: &Vars) -> Result<String, numeric::EvalError> {
        match &s.kind {
            SubstKind::Str(name) => match vars.strings.get(name) {
                Some((v, _)) => Ok(posix::escape(v)),
                None => Err(numeric::EvalError::Undefined(vec![s.from])),
            },
            SubstKind::Num(e) => {
                let ast = e.ast.as_ref().expect("substituted expression");
                let v = ast.eval(vars)?;
                e.format.render(v).map_err(|_| numeric::EvalError::Overflow)
            }
        }
    }

    /// Matches against `buf` (a slice of the input buffer), defining the
    /// variables the match captures.
    pub fn matches(&self, buf: &str, sm: &SourceMgr, vars: &mut Vars) -> MatchResult {
        if self.ty.kind == Kind::Eof {
            return MatchResult {
                found: Some(Found {
                    pos: buf.len(),
                    len: 0,
                }),
                errors: Vec::new(),
            };
        }
        if !self.fixed.is_empty() {
            let pos = if self.ignore_case {
                buf.to_ascii_lowercase()
                    .find(&self.fixed.to_ascii_lowercase())
            } else {
                buf.find(&self.fixed)
            };
            return MatchResult {
                found: pos.map(|pos| Found {
                    pos,
                    len: self.fixed.len(),
                }),
                errors: Vec::new(),
            };
        }
        let mut regex = self.regex.clone();
        if !self.substitutions.is_empty() {
            if let Some(l) = self.line {
                let lv = vars.line_var;
                vars.numeric[lv].value = Some(l as i128);
            }
            let mut shift = 0;
            let mut errors = Vec::new();
            for s in &self.substitutions {
                match self.subst_value(s, vars) {
                    Ok(v) => {
                        regex.insert_str(s.index + shift, &v);
                        shift += v.len();
                    }
                    Err(numeric::EvalError::Overflow) => errors.push(DiagError::at_range(
                        s.from,
                        "unable to substitute variable or numeric expression: overflow error",
                    )),
                    Err(numeric::EvalError::Undefined(names)) => {
                        for n in names {
                            let msg = format!("undefined variable: {}", sm.slice(n));
                            errors.push(DiagError::at_range(n, msg));
                        }
                    }
                }
            }
            if !errors.is_empty() {
                return MatchResult {
                    found: None,
                    errors,
                };
            }
        }
        let Ok(t) = posix::translate(&regex) else {
            return MatchResult::default();
        };
        let flags = if self.ignore_case { "(?mi)" } else { "(?m)" };
        let Ok(re) = fancy_regex::Regex::new(&format!("{flags}{}", t.regex)) else {
            return MatchResult::default();
        };
        let caps = match re.captures(buf) {
            Ok(Some(c)) => c,
            _ => return MatchResult::default(),
        };
        let whole = caps.get(0).expect("whole match");
        let base = addr(buf);
        let capture = |g: usize| -> (&str, (usize, usize)) {
            match caps.get(g) {
                Some(m) => (m.as_str(), (base + m.start(), base + m.end())),
                None => ("", (base, base)),
            }
        };
        for (name, &g) in &self.var_defs {
            let (text, range) = capture(g);
            vars.strings
                .insert(name.clone(), (text.to_string(), Some(range)));
        }
        let skip = usize::from(self.ty.kind == Kind::Empty);
        let found = Found {
            pos: whole.start() + skip,
            len: whole.end() - whole.start() - skip,
        };
        for &(var, g) in self.num_defs.values() {
            let (text, range) = capture(g);
            let format: Format = vars.numeric[var].format;
            match format.parse_value(text) {
                Ok(v) => {
                    vars.numeric[var].value = Some(v);
                    vars.numeric[var].captured = Some(range);
                }
                Err(msg) => {
                    return MatchResult {
                        found: Some(found),
                        errors: vec![DiagError::at_range(range, msg)],
                    }
                }
            }
        }
        MatchResult {
            found: Some(found),
            errors: Vec::new(),
        }
    }

    /// `with "EXPR" equal to "VALUE"` for each substitution that has a
    /// value now.
    pub fn substitution_notes(&self, vars: &Vars, sm: &SourceMgr) -> Vec<String> {
        self.substitutions
            .iter()
            .filter_map(|s| {
                let v = self.subst_value(s, vars).ok()?;
                Some(format!(
                    "with \"{}\" equal to \"{}\"",
                    write_escaped(sm.slice(s.from)),
                    write_escaped(&v)
                ))
            })
            .collect()
    }

    /// `captured var "NAME"` notes with the captured ranges, in input order.
    pub fn capture_notes(&self, vars: &Vars) -> Vec<(String, (usize, usize))> {
        let mut caps: Vec<(String, (usize, usize))> = Vec::new();
        for name in self.var_defs.keys() {
            if let Some((_, Some(r))) = vars.strings.get(name) {
                caps.push((name.clone(), *r));
            }
        }
        for (name, &(var, _)) in &self.num_defs {
            if let Some(r) = vars.numeric[var].captured {
                caps.push((name.clone(), r));
            }
        }
        caps.sort_by_key(|c| c.1 .0);
        caps.into_iter()
            .map(|(n, r)| (format!("captured var \"{n}\""), r))
            .collect()
    }

    /// The best "possible intended match" offset in `buf`, if any.
    pub fn fuzzy_match(&self, buf: &str) -> Option<usize> {
        let example = if self.fixed.is_empty() {
            self.regex.as_bytes()
        } else {
            self.fixed.as_bytes()
        };
        let b = buf.as_bytes();
        let mut lines = 0usize;
        let mut best: Option<usize> = None;
        let mut best_q = 0.0f64;
        for i in 0..b.len().min(4096) {
            if b[i] == b'\n' {
                lines += 1;
            }
            if b[i] == b' ' || b[i] == b'\t' {
                continue;
            }
            let mut prefix = &b[i..(i + example.len()).min(b.len())];
            if let Some(nl) = prefix.iter().position(|&c| c == b'\n') {
                prefix = &prefix[..nl];
            }
            let q = edit_distance(prefix, example) as f64 + lines as f64 / 100.0;
            if best.is_none() || q < best_q {
                best = Some(i);
                best_q = q;
            }
        }
        best.filter(|&b| b != 0 && best_q < 50.0)
    }
}
