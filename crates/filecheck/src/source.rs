//! Buffers and messages in LLVM `SourceMgr`'s shape:
//!
//! ```text
//! file:line:col: error: message
//! <source line, tabs expanded to 8>
//! <spaces>^~~~
//! ```
//!
//! A location is the address of a byte inside one of the buffers (or one
//! past its end), as LLVM's `SMLoc` is a pointer; every `&str` handed out
//! by [`SourceMgr::text`] is a slice of a buffer that never moves, so a
//! slice's address locates it.

use std::rc::Rc;

/// The address of `s`'s first byte.
pub fn addr(s: &str) -> usize {
    s.as_ptr() as usize
}

/// Message kinds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    /// `error:`
    Error,
    /// `remark:`
    Remark,
    /// `note:`
    Note,
}

impl Level {
    fn color(self) -> u8 {
        match self {
            Level::Error => ansi::RED,
            Level::Remark => ansi::BLUE,
            Level::Note => ansi::BLACK,
        }
    }

    fn word(self) -> &'static str {
        match self {
            Level::Error => "error",
            Level::Remark => "remark",
            Level::Note => "note",
        }
    }
}

/// A located error, as LLVM's `ErrorDiagnostic`: printed at `loc`; `range`
/// is what the input dump marks.
#[derive(Clone, Debug)]
pub struct DiagError {
    /// Address of the location.
    pub loc: usize,
    /// The message.
    pub msg: String,
    /// The range the error concerns (addresses).
    pub range: (usize, usize),
}

impl DiagError {
    /// An error about slice `s`.
    pub fn at_str(s: &str, msg: impl Into<String>) -> DiagError {
        DiagError {
            loc: addr(s),
            msg: msg.into(),
            range: (addr(s), addr(s) + s.len()),
        }
    }
    /// An error about the range `r`.
    pub fn at_range(r: (usize, usize), msg: impl Into<String>) -> DiagError {
        DiagError {
            loc: r.0,
            msg: msg.into(),
            range: r,
        }
    }
}

struct Buffer {
    name: String,
    text: Rc<str>,
}

/// The buffers of one run: the check file, the input, and the made-up
/// "command line" and "Global defines" buffers.
#[derive(Default)]
pub struct SourceMgr {
    buffers: Vec<Buffer>,
    /// `-color`: messages carry ANSI colors, as LLVM's with colors forced.
    pub color: bool,
}

/// ANSI codes as LLVM's `sys::Process` writes them.
pub mod ansi {
    /// `OutputBold` (also what LLVM's "saved color" writes).
    pub const BOLD: &str = "\x1b[1m";
    /// `ResetColor`.
    pub const RESET: &str = "\x1b[0m";
    /// Color numbers.
    pub const BLACK: u8 = 0;
    /// Red.
    pub const RED: u8 = 1;
    /// Green.
    pub const GREEN: u8 = 2;
    /// Blue.
    pub const BLUE: u8 = 4;
    /// Magenta.
    pub const MAGENTA: u8 = 5;
    /// Cyan.
    pub const CYAN: u8 = 6;

    /// `OutputColor(code, bold, bg)`.
    pub fn color(code: u8, bold: bool, bg: bool) -> String {
        format!(
            "\x1b[0;{}{}{}m",
            if bold { "1;" } else { "" },
            if bg { '4' } else { '3' },
            code
        )
    }
}

impl SourceMgr {
    /// Adds a buffer; returns its id.
    pub fn add(&mut self, name: &str, text: String) -> usize {
        self.buffers.push(Buffer {
            name: name.to_string(),
            text: Rc::from(text),
        });
        self.buffers.len() - 1
    }

    /// A buffer's text (a stable slice: locations point into it).
    pub fn text(&self, id: usize) -> Rc<str> {
        self.buffers[id].text.clone()
    }

    /// A buffer's name.
    pub fn name(&self, id: usize) -> &str {
        &self.buffers[id].name
    }

    /// The buffer holding address `loc` (one past the end counts).
    pub fn find(&self, loc: usize) -> Option<usize> {
        self.buffers.iter().position(|b| {
            let start = addr(&b.text);
            (start..=start + b.text.len()).contains(&loc)
        })
    }

    /// The addresses of slice `s` (which must be inside a buffer).
    pub fn range_of(&self, s: &str) -> (usize, usize) {
        (addr(s), addr(s) + s.len())
    }

