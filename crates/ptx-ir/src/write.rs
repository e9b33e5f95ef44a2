//! Printing PTX text out of SSA.
//!
//! Registers come from [`crate::regalloc`]; the printer adds the copies it
//! asks for where it placed them: before an instruction (tied results, and
//! edges whose copies run at the end of their block), at the top of a
//! block, or, for an edge that needed a block of its own, after a guarded
//! terminator (its fall-through) or in a trampoline printed after the
//! function's last block (its taken edge). Labels are printed for every
//! block that had one in the source and for every block a printed branch
//! targets; made-up labels avoid the function's own names. A `.loc` named
//! by a later `inlined_at` is printed before it even when the instructions
//! that carried it are gone.

use crate::function::{FuncKind, Function};
use crate::module::{Item, Module};
use crate::op::{Opcode, Sym};
use crate::operand::{Address, Imm, ImmKind, Operand};
use crate::regalloc::{self, AsBuiltNamer, Assignment, Copy, CopyStats, Reg};
use crate::types::Type;
use crate::{Block, Inst, Value};
use rustc_hash::{FxHashMap, FxHashSet};
use std::fmt::{self, Write};

/// Prints `module` as PTX text.
pub fn module_to_string(module: &Module) -> String {
    let mut s = String::new();
    write_module(&mut s, module).expect("writing to a String cannot fail");
    s
}

/// Prints `module` to any [`fmt::Write`].
pub fn write_module(out: &mut impl Write, module: &Module) -> fmt::Result {
    for item in &module.items {
        write_item(out, item)?;
    }
    Ok(())
}

/// Prints one top-level item.
pub fn write_item(out: &mut impl Write, item: &Item) -> fmt::Result {
    write_item_with(out, item, Naming::General)
}

/// Prints an item whose function, if any, is exactly as SSA construction
/// built it (or went through passes that all reported no change), leaving
/// SSA with [`regalloc::assign_as_built`]: one walk, no interference check
/// (such a function has no interference in reachable code).
pub fn write_item_as_built(out: &mut impl Write, item: &Item) -> fmt::Result {
    write_item_with(out, item, Naming::AsBuilt)
}

/// How a function's values get their registers.
#[derive(Clone, Copy)]
enum Naming {
    /// [`regalloc::assign`], before printing.
    General,
    /// [`regalloc::assign_as_built`]'s registers, handed out while the
    /// body is printed.
    AsBuilt,
}

/// Prints one item, leaving SSA by the general path ([`write_item`]), and
/// returns what the copies leaving SSA added cost.
pub fn write_item_counting(out: &mut impl Write, item: &Item) -> Result<CopyStats, fmt::Error> {
    match item {
        Item::Func(f) => write_function_with(out, f, Naming::General),
        _ => write_item_with(out, item, Naming::General).map(|()| CopyStats::default()),
    }
}

fn write_item_with(out: &mut impl Write, item: &Item, naming: Naming) -> fmt::Result {
    match item {
        Item::Version(a, b) => writeln!(out, ".version {a}.{b}"),
        Item::Target(t) => writeln!(out, ".target {}", t.join(", ")),
        Item::AddressSize(n) => writeln!(out, ".address_size {n}\n"),
        Item::Directive(d) => put_all(out, &[d, "\n"]),
        Item::Var(v) => put_all(out, &[&v.text, ";\n"]),
        Item::Func(f) => write_function_with(out, f, naming).map(drop),
    }
}

/// Register class print order for `.reg` declarations.
const CLASS_ORDER: [Type; 12] = [
    Type::Pred,
    Type::B8,
    Type::B16,
    Type::B32,
    Type::B64,
    Type::B128,
    Type::F16,
    Type::F16x2,
    Type::BF16,
    Type::BF16x2,
    Type::F32,
    Type::F64,
];

