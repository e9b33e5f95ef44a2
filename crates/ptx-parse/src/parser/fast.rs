//! The common instruction shape, parsed straight from the source bytes.
//!
//! Nearly every instruction compilers write is `mnemonic.mod… a, b, c;` on
//! one line, its operands plain registers, literals and `[%reg+N]`
//! addresses, or a branch `bra[.uni] label;`, `ret;`, `exit;`.
//! [`Parser::instruction_fast`] reads those shapes without building
//! tokens; anything else (a call or `brx`, a selector, a vector, an
//! expression, a comment or line break inside, any error) sends the
//! instruction to the general path, which then parses it from its first
//! byte.
//!
//! Invariant: the fast path builds exactly the instruction the general
//! path would, and leaves the parser where the general path would. Before
//! giving up it may only have done what the general path does first, in
//! the same order (resolving the form, looking registers up left to
//! right), so giving up changes nothing the general path then sees.

use super::{is_branch, FnBuilder, Parser, RegDecl};
use crate::diag::Diagnostic;
use crate::lexer::{dot_word_end, ident_end, is, token_text, Tok, Token, ID_START};
use crate::mnemonics::is_special_register;
use crate::number::parse_literal;
use ptx_ir::entity::EntityRef;
use ptx_ir::{Address, Guard, Opcode, Operand, Value};
use smallvec::SmallVec;

/// A byte cursor over one line of the source.
struct Cursor<'s> {
    b: &'s [u8],
    pos: usize,
}

impl<'s> Cursor<'s> {
    /// The spelling whose mnemonic is token `m` — the mnemonic and its
    /// unbroken `.word` tail — and a cursor past it and the blanks after;
    /// `None` if a `.` there starts no word.
    #[inline]
    fn spelling(src: &'s str, m: Token<'s>) -> Option<(Cursor<'s>, &'s str)> {
        let mut c = Cursor {
            b: src.as_bytes(),
            pos: m.pos as usize + m.text.len(),
        };
        while c.peek() == Some(b'.') {
            c.dot_word()?;
        }
        let text = token_text(src, m.pos as usize, c.pos);
        c.blanks();
        Some((c, text))
    }

    #[inline]
    fn peek(&self) -> Option<u8> {
        self.b.get(self.pos).copied()
    }

