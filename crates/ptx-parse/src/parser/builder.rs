//! The function under construction: register scopes (`{ }` nesting and
//! `%r<N>` ranges), blocks, instructions appended in order, and branches
//! waiting for their labels. The parser's statement readers fill it;
//! [`crate::ssa`] turns it into SSA.

use super::*;

/// How a register name resolves.
#[derive(Clone, Copy, Debug)]
pub(super) enum RegDecl {
    Var(u32),
    Pinned(Sym),
}

impl Scope<'_> {
    /// The range this scope declares under `prefix`, if `idx` is within it.
    /// Few prefixes per scope: a linear scan beats hashing.
    #[inline]
    pub(super) fn range(&self, prefix: &str, idx: u32) -> Option<u32> {
        let &(_, range, count) = self.ranges.iter().find(|(p, _, _)| short_eq(p, prefix))?;
        (idx < count).then_some(range)
    }
}

#[derive(Default)]
pub(super) struct Scope<'s> {
    pub(super) id: u32,
    pub(super) regs: FxHashMap<&'s str, RegDecl>,
    /// Range declarations `%r<N>`: (prefix, range id, count).
    pub(super) ranges: SmallVec<[(&'s str, u32, u32); 8]>,
    pub(super) syms: FxHashMap<&'s str, Sym>,
    /// Vector register ranges: prefix → (printed prefix, count).
    pub(super) pinned_ranges: FxHashMap<&'s str, (String, u32)>,
}

pub(super) struct PendingTarget<'s> {
    pub(super) inst: Inst,
    pub(super) slot: usize,
    pub(super) label: &'s str,
    pub(super) scope: u32,
    pub(super) pos: u32,
}

#[derive(Clone)]
pub(super) struct BranchTable<'s> {
    pub(super) labels: Vec<(Token<'s>, u32)>,
    /// Index of its declaration in `Function::decls`, rewritten once labels
    /// have their final names.
    pub(super) decl: usize,
    pub(super) name: String,
}

