//! The PTX parser: module items, function signatures and bodies.
//!
//! Reads one token ahead (two where a label must be told from an
//! instruction), builds each function body straight into the IR with
//! register operands standing for source registers, then hands it to
//! [`crate::ssa`]. Items are produced one at a time, so a caller can print
//! each function and drop it before the next is read.
//!
//! The first error ends parsing; it points at the offending token.

mod fast;

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
                        let n = w
                            .text
                            .strip_prefix("sm_")
                            .or_else(|| w.text.strip_prefix("compute_"));
                        self.target_sm = n.and_then(|n| {
                            n.trim_end_matches(|c: char| c.is_ascii_alphabetic())
                                .parse()
                                .ok()
                        });
                        self.target_suffix = n
                            .and_then(|n| n.chars().last())
                            .filter(|c| matches!(c, 'a' | 'f'));
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

    fn directive(&mut self) -> Result<Unit, Diagnostic> {
        let t = self.tok;
        if matches!(t.text, ".entry" | ".func") || LINKAGE.contains(&t.text) {
            return self.linked();
        }
        self.plain_directive().map(Unit::Item)
    }

    /// A function or variable, with its linkage directives.
    fn linked(&mut self) -> Result<Unit, Diagnostic> {
        let mut linkage = Vec::new();
        while LINKAGE.contains(&self.tok.text) && self.tok.kind == Tok::Dot {
            linkage.push(self.bump()?);
        }
        let k = self.tok;
        match k.text {
            ".entry" | ".func" if k.kind == Tok::Dot => {
                self.function(linkage.iter().map(|l| l.text[1..].into()).collect())
            }
            s if k.kind == Tok::Dot && VAR_SPACES.contains(&s) => {
                self.variable(&linkage).map(Unit::Item)
            }
            _ => self.err(
                k,
                format!(
                    "expected '.entry', '.func' or a variable after linkage, found {}",
                    Self::describe(&k)
                ),
            ),
        }
    }

    fn plain_directive(&mut self) -> Result<Item, Diagnostic> {
        let t = self.tok;
        match t.text {
            ".address_size" => {
                self.bump()?;
                let n = self.bump()?;
                match n.text {
                    "32" => Ok(Item::AddressSize(32)),
                    "64" => Ok(Item::AddressSize(64)),
                    _ => self.err(
                        n,
                        format!(
                            "invalid address size {}: expected 32 or 64",
                            Self::describe(&n)
                        ),
                    ),
                }
            }
            ".file" => {
                self.bump()?;
                let toks = self.rest_of_line_tokens()?;
                Ok(Item::Directive(
                    format!("\t.file\t{}", join_tokens(&toks)).into(),
                ))
            }
            ".section" => self.section(),
            ".pragma" | ".alias" => {
                let toks = self.tokens_until_semicolon()?;
                Ok(Item::Directive(format!("{};", join_tokens(&toks)).into()))
            }
            ".version" | ".target" => self.err(t, format!("duplicate '{}' directive", t.text)),
            s if VAR_SPACES.contains(&s) => self.variable(&[]),
            _ => self.err(t, format!("unknown directive '{}'", t.text)),
        }
    }

    fn rest_of_line_tokens(&mut self) -> Result<Vec<Token<'s>>, Diagnostic> {
        let mut v = Vec::new();
        while self.tok.kind != Tok::Eof && !self.tok.newline_before {
            v.push(self.bump()?);
        }
        Ok(v)
    }

    fn tokens_until_semicolon(&mut self) -> Result<Vec<Token<'s>>, Diagnostic> {
        let mut v = Vec::new();
        let mut depth = 0i32;
        loop {
            let t = self.tok;
            match t.kind {
                Tok::Eof => return self.err(t, "unexpected end of file; expected ';'"),
                Tok::Punct if t.is(b';') && depth == 0 => {
                    self.bump()?;
                    return Ok(v);
                }
                Tok::Punct if t.is(b'{') || t.is(b'(') || t.is(b'[') => depth += 1,
                Tok::Punct if t.is(b'}') || t.is(b')') || t.is(b']') => depth -= 1,
                _ => {}
            }
            if depth < 0 {
                return self.err(t, format!("unbalanced {}", Self::describe(&t)));
            }
            v.push(self.bump()?);
        }
    }

    fn section(&mut self) -> Result<Item, Diagnostic> {
        // The lexer sits right after `.section`; scan the body as raw text.
        debug_assert!(self.peeked.is_none());
        let name = self.lex.next_token()?;
        if name.kind != Tok::Dot && name.kind != Tok::Ident {
            return self.err(name, "expected a section name");
        }
        let open = self.lex.next_token()?;
        if !open.is(b'{') {
            return self.err(
                open,
                format!(
                    "expected '{{' after section name, found {}",
                    Self::describe(&open)
                ),
            );
        }
        let src = self.lex_src();
        let bytes = src.as_bytes();
        let mut i = open.pos as usize + 1;
        let mut depth = 1;
        let body_start = i;
        let mut text = String::new();
        while depth > 0 {
            match bytes.get(i) {
                None => {
                    return Err(Diagnostic::new(
                        bytes.len(),
                        "unexpected end of file in '.section'; expected '}'",
                    ))
                }
                Some(b'/') if bytes.get(i + 1) == Some(&b'/') => {
                    while i < bytes.len() && bytes[i] != b'\n' {
                        i += 1;
                    }
                    continue;
                }
                Some(b'/') if bytes.get(i + 1) == Some(&b'*') => {
                    let rest = &src[i + 2..];
                    match rest.find("*/") {
                        Some(k) => i += 2 + k + 2,
                        None => return Err(Diagnostic::new(i, "unterminated block comment")),
                    }
                    continue;
                }
                Some(b'"') => {
                    let s = i;
                    i += 1;
                    while i < bytes.len() && bytes[i] != b'"' && bytes[i] != b'\n' {
                        i += 1;
                    }
                    if bytes.get(i) != Some(&b'"') {
                        return Err(Diagnostic::new(s, "unterminated string"));
                    }
                    text.push_str(&src[s..=i]);
                    i += 1;
                    continue;
                }
                Some(b'{') => depth += 1,
                Some(b'}') => depth -= 1,
                Some(&b) if b >= 0x80 => {
                    // Copy a whole UTF-8 character (the fuzzer found each
                    // byte of one copied as a character of its own).
                    let ch = src[i..].chars().next().expect("i is a char boundary");
                    text.push(ch);
                    i += ch.len_utf8();
                    continue;
                }
                Some(_) => {}
            }
            if depth > 0 {
                text.push(bytes[i] as char);
            }
            i += 1;
        }
        let _ = body_start;
        self.lex.set_offset(i);
        self.tok = self.lex.next_token()?;
        let mut out = format!("\t.section\t{}\n\t{{", name.text);
        for line in text.lines() {
            let l = line.split_whitespace().collect::<Vec<_>>().join(" ");
            if !l.is_empty() {
                out.push('\n');
                out.push_str(&l);
            }
        }
        out.push_str("\n\t}");
        Ok(Item::Directive(out.into()))
    }

    fn lex_src(&self) -> &'s str {
        self.lex.source()
    }

    fn variable(&mut self, linkage: &[Token<'s>]) -> Result<Item, Diagnostic> {
        let toks = self.tokens_until_semicolon()?;
        let mut name = None;
        let mut depth = 0;
        for t in &toks {
            if t.is(b'=') {
                break;
            }
            if t.is(b'[') {
                depth += 1;
            } else if t.is(b']') {
                depth -= 1;
            } else if t.kind == Tok::Ident && depth == 0 {
                self.globals.insert(t.text);
                name.get_or_insert(t.text);
            }
        }
        let Some(name) = name else {
            let at = toks.last().copied().unwrap_or(self.tok);
            return self.err(at, "expected a variable name");
        };
        let mut all: Vec<Token> = linkage.to_vec();
        all.extend(toks);
        Ok(Item::Var(GlobalVar {
            name: name.into(),
            text: join_tokens(&all).into(),
            decl: crate::vars::var_decl(&all),
        }))
    }

    fn param_list(&mut self, b: &mut FnBuilder<'s>) -> Result<Vec<ParamDecl>, Diagnostic> {
        self.expect(b'(')?;
        let mut out = Vec::new();
        if self.tok.is(b')') {
            self.bump()?;
            return Ok(out);
        }
        let mut toks = Vec::new();
        loop {
            toks.clear();
            let mut depth = 0;
            loop {
                let t = self.tok;
                if t.kind == Tok::Eof {
                    return self.err(t, "unexpected end of file in parameter list");
                }
                if depth == 0 && (t.is(b',') || t.is(b')')) {
                    break;
                }
                if depth == 0 && (t.is(b'{') || t.is(b';')) {
                    return self.err(
                        t,
                        format!(
                            "expected ')' to end the parameter list, found {}",
                            Self::describe(&t)
                        ),
                    );
                }
                if t.is(b'[') {
                    depth += 1;
                } else if t.is(b']') {
                    depth -= 1;
                }
                toks.push(self.bump()?);
            }
            let name = toks.iter().rev().find(|t| t.kind == Tok::Ident).copied();
            let Some(name) = name else {
                return self.err(self.tok, "expected a parameter name");
            };
            let mut text = joined(self.lex_src(), &toks);
            let mut printed = std::borrow::Cow::Borrowed(name.text);
            if toks.first().map(|t| t.text) == Some(".reg") {
                // `.reg` parameters keep a name of their own, never one the
                // printer could give an SSA register.
                printed = pinned_name(name.text).into();
                if printed != name.text {
                    if let Some((head, tail)) = text.rsplit_once(name.text) {
                        text = format!("{head}{printed}{tail}").into();
                    }
                }
                let sym = b.func.ops.sym(&printed);
                b.scopes[0].regs.insert(name.text, RegDecl::Pinned(sym));
            } else {
                let sym = b.func.ops.sym(name.text);
                b.scopes[0].syms.insert(name.text, sym);
            }
            out.push(ParamDecl {
                text: text.into(),
                name: printed.into(),
                decl: crate::vars::var_decl(&toks),
            });
            if self.bump()?.is(b')') {
                return Ok(out);
            }
        }
    }

    fn function(&mut self, linkage: Vec<Box<str>>) -> Result<Unit, Diagnostic> {
        let kw = self.bump()?;
        let kind = if kw.text == ".entry" {
            FuncKind::Entry
        } else {
            FuncKind::Func
        };
        let mut b = FnBuilder::new();
        let rets = if kind == FuncKind::Func && self.tok.is(b'(') {
            Some(self.param_list(&mut b)?)
        } else {
            None
        };
        let name = self.tok;
        if name.kind != Tok::Ident {
            return self.err(
                name,
                format!("expected function name, found {}", Self::describe(&name)),
            );
        }
        self.bump()?;
        self.globals.insert(name.text);
        b.func.name = name.text.into();
        b.func.kind = kind;
        b.func.linkage = linkage;
        b.func.rets = rets;
        b.func.params = if self.tok.is(b'(') {
            Some(self.param_list(&mut b)?)
        } else {
            None
        };
        while self.tok.kind == Tok::Dot
            && (FUNC_ATTRS.contains(&self.tok.text) || self.tok.text == ".pragma")
        {
            let d = self.bump()?;
            let mut toks = vec![d];
            if d.text == ".pragma" {
                toks.extend(self.tokens_until_semicolon()?);
                let mut s = join_tokens(&toks);
                s.push(';');
                b.func.attrs.push(s.into());
                continue;
            }
            while matches!(self.tok.kind, Tok::Number) || self.tok.is(b',') {
                toks.push(self.bump()?);
            }
            b.func.attrs.push(join_tokens(&toks).into());
        }
        if self.tok.is(b';') {
            self.bump()?;
            return Ok(Unit::Item(Item::Func(Box::new(b.func))));
        }
        // nvcc 2.x-4.x declared a function before its definition without the
        // closing ';' (ptxas takes it): a signature that the next top-level
        // item follows directly is a declaration.
        let next_item = self.tok.kind == Tok::Eof
            || self.tok.kind == Tok::Dot
                && matches!(
                    self.tok.text,
                    ".visible" | ".extern" | ".weak" | ".entry" | ".func" | ".global" | ".const"
                );
        if next_item {
            return Ok(Unit::Item(Item::Func(Box::new(b.func))));
        }
        if !self.tok.is(b'{') {
            let found = Self::describe(&self.tok);
            return self.err(
                self.tok,
                format!("expected '{{' or ';' after function signature, found {found}"),
            );
        }
        if !self.defined.insert(name.text) {
            return self.err(
                name,
                format!("duplicate definition of function '{}'", name.text),
            );
        }
        b.reserve_for(&self.lex_src().as_bytes()[self.tok.pos as usize..]);
        self.bump()?;
        b.func.has_body = true;
        self.body(&mut b)?;
        let vars = std::mem::take(&mut b.vars);
        Ok(Unit::Body(Box::new(PendingBody { func: b.func, vars })))
    }
}