fn write_signature(out: &mut impl Write, f: &Function) -> fmt::Result {
    for l in &f.linkage {
        put_all(out, &[".", l, " "])?;
    }
    out.write_str(match f.kind {
        FuncKind::Entry => ".entry ",
        FuncKind::Func => ".func ",
    })?;
    if let Some(rets) = &f.rets {
        out.write_char('(')?;
        for (k, r) in rets.iter().enumerate() {
            if k > 0 {
                out.write_str(", ")?;
            }
            out.write_str(&r.text)?;
        }
        out.write_str(") ")?;
    }
    out.write_str(&f.name)?;
    if let Some(params) = &f.params {
        if params.is_empty() {
            out.write_str("()")?;
        } else {
            out.write_str("(\n")?;
            for (k, p) in params.iter().enumerate() {
                let sep = if k + 1 < params.len() { "," } else { "" };
                put_all(out, &["\t", &p.text, sep, "\n"])?;
            }
            out.write_str(")")?;
        }
    }
    out.write_char('\n')?;
    for a in &f.attrs {
        put_all(out, &[a, "\n"])?;
    }
    Ok(())
}

/// Prints one function as SSA construction built it (see
/// [`write_item_as_built`]).
pub fn write_function_as_built(out: &mut impl Write, f: &Function) -> fmt::Result {
    write_function_with(out, f, Naming::AsBuilt).map(drop)
}

/// Prints one function.
pub fn write_function(out: &mut impl Write, f: &Function) -> fmt::Result {
    write_function_with(out, f, Naming::General).map(drop)
}

fn write_function_with(
    out: &mut impl Write,
    f: &Function,
    naming: Naming,
) -> Result<CopyStats, fmt::Error> {
    write_signature(out, f)?;
    if !f.has_body {
        out.write_str(";\n\n")?;
        return Ok(CopyStats::default());
    }
    // The body is assembled in a `String` (appending to one is cheaper
    // than going through `fmt::Write`) before the `.reg` lines, which need
    // every register's number, and written after them.
    BODY.with(|buf| {
        let mut buf = buf.borrow_mut();
        buf.clear();
        let regs = match naming {
            Naming::General => {
                let regs = regalloc::assign(f);
                Printer::new(f, &regs, None).body(&mut buf)?;
                regs
            }
            Naming::AsBuilt => {
                let none = Assignment::empty();
                let mut p = Printer::new(f, &none, Some(AsBuiltNamer::new(f)));
                p.body(&mut buf)?;
                let fast = p.namer.and_then(AsBuiltNamer::finish);
                let printed = fast.is_some();
                let regs = regalloc::as_built_checked(f, fast);
                if !printed {
                    buf.clear();
                    Printer::new(f, &regs, None).body(&mut buf)?;
                }
                regs
            }
        };
        write_header(out, f, &regs)?;
        out.write_str(&buf).map(|()| regs.stats)
    })
    .and_then(|stats| out.write_str("}\n\n").map(|()| stats))
}

/// The `{`, `.reg` lines and other declarations that open a body.
fn write_header(out: &mut impl Write, f: &Function, regs: &Assignment) -> fmt::Result {
    out.write_str("{\n")?;
    for class in CLASS_ORDER {
        if let Some(&n) = regs.counts.get(&class) {
            put_all(
                out,
                &["\t.reg .", class.name(), " \t", class.reg_prefix(), "<"],
            )?;
            write_u64(out, n as u64 + 1)?;
            out.write_str(">;\n")?;
        }
    }
    for d in &f.decls {
        put_all(out, &["\t", d, ";\n"])?;
    }
    out.write_char('\n')
}

thread_local! {
    /// The body being printed, kept between functions for its capacity.
    static BODY: std::cell::RefCell<String> = const { std::cell::RefCell::new(String::new()) };
}

