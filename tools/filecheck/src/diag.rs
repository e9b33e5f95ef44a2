//! Diagnostics in LLVM's `SourceMgr` shape:
//!
//! ```text
//! file:line:col: error: message
//! <source line, tabs expanded>
//! <spaces>^~~~
//! ```

use std::fmt::Write;

/// A named buffer messages can point into.
pub struct Buffer<'a> {
    /// Name printed before `:line:col`.
    pub name: &'a str,
    /// Text (already canonicalised).
    pub text: &'a str,
}

impl Buffer<'_> {
    /// 1-based line and column of byte offset `pos`.
    pub fn line_col(&self, pos: usize) -> (usize, usize) {
        let pos = pos.min(self.text.len());
        let before = &self.text.as_bytes()[..pos];
        let line = before.iter().filter(|&&c| c == b'\n').count() + 1;
        let start = before
            .iter()
            .rposition(|&c| c == b'\n')
            .map_or(0, |k| k + 1);
        (line, pos - start + 1)
    }

    /// Writes one message at `pos` with a caret and `len - 1` tildes.
    pub fn message(&self, out: &mut String, pos: usize, kind: &str, msg: &str, len: usize) {
        let (line, col) = self.line_col(pos);
        let _ = writeln!(out, "{}:{line}:{col}: {kind}: {msg}", self.name);
        let pos = pos.min(self.text.len());
        let b = self.text.as_bytes();
        let start = b[..pos]
            .iter()
            .rposition(|&c| c == b'\n')
            .map_or(0, |k| k + 1);
        let end = b[pos..]
            .iter()
            .position(|&c| c == b'\n')
            .map_or(b.len(), |k| pos + k);
        let src = &self.text[start..end];
        // Tabs expand to the next multiple of 8, as LLVM prints them.
        let mut shown = String::new();
        let mut caret = String::new();
        let mut colno = 0;
        for (k, ch) in src.char_indices() {
            let here = start + k;
            let width = if ch == '\t' { 8 - colno % 8 } else { 1 };
            if ch == '\t' {
                shown.push_str(&" ".repeat(width));
            } else {
                shown.push(ch);
            }
            if here < pos {
                caret.push_str(&" ".repeat(width));
            }
            colno += width;
        }
        if pos > end {
            caret.push(' ');
        }
        caret.push('^');
        let room = end.saturating_sub(pos);
        for _ in 1..len.min(room.max(1)) {
            caret.push('~');
        }
        let _ = writeln!(
            out,
            "{shown}\n{}",
            caret.trim_end_matches(' ').to_string() + ""
        );
    }
}