/// How a register name resolves.
#[derive(Clone, Copy, Debug)]
enum RegDecl {
    Var(u32),
    Pinned(Sym),
}

impl Scope<'_> {
    /// The range this scope declares under `prefix`, if `idx` is within it.
    /// Few prefixes per scope: a linear scan beats hashing.
    #[inline]
    fn range(&self, prefix: &str, idx: u32) -> Option<u32> {
        let &(_, range, count) = self.ranges.iter().find(|(p, _, _)| short_eq(p, prefix))?;
        (idx < count).then_some(range)
    }
}

#[derive(Default)]
struct Scope<'s> {
    id: u32,
    regs: FxHashMap<&'s str, RegDecl>,
    /// Range declarations `%r<N>`: (prefix, range id, count).
    ranges: SmallVec<[(&'s str, u32, u32); 8]>,
    syms: FxHashMap<&'s str, Sym>,
    /// Vector register ranges: prefix → (printed prefix, count).
    pinned_ranges: FxHashMap<&'s str, (String, u32)>,
}

struct PendingTarget<'s> {
    inst: Inst,
    slot: usize,
    label: &'s str,
    scope: u32,
    pos: u32,
}

#[derive(Clone)]
struct BranchTable<'s> {
    labels: Vec<(Token<'s>, u32)>,
    /// Index of its declaration in `Function::decls`, rewritten once labels
    /// have their final names.
    decl: usize,
    name: String,
}

/// For each scope id, the nearest scope at or above it that declares a
/// label (`u32::MAX`: none). A parent's id is always below its child's.
fn label_scopes(b: &FnBuilder<'_>) -> Vec<u32> {
    let n = b.scope_parent.len();
    let mut has = vec![false; n];
    for &(s, _) in b.labels.keys() {
        has[s as usize] = true;
    }
    let mut near = vec![u32::MAX; n];
    for s in 0..n {
        near[s] = if has[s] {
            s as u32
        } else {
            match b.scope_parent[s] {
                u32::MAX => u32::MAX,
                parent => near[parent as usize],
            }
        };
    }
    near
}

/// A function under construction.
struct FnBuilder<'s> {
    func: Function,
    vars: Vec<Var>,
    ranges: Vec<Type>,
    /// Per range, whether its prefix is its class's (`%r` for `.b32`), so
    /// that its registers keep their numbers when printed.
    range_numbered: Vec<bool>,
    /// Per range, the variable of each register used so far (`u32::MAX`:
    /// not yet).
    range_vars: Vec<Vec<u32>>,
    scopes: Vec<Scope<'s>>,
    /// Indices in `scopes` of the open scopes that declare something, in
    /// order: lookups visit only these, so a use under 50,000 empty nested
    /// scopes costs what it costs at the top.
    declaring: Vec<u32>,
    scope_parent: Vec<u32>,
    labels: FxHashMap<(u32, &'s str), Block>,
    pending: Vec<PendingTarget<'s>>,
    tables: FxHashMap<Sym, BranchTable<'s>>,
    local_names: FxHashSet<String>,
    /// Per declared name, the last suffix `unique_name` gave it.
    suffixes: FxHashMap<&'s str, u32>,
    entry: Block,
    cur: Option<Block>,
    loc: u32,
    /// Whether `loc` has not been attached to an instruction yet.
    loc_pending: bool,
    loc_ids: FxHashMap<String, u32>,
    /// The function's copy of each module form it uses, by the module
    /// form's index.
    forms: Vec<Option<OpId>>,
}