/// For each scope id, the nearest scope at or above it that declares a
/// label (`u32::MAX`: none). A parent's id is always below its child's.
pub(super) fn label_scopes(b: &FnBuilder<'_>) -> Vec<u32> {
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
pub(super) struct FnBuilder<'s> {
    pub(super) func: Function,
    pub(super) vars: Vec<Var>,
    pub(super) ranges: Vec<Type>,
    /// Per range, whether its prefix is its class's (`%r` for `.b32`), so
    /// that its registers keep their numbers when printed.
    pub(super) range_numbered: Vec<bool>,
    /// Per range, the variable of each register used so far (`u32::MAX`:
    /// not yet).
    pub(super) range_vars: Vec<Vec<u32>>,
    pub(super) scopes: Vec<Scope<'s>>,
    /// Indices in `scopes` of the open scopes that declare something, in
    /// order: lookups visit only these, so a use under 50,000 empty nested
    /// scopes costs what it costs at the top.
    pub(super) declaring: Vec<u32>,
    pub(super) scope_parent: Vec<u32>,
    pub(super) labels: FxHashMap<(u32, &'s str), Block>,
    pub(super) pending: Vec<PendingTarget<'s>>,
    pub(super) tables: FxHashMap<Sym, BranchTable<'s>>,
    pub(super) local_names: FxHashSet<String>,
    /// Per declared name, the last suffix `unique_name` gave it.
    pub(super) suffixes: FxHashMap<&'s str, u32>,
    pub(super) entry: Block,
    pub(super) cur: Option<Block>,
    pub(super) loc: u32,
    /// Whether `loc` has not been attached to an instruction yet.
    pub(super) loc_pending: bool,
    pub(super) loc_ids: FxHashMap<String, u32>,
    /// The function's copy of each module form it uses, by the module
    /// form's index.
    pub(super) forms: Vec<Option<OpId>>,
    /// By the function's form index: whether the form met the module's
    /// `.version` and `.target` ([`Parser::check_needs`], which depends on
    /// nothing else), so each form is checked once per function.
    pub(super) needs_met: Vec<bool>,
}

impl<'s> FnBuilder<'s> {
    /// A builder for a new function.
    pub(super) fn new() -> Self {
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
            needs_met: Vec::new(),
        }
    }

    /// Sizes the arenas for a body whose `{` starts `body`: one instruction
    /// per `;` up to the matching `}`. (Only a guess, blind to comments: a
    /// wrong one costs regrowth or spare room.)
    pub(super) fn reserve_for(&mut self, body: &[u8]) {
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

    pub(super) fn scope_id(&self) -> u32 {
        self.scopes.last().map_or(0, |s| s.id)
    }

    /// The innermost scope, to declare something in.
    pub(super) fn top_scope(&mut self) -> &mut Scope<'s> {
        let top = self.scopes.len() as u32 - 1;
        if self.declaring.last() != Some(&top) {
            self.declaring.push(top);
        }
        self.scopes
            .last_mut()
            .expect("the function scope is never popped")
    }

    /// Closes the innermost scope.
    pub(super) fn pop_scope(&mut self) {
        let top = self.scopes.len() as u32 - 1;
        if self.declaring.last() == Some(&top) {
            self.declaring.pop();
        }
        self.scopes.pop();
    }

    /// Resolves a register name through the scope chain.
    #[inline]
    pub(super) fn lookup_reg(&mut self, name: &str) -> Option<RegDecl> {
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
    pub(super) fn lookup_reg_in_scopes(&mut self, name: &str) -> Option<RegDecl> {
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
    pub(super) fn range_var(&mut self, range: u32, n: u32) -> u32 {
        match self.range_vars[range as usize].get(n as usize) {
            Some(&v) if v != u32::MAX => v,
            _ => self.new_range_var(range, n),
        }
    }

    /// [`FnBuilder::range_var`] on the register's first use.
    #[inline(never)]
    pub(super) fn new_range_var(&mut self, range: u32, n: u32) -> u32 {
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

    pub(super) fn lookup_sym(&self, name: &str) -> Option<Sym> {
        self.declaring
            .iter()
            .rev()
            .find_map(|&d| self.scopes[d as usize].syms.get(name).copied())
    }

    /// `name`, or `name_k` for the smallest `k` not yet taken. Names are
    /// never released, so the search for a name resumes after the suffix
    /// it last handed out (one step per call, not one per earlier call).
    pub(super) fn unique_name(&mut self, name: &'s str) -> String {
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

    pub(super) fn new_block(&mut self) -> Block {
        let b = self.func.dfg.make_block();
        self.func.layout.append_block(b);
        b
    }

    /// The block instructions go to now.
    pub(super) fn block(&mut self) -> Block {
        match self.cur {
            Some(b) => b,
            None => {
                let b = self.new_block();
                self.cur = Some(b);
                b
            }
        }
    }

    pub(super) fn jump_to(&mut self, from: Block, to: Block) {
        let op = self.func.ops.intern(Opcode::Jump, &[]);
        let mut d = InstData::new(op, SmallVec::new());
        d.targets.push(BlockCall::new(to));
        let i = self.func.dfg.insts.push(d);
        self.func.layout.append_inst(i, from);
    }

    pub(super) fn append(&mut self, d: InstData) -> Inst {
        self.loc_pending = false;
        let b = self.block();
        let i = self.func.dfg.insts.push(d);
        self.func.layout.append_inst(i, b);
        i
    }

    /// A new instruction of form `op` written at byte `pos`, under `guard`,
    /// at the current debug location (no operands yet).
    #[inline]
    pub(super) fn new_inst(&self, op: OpId, pos: u32, guard: Option<(Guard, u32)>) -> InstData {
        let mut d = InstData::new(op, SmallVec::new());
        d.pos = pos;
        d.loc = self.loc;
        d.guard = guard.map(|(g, _)| g);
        d
    }

    /// Appends terminator `d` (a branch, `ret` or `exit`) with a target per
    /// label, resolved when the body ends, and, when it is guarded, the
    /// fall-through block, which becomes the current one.
    pub(super) fn branch_to(&mut self, mut d: InstData, labels: SmallVec<[(Token<'s>, u32); 1]>) {
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
pub(super) fn split_index(name: &str) -> (&str, Option<u32>) {
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
pub(super) fn short_eq(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.bytes().zip(b.bytes()).all(|(x, y)| x == y)
}

/// Terminator kinds the parser handles itself.
pub(super) fn is_branch(m: &str) -> bool {
    matches!(m, "bra" | "ret" | "exit" | "brx")
}