    /// The text between two addresses of one buffer.
    pub fn slice(&self, r: (usize, usize)) -> &str {
        let Some(id) = self.find(r.0) else {
            return "";
        };
        let b = &self.buffers[id].text;
        let start = r.0 - addr(b);
        let end = (r.1.max(r.0) - addr(b)).min(b.len());
        b.get(start..end).unwrap_or("")
    }

    /// Offset of address `loc` in its buffer.
    pub fn offset(&self, loc: usize) -> (usize, usize) {
        let id = self.find(loc).expect("location inside a buffer");
        (id, loc - addr(&self.buffers[id].text))
    }

    /// 1-based line and column of `loc`.
    pub fn line_col(&self, loc: usize) -> (usize, usize) {
        let (id, pos) = self.offset(loc);
        let b = self.buffers[id].text.as_bytes();
        let before = &b[..pos.min(b.len())];
        let line = before.iter().filter(|&&c| c == b'\n').count() + 1;
        // The column counts from the last `\n` or `\r`, as LLVM's does.
        let start = before
            .iter()
            .rposition(|&c| c == b'\n' || c == b'\r')
            .map_or(0, |k| k + 1);
        (line, pos - start + 1)
    }

    /// Writes a message at `loc`, with `~` under `ranges` (clipped to the
    /// line) and `^` at the location.
    pub fn message(
        &self,
        out: &mut String,
        loc: usize,
        level: Level,
        msg: &str,
        ranges: &[(usize, usize)],
    ) {
        let (id, pos) = self.offset(loc);
        let text = &self.buffers[id].text;
        let b = text.as_bytes();
        let line_start = b[..pos]
            .iter()
            .rposition(|&c| c == b'\n' || c == b'\r')
            .map_or(0, |k| k + 1);
        let line_end = b[pos..]
            .iter()
            .position(|&c| c == b'\n' || c == b'\r')
            .map_or(b.len(), |k| pos + k);
        let (line, col) = self.line_col(loc);
        let paint = |code: &str, text: &str| -> String {
            if self.color {
                format!("{code}{text}{}", ansi::RESET)
            } else {
                text.to_string()
            }
        };
        let name = &self.buffers[id].name;
        out.push_str(&paint(ansi::BOLD, &format!("{name}:{line}:{col}: ")));
        out.push_str(&paint(
            &ansi::color(level.color(), true, false),
            &format!("{}: ", level.word()),
        ));
        out.push_str(&paint(ansi::BOLD, &format!("{msg}\n")));
        let contents = &b[line_start..line_end];
        // The source line, tabs expanded.
        let mut shown = Vec::new();
        for &c in contents {
            if c == b'\t' {
                shown.push(b' ');
                while shown.len() % 8 != 0 {
                    shown.push(b' ');
                }
            } else {
                shown.push(c);
            }
        }
        out.push_str(&String::from_utf8_lossy(&shown));
        out.push('\n');
        // LLVM shows no caret under a line with non-ASCII bytes.
        if contents.iter().any(|&c| c >= 0x80) {
            return;
        }
        let base = addr(text);
        let mut caret = vec![b' '; contents.len() + 1];
        for &(rs, re) in ranges {
            let (ls, le) = (base + line_start, base + line_end);
            if rs > le || re < ls {
                continue;
            }
            let s = rs.max(ls) - ls;
            let e = (re.min(le) - ls).min(caret.len());
            for c in caret.iter_mut().take(e).skip(s) {
                *c = b'~';
            }
        }
        let column = pos - line_start;
        caret[column.min(contents.len())] = b'^';
        while caret.last() == Some(&b' ') {
            caret.pop();
        }
        let mut marks = Vec::new();
        for (i, &c) in caret.iter().enumerate() {
            if contents.get(i) != Some(&b'\t') {
                marks.push(c);
                continue;
            }
            loop {
                marks.push(c);
                if marks.len() % 8 == 0 {
                    break;
                }
            }
        }
        marks.push(b'\n');
        out.push_str(&paint(
            &ansi::color(ansi::GREEN, true, false),
            &String::from_utf8_lossy(&marks),
        ));
    }

    /// Writes a located error as LLVM's `ErrorDiagnostic::log` does.
    pub fn error(&self, out: &mut String, e: &DiagError) {
        self.message(out, e.loc, Level::Error, &e.msg, &[]);
    }
}