impl<'s> FnBuilder<'s> {
    /// A builder for a new function.
    fn new() -> Self {
        let mut func = Function::new("", FuncKind::Func);
        let entry = func.dfg.make_block();
        func.layout.append_block(entry);
        FnBuilder {
            func,
            vars: Vec::new(),
            ranges: Vec::new(),
            range_numbered: Vec::new(),
            range_vars: Vec::new(),
            scopes: vec![Scope::default()],
            declaring: vec![0],
            scope_parent: vec![u32::MAX],
            labels: FxHashMap::default(),
            pending: Vec::new(),
            tables: FxHashMap::default(),
            local_names: FxHashSet::default(),
            suffixes: FxHashMap::default(),
            entry,
            cur: Some(entry),
            loc: 0,
            loc_pending: false,
            loc_ids: FxHashMap::default(),
            forms: Vec::new(),
        }
    }

    /// Sizes the arenas for a body whose `{` starts `body`: one instruction
    /// per `;` up to the matching `}`. (Only a guess, blind to comments: a
    /// wrong one costs regrowth or spare room.)
    fn reserve_for(&mut self, body: &[u8]) {
        let mut depth = 0u32;
        let mut end = body.len();
        for k in memchr::memchr2_iter(b'{', b'}', body) {
            if body[k] == b'{' {
                depth += 1;
            } else {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    end = k;
                    break;
                }
            }
        }
        let insts = memchr::memchr_iter(b';', &body[..end]).count() + 4;
        self.func.dfg.reserve(insts);
        self.func.layout.reserve(insts);
        // Distinct forms and strings grow far slower than the body; room
        // for a typical function's spares most regrowth of their tables.
        let room = insts.min(64) / 2;
        self.func.ops.reserve(room, room);
    }

    fn scope_id(&self) -> u32 {
        self.scopes.last().map_or(0, |s| s.id)
    }

    /// The innermost scope, to declare something in.
    fn top_scope(&mut self) -> &mut Scope<'s> {
        let top = self.scopes.len() as u32 - 1;
        if self.declaring.last() != Some(&top) {
            self.declaring.push(top);
        }
        self.scopes
            .last_mut()
            .expect("the function scope is never popped")
    }

    /// Closes the innermost scope.
    fn pop_scope(&mut self) {
        let top = self.scopes.len() as u32 - 1;
        if self.declaring.last() == Some(&top) {
            self.declaring.pop();
        }
        self.scopes.pop();
    }

    /// Resolves a register name through the scope chain.
    #[inline]
    fn lookup_reg(&mut self, name: &str) -> Option<RegDecl> {
        // Nearly every use names a register of a range (`%r12` of
        // `%r<20>`) that the innermost declaring scope declares: found
        // here without the general search's set-up. Anything else,
        // including a range hit with the index out of bounds (a plain
        // register of the same scope may still match), is left to it.
        let (split, idx) = split_index(name);
        if let (Some(idx), Some(&top)) = (idx, self.declaring.last()) {
            if let Some(range) = self.scopes[top as usize].range(split, idx) {
                return Some(RegDecl::Var(self.range_var(range, idx)));
            }
        }
        self.lookup_reg_in_scopes(name)
    }

    /// [`FnBuilder::lookup_reg`] through every declaring scope. It splits
    /// the name again: passing the split in costs the inlined fast case
    /// more than the split costs here.
    #[inline(never)]
    fn lookup_reg_in_scopes(&mut self, name: &str) -> Option<RegDecl> {
        let (split, idx) = split_index(name);
        for k in (0..self.declaring.len()).rev() {
            let s = &self.scopes[self.declaring[k] as usize];
            if let Some(n) = idx {
                if let Some(range) = s.range(split, n) {
                    return Some(RegDecl::Var(self.range_var(range, n)));
                }
            }
            if let Some(&r) = s.regs.get(name) {
                return Some(r);
            }
            // Rarely declared: skip hashing the name when none are.
            if let Some(n) = idx.filter(|_| !s.pinned_ranges.is_empty()) {
                if let Some((printed, count)) = s.pinned_ranges.get(split) {
                    if n < *count {
                        let full = format!("{printed}{n}");
                        return Some(RegDecl::Pinned(self.func.ops.sym(&full)));
                    }
                }
            }
        }
        None
    }

    /// The variable of register `n` of range `range`, made on first use.
    #[inline]
    fn range_var(&mut self, range: u32, n: u32) -> u32 {
        match self.range_vars[range as usize].get(n as usize) {
            Some(&v) if v != u32::MAX => v,
            _ => self.new_range_var(range, n),
        }
    }

    /// [`FnBuilder::range_var`] on the register's first use.
    #[inline(never)]
    fn new_range_var(&mut self, range: u32, n: u32) -> u32 {
        let slots = &mut self.range_vars[range as usize];
        if slots.len() <= n as usize {
            slots.resize(n as usize + 1, u32::MAX);
        }
        let ty = self.ranges[range as usize];
        self.vars.push(Var { ty });
        // Kept in step with `vars`: the register each variable's name gives.
        self.func
            .source_regs
            .push(self.range_numbered[range as usize].then_some(Reg {
                class: ty.reg_class(),
                num: n,
            }));
        let v = (self.vars.len() - 1) as u32;
        self.range_vars[range as usize][n as usize] = v;
        v
    }

    fn lookup_sym(&self, name: &str) -> Option<Sym> {
        self.declaring
            .iter()
            .rev()
            .find_map(|&d| self.scopes[d as usize].syms.get(name).copied())
    }

    /// `name`, or `name_k` for the smallest `k` not yet taken. Names are
    /// never released, so the search for a name resumes after the suffix
    /// it last handed out (one step per call, not one per earlier call).
    fn unique_name(&mut self, name: &'s str) -> String {
        if self.local_names.insert(name.to_string()) {
            return name.to_string();
        }
        let k = self.suffixes.entry(name).or_insert(0);
        loop {
            *k += 1;
            let n = format!("{name}_{k}");
            if self.local_names.insert(n.clone()) {
                return n;
            }
        }
    }

    fn new_block(&mut self) -> Block {
        let b = self.func.dfg.make_block();
        self.func.layout.append_block(b);
        b
    }

    /// The block instructions go to now.
    fn block(&mut self) -> Block {
        match self.cur {
            Some(b) => b,
            None => {
                let b = self.new_block();
                self.cur = Some(b);
                b
            }
        }
    }

    fn jump_to(&mut self, from: Block, to: Block) {
        let op = self.func.ops.intern(Opcode::Jump, &[]);
        let mut d = InstData::new(op, SmallVec::new());
        d.targets.push(BlockCall::new(to));
        let i = self.func.dfg.insts.push(d);
        self.func.layout.append_inst(i, from);
    }

    fn append(&mut self, d: InstData) -> Inst {
        self.loc_pending = false;
        let b = self.block();
        let i = self.func.dfg.insts.push(d);
        self.func.layout.append_inst(i, b);
        i
    }

    /// A new instruction of form `op` written at byte `pos`, under `guard`,
    /// at the current debug location (no operands yet).
    #[inline]
    fn new_inst(&self, op: OpId, pos: u32, guard: Option<(Guard, u32)>) -> InstData {
        let mut d = InstData::new(op, SmallVec::new());
        d.pos = pos;
        d.loc = self.loc;
        d.guard = guard.map(|(g, _)| g);
        d
    }

    /// Appends terminator `d` (a branch, `ret` or `exit`) with a target per
    /// label, resolved when the body ends, and, when it is guarded, the
    /// fall-through block, which becomes the current one.
    fn branch_to(&mut self, mut d: InstData, labels: SmallVec<[(Token<'s>, u32); 1]>) {
        let guarded = d.guard.is_some();
        for _ in &labels {
            d.targets.push(BlockCall::new(self.entry));
        }
        let fall = if guarded {
            let nb = self.func.dfg.make_block();
            d.targets.push(BlockCall::new(nb));
            Some(nb)
        } else {
            None
        };
        let i = self.append(d);
        for (slot, (l, scope)) in labels.into_iter().enumerate() {
            self.pending.push(PendingTarget {
                inst: i,
                slot,
                label: l.text,
                scope,
                pos: l.pos,
            });
        }
        match fall {
            Some(nb) => {
                self.func.layout.append_block(nb);
                self.cur = Some(nb);
            }
            None => self.cur = None,
        }
    }
}

/// `%r12` split into the prefix `%r` and the index 12 that range
/// declarations (`%r<20>`) number; no index unless the name ends in one to
/// ten digits whose value fits in a `u32`.
#[inline]
fn split_index(name: &str) -> (&str, Option<u32>) {
    let bytes = name.as_bytes();
    let mut k = bytes.len();
    let mut idx: u64 = 0;
    let mut scale: u64 = 1;
    while k > 0 && bytes[k - 1].is_ascii_digit() && scale <= 1_000_000_000 {
        idx += (bytes[k - 1] - b'0') as u64 * scale;
        scale *= 10;
        k -= 1;
    }
    let idx = (k < bytes.len() && idx <= u32::MAX as u64).then_some(idx as u32);
    (&name[..k], idx)
}

/// String equality for register prefixes (`%r`, `%rd`): a byte loop
/// beats a `memcmp` call at these lengths.
#[inline]
fn short_eq(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.bytes().zip(b.bytes()).all(|(x, y)| x == y)
}

/// Terminator kinds the parser handles itself.
fn is_branch(m: &str) -> bool {
    matches!(m, "bra" | "ret" | "exit" | "brx")
}

impl<'s> Parser<'s> {
    fn body(&mut self, b: &mut FnBuilder<'s>) -> Result<(), Diagnostic> {
        let mut next_scope = 1u32;
        loop {
            let t = self.tok;
            match t.kind {
                Tok::Eof => return self.err(t, "unexpected end of file; expected '}'"),
                Tok::Punct if t.is(b'}') => {
                    self.bump()?;
                    if b.scopes.len() == 1 {
                        break;
                    }
                    b.pop_scope();
                }
                Tok::Punct if t.is(b'{') => {
                    self.bump()?;
                    let parent = b.scope_id();
                    b.scopes.push(Scope {
                        id: next_scope,
                        ..Default::default()
                    });
                    b.scope_parent.push(parent);
                    next_scope += 1;
                }
                Tok::Punct if t.is(b'@') => {
                    self.bump()?;
                    let g = self.guard(b)?;
                    self.instruction(b, Some(g))?;
                }
                Tok::Dot => self.body_directive(b)?,
                Tok::Ident => {
                    if self.may_be_label(t) && self.peek()?.is(b':') {
                        self.bump()?;
                        self.bump()?;
                        if self.tok.kind == Tok::Dot
                            && matches!(
                                self.tok.text,
                                ".callprototype" | ".branchtargets" | ".calltargets"
                            )
                        {
                            self.label_decl(b, t)?;
                        } else {
                            self.label(b, t)?;
                        }
                    } else {
                        self.instruction(b, None)?;
                    }
                }
                _ => {
                    return self.err(
                        t,
                        format!("unexpected {} in function body", Self::describe(&t)),
                    )
                }
            }
        }
        self.finish(b)
    }

    fn finish(&mut self, b: &mut FnBuilder<'s>) -> Result<(), Diagnostic> {
        if let Some(cur) = b.cur {
            let op = b.func.ops.intern_text("ret");
            let i = b.func.dfg.insts.push(InstData::new(op, SmallVec::new()));
            b.func.layout.append_inst(i, cur);
        }
        // Resolve branch targets through the scope chain.
        let near = label_scopes(b);
        let pending = std::mem::take(&mut b.pending);
        for p in pending {
            let blk = Self::resolve_label(b, &near, p.label, p.scope, p.pos)?;
            b.func.dfg.insts[p.inst].targets[p.slot].block = blk;
        }
        // Make label names unique within the function (labels of one
        // scope already are: only nested scopes can repeat a name).
        if b.labels.keys().any(|&(scope, _)| scope != 0) {
            let mut seen: FxHashSet<String> = FxHashSet::default();
            let blocks: Vec<Block> = b.func.layout.blocks().collect();
            for blk in blocks {
                if let Some(l) = b.func.dfg.blocks[blk].label {
                    let name = b.func.ops.word(l).to_string();
                    let mut n = name.clone();
                    let mut k = 0;
                    while !seen.insert(n.clone()) {
                        k += 1;
                        n = format!("{name}_{k}");
                    }
                    if n != name {
                        b.func.dfg.blocks[blk].label = Some(b.func.ops.sym(&n));
                    }
                }
            }
        }
        // `.branchtargets` lists name the labels by their final names.
        let tables: Vec<BranchTable<'s>> = b.tables.values().cloned().collect();
        for BranchTable { decl, name, labels } in tables {
            let mut names = Vec::new();
            for (l, scope) in labels {
                let blk = Self::resolve_label(b, &near, l.text, scope, l.pos)?;
                let sym = b.func.dfg.blocks[blk].label.expect("labelled block");
                names.push(b.func.ops.word(sym).to_string());
            }
            b.func.decls[decl] = format!("{name}: .branchtargets {}", names.join(", ")).into();
        }
        Ok(())
    }

    /// The block `label` names as seen from `scope`: the innermost
    /// enclosing scope that declares it. Only scopes that declare labels
    /// are visited (`near`, from [`label_scopes`]), so a branch under
    /// 50,000 nested scopes costs what it costs at the top.
    fn resolve_label(
        b: &FnBuilder<'s>,
        near: &[u32],
        label: &str,
        scope: u32,
        pos: u32,
    ) -> Result<Block, Diagnostic> {
        let mut s = near[scope as usize];
        while s != u32::MAX {
            if let Some(&blk) = b.labels.get(&(s, label)) {
                return Ok(blk);
            }
            s = match b.scope_parent[s as usize] {
                u32::MAX => u32::MAX,
                parent => near[parent as usize],
            };
        }
        Err(Diagnostic::new(
            pos as usize,
            format!("use of undefined label '{label}'"),
        ))
    }

    fn label(&mut self, b: &mut FnBuilder<'s>, t: Token<'s>) -> Result<(), Diagnostic> {
        let scope = b.scope_id();
        let blk = match b.cur {
            Some(c)
                if c != b.entry
                    && b.func.layout.first_inst(c).is_none()
                    && b.func.dfg.blocks[c].label.is_none() =>
            {
                c
            }
            Some(c) => {
                let nb = b.new_block();
                b.jump_to(c, nb);
                nb
            }
            None => b.new_block(),
        };
        if b.labels.insert((scope, t.text), blk).is_some() {
            return self.err(t, format!("duplicate label '{}'", t.text));
        }
        b.func.dfg.blocks[blk].label = Some(b.func.ops.sym(t.text));
        b.cur = Some(blk);
        Ok(())
    }

    fn label_decl(&mut self, b: &mut FnBuilder<'s>, name: Token<'s>) -> Result<(), Diagnostic> {
        let kind = self.bump()?;
        let toks = self.tokens_until_semicolon()?;
        let unique = b.unique_name(name.text);
        let sym = b.func.ops.sym(&unique);
        let scope = b.scope_id();
        if b.top_scope().syms.insert(name.text, sym).is_some() {
            return self.err(name, format!("duplicate declaration of '{}'", name.text));
        }
        if kind.text == ".branchtargets" {
            let labels = toks
                .iter()
                .filter(|t| t.kind == Tok::Ident)
                .map(|t| (*t, scope))
                .collect();
            let decl = b.func.decls.len();
            b.tables.insert(
                sym,
                BranchTable {
                    labels,
                    decl,
                    name: unique.clone(),
                },
            );
        }
        b.func
            .decls
            .push(format!("{unique}: {} {}", kind.text, join_tokens(&toks)).into());
        Ok(())
    }

    fn body_directive(&mut self, b: &mut FnBuilder<'s>) -> Result<(), Diagnostic> {
        let t = self.tok;
        match t.text {
            ".reg" => self.reg_decl(b),
            ".param" | ".local" | ".shared" | ".const" | ".global" => {
                let toks = self.tokens_until_semicolon()?;
                let mut depth = 0;
                let name_at = toks.iter().position(|x| {
                    if x.is(b'[') {
                        depth += 1;
                    } else if x.is(b']') {
                        depth -= 1;
                    }
                    x.kind == Tok::Ident && depth == 0
                });
                let Some(k) = name_at else {
                    return self.err(t, "expected a variable name in declaration");
                };
                let name = toks[k];
                let unique = b.unique_name(name.text);
                let sym = b.func.ops.sym(&unique);
                if b.top_scope().syms.insert(name.text, sym).is_some() {
                    return self.err(name, format!("duplicate declaration of '{}'", name.text));
                }
                let mut text = join_tokens(&toks[..k]);
                let rest = join_tokens(&toks[k + 1..]);
                text.push(' ');
                text.push_str(&unique);
                if !rest.is_empty() {
                    if !rest.starts_with('[') {
                        text.push(' ');
                    }
                    text.push_str(&rest);
                }
                let var = crate::vars::var_decl(&toks).map(|d| (unique.clone().into(), d));
                b.func.decls.push(ptx_ir::BodyDecl {
                    text: text.into(),
                    var,
                });
                Ok(())
            }
            ".loc" => {
                self.bump()?;
                let toks = self.rest_of_line_tokens()?;
                let mut text = join_tokens(&toks);
                // Consecutive `.loc`s with no instruction between are all
                // kept (a later `inlined_at` may name any of them).
                if b.loc_pending && b.loc != 0 {
                    text = format!(
                        "{}{}{text}",
                        b.func.locs[b.loc as usize],
                        ptx_ir::function::LOC_SEPARATOR
                    );
                }
                b.loc_pending = true;
                let next = b.func.locs.len() as u32;
                let id = *b.loc_ids.entry(text.clone()).or_insert(next);
                if id == next {
                    b.func.locs.push(text.into());
                }
                b.loc = id;
                Ok(())
            }
            ".pragma" => {
                self.bump()?;
                let toks = self.tokens_until_semicolon()?;
                let op = b.func.ops.intern_text(".pragma");
                let sym = b.func.ops.sym(&join_tokens(&toks));
                let mut d = InstData::new(op, SmallVec::from_elem(Operand::Symbol(sym, 0), 1));
                d.pos = t.pos;
                d.loc = b.loc;
                b.append(d);
                Ok(())
            }
            _ => self.err(t, format!("unknown directive '{}'", t.text)),
        }
    }

    fn reg_decl(&mut self, b: &mut FnBuilder<'s>) -> Result<(), Diagnostic> {
        let start = self.bump()?;
        let mut vector = None;
        if matches!(self.tok.text, ".v2" | ".v4" | ".v8") && self.tok.kind == Tok::Dot {
            vector = Some(self.bump()?);
        }
        let tt = self.bump()?;
        let ty = match (tt.kind, tt.text.strip_prefix('.').and_then(Type::from_name)) {
            (Tok::Dot, Some(t)) => t,
            _ => return self.err(tt, format!("unknown register type {}", Self::describe(&tt))),
        };
        loop {
            let name = self.bump()?;
            if name.kind != Tok::Ident {
                return self.err(
                    name,
                    format!("expected a register name, found {}", Self::describe(&name)),
                );
            }
            let mut count = None;
            if self.tok.is(b'<') {
                self.bump()?;
                let n = self.bump()?;
                let c: u32 = match (n.kind, n.text.parse()) {
                    (Tok::Number, Ok(c)) => c,
                    _ => return self.err(n, "expected a register count"),
                };
                if !self.tok.is(b'>') {
                    return self.err(
                        self.tok,
                        format!("expected '>', found {}", Self::describe(&self.tok)),
                    );
                }
                self.bump()?;
                count = Some(c);
            }
            if self.duplicate_reg(b, name.text, count) {
                return self.err(name, format!("duplicate register '{}'", name.text));
            }
            match (vector, count) {
                (Some(v), _) => {
                    // Vector registers stay out of SSA, under a name the
                    // printer never generates.
                    let printed = pinned_name(name.text);
                    let text = match count {
                        Some(c) => format!(".reg {} .{} {printed}<{c}>", v.text, ty.name()),
                        None => format!(".reg {} .{} {printed}", v.text, ty.name()),
                    };
                    match count {
                        Some(c) => {
                            b.top_scope().pinned_ranges.insert(name.text, (printed, c));
                        }
                        None => {
                            let sym = b.func.ops.sym(&printed);
                            b.top_scope().regs.insert(name.text, RegDecl::Pinned(sym));
                        }
                    }
                    b.func.decls.push(text.into());
                }
                (None, Some(c)) => {
                    let id = b.ranges.len() as u32;
                    b.ranges.push(ty);
                    b.range_numbered
                        .push(name.text == ty.reg_class().reg_prefix());
                    // Declared counts are usually what is used; a huge
                    // one is left to grow on use.
                    b.range_vars.push(vec![u32::MAX; (c as usize).min(1 << 16)]);
                    // Room for a variable per register declared.
                    b.vars.reserve((c as usize).min(1 << 16));
                    b.func.source_regs.reserve((c as usize).min(1 << 16));
                    b.top_scope().ranges.push((name.text, id, c));
                }
                (None, None) => {
                    let reg = match split_index(name.text) {
                        (prefix, Some(num)) if prefix == ty.reg_class().reg_prefix() => Some(Reg {
                            class: ty.reg_class(),
                            num,
                        }),
                        _ => None,
                    };
                    b.vars.push(Var { ty });
                    b.func.source_regs.push(reg);
                    let v = (b.vars.len() - 1) as u32;
                    b.top_scope().regs.insert(name.text, RegDecl::Var(v));
                }
            }
            let sep = self.bump()?;
            if sep.is(b';') {
                break;
            }
            if !sep.is(b',') {
                return self.err(
                    sep,
                    format!(
                        "expected ',' or ';' in '.reg' declaration, found {}",
                        Self::describe(&sep)
                    ),
                );
            }
        }
        let _ = start;
        Ok(())
    }

    fn duplicate_reg(&self, b: &FnBuilder<'s>, name: &str, count: Option<u32>) -> bool {
        let s = b.scopes.last().unwrap();
        if s.regs.contains_key(name) {
            return true;
        }
        match count {
            Some(c) => {
                s.ranges.iter().any(|(p, _, _)| *p == name)
                    || s.regs.keys().any(|r| {
                        r.strip_prefix(name)
                            .and_then(|n| n.parse::<u32>().ok())
                            .is_some_and(|n| n < c)
                    })
            }
            None => {
                let split = name.trim_end_matches(|c: char| c.is_ascii_digit());
                split.len() < name.len()
                    && name[split.len()..]
                        .parse::<u32>()
                        .ok()
                        .is_some_and(|n| s.ranges.iter().any(|&(p, _, c)| p == split && n < c))
            }
        }
    }

    fn guard(&mut self, b: &mut FnBuilder<'s>) -> Result<(Guard, u32), Diagnostic> {
        let mut negated = false;
        if self.tok.is(b'!') {
            self.bump()?;
            negated = true;
        }
        let r = self.tok;
        let var = match r.kind {
            Tok::Ident => match b.lookup_reg(r.text) {
                Some(RegDecl::Var(v)) => v,
                _ => {
                    return self.err(
                        r,
                        format!(
                            "expected a predicate register after '@', found {}",
                            Self::describe(&r)
                        ),
                    )
                }
            },
            _ => {
                return self.err(
                    r,
                    format!(
                        "expected a predicate register after '@', found {}",
                        Self::describe(&r)
                    ),
                )
            }
        };
        if b.vars[var as usize].ty != Type::Pred {
            return self.err(r, format!("guard register '{}' is not a predicate", r.text));
        }
        self.bump()?;
        Ok((
            Guard {
                pred: Value::new(var as usize),
                negated,
            },
            r.pos,
        ))
    }

    fn instruction(
        &mut self,
        b: &mut FnBuilder<'s>,
        guard: Option<(Guard, u32)>,
    ) -> Result<(), Diagnostic> {
        if self.fast && self.instruction_fast(b, guard)? {
            return Ok(());
        }
        let m = self.bump()?;
        if m.kind != Tok::Ident {
            return self.err(
                m,
                format!("expected an instruction, found {}", Self::describe(&m)),
            );
        }

        // Spelling: mnemonic plus every modifier token that follows. The
        // usual unbroken `mnemonic.mod.mod` is scanned in one go from the
        // lexer, which sits right after the first modifier.
        let src = self.lex_src();
        let mut end = m.pos as usize + m.text.len();
        if self.tok.kind == Tok::Dot && self.tok.pos as usize == end {
            end = m.pos as usize + self.lex.opcode_tail(m.pos as usize).len();
            self.tok = self.lex.next_token()?;
        }
        let mut contiguous = true;
        let mut owned = String::new();
        let mut last_end = end;
        while self.tok.kind == Tok::Dot
            && (!self.tok.text[1..].starts_with(|c: char| c.is_ascii_digit())
                || self.tok.pos as usize == last_end)
        {
            let d = self.bump()?;
            last_end = d.pos as usize + d.text.len();
            if contiguous && d.pos as usize != end {
                contiguous = false;
                owned.push_str(&src[m.pos as usize..end]);
            }
            if contiguous {
                end = d.pos as usize + d.text.len();
            } else {
                owned.push_str(d.text);
            }
        }
        let text = if contiguous {
            &src[m.pos as usize..end]
        } else {
            owned.as_str()
        };
        let op = self.resolve_op(b, m, text)?;
        let mut d = b.new_inst(op, m.pos, guard);
        let opcode = b.func.ops.info(op).opcode;
        if is_branch(m.text) {
            return self.branch(b, d, m);
        }
        let is_call = opcode == Opcode::Call;
        let mut positions: SmallVec<[u32; 6]> = SmallVec::new();
        if !self.tok.is(b';') {
            loop {
                positions.push(self.tok.pos);
                let mut o = self.operand(b, is_call)?;
                if self.tok.is(b'+') && !d.operands.is_empty() {
                    o = self.register_plus_immediate(b, o)?;
                }
                d.operands.push(o);
                if self.tok.is(b',') {
                    self.bump()?;
                    continue;
                }
                if self.tok.is(b';') {
                    break;
                }
                return self.missing_separator();
            }
        }
        let semi = self.bump()?;
        self.check_operands(b, &d, &positions, semi)?;
        b.append(d);
        Ok(())
    }

    /// A source operand `%r + N` (ptxas takes it: the register's value
    /// plus N, integer registers only): an `add` of that register and N
    /// into a new register, which becomes the operand.
    fn register_plus_immediate(
        &mut self,
        b: &mut FnBuilder<'s>,
        reg: Operand,
    ) -> Result<Operand, Diagnostic> {
        let plus = self.bump()?;
        let Operand::Value(v) = reg else {
            return self.err(plus, "'+' follows something other than a register");
        };
        let n = self.bump()?;
        if n.kind != Tok::Number {
            return self.err(
                n,
                format!(
                    "expected an integer after '+', found {}",
                    Self::describe(&n)
                ),
            );
        }
        let imm = match parse_literal(n.text, false, &mut b.func.ops.syms) {
            Ok(i) if i.is_int() => i,
            _ => return self.err(n, format!("'{}' is not an integer", n.text)),
        };
        let ty = b.vars[v.index()].ty;
        let add_ty = match (ty.is_float() || ty == Type::Pred, ty.bits()) {
            (false, 16) => Type::U16,
            (false, 32) => Type::U32,
            (false, 64) => Type::U64,
            _ => {
                return self.err(
                    plus,
                    format!(
                        "a register plus an immediate needs an integer register, not .{}",
                        ty.name()
                    ),
                )
            }
        };
        b.vars.push(Var { ty });
        b.func.source_regs.push(None);
        let t = Value::new(b.vars.len() - 1);
        let text = format!("add.{}", add_ty.name());
        let known = match self.ops.lookup_text(&text) {
            Some(k) => k,
            None => self.ops.intern_text(&text),
        };
        let op = self.own_form(b, known);
        let mut add = b.new_inst(op, plus.pos, None);
        add.operands
            .extend([Operand::Value(t), Operand::Value(v), Operand::Imm(imm)]);
        b.append(add);
        Ok(Operand::Value(t))
    }

    /// The form spelled `text` (mnemonic token `m`) in the function's table.
    fn resolve_op(
        &mut self,
        b: &mut FnBuilder<'s>,
        m: Token<'s>,
        text: &str,
    ) -> Result<OpId, Diagnostic> {
        // Decode each spelling once per module, then copy it into each
        // function that uses it. The function's table is never searched
        // by text here (so it never builds its spelling index): the only
        // forms it gets otherwise (`jump`, `.pragma`, a final `ret`) are
        // never spelled by an instruction that comes here before them.
        let known = match self.ops.lookup_text(text) {
            Some(k) => k,
            None if !is_mnemonic(m.text) => {
                return self.err(m, format!("unknown instruction '{}'", m.text));
            }
            None => self.ops.intern_text(text),
        };
        Ok(self.own_form(b, known))
    }

    /// The function's copy of module form `known` (made on first use).
    fn own_form(&mut self, b: &mut FnBuilder<'s>, known: OpId) -> OpId {
        let k = known.index();
        if let Some(&Some(own)) = b.forms.get(k) {
            return own;
        }
        let own = b.func.ops.import_new(&self.ops, known);
        if b.forms.len() <= k {
            // Room for every form the module has so far: one allocation.
            b.forms.resize(self.ops.len().max(k + 1), None);
        }
        b.forms[k] = Some(own);
        own
    }

    fn missing_separator<T>(&self) -> Result<T, Diagnostic> {
        let t = self.tok;
        if t.newline_before || t.is(b'}') || t.kind == Tok::Eof {
            self.err(
                t,
                format!(
                    "expected ';' after instruction, found {}",
                    Self::describe(&t)
                ),
            )
        } else {
            self.err(
                t,
                format!(
                    "expected ',' between operands, found {}",
                    Self::describe(&t)
                ),
            )
        }
    }

    fn check_operands(
        &self,
        b: &FnBuilder<'s>,
        d: &InstData,
        positions: &[u32],
        semi: Token,
    ) -> Result<(), Diagnostic> {
        let info = b.func.ops.info(d.op);
        if let Some((lo, hi)) = operand_counts(info.opcode, bool_form(&b.func.ops, d.op)) {
            let n = d.operands.len();
            let want = || {
                if lo == hi {
                    format!("{lo}")
                } else {
                    format!("{lo} to {hi}")
                }
            };
            if n < lo {
                return self.err(
                    semi,
                    format!("'{}' expects {} operands, found {n}", info.text, want()),
                );
            }
            if n > hi {
                return Err(Diagnostic::new(
                    positions[hi] as usize,
                    format!("too many operands for '{}': expected {}", info.text, want()),
                ));
            }
        }
        let vars = &b.vars;
        let ty_of = |v: Value| vars.get(v.index()).map_or(Type::B32, |x| x.ty);
        if let Some((k, msg)) = operand_type_mismatch(&b.func.ops, d.op, &d.operands, ty_of) {
            return Err(Diagnostic::new(positions[k] as usize, msg));
        }
        if let Some((at, msg)) = crate::forms::check(&b.func.ops, d.op, &d.operands, ty_of) {
            let pos = match at {
                crate::forms::At::Operand(k) if k < positions.len() => positions[k],
                _ => d.pos,
            };
            return Err(Diagnostic::new(pos as usize, msg));
        }
        self.check_needs(&b.func.ops, d.op, d.pos)
    }

    /// The module's `.version` and `.target` against what form `op` needs.
    fn check_needs(
        &self,
        ops: &ptx_ir::OpTable,
        op: ptx_ir::OpId,
        pos: u32,
    ) -> Result<(), Diagnostic> {
        let name = &ops.info(op).text;
        let (v, sm) = (self.version, self.target_sm);
        // `vote` in either spelling is left to the output check: `legalize`
        // rewrites it for the target (vote.sync down to sm_20, and plain
        // vote up past PTX 6.4 on sm_70+).
        if ops.info(op).opcode == ptx_ir::Opcode::Vote {
            return Ok(());
        }
        if let Some(msg) = sm.and_then(|s| crate::forms::arch_error(ops, op, s, self.target_suffix))
        {
            return Err(Diagnostic::new(pos as usize, msg));
        }
        let Some(n) = crate::forms::needs(ops, op) else {
            return Ok(());
        };
        if v < n.version {
            let msg = format!(
                "'{name}' needs PTX ISA {}.{} or later; the module's '.version' is {}.{}",
                n.version.0, n.version.1, v.0, v.1
            );
            return Err(Diagnostic::new(pos as usize, msg));
        }
        if let Some(s) = sm.filter(|&s| s < n.sm) {
            let msg = format!(
                "'{name}' needs .target sm_{} or later; the module's is sm_{s}",
                n.sm
            );
            return Err(Diagnostic::new(pos as usize, msg));
        }
        Ok(())
    }

    fn branch(
        &mut self,
        b: &mut FnBuilder<'s>,
        mut d: InstData,
        m: Token<'s>,
    ) -> Result<(), Diagnostic> {
        let mut labels: SmallVec<[(Token<'s>, u32); 1]> = SmallVec::new();
        match m.text {
            "bra" => {
                let l = self.bump()?;
                if l.kind != Tok::Ident {
                    return self.err(
                        l,
                        format!("expected a label after 'bra', found {}", Self::describe(&l)),
                    );
                }
                labels.push((l, b.scope_id()));
            }
            "brx" => {
                let idx = self.tok;
                let o = self.operand(b, false)?;
                d.operands.push(o);
                if !self.tok.is(b',') {
                    return self.missing_separator();
                }
                self.bump()?;
                let t = self.bump()?;
                let table = match (t.kind, b.lookup_sym(t.text)) {
                    (Tok::Ident, Some(s)) => s,
                    _ => {
                        return self.err(
                            t,
                            format!("use of undeclared branch table {}", Self::describe(&t)),
                        )
                    }
                };
                let Some(tbl) = b.tables.get(&table) else {
                    return self.err(t, format!("'{}' is not a '.branchtargets' list", t.text));
                };
                labels.extend(tbl.labels.iter().copied());
                d.operands.push(Operand::Symbol(table, 0));
                let _ = idx;
            }
            _ => {}
        }
        if !self.tok.is(b';') {
            return self.missing_separator();
        }
        self.bump()?;
        b.branch_to(d, labels);
        Ok(())
    }

    /// One operand. Register operands hold source-register numbers as
    /// values until SSA construction renames them.
    fn operand(&mut self, b: &mut FnBuilder<'s>, in_call: bool) -> Result<Operand, Diagnostic> {
        self.depth += 1;
        let r = if self.depth > MAX_DEPTH {
            self.err(self.tok, "operand nested too deeply")
        } else {
            self.operand_inner(b, in_call)
        };
        self.depth -= 1;
        r
    }

    fn operand_inner(
        &mut self,
        b: &mut FnBuilder<'s>,
        in_call: bool,
    ) -> Result<Operand, Diagnostic> {
        let t = self.tok;
        match t.kind {
            Tok::Ident => {
                self.bump()?;
                if t.text == "_" {
                    return self.pair_tail(b, None);
                }
                match b.lookup_reg(t.text) {
                    Some(RegDecl::Var(v)) => {
                        let v = Value::new(v as usize);
                        if self.tok.kind == Tok::Dot {
                            let s = self.bump()?;
                            let sym = b.func.ops.sym(&s.text[1..]);
                            return Ok(Operand::Sel(v, sym));
                        }
                        return self.pair_tail(b, Some(v));
                    }
                    Some(RegDecl::Pinned(sym)) => {
                        let sel = if self.tok.kind == Tok::Dot {
                            let s = self.bump()?;
                            Some(b.func.ops.sym(&s.text[1..]))
                        } else {
                            None
                        };
                        return Ok(Operand::Pinned(sym, sel));
                    }
                    None => {}
                }
                if t.text == "WARP_SZ" || (t.text.starts_with('%') && is_special_register(t.text)) {
                    let mut name = t.text.to_string();
                    if self.tok.kind == Tok::Dot {
                        name.push_str(self.bump()?.text);
                    }
                    return Ok(Operand::Special(b.func.ops.sym(&name)));
                }
                let sym = match b.lookup_sym(t.text) {
                    Some(s) => s,
                    None if self.globals.contains(t.text) => b.func.ops.sym(t.text),
                    None if self.deferred.is_some() => {
                        self.deferred.get_or_insert_with(Vec::new).push(t.text);
                        b.func.ops.sym(t.text)
                    }
                    None if t.text.starts_with('%') => {
                        return self.err(t, format!("use of undeclared register '{}'", t.text))
                    }
                    None => {
                        return self.err(t, format!("use of undeclared identifier '{}'", t.text))
                    }
                };
                let mut off = 0;
                if self.tok.is(b'+') {
                    self.bump()?;
                    off = self.expr()?;
                }
                Ok(Operand::Symbol(sym, off))
            }
            Tok::Punct => match t.text.as_bytes()[0] {
                b'!' => {
                    self.bump()?;
                    let r = self.bump()?;
                    match b.lookup_reg(r.text) {
                        Some(RegDecl::Var(v)) if r.kind == Tok::Ident => {
                            Ok(Operand::Not(Value::new(v as usize)))
                        }
                        _ => self.err(
                            r,
                            format!(
                                "expected a predicate register after '!', found {}",
                                Self::describe(&r)
                            ),
                        ),
                    }
                }
                b'{' => {
                    self.bump()?;
                    let mut v = Vec::new();
                    loop {
                        v.push(self.operand(b, false)?);
                        if self.tok.is(b',') {
                            self.bump()?;
                            continue;
                        }
                        if self.tok.is(b'}') {
                            self.bump()?;
                            break;
                        }
                        return self.err(
                            self.tok,
                            format!(
                                "expected '}}' to end the vector, found {}",
                                Self::describe(&self.tok)
                            ),
                        );
                    }
                    Ok(Operand::Vector(v.into()))
                }
                b'(' if in_call => {
                    self.bump()?;
                    let mut v = Vec::new();
                    if self.tok.is(b')') {
                        self.bump()?;
                        return Ok(Operand::List(v.into()));
                    }
                    loop {
                        v.push(self.operand(b, false)?);
                        if self.tok.is(b',') {
                            self.bump()?;
                            continue;
                        }
                        if self.tok.is(b')') {
                            self.bump()?;
                            break;
                        }
                        return self.err(
                            self.tok,
                            format!(
                                "expected ')' to end the list, found {}",
                                Self::describe(&self.tok)
                            ),
                        );
                    }
                    Ok(Operand::List(v.into()))
                }
                b'[' => self.address(b),
                b'-' | b'+' | b'~' | b'(' => self.immediate(b),
                _ => self.err(
                    t,
                    format!("expected an operand, found {}", Self::describe(&t)),
                ),
            },
            Tok::Number => self.immediate(b),
            Tok::Dot if t.text[1..].starts_with(|c: char| c.is_ascii_digit()) => self.immediate(b),
            Tok::Str => {
                self.bump()?;
                Ok(Operand::Symbol(b.func.ops.sym(t.text), 0))
            }
            Tok::Eof => self.err(t, "unexpected end of file; expected an operand"),
            _ => self.err(
                t,
                format!("expected an operand, found {}", Self::describe(&t)),
            ),
        }
    }

    fn pair_tail(
        &mut self,
        b: &mut FnBuilder<'s>,
        first: Option<Value>,
    ) -> Result<Operand, Diagnostic> {
        if !self.tok.is(b'|') {
            return Ok(match first {
                Some(v) => Operand::Value(v),
                None => Operand::Sink,
            });
        }
        self.bump()?;
        let r = self.bump()?;
        let second = match (r.kind, r.text) {
            (Tok::Ident, "_") => None,
            (Tok::Ident, name) => match b.lookup_reg(name) {
                Some(RegDecl::Var(v)) => Some(Value::new(v as usize)),
                _ => return self.err(r, format!("use of undeclared register '{}'", r.text)),
            },
            _ => {
                return self.err(
                    r,
                    format!(
                        "expected a register after '|', found {}",
                        Self::describe(&r)
                    ),
                )
            }
        };
        Ok(Operand::Pair(first, second))
    }

    fn address(&mut self, b: &mut FnBuilder<'s>) -> Result<Operand, Diagnostic> {
        self.bump()?;
        let bt = self.tok;
        let base = match bt.kind {
            Tok::Number => self.immediate(b)?,
            _ => self.operand(b, false)?,
        };
        let base = match base {
            Operand::Symbol(s, off) => {
                return self.address_tail(b, Operand::Symbol(s, 0), off);
            }
            o => o,
        };
        let mut off = 0;
        if self.tok.is(b'+') {
            self.bump()?;
            off = self.expr()?;
        }
        self.address_tail(b, base, off)
    }

    fn address_tail(
        &mut self,
        b: &mut FnBuilder<'s>,
        base: Operand,
        offset: i64,
    ) -> Result<Operand, Diagnostic> {
        let mut rest = Vec::new();
        // Texture and surface forms list further elements, never after an
        // offset.
        while self.tok.is(b',') && offset == 0 {
            self.bump()?;
            rest.push(self.operand(b, false)?);
        }
        if !self.tok.is(b']') {
            let found = Self::describe(&self.tok);
            return self.err(
                self.tok,
                format!("expected ']' to end the address, found {found}"),
            );
        }
        self.bump()?;
        Ok(Operand::Addr(Box::new(Address { base, offset, rest })))
    }

    fn immediate(&mut self, b: &mut FnBuilder<'s>) -> Result<Operand, Diagnostic> {
        let t = self.tok;
        let neg = t.is(b'-');
        let lit = if neg { self.peek()? } else { t };
        if neg && lit.kind == Tok::Ident {
            if let Some(RegDecl::Var(v)) = b.lookup_reg(lit.text) {
                self.bump()?;
                self.bump()?;
                let sel = if self.tok.kind == Tok::Dot {
                    Some(b.func.ops.sym(&self.bump()?.text[1..]))
                } else {
                    None
                };
                return Ok(Operand::Neg(Value::new(v as usize), sel));
            }
        }
        let is_lit = lit.kind == Tok::Number
            || (lit.kind == Tok::Dot && lit.text[1..].starts_with(|c: char| c.is_ascii_digit()));
        if !is_lit {
            return Ok(Operand::Imm(Imm::int(self.expr()?)));
        }
        if neg {
            self.bump()?;
        }
        let next = self.peek()?;
        let ends =
            next.is(b',') || next.is(b';') || next.is(b']') || next.is(b'}') || next.is(b')');
        if ends {
            // A literal alone keeps its notation.
            self.bump()?;
            let imm = parse_literal(lit.text, neg, &mut b.func.ops.syms)
                .map_err(|m| Diagnostic::new(lit.pos as usize, m))?;
            return Ok(Operand::Imm(imm));
        }
        let first = self.expr_unary()?;
        let first = if neg { first.wrapping_neg() } else { first };
        Ok(Operand::Imm(Imm::int(self.expr_rest(first, 0)?)))
    }

    /// An integer constant expression with C precedence.
    fn expr(&mut self) -> Result<i64, Diagnostic> {
        self.expr_bin(0)
    }

    fn binop(&mut self) -> Result<Option<(u8, u8)>, Diagnostic> {
        let t = self.tok;
        // A lone `%` lexes as an identifier; as an operator it is modulo.
        let modulo = t.kind == Tok::Ident && t.text == "%";
        if t.kind != Tok::Punct && !modulo {
            return Ok(None);
        }
        let c = t.text.as_bytes()[0];
        let twice = |p: &mut Self| -> Result<bool, Diagnostic> {
            let n = p.peek()?;
            Ok(n.kind == Tok::Punct && n.text.as_bytes()[0] == c && n.pos == t.pos + 1)
        };
        Ok(match c {
            b'*' | b'/' => Some((10, c)),
            b'%' => Some((10, c)),
            b'+' | b'-' => Some((9, c)),
            b'<' if twice(self)? => Some((8, b'l')),
            b'>' if twice(self)? => Some((8, b'r')),
            b'&' => Some((6, c)),
            b'^' => Some((5, c)),
            b'|' => Some((4, c)),
            _ => None,
        })
    }

    fn expr_bin(&mut self, min: u8) -> Result<i64, Diagnostic> {
        let lhs = self.expr_unary()?;
        self.expr_rest(lhs, min)
    }

    fn expr_rest(&mut self, mut lhs: i64, min: u8) -> Result<i64, Diagnostic> {
        while let Some((prec, op)) = self.binop()? {
            if prec < min {
                break;
            }
            let t = self.bump()?;
            if op == b'l' || op == b'r' {
                self.bump()?;
            }
            let rhs = self.expr_bin(prec + 1)?;
            lhs = match op {
                b'*' => lhs.wrapping_mul(rhs),
                b'/' if rhs == 0 => return self.err(t, "division by zero in constant expression"),
                b'/' => lhs.wrapping_div(rhs),
                b'%' if rhs == 0 => return self.err(t, "division by zero in constant expression"),
                b'%' => lhs.wrapping_rem(rhs),
                b'+' => lhs.wrapping_add(rhs),
                b'-' => lhs.wrapping_sub(rhs),
                b'l' => lhs.wrapping_shl(rhs as u32),
                b'r' => lhs.wrapping_shr(rhs as u32),
                b'&' => lhs & rhs,
                b'^' => lhs ^ rhs,
                _ => lhs | rhs,
            };
        }
        Ok(lhs)
    }

    fn expr_unary(&mut self) -> Result<i64, Diagnostic> {
        self.depth += 1;
        let r = if self.depth > MAX_DEPTH {
            self.err(self.tok, "constant expression nested too deeply")
        } else {
            self.expr_unary_inner()
        };
        self.depth -= 1;
        r
    }

    fn expr_unary_inner(&mut self) -> Result<i64, Diagnostic> {
        let t = self.bump()?;
        match t.kind {
            Tok::Number => {
                let imm = parse_literal(t.text, false, &mut ptx_ir::op::Interner::default())
                    .map_err(|m| Diagnostic::new(t.pos as usize, m))?;
                if !imm.is_int() {
                    return self.err(
                        t,
                        format!("expected an integer constant, found '{}'", t.text),
                    );
                }
                Ok(imm.bits as i64)
            }
            Tok::Punct => match t.text.as_bytes()[0] {
                b'-' => Ok(self.expr_unary()?.wrapping_neg()),
                b'+' => self.expr_unary(),
                b'~' => Ok(!self.expr_unary()?),
                b'!' => Ok((self.expr_unary()? == 0) as i64),
                b'(' => {
                    let v = self.expr_bin(0)?;
                    self.expect(b')')?;
                    Ok(v)
                }
                _ => self.err(
                    t,
                    format!("expected a constant, found {}", Self::describe(&t)),
                ),
            },
            _ => self.err(
                t,
                format!("expected a constant, found {}", Self::describe(&t)),
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
