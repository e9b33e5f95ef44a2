//! Module-level items: directives kept verbatim (`.version`, `.target`,
//! `.file`, `.section` and the like), global variables, and function
//! headers with their parameter lists. A function's body is read by
//! [`super::body`].

use super::*;

impl<'s> Parser<'s> {
    pub(super) fn directive(&mut self) -> Result<Unit, Diagnostic> {
        let t = self.tok;
        if matches!(t.text, ".entry" | ".func") || LINKAGE.contains(&t.text) {
            return self.linked();
        }
        self.plain_directive().map(Unit::Item)
    }

    /// A function or variable, with its linkage directives.
    pub(super) fn linked(&mut self) -> Result<Unit, Diagnostic> {
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

    pub(super) fn plain_directive(&mut self) -> Result<Item, Diagnostic> {
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

    pub(super) fn rest_of_line_tokens(&mut self) -> Result<Vec<Token<'s>>, Diagnostic> {
        let mut v = Vec::new();
        while self.tok.kind != Tok::Eof && !self.tok.newline_before {
            v.push(self.bump()?);
        }
        Ok(v)
    }

    pub(super) fn tokens_until_semicolon(&mut self) -> Result<Vec<Token<'s>>, Diagnostic> {
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

    pub(super) fn section(&mut self) -> Result<Item, Diagnostic> {
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

    pub(super) fn lex_src(&self) -> &'s str {
        self.lex.source()
    }

    pub(super) fn variable(&mut self, linkage: &[Token<'s>]) -> Result<Item, Diagnostic> {
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

    pub(super) fn param_list(
        &mut self,
        b: &mut FnBuilder<'s>,
    ) -> Result<Vec<ParamDecl>, Diagnostic> {
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

    pub(super) fn function(&mut self, linkage: Vec<Box<str>>) -> Result<Unit, Diagnostic> {
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
