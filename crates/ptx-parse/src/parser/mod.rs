//! The PTX parser: module items, function signatures and bodies.
//!
//! Reads one token ahead (two where a label must be told from an
//! instruction), builds each function body straight into the IR with
//! register operands standing for source registers, then hands it to
//! [`crate::ssa`]. Items are produced one at a time, so a caller can print
//! each function and drop it before the next is read.
//!
//! The first error ends parsing; it points at the offending token.
//!
//! One file per part, as a reader meets them:
//!
//! * this file: the entry points, [`Parser`] with its token cursor
//!   (`bump`, `peek`, `expect`), [`Parser::next_unit`] (one module item
//!   per call), and the helpers that turn tokens back into text;
//! * [`items`]: module-level directives, variables, function headers;
//! * [`builder`]: the function under construction (scopes, registers,
//!   blocks, pending branch targets);
//! * [`body`]: the statements of a body and the label resolution at its
//!   end;
//! * [`instruction`]: one instruction (guard, form, operand checks,
//!   branches); [`fast`] parses the common shape without the general
//!   machinery and falls back to it on anything else;
//! * [`operand`]: operands, addresses, immediates, constant expressions.

mod body;
mod builder;
mod fast;
mod instruction;
mod items;
mod operand;

use builder::*;

use crate::diag::Diagnostic;
use crate::lexer::{Lexer, Tok, Token};
use crate::mnemonics::{is_mnemonic, is_special_register};
use crate::number::parse_literal;
use crate::ssa::{self, Var};
use ptx_ir::entity::EntityRef;
use ptx_ir::regalloc::Reg;
use ptx_ir::verify::{bool_form, operand_counts, operand_type_mismatch};
use ptx_ir::{
    Address, Block, BlockCall, DominatorTree, FuncKind, Function, GlobalVar, Guard, Imm, Inst,
    InstData, Item, Module, OpId, Opcode, Operand, ParamDecl, Sym, Type, Value,
};
use rustc_hash::{FxHashMap, FxHashSet};
use smallvec::SmallVec;

/// Parses a whole module.
pub fn parse_module(src: &str) -> Result<Module, Diagnostic> {
    let mut p = Parser::new(src)?;
    let mut m = Module::default();
    while let Some(item) = p.next_item()? {
        m.items.push(item);
    }
    Ok(m)
}

/// Parses module bytes, reporting invalid UTF-8 at its first bad byte.
pub fn parse_bytes(src: &[u8]) -> Result<Module, Diagnostic> {
    parse_module(check_utf8(src)?)
}

/// Whether `.version major.minor` is a PTX ISA version: 1.0–1.5,
/// 2.0–2.3, 3.0–3.2, 4.0–4.3, 5.0, 6.0–6.5, 7.0–7.8, 8.0–8.8, and 9.x
/// (9.0 onwards, still being added to).
fn known_version(major: u32, minor: u32) -> bool {
    let last = match major {
        1 => 5,
        2 => 3,
        3 => 2,
        4 => 3,
        5 => 0,
        6 => 5,
        7 | 8 => 8,
        9 => 9,
        _ => return false,
    };
    minor <= last
}

/// Why a word of `.target` is not valid for PTX ISA `version`, if it is
/// not: a known `sm_XX` or `compute_XX` (with its `a`/`f` suffix) whose
/// minimum version the module meets, or one of the target options.
fn target_word_error(word: &str, version: (u32, u32)) -> Option<String> {
    if matches!(
        word,
        "texmode_unified" | "texmode_independent" | "debug" | "map_f64_to_f32"
    ) {
        return None;
    }
    // `compute_XX` names the same target (ptxas takes it).
    let sm_word = word.strip_prefix("compute_").map(|n| format!("sm_{n}"));
    let sm = match sm_word.as_deref().unwrap_or(word).parse::<ptx_target::Sm>() {
        Ok(sm) => sm,
        Err(_) => return Some(format!("unknown target '{word}'")),
    };
    let Some(min) = ptx_target::min_ptx_for(sm) else {
        return Some(format!("unknown target '{word}'"));
    };
    let have = ptx_target::PtxVersion(version.0, version.1);
    (have < min).then(|| {
        format!(
            "'.target {word}' needs PTX ISA {}.{} or later; the module's '.version' is {}.{}",
            min.0, min.1, version.0, version.1
        )
    })
}

