//! The annotated input dump (`-dump-input`), as LLVM 14's FileCheck
//! driver prints it: each input line numbered, with one annotation line
//! per diagnostic under the lines it concerns, filtered by
//! `-dump-input-filter` and `-dump-input-context`, elided runs shown as a
//! vertical ellipsis when that is shorter.

use crate::check::{Diag, MatchType};
use crate::source::{ansi, SourceMgr};
use std::fmt::Write;

/// `-dump-input-filter` values, in LLVM's precedence order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Filter {
    /// Lines where an error annotation starts.
    Error,
    /// Lines where an annotation starts.
    Annotation,
    /// Lines with any annotation.
    AnnotationFull,
    /// Every line.
    All,
}

struct Marker {
    lead: char,
    color: u8,
    note: String,
    filters_as_error: bool,
}

fn marker(t: MatchType) -> Marker {
    let (lead, color, note, err) = match t {
        MatchType::FoundAndExpected => ('^', ansi::GREEN, "", false),
        MatchType::FoundButExcluded => ('!', ansi::RED, "error: no match expected", true),
        MatchType::FoundButWrongLine => ('!', ansi::RED, "error: match on wrong line", true),
        MatchType::FoundButDiscarded => ('!', ansi::CYAN, "discard: overlaps earlier match", false),
        MatchType::FoundErrorNote => ('!', ansi::RED, "error: unknown error after match", true),
        MatchType::NoneAndExcluded => ('X', ansi::GREEN, "", false),
        MatchType::NoneButExpected => ('X', ansi::RED, "error: no match found", true),
        MatchType::NoneForInvalidPattern => (
            'X',
            ansi::RED,
            "error: match failed for invalid pattern",
            true,
        ),
        MatchType::Fuzzy => ('?', ansi::MAGENTA, "possible intended match", true),
    };
    Marker {
        lead,
        color,
        note: note.to_string(),
        filters_as_error: err,
    }
}

struct Annotation {
    diag_index: usize,
    label: String,
    first_line: bool,
    line: usize,
    start_col: usize,
    /// Exclusive; `usize::MAX`: to the end of the line.
    end_col: usize,
    marker: Marker,
    /// A good match of an expected pattern (left unhighlighted with -v).
    found_and_expected: bool,
}

/// Builds the annotations of `diags`; labels name the check file line, or
/// `impN` for the N-th `--implicit-check-not` buffer.
fn annotations(
    sm: &SourceMgr,
    check_buf: usize,
    implicit: &[usize],
    diags: &[Diag],
) -> (Vec<Annotation>, usize) {
    let mut out = Vec::new();
    let mut width = 0;
    let mut per_pattern: std::collections::HashMap<usize, (usize, usize)> =
        std::collections::HashMap::new();
    for d in diags {
        per_pattern.entry(d.check_loc).or_default().0 += 1;
    }
    for (k, d) in diags.iter().enumerate() {
        let buf = sm.find(d.check_loc);
        let mut label = format!("{}:", d.ty.abbreviation());
        if buf == Some(check_buf) {
            let _ = write!(label, "{}", sm.line_col(d.check_loc).0);
        } else if let Some(i) = implicit.iter().position(|&b| Some(b) == buf) {
            let _ = write!(label, "imp{}", i + 1);
        }
        let count = per_pattern.get_mut(&d.check_loc).expect("counted");
        if count.0 > 1 {
            let _ = write!(label, "'{}", count.1);
            count.1 += 1;
        }
        width = width.max(label.len());
        let mut m = marker(d.match_ty);
        if !d.note.is_empty() {
            m.note = d.note.clone();
            if d.start == d.end {
                m.lead = ' ';
            }
        }
        if d.match_ty == MatchType::FoundErrorNote {
            m.note = format!("error: {}", m.note);
        }
        let found_and_expected = d.match_ty == MatchType::FoundAndExpected;
        let (sl, sc) = d.start;
        let (el, ec) = d.end;
        if sl == el {
            out.push(Annotation {
                diag_index: k,
                label,
                first_line: true,
                line: sl,
                start_col: sc,
                end_col: (sc + 1).max(ec),
                marker: m,
                found_and_expected,
            });
        } else {
            let (as_error, color) = (m.filters_as_error, m.color);
            out.push(Annotation {
                diag_index: k,
                label: label.clone(),
                first_line: true,
                line: sl,
                start_col: sc,
                end_col: usize::MAX,
                marker: m,
                found_and_expected,
            });
            for l in sl + 1..=el {
                if ec == 1 && l == el {
                    break;
                }
                out.push(Annotation {
                    diag_index: k,
                    label: label.clone(),
                    first_line: false,
                    line: l,
                    start_col: 1,
                    end_col: if l != el { usize::MAX } else { ec },
                    marker: Marker {
                        lead: '~',
                        color,
                        note: String::new(),
                        filters_as_error: as_error,
                    },
                    found_and_expected,
                });
            }
        }
    }
    (out, width)
}