struct Printer<'a> {
    f: &'a Function,
    regs: &'a Assignment,
    /// Names values as they are printed (`regs` then has no registers).
    namer: Option<AsBuiltNamer>,
    labels: Vec<Option<Label>>,
    trampolines: Vec<(Label, Vec<Copy>, Block)>,
    /// The source's labels, which made-up ones must avoid (gathered when
    /// the first one is made).
    taken: Option<FxHashSet<&'a str>>,
    /// Made-up labels, by `Label::Made` index.
    made: Vec<String>,
    fresh: u32,
    last_loc: u32,
    /// Call sites named by `inlined_at` (functions with inlining info).
    inline_sites: Option<InlineSites<'a>>,
}

/// The `.loc` positions (file, line, column) of a function that
/// `inlined_at` may name, and which of them have been printed.
struct InlineSites<'a> {
    /// The first `.loc` line of the function at each position.
    line_at: FxHashMap<(u64, u64, u64), &'a str>,
    shown: FxHashSet<(u64, u64, u64)>,
}

impl<'a> InlineSites<'a> {
    /// The sites of `f`, if any of its `.loc`s has an `inlined_at`.
    fn of(f: &'a Function) -> Option<Self> {
        if !f.locs.iter().any(|l| l.contains("inlined_at")) {
            return None;
        }
        let mut line_at = FxHashMap::default();
        for text in &f.locs {
            for line in text.split(crate::function::LOC_SEPARATOR) {
                if let Some(p) = loc_position(line) {
                    line_at.entry(p).or_insert(line);
                }
            }
        }
        Some(InlineSites {
            line_at,
            shown: FxHashSet::default(),
        })
    }

    fn shown(&mut self, line: &str) {
        if let Some(p) = loc_position(line) {
            self.shown.insert(p);
        }
    }

    /// Prints the `.loc` of the site `line` is inlined at, when not shown
    /// yet (its own site first, and so on up the chain).
    fn show_site_of(&mut self, out: &mut String, line: &str, depth: u32) {
        let Some(site) = inlined_at(line) else { return };
        if self.shown.contains(&site) || depth > 64 {
            return;
        }
        match self.line_at.get(&site).copied() {
            Some(l) => {
                self.show_site_of(out, l, depth + 1);
                out.push_str("\t.loc\t");
                out.push_str(l);
            }
            None => {
                let _ = write!(out, "\t.loc\t{} {} {}", site.0, site.1, site.2);
            }
        }
        out.push('\n');
        self.shown.insert(site);
    }
}

/// The (file, line, column) a `.loc` line starts with.
fn loc_position(line: &str) -> Option<(u64, u64, u64)> {
    let mut it = line
        .split(|c: char| c.is_ascii_whitespace() || c == ',')
        .filter(|w| !w.is_empty());
    Some((
        it.next()?.parse().ok()?,
        it.next()?.parse().ok()?,
        it.next()?.parse().ok()?,
    ))
}

/// The position after `inlined_at` in a `.loc` line.
fn inlined_at(line: &str) -> Option<(u64, u64, u64)> {
    let at = line.find("inlined_at")?;
    loc_position(&line[at + "inlined_at".len()..])
}

/// A printed label: the source's own, or a made-up one.
#[derive(Clone, Copy)]
enum Label {
    Source(Sym),
    Made(u32),
}

impl<'a> Printer<'a> {
    fn new(f: &'a Function, regs: &'a Assignment, namer: Option<AsBuiltNamer>) -> Self {
        let mut labels = vec![None; f.dfg.blocks.len()];
        for b in f.layout.blocks() {
            if let Some(l) = f.dfg.blocks[b].label {
                labels[b.as_u32() as usize] = Some(Label::Source(l));
            }
        }
        let mut p = Printer {
            f,
            regs,
            namer,
            labels,
            trampolines: Vec::new(),
            taken: None,
            made: Vec::new(),
            fresh: 0,
            last_loc: 0,
            inline_sites: InlineSites::of(f),
        };
        // Give a label to every block a printed branch will name.
        let blocks: Vec<Block> = f.layout.blocks().collect();
        for (k, &b) in blocks.iter().enumerate() {
            let next = blocks.get(k + 1).copied();
            let Some(t) = f.layout.last_inst(b) else {
                continue;
            };
            let d = &f.dfg.insts[t];
            for (n, call) in d.targets.iter().enumerate() {
                let fall = d.guard.is_some() && n + 1 == d.targets.len();
                let named = match f.op(t).opcode {
                    Opcode::Bra | Opcode::Brx if !fall => true,
                    _ => Some(call.block) != next,
                };
                if named {
                    p.label(call.block);
                }
            }
        }
        p
    }