/// Checks that `src` is UTF-8.
pub fn check_utf8(src: &[u8]) -> Result<&str, Diagnostic> {
    std::str::from_utf8(src).map_err(|e| {
        let bad = src.get(e.valid_up_to()).copied().unwrap_or(0);
        Diagnostic::new(
            e.valid_up_to(),
            format!("invalid UTF-8 byte 0x{bad:02x} in input"),
        )
    })
}

/// One parsed top-level item, possibly a function body still waiting for
/// SSA construction.
pub enum Unit {
    /// A finished item.
    Item(Item),
    /// A function definition whose body is not in SSA form yet.
    Body(Box<PendingBody>),
}

impl Unit {
    /// The finished item, building SSA form if needed.
    pub fn finish(self) -> Item {
        self.finish_with_domtree().0
    }

    /// The finished item and, for a function body, the dominator tree SSA
    /// construction computed (still current).
    pub fn finish_with_domtree(self) -> (Item, Option<DominatorTree>) {
        match self {
            Unit::Item(i) => (i, None),
            Unit::Body(b) => {
                let (f, dt) = b.finish_with_domtree();
                (Item::Func(Box::new(f)), Some(dt))
            }
        }
    }
}

/// A parsed function body whose register operands still name source
/// registers; [`PendingBody::finish`] builds its SSA form.
pub struct PendingBody {
    func: Function,
    vars: Vec<Var>,
}

impl PendingBody {
    /// Builds SSA form and returns the function.
    pub fn finish(self: Box<Self>) -> Function {
        self.finish_with_domtree().0
    }

    /// Builds SSA form; returns the function and its dominator tree.
    pub fn finish_with_domtree(self: Box<Self>) -> (Function, DominatorTree) {
        let mut this = *self;
        let dt = ssa::build(&mut this.func, &this.vars);
        (this.func, dt)
    }
}

/// The number of a target word (`sm_90a` → 90) and its `a`/`f` suffix.
fn target_number(word: &str) -> (Option<u32>, Option<char>) {
    let n = word
        .strip_prefix("sm_")
        .or_else(|| word.strip_prefix("compute_"));
    let number = n.and_then(|n| {
        n.trim_end_matches(|c: char| c.is_ascii_alphabetic())
            .parse()
            .ok()
    });
    let suffix = n
        .and_then(|n| n.chars().last())
        .filter(|c| matches!(c, 'a' | 'f'));
    (number, suffix)
}

/// A streaming module parser.
pub struct Parser<'s> {
    lex: Lexer<'s>,
    tok: Token<'s>,
    peeked: Option<Token<'s>>,
    globals: FxHashSet<&'s str>,
    defined: FxHashSet<&'s str>,
    state: Header,
    /// The module's `.version`, once read (for checking `.target`).
    version: (u32, u32),
    /// The number of the module's first `sm_NN` target word, once read.
    target_sm: Option<u32>,
    /// The first target's `a`/`f` suffix.
    target_suffix: Option<char>,
    /// Every instruction form seen in the module, decoded once.
    ops: ptx_ir::OpTable,
    /// Nesting of the operand or constant expression being parsed, bounded
    /// so that no input can exhaust the stack.
    depth: u32,
    /// Set by [`Parser::defer_unknown_symbols`]: an undeclared identifier
    /// becomes a symbol and is listed here for the caller to check.
    deferred: Option<Vec<&'s str>>,
    /// Whether instructions of the common shape take the fast path
    /// (`fast.rs`); off only in the test comparing both paths.
    fast: bool,
    /// Instructions the fast path parsed (for that test).
    #[cfg(test)]
    fast_taken: usize,
}

/// Deepest operand (`{`, `(`, `[`) or expression nesting accepted.
const MAX_DEPTH: u32 = 256;

#[derive(PartialEq, Eq, Clone, Copy)]
enum Header {
    Start,
    AfterVersion,
    Body,
}

