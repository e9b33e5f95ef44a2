//! Located diagnostics, rendered the way LLVM tools print them:
//!
//! ```text
//! in.ptx:12:5: error: message
//!     add.s32 %r1, %r2;
//!     ^
//! ```

/// An error at a byte offset of the source.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// Byte offset the error points at.
    pub pos: usize,
    /// Message, lower-case, without trailing period.
    pub message: String,
}

impl Diagnostic {
    /// An error at `pos`.
    pub fn new(pos: usize, message: impl Into<String>) -> Self {
        Diagnostic {
            pos,
            message: message.into(),
        }
    }

    /// 1-based line and byte column of the error in `src`.
    pub fn line_col(&self, src: &[u8]) -> (usize, usize) {
        line_col(src, self.pos)
    }

    /// Renders `file:line:col: error: message`, the source line and a caret.
    pub fn render(&self, file: &str, src: &[u8]) -> String {
        let (line, col) = self.line_col(src);
        let pos = self.pos.min(src.len());
        let start = src[..pos]
            .iter()
            .rposition(|&c| c == b'\n')
            .map_or(0, |k| k + 1);
        let end = src[pos..]
            .iter()
            .position(|&c| c == b'\n')
            .map_or(src.len(), |k| pos + k);
        let text = String::from_utf8_lossy(&src[start..end]);
        // Keep huge lines readable: show a window around the column.
        let (shown, caret_col) = if text.len() > 200 {
            let lo = (col - 1).saturating_sub(60);
            let bytes = &src[start + lo.min(end - start)..end.min(start + col - 1 + 60)];
            (
                format!("...{}", String::from_utf8_lossy(bytes)),
                col - 1 - lo + 3,
            )
        } else {
            (text.into_owned(), col - 1)
        };
        let pad: String = shown
            .bytes()
            .take(caret_col)
            .map(|c| if c == b'\t' { '\t' } else { ' ' })
            .collect();
        format!(
            "{file}:{line}:{col}: error: {}\n{shown}\n{pad}^\n",
            self.message
        )
    }
}

/// 1-based line and byte column of `pos` in `src`.
pub fn line_col(src: &[u8], pos: usize) -> (usize, usize) {
    let pos = pos.min(src.len());
    let before = &src[..pos];
    let line = before.iter().filter(|&&c| c == b'\n').count() + 1;
    let col = pos
        - before
            .iter()
            .rposition(|&c| c == b'\n')
            .map_or(0, |k| k + 1)
        + 1;
    (line, col)
}

impl std::fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "error: {}", self.message)
    }
}

impl std::error::Error for Diagnostic {}
