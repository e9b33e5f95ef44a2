//! A streaming lexer over PTX source bytes.
//!
//! Tokens borrow from the source; nothing is buffered beyond the current
//! token. Comments and whitespace are skipped, but whether a newline was
//! crossed before a token is recorded (`.loc` and `.file` end at a line end).

use crate::diag::Diagnostic;

/// Kinds of token.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tok {
    /// Identifier: `[A-Za-z_$%][A-Za-z0-9_$]*`.
    Ident,
    /// A dotted word: `.version`, `.s32`, `.x`, `.L2::cache_hint`.
    Dot,
    /// A number in any PTX notation (validated when converted).
    Number,
    /// A double-quoted string.
    Str,
    /// Single-character punctuation (the byte is in `Token::ch`).
    Punct,
    /// End of input.
    Eof,
}

/// One token.
#[derive(Clone, Copy, Debug)]
pub struct Token<'s> {
    /// Kind.
    pub kind: Tok,
    /// Source text.
    pub text: &'s str,
    /// Byte offset of the first character.
    pub pos: u32,
    /// Whether a newline precedes the token (since the previous one).
    pub newline_before: bool,
}

impl Token<'_> {
    /// Whether this is punctuation `c`.
    #[inline]
    pub fn is(&self, c: u8) -> bool {
        self.kind == Tok::Punct && self.text.as_bytes()[0] == c
    }
}

/// The lexer.
pub struct Lexer<'s> {
    src: &'s str,
    bytes: &'s [u8],
    pos: usize,
}

const WS: u8 = 1;
const NL: u8 = 2;
pub(crate) const ID_START: u8 = 4;
pub(crate) const ID_CONT: u8 = 8;
const DIGIT: u8 = 16;
const PUNCT: u8 = 32;
/// What may follow the `.` of a dotted word: identifier characters and `:`.
const DOT_WORD: u8 = 64;

/// Character classes of every byte value.
static CLASS: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut c = 0;
    while c < 256 {
        let b = c as u8;
        let mut k = 0;
        if b == b' ' || b == b'\t' || b == b'\r' || b == 0x0c {
            k |= WS;
        }
        if b == b'\n' {
            k |= NL;
        }
        if b.is_ascii_alphabetic() || b == b'_' || b == b'$' || b == b'%' {
            k |= ID_START;
        }
        if b.is_ascii_alphanumeric() || b == b'_' || b == b'$' {
            k |= ID_CONT | DOT_WORD;
        }
        if b == b':' {
            k |= DOT_WORD;
        }
        if b.is_ascii_digit() {
            k |= DIGIT;
        }
        let mut i = 0;
        let p = b",;:{}[]()+-|!@<>=*~^&/";
        while i < p.len() {
            if p[i] == b {
                k |= PUNCT;
            }
            i += 1;
        }
        t[c] = k;
        c += 1;
    }
    t
};

/// Whether byte `c` is in any of the character classes `class`.
#[inline]
pub(crate) fn is(c: u8, class: u8) -> bool {
    CLASS[c as usize] & class != 0
}

/// The end of the identifier starting at `b[at]`; `None` when no
/// identifier starts there.
#[inline]
pub(crate) fn ident_end(b: &[u8], at: usize) -> Option<usize> {
    if !is(*b.get(at)?, ID_START) {
        return None;
    }
    let mut e = at + 1;
    while e < b.len() && is(b[e], ID_CONT) {
        e += 1;
    }
    Some(e)
}

/// `src[start..end]` for the ends of a token scanned byte by byte, without
/// the character-boundary checks of slicing (they cost about 1% of the
/// round trip).
#[inline]
pub(crate) fn token_text(src: &str, start: usize, end: usize) -> &str {
    debug_assert!(start <= end && src.is_char_boundary(start) && src.is_char_boundary(end));
    // SAFETY: `start <= end <= src.len()`, and both are character
    // boundaries: a token starts at an ASCII byte and, but for a string,
    // is ASCII throughout; it ends at the end of the source, after a
    // string's closing quote, or before a byte that follows an ASCII byte,
    // which in valid UTF-8 starts a character.
    unsafe { src.get_unchecked(start..end) }
}

/// The end of the dotted word (`.s32`, `.L2::cache_hint`) whose `.` is at
/// `b[at]`; `None` when no name follows the dot.
#[inline]
pub(crate) fn dot_word_end(b: &[u8], at: usize) -> Option<usize> {
    let mut e = at + 1;
    while e < b.len() && is(b[e], DOT_WORD) {
        e += 1;
    }
    (e > at + 1).then_some(e)
}