fn in_filter(filter: Filter, line: usize, anns: &[Annotation]) -> usize {
    if filter == Filter::All {
        return line;
    }
    for a in anns {
        match filter {
            Filter::AnnotationFull => return a.line,
            Filter::Annotation if a.first_line => return a.line,
            Filter::Error if a.first_line && a.marker.filters_as_error => return a.line,
            _ => {}
        }
    }
    usize::MAX
}

fn flush_elided(out: &mut String, elided: &mut String, width: usize, color: bool) {
    if elided.is_empty() {
        return;
    }
    if elided.matches('\n').count() > 3 {
        for _ in 0..3 {
            if color {
                let _ = writeln!(
                    out,
                    "{}{:>width$}{}",
                    ansi::color(ansi::BLACK, true, false),
                    ".",
                    ansi::RESET
                );
            } else {
                let _ = writeln!(out, "{:>width$}", ".");
            }
        }
    } else {
        out.push_str(elided);
    }
    elided.clear();
}

/// Writes the whole dump (from `Input file:` to `>>>>>>`).
#[allow(clippy::too_many_arguments)]
pub fn write(
    out: &mut String,
    sm: &SourceMgr,
    input_name: &str,
    check_name: &str,
    check_buf: usize,
    implicit: &[usize],
    input: &str,
    diags: &[Diag],
    filter: Filter,
    context: usize,
    verbose: bool,
) {
    let color = sm.color;
    let _ = write!(
        out,
        "\nInput file: {input_name}\nCheck file: {check_name}\n\n-dump-input=help explains the following input dump.\n\nInput was:\n<<<<<<\n"
    );
    if color {
        // LLVM asks a throw-away colored stream whether colors are on.
        out.push_str(ansi::BOLD);
        out.push_str(ansi::RESET);
    }
    let (mut anns, label_width) = annotations(sm, check_buf, implicit, diags);
    anns.sort_by_key(|a| (a.line, a.diag_index));
    let b = input.as_bytes();
    let mut lines = b.iter().filter(|&&c| c == b'\n').count();
    if b.last() != Some(&b'\n') {
        lines += 1;
    }
    let digits = if lines == 0 {
        1
    } else {
        lines.to_string().len()
    };
    let width = label_width.max(digits) + 3;
    let mut prev_in_filter = 0usize;
    let mut next_in_filter = 0usize;
    let mut elided = String::new();
    let mut pos = 0usize;
    let mut ai = 0usize;
    let mut line = 1usize;
    while pos < b.len() || ai < anns.len() {
        if next_in_filter < line {
            next_in_filter = in_filter(filter, line, &anns[ai..]);
        }
        if next_in_filter == line {
            prev_in_filter = line;
        }
        let elide = (prev_in_filter == 0 || prev_in_filter + context < line)
            && (next_in_filter == usize::MAX || line + context < next_in_filter);
        let mut text = String::new();
        if !elide {
            flush_elided(out, &mut elided, width, color);
        }
        if color {
            let _ = write!(
                text,
                "{}{line:>width$}: {}{}",
                ansi::color(ansi::BLACK, true, false),
                ansi::RESET,
                ansi::BOLD
            );
        } else {
            let _ = write!(text, "{line:>width$}: ");
        }
        let cyan = ansi::color(ansi::CYAN, true, true);
        if color && verbose {
            text.push_str(&cyan);
        }
        // With -v and colors, text outside good matches is highlighted.
        let matches: Vec<(usize, usize)> = if color && verbose {
            anns[ai..]
                .iter()
                .take_while(|a| a.line == line)
                .filter(|a| a.found_and_expected)
                .map(|a| (a.start_col, a.end_col))
                .collect()
        } else {
            Vec::new()
        };
        let line_start = pos;
        let mut newline = false;
        let mut in_match = false;
        let mut col = 1;
        while pos < b.len() && !newline {
            let was = in_match;
            in_match = matches.iter().any(|&(s, e)| s <= col && col < e);
            if !was && in_match {
                text.push_str(ansi::RESET);
            } else if was && !in_match {
                text.push_str(&cyan);
            }
            if b[pos] == b'\n' {
                newline = true;
                text.push(' ');
            } else {
                let ch_end = (pos + 1..=b.len())
                    .find(|&e| input.is_char_boundary(e))
                    .unwrap_or(b.len());
                text.push_str(&input[pos..ch_end]);
                pos = ch_end - 1;
            }
            pos += 1;
            col += 1;
        }
        if color {
            text.push_str(ansi::RESET);
        }
        text.push('\n');
        let line_width = pos - line_start;
        while ai < anns.len() && anns[ai].line == line {
            let a = &anns[ai];
            if color {
                text.push_str(&ansi::color(a.marker.color, true, false));
            }
            let _ = write!(text, "{:<width$}  ", a.label);
            let mut col = 1;
            while col < a.start_col {
                text.push(' ');
                col += 1;
            }
            text.push(a.marker.lead);
            col += 1;
            while col < a.end_col && col <= line_width {
                text.push('~');
                col += 1;
            }
            if !a.marker.note.is_empty() {
                while col <= line_width {
                    text.push(' ');
                    col += 1;
                }
                text.push(' ');
                text.push_str(&a.marker.note);
            }
            text.push('\n');
            if color {
                text.push_str(ansi::RESET);
            }
            ai += 1;
        }
        if elide {
            elided.push_str(&text);
        } else {
            out.push_str(&text);
        }
        line += 1;
    }
    flush_elided(out, &mut elided, width, color);
    out.push_str(">>>>>>\n");
}