    fn label(&mut self, b: Block) -> Label {
        if let Some(l) = self.labels[b.as_u32() as usize] {
            return l;
        }
        let l = self.fresh_label();
        self.labels[b.as_u32() as usize] = Some(l);
        l
    }

    /// A new `$L__<function>_<n>`, distinct from the source's labels (and,
    /// by its number, from every other made-up one).
    fn fresh_label(&mut self) -> Label {
        let f = self.f;
        let taken = self.taken.get_or_insert_with(|| {
            f.layout
                .blocks()
                .filter_map(|b| f.dfg.blocks[b].label.map(|l| f.ops.word(l)))
                .collect()
        });
        loop {
            self.fresh += 1;
            let l = format!("$L__{}_{}", sanitize(&f.name), self.fresh);
            if !taken.contains(l.as_str()) {
                self.made.push(l);
                return Label::Made(self.made.len() as u32 - 1);
            }
        }
    }

    fn label_text(&self, l: Label) -> &str {
        match l {
            Label::Source(s) => self.f.ops.word(s),
            Label::Made(k) => &self.made[k as usize],
        }
    }

    fn body(&mut self, out: &mut String) -> fmt::Result {
        let f = self.f;
        let blocks: Vec<Block> = f.layout.blocks().collect();
        for (k, &b) in blocks.iter().enumerate() {
            let next = blocks.get(k + 1).copied();
            if let Some(l) = self.labels[b.as_u32() as usize] {
                out.write_str(self.label_text(l))?;
                out.write_str(":\n")?;
            }
            if let Some(n) = &mut self.namer {
                for &p in &f.dfg.blocks[b].params {
                    n.reg(f, p);
                }
            }
            if let Some(c) = (!self.regs.at_top.is_empty())
                .then(|| self.regs.at_top.get(&b))
                .flatten()
            {
                self.copies(out, c)?;
            }
            for i in f.layout.block_insts(b) {
                self.inst(out, i, next)?;
                if let Some(n) = &mut self.namer {
                    name_unprinted(n, f, i);
                }
            }
        }
        let tramps = std::mem::take(&mut self.trampolines);
        for (label, copies, target) in tramps {
            put_all(out, &[self.label_text(label), ":\n"])?;
            self.copies(out, &copies)?;
            let t = self.label(target);
            put_all(out, &["\tbra.uni \t", self.label_text(t), ";\n"])?;
        }
        Ok(())
    }

    fn copies(&self, out: &mut String, copies: &[Copy]) -> fmt::Result {
        for c in copies {
            let ty: &str = match c.dst.class {
                Type::F16 | Type::BF16 | Type::B8 => "b16",
                Type::F16x2 | Type::BF16x2 => "b32",
                t => t.name(),
            };
            put_all(out, &["\tmov.", ty, " \t"])?;
            push_reg(out, c.dst);
            out.push_str(", ");
            push_reg(out, c.src);
            out.push_str(";\n");
        }
        Ok(())
    }