impl<'s> Lexer<'s> {
    /// A lexer at the start of `src`.
    pub fn new(src: &'s str) -> Self {
        Self::new_at(src, 0)
    }

    /// A lexer starting at byte `offset` of `src` (a token boundary; the
    /// caller vouches for it). Positions stay those of the whole source.
    pub fn new_at(src: &'s str, offset: usize) -> Self {
        Lexer {
            src,
            bytes: src.as_bytes(),
            pos: offset.min(src.len()),
        }
    }

    /// The whole source.
    pub fn source(&self) -> &'s str {
        self.src
    }

    /// Current byte offset.
    pub fn offset(&self) -> usize {
        self.pos
    }

    /// Skips whitespace and comments; returns whether a newline was seen.
    fn skip_trivia(&mut self) -> Result<bool, Diagnostic> {
        let b = self.bytes;
        let mut nl = false;
        loop {
            loop {
                match b.get(self.pos) {
                    Some(b' ') => {
                        self.pos += 1;
                        // Compilers pad comments to a column with spaces:
                        // take such runs eight at a time.
                        while b.get(self.pos..self.pos + 8) == Some(b"        ") {
                            self.pos += 8;
                        }
                    }
                    Some(b'\n') => {
                        nl = true;
                        self.pos += 1;
                    }
                    Some(&c) if is(c, WS) => self.pos += 1,
                    _ => break,
                }
            }
            match b.get(self.pos) {
                Some(b'/') if b.get(self.pos + 1) == Some(&b'/') => {
                    match memchr(b'\n', &b[self.pos..]) {
                        Some(k) => self.pos += k,
                        None => self.pos = b.len(),
                    }
                }
                Some(b'/') if b.get(self.pos + 1) == Some(&b'*') => {
                    let start = self.pos;
                    let rest = &b[self.pos + 2..];
                    match find2(rest, b'*', b'/') {
                        Some(k) => {
                            if memchr(b'\n', &rest[..k]).is_some() {
                                nl = true;
                            }
                            self.pos += 2 + k + 2;
                        }
                        None => {
                            return Err(Diagnostic::new(start, "unterminated block comment"));
                        }
                    }
                }
                _ => return Ok(nl),
            }
        }
    }

    /// Lexes the next token.
    pub fn next_token(&mut self) -> Result<Token<'s>, Diagnostic> {
        let nl = self.skip_trivia()?;
        let b = self.bytes;
        let start = self.pos;
        let tok = |kind, end: usize, lx: &mut Self| {
            lx.pos = end;
            Ok(Token {
                kind,
                text: token_text(lx.src, start, end),
                pos: start as u32,
                newline_before: nl,
            })
        };
        let Some(&c) = b.get(start) else {
            return tok(Tok::Eof, start, self);
        };
        if let Some(e) = ident_end(b, start) {
            return tok(Tok::Ident, e, self);
        }
        if c == b'.' {
            let Some(e) = dot_word_end(b, start) else {
                return Err(Diagnostic::new(start, "expected a name after '.'"));
            };
            return tok(Tok::Dot, e, self);
        }
        if is(c, DIGIT) {
            let mut e = start + 1;
            while e < b.len() {
                let d = b[e];
                let exp_sign = (d == b'+' || d == b'-')
                    && matches!(b[e - 1], b'e' | b'E')
                    && !(b[start..e].starts_with(b"0x") || b[start..e].starts_with(b"0X"))
                    && !matches!(b.get(start + 1), Some(b'f' | b'F' | b'd' | b'D'));
                if d.is_ascii_alphanumeric() || d == b'.' || d == b'_' || exp_sign {
                    e += 1;
                } else {
                    break;
                }
            }
            return tok(Tok::Number, e, self);
        }
        if c == b'"' {
            let mut e = start + 1;
            loop {
                match b.get(e) {
                    Some(b'"') => return tok(Tok::Str, e + 1, self),
                    Some(b'\\') => e += 2,
                    Some(b'\n') | None => {
                        return Err(Diagnostic::new(start, "unterminated string"));
                    }
                    Some(_) => e += 1,
                }
            }
        }
        if is(c, PUNCT) {
            return tok(Tok::Punct, start + 1, self);
        }
        Err(Diagnostic::new(start, unexpected_char(&self.src[start..])))
    }

    /// The token from byte `at` on, where an instruction's `;` has just
    /// been read: the usual line break, indentation and identifier (the
    /// next mnemonic or label) are read directly, anything else by
    /// [`Lexer::next_token`] (the same token either way).
    #[inline]
    pub fn next_line_token(&mut self, at: usize) -> Result<Token<'s>, Diagnostic> {
        let b = self.bytes;
        if b.get(at) == Some(&b'\n') {
            let mut s = at + 1;
            while matches!(b.get(s), Some(b'\t' | b' ')) {
                s += 1;
            }
            if let Some(e) = ident_end(b, s) {
                self.pos = e;
                return Ok(Token {
                    kind: Tok::Ident,
                    text: token_text(self.src, s, e),
                    pos: s as u32,
                    newline_before: true,
                });
            }
        }
        self.pos = at;
        self.next_token()
    }

    /// Reads an instruction spelling `mnemonic(.word)*` from `start`: the
    /// current position must directly follow the part of it already lexed
    /// (the mnemonic, or the mnemonic and its first modifier).
    pub fn opcode_tail(&mut self, start: usize) -> &'s str {
        let b = self.bytes;
        let mut e = self.pos;
        while b.get(e) == Some(&b'.') {
            match dot_word_end(b, e) {
                Some(k) => e = k,
                None => break,
            }
        }
        self.pos = e;
        &self.src[start..e]
    }

    /// Skips to the end of the current line (for directives kept as text).
    pub fn rest_of_line(&mut self) -> &'s str {
        let start = self.pos;
        let end = memchr(b'\n', &self.bytes[start..]).map_or(self.bytes.len(), |k| start + k);
        self.pos = end;
        &self.src[start..end]
    }

    /// Sets the position (used to re-lex after a raw scan).
    pub fn set_offset(&mut self, pos: usize) {
        self.pos = pos;
    }
}

