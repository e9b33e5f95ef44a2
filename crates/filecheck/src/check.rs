//! Checking the input with the check strings ([`crate::read`] makes them):
//! LLVM 14's `FileCheckString::Check` (with its `CheckDag`, `CheckNot`,
//! `CheckNext`, `CheckSame`) and `checkInput`, with the same messages in
//! the same order.
//!
//! Diagnostics for the input dump ([`Diag`]) are gathered only when a dump
//! may be printed; as in LLVM, verbose (`-v`) remarks are then not
//! printed directly but shown in the dump.

use crate::numeric::Vars;
use crate::pattern::{CheckType, Found, Kind, MatchResult, Pattern, PatternOptions};
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
    pub(crate) pat: Pattern,
    pub(crate) prefix: String,
    pub(crate) dag_nots: Vec<Pattern>,
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

/// `PREFIX-KIND: expected string found in input (2 out of 3)` and its
/// variants (`excluded`, `not found`).
fn headline(pat: &Pattern, prefix: &str, expected: bool, what: &str, nth: usize) -> String {
    let mut msg = format!(
        "{}: {} string {what} in input",
        pat.ty.description(prefix),
        if expected { "expected" } else { "excluded" }
    );
    if pat.ty.count > 1 {
        let _ = write!(msg, " ({nth} out of {})", pat.ty.count);
    }
    msg
}

/// Re-marks the diagnostics of the last pattern reported (LLVM's
/// `AdjustPrevDiags`): a match turned out wrong-line or discarded.
fn remark_last_pattern(diags: &mut [Diag], match_ty: MatchType) {
    if let Some(last) = diags.last().map(|x| x.check_loc) {
        for x in diags.iter_mut().rev().take_while(|x| x.check_loc == last) {
            x.match_ty = match_ty;
        }
    }
}

impl Checker<'_> {
    pub(crate) fn message(
        &mut self,
        loc: usize,
        level: Level,
        msg: &str,
        ranges: &[(usize, usize)],
    ) {
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
                remark_last_pattern(d, match_ty);
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
        let msg = headline(pat, prefix, expected, "found", nth);
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
            let msg = headline(pat, prefix, expected, "not found", nth);
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
                cs.pat.loc,
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
                cs.pat.loc,
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
            self.message(cs.pat.loc, Level::Error, &msg, &[]);
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
                        remark_last_pattern(d, MatchType::FoundButDiscarded);
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
            if self.report(true, &cs.prefix, cs.pat.loc, &cs.pat, i, mbuf, r) {
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
                    cs.pat.loc,
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