/// `-dump-input=help` (printed to standard output).
pub const HELP: &str = "The following description was requested by -dump-input=help to
explain the input dump printed by FileCheck.

Related command-line options:

  - -dump-input=<value> enables or disables the input dump
  - -dump-input-filter=<value> filters the input lines
  - -dump-input-context=<N> adjusts the context of filtered lines
  - -v and -vv add more annotations
  - -color forces colors to be enabled both in the dump and below
  - -help documents the above options in more detail

These options can also be set via FILECHECK_OPTS.  For example, for
maximum debugging output on failures:

  $ FILECHECK_OPTS='-dump-input-filter=all -vv -color' ninja check

Input dump annotation format:

  - L:     labels line number L of the input file
           An extra space is added after each input line to represent the
           newline character
  - T:L    labels the only match result for either (1) a pattern of type T from
           line L of the check file if L is an integer or (2) the I-th implicit
           pattern if L is \"imp\" followed by an integer I (index origin one)
  - T:L'N  labels the Nth match result for such a pattern
  - ^~~    marks good match (reported if -v)
  - !~~    marks bad match, such as:
           - CHECK-NEXT on same line as previous match (error)
           - CHECK-NOT found (error)
           - CHECK-DAG overlapping match (discarded, reported if -vv)
  - X~~    marks search range when no match is found, such as:
           - CHECK-NEXT not found (error)
           - CHECK-NOT not found (success, reported if -vv)
           - CHECK-DAG not found after discarded matches (error)
  - ?      marks fuzzy match when no match is found
  - ...    indicates elided input lines and annotations, as specified by
           -dump-input-filter and -dump-input-context
  - colors success, error, fuzzy match, discarded match, unmatched input
";