const LINKAGE: &[&str] = &[".visible", ".extern", ".weak", ".common"];
const VAR_SPACES: &[&str] = &[".global", ".shared", ".const", ".local", ".tex"];
const FUNC_ATTRS: &[&str] = &[
    ".maxntid",
    ".reqntid",
    ".minnctapersm",
    ".maxnctapersm",
    ".maxnreg",
    ".noreturn",
    ".maxclusterrank",
    ".reqnctapercluster",
    ".explicitcluster",
    ".blocksareclusters",
    ".abi_preserve",
    ".abi_preserve_control",
];

impl<'s> Parser<'s> {
    /// A parser at the start of `src`.
    pub fn new(src: &'s str) -> Result<Self, Diagnostic> {
        Self::start(Lexer::new(src), Header::Start)
    }

    fn start(mut lex: Lexer<'s>, state: Header) -> Result<Self, Diagnostic> {
        let tok = lex.next_token()?;
        Ok(Parser {
            lex,
            tok,
            peeked: None,
            globals: FxHashSet::default(),
            defined: FxHashSet::default(),
            state,
            version: (0, 0),
            target_sm: None,
            target_suffix: None,
            ops: ptx_ir::OpTable::new(),
            depth: 0,
            deferred: None,
            fast: true,
            #[cfg(test)]
            fast_taken: 0,
        })
    }

    /// A parser for the part of `src` that starts at byte `offset`, which
    /// must be the first token of a top-level item after `.version` and
    /// `.target` (the caller vouches for it: see [`Parser::offset`]).
    /// Symbols declared before `offset` are unknown to it; combine with
    /// [`Parser::defer_unknown_symbols`].
    pub fn new_at(src: &'s str, offset: usize) -> Result<Self, Diagnostic> {
        Self::start(Lexer::new_at(src, offset), Header::Body)
    }

    /// Takes the module's `.version` and `.target` items, as a parser
    /// that started at the beginning returned them, for a parser started
    /// after them ([`Parser::new_at`]): the forms it reads are checked
    /// against them as they would be in one pass over the whole module.
    pub fn assume_header(&mut self, items: &[Item]) {
        for item in items {
            match item {
                Item::Version(a, b) => self.version = (*a, *b),
                Item::Target(words) => {
                    for w in words {
                        if self.target_sm.is_none() {
                            (self.target_sm, self.target_suffix) = target_number(w);
                        }
                    }
                }
                _ => {}
            }
        }
    }

    /// From now on an identifier that names nothing declared so far is
    /// taken for a module symbol declared elsewhere (before this parser's
    /// start) instead of an error; [`Parser::deferred_symbols`] lists each
    /// such use, for the caller to check.
    pub fn defer_unknown_symbols(&mut self) {
        self.deferred.get_or_insert_with(Vec::new);
    }

    /// Uses of identifiers accepted by [`Parser::defer_unknown_symbols`].
    pub fn deferred_symbols(&self) -> &[&'s str] {
        self.deferred.as_deref().unwrap_or(&[])
    }