    fn inst(&mut self, out: &mut String, i: Inst, next: Option<Block>) -> fmt::Result {
        let f = self.f;
        let d = &f.dfg.insts[i];
        // The `ret` the parser adds where the body falls off its closing
        // brace (no source position) is what PTX does there anyway: at the
        // very end it prints as nothing, as in the source (ptxas compiles
        // a debug target's instructions one for one).
        if next.is_none()
            && d.pos == u32::MAX
            && d.guard.is_none()
            && f.ops.info(d.op).opcode == Opcode::Ret
            && (self.regs.before.is_empty() || !self.regs.before.contains_key(&i))
        {
            return Ok(());
        }
        if d.loc != 0 && d.loc != self.last_loc {
            self.loc(out, d.loc)?;
            self.last_loc = d.loc;
        }
        if let Some(c) = (!self.regs.before.is_empty())
            .then(|| self.regs.before.get(&i))
            .flatten()
        {
            self.copies(out, c)?;
        }
        let info = f.ops.info(d.op);
        let regs = self.regs;
        let edge = |n: u32| {
            (!regs.edges.is_empty())
                .then(|| regs.edges.get(&(i, n)))
                .flatten()
        };
        match info.opcode {
            Opcode::Jump => {
                let t = &d.targets[0];
                if let Some(c) = edge(0) {
                    self.copies(out, c)?;
                }
                if Some(t.block) != next {
                    let l = self.label(t.block);
                    put_all(out, &["\tbra.uni \t", self.label_text(l), ";\n"])?;
                }
                return Ok(());
            }
            Opcode::Bra => {
                let taken = d.targets[0].block;
                let target_label = match edge(0) {
                    Some(c) if d.guard.is_some() => {
                        let l = self.fresh_label();
                        self.trampolines.push((l, c.clone(), taken));
                        l
                    }
                    Some(c) => {
                        self.copies(out, c)?;
                        self.label(taken)
                    }
                    None => self.label(taken),
                };
                self.guard(out, d.guard)?;
                put_all(
                    out,
                    &[&info.text, " \t", self.label_text(target_label), ";\n"],
                )?;
            }
            _ => {
                self.guard(out, d.guard)?;
                out.write_str(&info.text)?;
                for (k, o) in d.operands.iter().enumerate() {
                    out.write_str(if k == 0 { " \t" } else { ", " })?;
                    self.operand(out, o)?;
                }
                out.write_char(';')?;
                // Name a lop3's function; its operands are a, b, c.
                if info.opcode == Opcode::Lop3 {
                    if let Some(Operand::Imm(imm)) = d.operands.get(4) {
                        if imm.is_int() {
                            out.write_str(" \t// ")?;
                            out.write_str(crate::lut::expr(imm.bits as u8))?;
                        }
                    }
                }
                out.write_char('\n')?;
            }
        }
        // Fall-through successor of a guarded branch, ret or exit: the last
        // target.
        if d.guard.is_some() && !d.targets.is_empty() {
            let fall = d.targets.len() - 1;
            let t = &d.targets[fall];
            if let Some(c) = edge(fall as u32) {
                self.copies(out, c)?;
            }
            if Some(t.block) != next {
                let l = self.label(t.block);
                put_all(out, &["\tbra.uni \t", self.label_text(l), ";\n"])?;
            }
        }
        Ok(())
    }

    /// Prints `.loc` entry `id`; first, where a line names an `inlined_at`
    /// site no `.loc` of this function has shown yet (the instructions that
    /// carried it were deleted or moved), that site's own `.loc` line, as
    /// ptxas requires.
    fn loc(&mut self, out: &mut String, id: u32) -> fmt::Result {
        let f = self.f;
        let text = &f.locs[id as usize];
        if let Some(sites) = &mut self.inline_sites {
            for line in text.split(crate::function::LOC_SEPARATOR) {
                sites.show_site_of(out, line, 0);
                sites.shown(line);
            }
        }
        put_all(out, &["\t.loc\t", text, "\n"])
    }

    fn guard(&mut self, out: &mut String, g: Option<crate::dfg::Guard>) -> fmt::Result {
        out.write_char('\t')?;
        if let Some(g) = g {
            let bang = if g.negated { "!" } else { "" };
            out.write_char('@')?;
            out.write_str(bang)?;
            self.put(out, g.pred)?;
            out.write_char(' ')?;
        }
        Ok(())
    }

