//! Operands: registers (scoped, with `%r<N>` ranges), vectors, addresses,
//! immediates, and the constant expressions PTX allows in them.

use super::*;

impl<'s> Parser<'s> {
    /// One operand. Register operands hold source-register numbers as
    /// values until SSA construction renames them.
    pub(super) fn operand(
        &mut self,
        b: &mut FnBuilder<'s>,
        in_call: bool,
    ) -> Result<Operand, Diagnostic> {
        self.depth += 1;
        let r = if self.depth > MAX_DEPTH {
            self.err(self.tok, "operand nested too deeply")
        } else {
            self.operand_inner(b, in_call)
        };
        self.depth -= 1;
        r
    }

    pub(super) fn operand_inner(
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

    pub(super) fn pair_tail(
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

    pub(super) fn address(&mut self, b: &mut FnBuilder<'s>) -> Result<Operand, Diagnostic> {
        self.bump()?;
        let bt = self.tok;
        let base = match bt.kind {
            Tok::Number => self.immediate(b)?,
            _ => self.operand(b, false)?,
        };
        let base = match base {
            Operand::Symbol(s, off) => {
                return self.address_tail(b, Operand::Symbol(s, 0), off, false);
            }
            o => o,
        };
        let mut off = 0;
        let mut written = false;
        if self.tok.is(b'+') {
            self.bump()?;
            off = self.expr()?;
            written = true;
        }
        let zero_written = zero_offset_written(written, off, &base);
        self.address_tail(b, base, off, zero_written)
    }

    pub(super) fn address_tail(
        &mut self,
        b: &mut FnBuilder<'s>,
        base: Operand,
        offset: i64,
        zero_offset_written: bool,
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
        Ok(Operand::Addr(Box::new(Address {
            base,
            offset,
            zero_offset_written,
            rest,
        })))
    }

    pub(super) fn immediate(&mut self, b: &mut FnBuilder<'s>) -> Result<Operand, Diagnostic> {
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
    pub(super) fn expr(&mut self) -> Result<i64, Diagnostic> {
        self.expr_bin(0)
    }

    pub(super) fn binop(&mut self) -> Result<Option<(u8, u8)>, Diagnostic> {
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

    pub(super) fn expr_bin(&mut self, min: u8) -> Result<i64, Diagnostic> {
        let lhs = self.expr_unary()?;
        self.expr_rest(lhs, min)
    }

    pub(super) fn expr_rest(&mut self, mut lhs: i64, min: u8) -> Result<i64, Diagnostic> {
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

    pub(super) fn expr_unary(&mut self) -> Result<i64, Diagnostic> {
        self.depth += 1;
        let r = if self.depth > MAX_DEPTH {
            self.err(self.tok, "constant expression nested too deeply")
        } else {
            self.expr_unary_inner()
        };
        self.depth -= 1;
        r
    }

    pub(super) fn expr_unary_inner(&mut self) -> Result<i64, Diagnostic> {
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

/// Whether an address keeps its written `+0` ([`ptx_ir::Address`]): a
/// `+` was written, the offset is zero, and the base is a register.
pub(super) fn zero_offset_written(plus_written: bool, offset: i64, base: &Operand) -> bool {
    plus_written && offset == 0 && matches!(base, Operand::Value(_))
}