    /// Module-level names (variables and functions) declared so far.
    pub fn declared_symbols(&self) -> &FxHashSet<&'s str> {
        &self.globals
    }

    /// Functions defined (with a body) so far.
    pub fn defined_functions(&self) -> &FxHashSet<&'s str> {
        &self.defined
    }

    /// Byte offset of the next token: between items, where the next item
    /// starts (the source length at the end).
    pub fn offset(&self) -> usize {
        self.tok.pos as usize
    }

    fn bump(&mut self) -> Result<Token<'s>, Diagnostic> {
        let t = self.tok;
        self.tok = match self.peeked.take() {
            Some(p) => p,
            None => self.lex.next_token()?,
        };
        Ok(t)
    }

    /// Whether the token after identifier `t` may be `:`. False only when
    /// the bytes right after it (blanks skipped) start a token that cannot
    /// be: the usual instruction is then parsed without lexing ahead.
    #[inline]
    fn may_be_label(&self, t: Token<'s>) -> bool {
        let b = self.lex_src().as_bytes();
        let mut k = t.pos as usize + t.text.len();
        while matches!(b.get(k), Some(b' ' | b'\t')) {
            k += 1;
        }
        match b.get(k) {
            Some(&c) => {
                !(matches!(c, b'.' | b';' | b'[' | b'-' | b'{' | b',')
                    || crate::lexer::is(c, crate::lexer::ID_START | crate::lexer::ID_CONT))
            }
            None => true,
        }
    }

    fn peek(&mut self) -> Result<Token<'s>, Diagnostic> {
        if self.peeked.is_none() {
            self.peeked = Some(self.lex.next_token()?);
        }
        Ok(self.peeked.unwrap())
    }

    fn err<T>(&self, t: Token, msg: impl Into<String>) -> Result<T, Diagnostic> {
        Err(Diagnostic::new(t.pos as usize, msg))
    }

    fn describe(t: &Token) -> String {
        match t.kind {
            Tok::Eof => "end of file".into(),
            _ => format!("'{}'", t.text),
        }
    }

    fn expect(&mut self, c: u8) -> Result<Token<'s>, Diagnostic> {
        if self.tok.is(c) {
            return self.bump();
        }
        let found = Self::describe(&self.tok);
        self.err(self.tok, format!("expected '{}', found {found}", c as char))
    }

    /// The next top-level item, or `None` at the end of the module.
    pub fn next_item(&mut self) -> Result<Option<Item>, Diagnostic> {
        Ok(self.next_unit()?.map(Unit::finish))
    }

    /// The next top-level item with SSA construction of a function body
    /// left to the caller ([`Unit::finish`]), so it can run elsewhere (for
    /// example on another thread while parsing goes on).
    pub fn next_unit(&mut self) -> Result<Option<Unit>, Diagnostic> {
        let t = self.tok;
        match self.state {
            Header::Start => {
                if t.kind != Tok::Dot || t.text != ".version" {
                    let found = Self::describe(&t);
                    return self.err(t, format!("expected '.version' directive, found {found}"));
                }
                self.bump()?;
                let n = self.bump()?;
                let ok = n.kind == Tok::Number;
                let parsed = n
                    .text
                    .split_once('.')
                    .and_then(|(a, b)| Some((a.parse().ok()?, b.parse().ok()?)));
                match parsed {
                    Some((a, b)) if ok && known_version(a, b) => {
                        self.state = Header::AfterVersion;
                        self.version = (a, b);
                        return Ok(Some(Unit::Item(Item::Version(a, b))));
                    }
                    Some((a, b)) if ok => {
                        return self.err(n, format!("unknown PTX ISA version {a}.{b}"))
                    }
                    _ => {
                        return self.err(
                            n,
                            format!(
                                "invalid PTX version {}: expected 'major.minor'",
                                Self::describe(&n)
                            ),
                        )
                    }
                }
            }
            Header::AfterVersion => {
                if t.kind != Tok::Dot || t.text != ".target" {
                    let found = Self::describe(&t);
                    return self.err(
                        t,
                        format!("expected '.target' directive after '.version', found {found}"),
                    );
                }
                self.bump()?;
                let mut words = Vec::new();
                loop {
                    let w = self.bump()?;
                    if w.kind != Tok::Ident {
                        return self.err(
                            w,
                            format!("expected a target name, found {}", Self::describe(&w)),
                        );
                    }
                    if let Some(msg) = target_word_error(w.text, self.version) {
                        return self.err(w, msg);
                    }
                    if self.target_sm.is_none() {
                        (self.target_sm, self.target_suffix) = target_number(w.text);
                    }
                    words.push(w.text.into());
                    if !self.tok.is(b',') {
                        break;
                    }
                    self.bump()?;
                }
                self.state = Header::Body;
                return Ok(Some(Unit::Item(Item::Target(words))));
            }
            Header::Body => {}
        }
        match t.kind {
            Tok::Eof => Ok(None),
            Tok::Dot => self.directive().map(Some),
            Tok::Ident => {
                if self.peek()?.is(b':') {
                    self.err(t, "label outside of a function")
                } else {
                    self.err(t, "instruction outside of a function")
                }
            }
            _ => self.err(
                t,
                format!("unexpected {} at module scope", Self::describe(&t)),
            ),
        }
    }
}

