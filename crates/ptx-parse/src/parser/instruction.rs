//! One instruction: its guard, its mnemonic resolved to a form of the op
//! table (checked against the ISA where [`crate::forms`] models it), its
//! operands checked for count and type, and branches with their targets.

use super::*;

impl<'s> Parser<'s> {
    pub(super) fn guard(&mut self, b: &mut FnBuilder<'s>) -> Result<(Guard, u32), Diagnostic> {
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

    pub(super) fn instruction(
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
    pub(super) fn register_plus_immediate(
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
    pub(super) fn resolve_op(
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
    pub(super) fn own_form(&mut self, b: &mut FnBuilder<'s>, known: OpId) -> OpId {
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

    pub(super) fn missing_separator<T>(&self) -> Result<T, Diagnostic> {
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

    pub(super) fn check_operands(
        &self,
        b: &mut FnBuilder<'s>,
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
        let k = d.op.index();
        if b.needs_met.get(k) == Some(&true) {
            return Ok(());
        }
        self.check_needs(&b.func.ops, d.op, d.pos)?;
        if b.needs_met.len() <= k {
            b.needs_met.resize(b.func.ops.len().max(k + 1), false);
        }
        b.needs_met[k] = true;
        Ok(())
    }

    /// The module's `.version` and `.target` against what form `op` needs.
    pub(super) fn check_needs(
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

    pub(super) fn branch(
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
}
