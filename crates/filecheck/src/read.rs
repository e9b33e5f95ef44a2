//! Reading the check file into check strings, as LLVM 14's
//! `readCheckFile`: the `-D` definitions first, then the implicit
//! CHECK-NOTs, then each directive (the earliest, longest prefix that
//! starts a word and is followed by a directive suffix), its pattern
//! parsed, `-DAG`/`-NOT`s grouped before the next positive directive.

use crate::check::{CheckString, Checker, Request};
use crate::numeric::{Format, Parser};
use crate::pattern::{CheckType, Kind, ParseFailure, Pattern};
use crate::source::{addr, DiagError, Level};
use std::fmt::Write;

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
                dag_nots,
            });
        }
        Ok(checks)
    }
}