fn unexpected_char(rest: &str) -> String {
    match rest.chars().next() {
        Some('\0') => "unexpected character NUL (0x00)".to_string(),
        Some(ch) if ch.is_ascii_graphic() => format!("unexpected character '{ch}'"),
        Some(ch) => format!("unexpected character U+{:04X}", ch as u32),
        None => "unexpected end of file".to_string(),
    }
}

#[inline]
fn memchr(c: u8, s: &[u8]) -> Option<usize> {
    memchr::memchr(c, s)
}

fn find2(s: &[u8], a: u8, b: u8) -> Option<usize> {
    let mut i = 0;
    while i + 1 < s.len() {
        if s[i] == a && s[i + 1] == b {
            return Some(i);
        }
        i += 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every token's text is the checked slice of the source at its
    /// position: its ends are character boundaries even next to non-ASCII
    /// text, inside and after strings with escapes, at the end of input.
    #[test]
    fn token_ends_are_character_boundaries() {
        let inputs = [
            "mov.u32 %r1, 2;é",
            "ab\u{e9}cd .s32\u{2014}x 12ü",
            ".file 1 \"dir/ü\\\"é\\\u{e9}.cu\" ;",
            "\"\u{1f600}\" // ä\n/* ö */ x\u{1f600}",
            "0f3F800000\u{e9} 1.5e+3ü 0x1Fé",
            "@%p1 bra LBB0_1;\u{e9}",
            "x",
        ];
        for src in inputs {
            let mut lx = Lexer::new(src);
            let mut n = 0;
            // An unexpected character ends the input here.
            while let Ok(t) = lx.next_token() {
                let at = t.pos as usize;
                assert_eq!(src.get(at..at + t.text.len()), Some(t.text), "{src:?}");
                if t.kind == Tok::Eof {
                    break;
                }
                n += 1;
            }
            assert!(n > 0, "{src:?}");
        }
    }

    /// After a `;`, the direct read gives the token (and leaves the lexer
    /// where) the general one does.
    #[test]
    fn next_line_token_is_next_token() {
        for src in [
            "a;\n\tmov.u32 %r1, 1;",
            "a;\nLBB0_1:",
            "a;\n  \t x",
            "a; // c\n\tx",
            "a;\n\t// c\n\tx",
            "a;\r\n\tx",
            "a;\n\t}",
            "a;\n\t@%p1 bra L;",
            "a;",
            "a;\n",
            "a;x",
            "a;\n\t\u{e9}",
        ] {
            let at = src.find(';').unwrap() + 1;
            let mut fast = Lexer::new_at(src, at);
            let mut general = Lexer::new_at(src, at);
            let a = fast.next_line_token(at);
            let b = general.next_token();
            assert_eq!(format!("{a:?}"), format!("{b:?}"), "{src:?}");
            assert_eq!(fast.offset(), general.offset(), "{src:?}");
        }
    }
}
