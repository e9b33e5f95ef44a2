//! A function body: its statements in order (labels, directives such as
//! `.reg` and `.loc`, nested `{ }` scopes, instructions), then the
//! resolution of branch targets once every label is known.

use super::*;

impl<'s> Parser<'s> {
    pub(super) fn body(&mut self, b: &mut FnBuilder<'s>) -> Result<(), Diagnostic> {
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

    pub(super) fn finish(&mut self, b: &mut FnBuilder<'s>) -> Result<(), Diagnostic> {
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
    pub(super) fn resolve_label(
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

    pub(super) fn label(&mut self, b: &mut FnBuilder<'s>, t: Token<'s>) -> Result<(), Diagnostic> {
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

    pub(super) fn label_decl(
        &mut self,
        b: &mut FnBuilder<'s>,
        name: Token<'s>,
    ) -> Result<(), Diagnostic> {
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

    pub(super) fn body_directive(&mut self, b: &mut FnBuilder<'s>) -> Result<(), Diagnostic> {
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

    pub(super) fn reg_decl(&mut self, b: &mut FnBuilder<'s>) -> Result<(), Diagnostic> {
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

    pub(super) fn duplicate_reg(&self, b: &FnBuilder<'s>, name: &str, count: Option<u32>) -> bool {
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
}