    /// Writes the register of `v` (hot: avoids `core::fmt`).
    #[inline]
    fn put(&mut self, out: &mut String, v: Value) -> fmt::Result {
        let r = match &mut self.namer {
            Some(n) => n.reg(self.f, v),
            None => self.regs.reg(v),
        };
        push_reg(out, r);
        Ok(())
    }

    fn sym(&self, s: Sym) -> &str {
        self.f.ops.word(s)
    }

    /// Writes operand `o`; a plain register without a call.
    #[inline]
    fn operand(&mut self, out: &mut String, o: &Operand) -> fmt::Result {
        match o {
            Operand::Value(v) => self.put(out, *v),
            _ => self.other_operand(out, o),
        }
    }

    fn other_operand(&mut self, out: &mut String, o: &Operand) -> fmt::Result {
        match o {
            Operand::Value(v) => self.put(out, *v),
            Operand::Not(v) => {
                out.write_char('!')?;
                self.put(out, *v)
            }
            Operand::Sel(v, s) => {
                self.put(out, *v)?;
                out.write_char('.')?;
                out.write_str(self.sym(*s))
            }
            Operand::Neg(v, s) => {
                out.write_char('-')?;
                self.put(out, *v)?;
                match s {
                    Some(s) => put_all(out, &[".", self.sym(*s)]),
                    None => Ok(()),
                }
            }
            Operand::Pair(a, b) => {
                match a {
                    Some(a) => self.put(out, *a)?,
                    None => out.write_char('_')?,
                }
                out.write_char('|')?;
                match b {
                    Some(b) => self.put(out, *b),
                    None => out.write_char('_'),
                }
            }
            Operand::Sink => out.write_char('_'),
            Operand::Imm(imm) => write_imm(out, imm, &self.f.ops.syms),
            Operand::Symbol(s, off) => {
                out.write_str(self.sym(*s))?;
                write_offset(out, *off)
            }
            Operand::Special(s) => out.write_str(self.sym(*s)),
            Operand::Addr(a) => self.address(out, a),
            Operand::Vector(v) => {
                out.write_char('{')?;
                self.list(out, v)?;
                out.write_char('}')
            }
            Operand::List(v) => {
                out.write_char('(')?;
                self.list(out, v)?;
                out.write_char(')')
            }
            Operand::Pinned(n, sel) => {
                out.write_str(self.sym(*n))?;
                if let Some(s) = sel {
                    put_all(out, &[".", self.sym(*s)])?;
                }
                Ok(())
            }
        }
    }

    fn list(&mut self, out: &mut String, v: &[Operand]) -> fmt::Result {
        for (k, o) in v.iter().enumerate() {
            if k > 0 {
                out.write_str(", ")?;
            }
            self.operand(out, o)?;
        }
        Ok(())
    }

    fn address(&mut self, out: &mut String, a: &Address) -> fmt::Result {
        out.write_char('[')?;
        self.operand(out, &a.base)?;
        if a.zero_offset_written && a.offset == 0 {
            out.write_str("+0")?;
        } else {
            write_offset(out, a.offset)?;
        }
        for o in &a.rest {
            out.write_str(", ")?;
            self.operand(out, o)?;
        }
        out.write_char(']')
    }
}

/// Names, in `regalloc`'s print order, the values of instruction `i` that
/// printing it did not: the guard and operands of the branches the
/// printer writes itself, then tied values, results and branch arguments.
fn name_unprinted(n: &mut AsBuiltNamer, f: &Function, i: Inst) {
    let d = &f.dfg.insts[i];
    let mut name = |v| {
        n.reg(f, v);
    };
    if matches!(f.op(i).opcode, Opcode::Jump | Opcode::Bra) {
        if let Some(g) = d.guard {
            name(g.pred);
        }
        for o in &d.operands {
            o.for_each_value(&mut name);
        }
    }
    regalloc::for_each_after_operands(d, name);
}