    /// Skips spaces and tabs (a line break or comment ends the fast path).
    #[inline]
    fn blanks(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t')) {
            self.pos += 1;
        }
    }

    /// The first byte after the blanks from here (the cursor stays).
    #[inline]
    fn next_nonblank(&self) -> Option<u8> {
        let mut after = Cursor {
            b: self.b,
            pos: self.pos,
        };
        after.blanks();
        after.peek()
    }

    /// Moves past the dotted word (`.x`, `.s32`) whose `.` is here.
    #[inline]
    fn dot_word(&mut self) -> Option<()> {
        self.pos = dot_word_end(self.b, self.pos)?;
        Some(())
    }

    /// An identifier starting here, as the lexer would take it.
    #[inline]
    fn ident(&mut self, src: &'s str) -> Option<&'s str> {
        let start = self.pos;
        self.pos = ident_end(self.b, start)?;
        Some(token_text(src, start, self.pos))
    }

    /// A number token starting here (a digit, then letters, digits, `.`
    /// and `_`); `None` where the lexer would take an exponent sign too.
    fn number(&mut self, src: &'s str) -> Option<&'s str> {
        let start = self.pos;
        if !self.peek().is_some_and(|c| c.is_ascii_digit()) {
            return None;
        }
        while self
            .peek()
            .is_some_and(|c| c.is_ascii_alphanumeric() || c == b'.' || c == b'_')
        {
            self.pos += 1;
        }
        if matches!(self.peek(), Some(b'+' | b'-')) {
            return None;
        }
        Some(token_text(src, start, self.pos))
    }
}

impl<'s> Parser<'s> {
    /// Parses the instruction whose mnemonic is the current token if it
    /// has the common shape; `Ok(false)` (nothing consumed) otherwise.
    pub(super) fn instruction_fast(
        &mut self,
        b: &mut FnBuilder<'s>,
        guard: Option<(Guard, u32)>,
    ) -> Result<bool, Diagnostic> {
        let src = self.lex_src();
        let m = self.tok;
        if m.kind != Tok::Ident {
            return Ok(false);
        }
        let Some((mut c, text)) = Cursor::spelling(src, m) else {
            return Ok(false);
        };
        if is_branch(m.text) {
            return self.branch_fast(b, guard, m, c, text);
        }
        // The spelling ends here only if an operand or `;` follows: after a
        // blank, a comment or a line break a modifier may still come, and
        // the general path would then look up a longer spelling.
        let next = c.peek();
        if !(matches!(next, Some(b';' | b'[' | b'-'))
            || next.is_some_and(|x| is(x, ID_START) || x.is_ascii_digit()))
        {
            return Ok(false);
        }
        let op = self.resolve_op(b, m, text)?;
        if b.func.ops.info(op).opcode == Opcode::Call {
            return Ok(false);
        }
        let mut d = b.new_inst(op, m.pos, guard);
        let mut positions: SmallVec<[u32; 6]> = SmallVec::new();
        if c.peek() != Some(b';') {
            loop {
                positions.push(c.pos as u32);
                let Some(o) = self.operand_fast(b, &mut c, src) else {
                    return Ok(false);
                };
                d.operands.push(o);
                c.blanks();
                match c.peek() {
                    Some(b',') => {
                        c.pos += 1;
                        c.blanks();
                    }
                    Some(b';') => break,
                    _ => return Ok(false),
                }
            }
        }
        let semi = Token {
            kind: Tok::Punct,
            text: ";",
            pos: c.pos as u32,
            newline_before: false,
        };
        if self.check_operands(b, &d, &positions, semi).is_err() {
            return Ok(false);
        }
        b.append(d);
        self.took_fast(c.pos)
    }

    /// Moves past an instruction the fast path took, whose `;` is at
    /// `semi`.
    #[inline]
    fn took_fast(&mut self, semi: usize) -> Result<bool, Diagnostic> {
        #[cfg(test)]
        {
            self.fast_taken += 1;
        }
        self.peeked = None;
        self.tok = self.lex.next_line_token(semi + 1)?;
        Ok(true)
    }

    /// `bra[.uni] label;`, `ret;` or `exit;` (with modifiers, unbroken),
    /// as [`Parser::instruction_fast`] takes the common shape; `brx` and
    /// anything else go to the general path. `m` is the mnemonic, `text`
    /// the spelling [`Cursor::spelling`] read, `c` the cursor after it.
    fn branch_fast(
        &mut self,
        b: &mut FnBuilder<'s>,
        guard: Option<(Guard, u32)>,
        m: Token<'s>,
        mut c: Cursor<'s>,
        text: &'s str,
    ) -> Result<bool, Diagnostic> {
        if m.text == "brx" {
            return Ok(false);
        }
        let mut labels = SmallVec::new();
        if m.text == "bra" {
            let pos = c.pos as u32;
            let Some(label) = c.ident(self.lex_src()) else {
                return Ok(false);
            };
            let l = Token {
                kind: Tok::Ident,
                text: label,
                pos,
                newline_before: false,
            };
            labels.push((l, b.scope_id()));
            c.blanks();
        }
        if c.peek() != Some(b';') {
            return Ok(false);
        }
        let op = self.resolve_op(b, m, text)?;
        let d = b.new_inst(op, m.pos, guard);
        b.branch_to(d, labels);
        self.took_fast(c.pos)
    }

    /// One operand of the common shapes: a register, a literal alone, or
    /// `[%reg]` / `[%reg+N]` with `N` plain decimal.
    fn operand_fast(
        &mut self,
        b: &mut FnBuilder<'s>,
        c: &mut Cursor<'s>,
        src: &'s str,
    ) -> Option<Operand> {
        match c.peek()? {
            b'[' => {
                c.pos += 1;
                let base = match self.name_fast(b, c, src)? {
                    o @ (Operand::Value(_) | Operand::Symbol(_, 0)) => o,
                    _ => return None,
                };
                let mut offset = 0i64;
                let written = c.peek() == Some(b'+');
                if written {
                    c.pos += 1;
                    let start = c.pos;
                    while c.peek().is_some_and(|x| x.is_ascii_digit()) {
                        offset = offset
                            .checked_mul(10)?
                            .checked_add((c.peek()? - b'0') as i64)?;
                        c.pos += 1;
                    }
                    // Octal (a leading 0) and other notations: general path.
                    let digits = &src[start..c.pos];
                    if digits.is_empty() || (digits.len() > 1 && digits.starts_with('0')) {
                        return None;
                    }
                }
                if c.peek() != Some(b']') {
                    return None;
                }
                c.pos += 1;
                let zero_written = super::operand::zero_offset_written(written, offset, &base);
                Some(Operand::Addr(Box::new(Address {
                    base,
                    offset,
                    zero_offset_written: zero_written,
                    rest: Vec::new(),
                })))
            }
            b'-' => {
                c.pos += 1;
                let lit = c.number(src)?;
                self.literal_fast(b, c, lit, true)
            }
            x if x.is_ascii_digit() => {
                let lit = c.number(src)?;
                self.literal_fast(b, c, lit, false)
            }
            _ => match self.name_fast(b, c, src)? {
                // `sym+N` outside an address is left to the general path.
                Operand::Symbol(..) if c.peek() == Some(b'+') => None,
                o => Some(o),
            },
        }
    }

    /// A literal that stands alone (a `,` or `;` follows), in the notation
    /// written.
    fn literal_fast(
        &mut self,
        b: &mut FnBuilder<'s>,
        c: &mut Cursor<'s>,
        lit: &str,
        neg: bool,
    ) -> Option<Operand> {
        if !matches!(c.next_nonblank(), Some(b',' | b';')) {
            return None;
        }
        parse_literal(lit, neg, &mut b.func.ops.syms)
            .ok()
            .map(Operand::Imm)
    }

    /// A name, resolved as the general path does: a plain SSA register
    /// (no selector or `|` after it), a special register with its
    /// component (`%tid.x`), or a declared symbol.
    fn name_fast(
        &mut self,
        b: &mut FnBuilder<'s>,
        c: &mut Cursor<'s>,
        src: &'s str,
    ) -> Option<Operand> {
        let name = c.ident(src)?;
        // The general path takes a `.` or `|` after blanks too: a selector,
        // a component or a dual destination, all left to it.
        let next = c.next_nonblank();
        match b.lookup_reg(name) {
            Some(RegDecl::Var(v)) => {
                return match next {
                    Some(b'.' | b'|') => None,
                    _ => Some(Operand::Value(Value::new(v as usize))),
                };
            }
            Some(RegDecl::Pinned(_)) => return None,
            None => {}
        }
        let dot_after_blank = next == Some(b'.') && c.peek() != Some(b'.');
        if dot_after_blank || next == Some(b'|') {
            return None;
        }
        if name == "WARP_SZ" || (name.starts_with('%') && is_special_register(name)) {
            let start = c.pos - name.len();
            if c.peek() == Some(b'.') {
                c.dot_word()?;
            }
            return Some(Operand::Special(b.func.ops.sym(&src[start..c.pos])));
        }
        if c.peek() == Some(b'.') {
            return None;
        }
        let sym = match b.lookup_sym(name) {
            Some(s) => s,
            None if self.globals.contains(name) => b.func.ops.sym(name),
            // Deferred and undeclared names: the general path.
            None => return None,
        };
        Some(Operand::Symbol(sym, 0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    /// Every item of `src` (or the first error), parsed with or without
    /// the fast path, in full detail; and how many instructions took it.
    fn parse(src: &str, fast: bool) -> (String, usize) {
        let mut p = match Parser::new(src) {
            Ok(p) => p,
            Err(e) => return (format!("{e:?}"), 0),
        };
        p.fast = fast;
        let mut out = String::new();
        loop {
            match p.next_item() {
                Ok(Some(item)) => out.push_str(&format!("{item:?}\n")),
                Ok(None) => break,
                Err(e) => {
                    out.push_str(&format!("{e:?}"));
                    break;
                }
            }
        }
        (out, p.fast_taken)
    }

    /// The fast path builds exactly the IR (values, variables, forms,
    /// symbols, in the same order) and the errors the general path does,
    /// over the compiler corpus, the hand-written forms and every
    /// committed fuzz input.
    #[test]
    fn fast_path_builds_what_the_general_path_builds() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut dirs = vec![
            root.join("tests/corpus/llc"),
            root.join("tests/corpus/stress"),
            root.join("tests/forms"),
        ];
        // Every fuzz target's inputs: most are PTX, the rest must fail
        // the same way on both paths.
        for sub in ["corpus", "regressions"] {
            if let Ok(rd) = std::fs::read_dir(root.join("../../fuzz").join(sub)) {
                dirs.extend(rd.map(|e| e.unwrap().path()).filter(|p| p.is_dir()));
            }
        }
        let (mut files, mut taken) = (0, 0);
        for dir in dirs {
            for e in std::fs::read_dir(&dir).unwrap() {
                let path = e.unwrap().path();
                let Ok(src) = String::from_utf8(std::fs::read(&path).unwrap()) else {
                    continue;
                };
                let (fast, n) = parse(&src, true);
                let (general, none) = parse(&src, false);
                assert_eq!(none, 0);
                assert!(fast == general, "{}: the two paths differ", path.display());
                files += 1;
                taken += n;
            }
        }
        assert!(
            files > 1000 && taken > 10_000,
            "{files} files, {taken} fast"
        );
    }
}