/// The name a register kept out of SSA prints under: its own, unless that
/// looks like a name the printer generates (`%r12`, `%fd3`, …).
fn pinned_name(name: &str) -> String {
    let clashes = name.strip_prefix('%').is_some_and(|rest| {
        let digits = rest.trim_start_matches(|c: char| c.is_ascii_alphabetic());
        let prefix = &rest[..rest.len() - digits.len()];
        let generated = [
            "p", "rc", "rs", "r", "rd", "rq", "h", "hh", "hb", "hhb", "f", "fd",
        ];
        generated.contains(&prefix) && digits.bytes().all(|c| c.is_ascii_digit())
    });
    if clashes {
        format!("{name}_v")
    } else {
        name.to_string()
    }
}

/// Joins tokens into normalised text: single spaces, none inside brackets
/// or before separators.
pub fn join_tokens(toks: &[Token]) -> String {
    let mut s = String::with_capacity(toks.iter().map(|t| t.text.len() + 1).sum());
    let mut prev: Option<&Token> = None;
    for t in toks {
        if prev.is_some_and(|p| spaced(p, t)) {
            s.push(' ');
        }
        s.push_str(t.text);
        prev = Some(t);
    }
    s
}

/// Whether [`join_tokens`] puts a space between `p` and the next token `t`.
fn spaced(p: &Token, t: &Token) -> bool {
    let tight_before = t.kind == Tok::Punct && b",;)]}:>".contains(&t.text.as_bytes()[0]);
    let tight_after = p.kind == Tok::Punct && b"([{<".contains(&p.text.as_bytes()[0]);
    let call_like = p.kind == Tok::Ident && (t.is(b'(') || t.is(b'[') || t.is(b'<'));
    let sign = p.kind == Tok::Punct && (p.is(b'+') || p.is(b'-')) && t.pos == p.pos + 1;
    let before_sign = (t.is(b'+') || t.is(b'-')) && p.pos as usize + p.text.len() == t.pos as usize;
    !(tight_before || tight_after || call_like || sign || before_sign)
}

/// [`join_tokens`] of tokens lexed from `src`: the source text itself
/// where it is already spelled that way (the usual case), without
/// building it.
fn joined<'a>(src: &'a str, toks: &[Token<'a>]) -> std::borrow::Cow<'a, str> {
    let (Some(first), Some(last)) = (toks.first(), toks.last()) else {
        return "".into();
    };
    let as_written = toks.windows(2).all(|w| {
        let gap = &src[w[0].pos as usize + w[0].text.len()..w[1].pos as usize];
        gap == if spaced(&w[0], &w[1]) { " " } else { "" }
    });
    if as_written {
        src[first.pos as usize..last.pos as usize + last.text.len()].into()
    } else {
        join_tokens(toks).into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every token of `src`.
    fn tokens(src: &str) -> Vec<Token<'_>> {
        let mut lex = Lexer::new(src);
        let mut out = Vec::new();
        loop {
            let t = lex.next_token().unwrap();
            if t.kind == Tok::Eof {
                return out;
            }
            out.push(t);
        }
    }

    #[test]
    fn joined_is_join_tokens_whether_borrowed_or_built() {
        for (src, borrowed) in [
            (".param .u64 foo_param_0", true),
            (".param .align 8 .b8 foo[16]", true),
            (".param .u64  foo", false),
            (".param\t.u64 foo", false),
            (".param .b32 a [ 4 ]", false),
            (".param /* c */ .u32 p", false),
            ("x+-1", true),
            ("x + 1", true),
            ("x  +  1", false),
            ("", true),
        ] {
            let toks = tokens(src);
            let j = joined(src, &toks);
            assert_eq!(j, join_tokens(&toks), "{src:?}");
            assert_eq!(
                matches!(j, std::borrow::Cow::Borrowed(_)),
                borrowed,
                "{src:?}"
            );
        }
    }
}