fn write_offset(out: &mut String, off: i64) -> fmt::Result {
    match off {
        0 => Ok(()),
        1.. => {
            out.push('+');
            write_u64(out, off as u64)
        }
        _ => write!(out, "+{off}"),
    }
}

/// Writes `parts` one after another (plain strings: cheaper than `write!`).
#[inline]
fn put_all(out: &mut impl Write, parts: &[&str]) -> fmt::Result {
    for p in parts {
        out.write_str(p)?;
    }
    Ok(())
}

/// Prints an immediate in the notation it was written in.
pub fn write_imm(out: &mut impl Write, imm: &Imm, syms: &crate::op::Interner) -> fmt::Result {
    let mag = if imm.neg {
        imm.bits.wrapping_neg()
    } else {
        imm.bits
    };
    let sign = if imm.neg { "-" } else { "" };
    match imm.kind {
        ImmKind::Dec => {
            out.write_str(sign)?;
            write_u64(out, mag)?
        }
        ImmKind::Hex => write!(out, "{sign}0x{mag:x}")?,
        ImmKind::Oct => write!(out, "{sign}0{mag:o}")?,
        ImmKind::Bin => write!(out, "{sign}0b{mag:b}")?,
        ImmKind::F32 => return write!(out, "0f{:08X}", imm.bits as u32),
        ImmKind::F64 => return write!(out, "0d{:016X}", imm.bits),
        ImmKind::Float(s) => return out.write_str(syms.get(s)),
    }
    if imm.unsigned {
        out.write_char('U')?;
    }
    Ok(())
}

/// Decimal digits of `n` without going through `core::fmt`.
#[inline]
pub fn write_u64(out: &mut impl Write, mut n: u64) -> fmt::Result {
    let mut buf = [0u8; 20];
    let mut i = buf.len();
    loop {
        i -= 1;
        buf[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    // SAFETY: the buffer holds ASCII digits only.
    out.write_str(unsafe { std::str::from_utf8_unchecked(&buf[i..]) })
}

/// Register prefixes by class (`Type as usize`), zero-padded to four
/// bytes, with their lengths.
static PREFIXES: [([u8; 4], usize); Type::ALL.len()] = {
    let mut t = [([0u8; 4], 0); Type::ALL.len()];
    let mut k = 0;
    while k < Type::ALL.len() {
        let ty = Type::ALL[k];
        let p = ty.reg_prefix().as_bytes();
        let mut i = 0;
        while i < p.len() {
            t[ty as usize].0[i] = p[i];
            i += 1;
        }
        t[ty as usize].1 = p.len();
        k += 1;
    }
    t
};

/// Appends the name of `r` (`%rd12`): one reservation, the bytes stored
/// in place.
#[inline]
fn push_reg(out: &mut String, r: Reg) {
    let (prefix, plen) = PREFIXES[r.class as usize];
    let mut n = r.num;
    let mut digits = 1;
    let mut m = n / 10;
    while m != 0 {
        digits += 1;
        m /= 10;
    }
    // Four prefix bytes are stored whatever its length: room for them.
    out.reserve(4 + digits);
    // SAFETY: `4 + digits` bytes were reserved past the end. The prefix
    // (ASCII) and the digits (from the last) are written before the length
    // covers them; padding past the prefix is overwritten or left beyond
    // the length.
    unsafe {
        let v = out.as_mut_vec();
        let at = v.len();
        let dst = v.as_mut_ptr().add(at);
        std::ptr::copy_nonoverlapping(prefix.as_ptr(), dst, 4);
        let len = plen + digits;
        let mut k = len;
        loop {
            k -= 1;
            *dst.add(k) = b'0' + (n % 10) as u8;
            n /= 10;
            if n == 0 {
                break;
            }
        }
        v.set_len(at + len);
    }
}

fn sanitize(name: &str) -> String {
    name.chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '_')
        .take(24)
        .collect()
}
