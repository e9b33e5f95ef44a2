//! SSA construction: from PTX registers to values and block parameters.
//!
//! The parser leaves every register operand holding its source-register
//! number ("variable"). This pass:
//!
//! 1. classifies each operand slot as read, written, or (for guarded
//!    definitions and unknown instructions) read-and-written;
//! 2. computes which variables are live into each block;
//! 3. places block parameters at the iterated dominance frontier of each
//!    variable's definitions, where it is live (pruned SSA);
//! 4. renames along the dominator tree, passing the current definitions as
//!    branch arguments. Blocks unreachable from the entry are renamed on
//!    their own, with every variable undefined on entry.
//!
//! A variable read before any write becomes an `Undef` value. Every value
//! keeps its variable as a register hint, which out-of-SSA uses to give all
//! values of one source register the same printed register.
//!
//! Guarantees: the result passes the verifier's dominance check; a guarded
//! definition is tied to the value it replaces, so a false guard keeps it.

use ptx_ir::bitset::{iter_bits, set_bit, test_bit, BitMatrix};
use ptx_ir::entity::{EntityRef, PrimaryMap, SecondaryMap};
use ptx_ir::{
    Block, ControlFlowGraph, DataFlowGraph, DominatorTree, Function, InstData, Operand, Shape,
    Type, Value, ValueData, ValueDef,
};
use smallvec::SmallVec;

/// Largest blocks × variables handled with dense bit matrices (512 KiB);
/// above it, liveness is computed sparsely, variable by variable.
const DENSE_LIMIT: usize = 1 << 22;

/// A source register (before SSA).
#[derive(Clone, Copy, Debug)]
pub struct Var {
    /// Declared type.
    pub ty: Type,
}

/// How an instruction uses an operand slot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slot {
    /// Read.
    Use,
    /// Written.
    Def,
    /// Possibly written, so also read (unknown instructions).
    DefUse,
}

/// Visits every register slot of `ops` with its kind under `shape`.
pub fn visit_slots(shape: Shape, ops: &mut [Operand], f: &mut impl FnMut(&mut Value, Slot)) {
    let ndefs = match shape {
        Shape::Defs(n) => n as usize,
        Shape::Call if ops.len() >= 2 && matches!(ops[0], Operand::List(_)) => 1,
        _ => 0,
    };
    for (k, o) in ops.iter_mut().enumerate() {
        let kind = match shape {
            Shape::Unknown => Slot::DefUse,
            _ if k < ndefs => Slot::Def,
            _ => Slot::Use,
        };
        visit_operand(o, kind, f);
    }
}

/// Visits only the written (or read-and-written) slots of `ops`.
fn visit_defs(shape: Shape, ops: &mut [Operand], f: &mut impl FnMut(&mut Value)) {
    let n = match shape {
        Shape::Unknown => ops.len(),
        Shape::Defs(n) => (n as usize).min(ops.len()),
        Shape::Call if ops.len() >= 2 && matches!(ops[0], Operand::List(_)) => 1,
        Shape::Call => 0,
    };
    for o in &mut ops[..n] {
        visit_operand(o, Slot::Def, &mut |v, s| {
            if s != Slot::Use {
                f(v)
            }
        });
    }
}

/// Visits the register slots of one operand: flat forms inline, nested
/// ones (vectors, lists, addresses) through [`visit_nested`].
#[inline]
fn visit_operand(o: &mut Operand, kind: Slot, f: &mut impl FnMut(&mut Value, Slot)) {
    match o {
        Operand::Value(v) | Operand::Sel(v, _) => f(v, kind),
        Operand::Not(v) | Operand::Neg(v, _) => f(v, Slot::Use),
        Operand::Pair(a, b) => {
            if let Some(a) = a {
                f(a, kind)
            }
            if let Some(b) = b {
                f(b, kind)
            }
        }
        Operand::Vector(_) | Operand::List(_) | Operand::Addr(_) => visit_nested(o, kind, f),
        _ => {}
    }
}

/// [`visit_operand`] for vectors, lists and addresses (other forms never
/// come here).
fn visit_nested(o: &mut Operand, kind: Slot, f: &mut dyn FnMut(&mut Value, Slot)) {
    match o {
        Operand::Vector(vs) | Operand::List(vs) => {
            for x in vs.iter_mut() {
                visit_operand(x, kind, &mut |v, s| f(v, s));
            }
        }
        Operand::Addr(a) => {
            visit_operand(&mut a.base, Slot::Use, &mut |v, s| f(v, s));
            for x in &mut a.rest {
                visit_operand(x, Slot::Use, &mut |v, s| f(v, s));
            }
        }
        _ => {}
    }
}

/// Builds SSA form in `f`, whose register operands hold variable numbers
/// into `vars`. Returns the dominator tree it used: building SSA changes no
/// edge, so the tree stays current for the verifier.
pub fn build(f: &mut Function, vars: &[Var]) -> DominatorTree {
    let cfg = ControlFlowGraph::compute(f);
    let dt = DominatorTree::compute(f, &cfg);
    let blocks: Vec<Block> = f.layout.blocks().collect();
    // A single block needs no parameters: skip liveness and placement.
    let param_vars = if blocks.len() > 1 {
        let df = dominance_frontiers(&dt, &cfg);
        if blocks.len().saturating_mul(vars.len()) <= DENSE_LIMIT {
            let (live_in, kill, row) = var_liveness(f, vars.len(), &blocks, &cfg);
            place_params_dense(vars.len(), &dt, &df, &live_in, &kill, &row)
        } else {
            place_params(f, vars.len(), &blocks, &cfg, &dt, &df)
        }
    } else {
        SecondaryMap::new()
    };
    rename(f, vars, &blocks, &dt, &param_vars);
    dt
}

/// Dominance frontiers of the reachable blocks (Cooper, Harvey, Kennedy).
#[inline(never)]
fn dominance_frontiers(
    dt: &DominatorTree,
    cfg: &ControlFlowGraph,
) -> SecondaryMap<Block, SmallVec<[Block; 2]>> {
    let mut df: SecondaryMap<Block, SmallVec<[Block; 2]>> = SecondaryMap::new();
    for &b in dt.rpo() {
        let preds = cfg.preds(b);
        if preds.len() < 2 {
            continue;
        }
        let Some(idom) = dt.idom(b) else { continue };
        for &p in preds {
            if !dt.is_reachable(p) {
                continue;
            }
            let mut r = p;
            while r != idom {
                // Blocks are taken one at a time, so `b` is last in the
                // frontier of every block an earlier predecessor's walk
                // reached; the rest of this walk was done then. Stopping
                // keeps a block with many predecessors linear.
                if df[r].last() == Some(&b) {
                    break;
                }
                df[r].push(b);
                match dt.idom(r) {
                    Some(x) => r = x,
                    None => break,
                }
            }
        }
    }
    df
}

/// For each block, the variables it gets a parameter for: the iterated
/// dominance frontier of each variable's writes, where it is live.
///
/// Liveness is computed variable by variable, walking backwards from the
/// blocks that read it before writing it, so the cost follows the live
/// ranges, never blocks × variables.
#[inline(never)]
fn place_params(
    f: &mut Function,
    nvars: usize,
    blocks: &[Block],
    cfg: &ControlFlowGraph,
    dt: &DominatorTree,
    df: &SecondaryMap<Block, SmallVec<[Block; 2]>>,
) -> SecondaryMap<Block, SmallVec<[u32; 2]>> {
    // (variable, block) pairs: upward-exposed reads and writes.
    let mut reads: Vec<(u32, Block)> = Vec::new();
    let mut writes: Vec<(u32, Block)> = Vec::new();
    let mut killed: Vec<u32> = vec![0; nvars];
    let mut read_seen: Vec<u32> = vec![0; nvars];
    for (k, &b) in blocks.iter().enumerate() {
        let stamp = k as u32 + 1;
        for i in f.layout.block_insts(b) {
            let shape = f.ops.info(f.dfg.insts[i].op).shape;
            let d = &mut f.dfg.insts[i];
            let guarded = d.guard.is_some();
            let mut read = |x: usize, reads: &mut Vec<(u32, Block)>| {
                if killed[x] != stamp && read_seen[x] != stamp {
                    read_seen[x] = stamp;
                    reads.push((x as u32, b));
                }
            };
            if let Some(gd) = d.guard {
                read(gd.pred.index(), &mut reads);
            }
            let mut defs: SmallVec<[usize; 4]> = SmallVec::new();
            visit_slots(shape, &mut d.operands, &mut |v, s| {
                let x = v.index();
                if s != Slot::Def || guarded {
                    read(x, &mut reads);
                }
                if s != Slot::Use {
                    defs.push(x);
                }
            });
            for x in defs {
                if killed[x] != stamp {
                    killed[x] = stamp;
                    writes.push((x as u32, b));
                }
            }
        }
    }
    reads.sort_unstable_by_key(|&(x, b)| (x, b.as_u32()));
    writes.sort_unstable_by_key(|&(x, b)| (x, b.as_u32()));
    let mut param_vars: SecondaryMap<Block, SmallVec<[u32; 2]>> = SecondaryMap::new();
    // Per-variable marks (variable number + 1) on blocks.
    let mut defines: SecondaryMap<Block, u32> = SecondaryMap::new();
    let mut live: SecondaryMap<Block, u32> = SecondaryMap::new();
    let mut queued: SecondaryMap<Block, u32> = SecondaryMap::new();
    let mut placed: SecondaryMap<Block, u32> = SecondaryMap::new();
    let mut work: Vec<Block> = Vec::new();
    let (mut r, mut w) = (0, 0);
    while w < writes.len() {
        let x = writes[w].0;
        let mark = x + 1;
        let defs_start = w;
        while w < writes.len() && writes[w].0 == x {
            defines[writes[w].1] = mark;
            w += 1;
        }
        // Live-in blocks of x. A variable never read before being written
        // in some block is live into none, and needs no parameter.
        while r < reads.len() && reads[r].0 < x {
            r += 1;
        }
        if r >= reads.len() || reads[r].0 != x {
            continue;
        }
        work.clear();
        while r < reads.len() && reads[r].0 == x {
            let b = reads[r].1;
            if live[b] != mark {
                live[b] = mark;
                work.push(b);
            }
            r += 1;
        }
        while let Some(b) = work.pop() {
            for &p in cfg.preds(b) {
                if defines[p] != mark && live[p] != mark {
                    live[p] = mark;
                    work.push(p);
                }
            }
        }
        // Parameters at the iterated dominance frontier where x is live.
        work.clear();
        for &(_, b) in &writes[defs_start..w] {
            if dt.is_reachable(b) {
                queued[b] = mark;
                work.push(b);
            }
        }
        while let Some(b) = work.pop() {
            for &y in df[b].iter() {
                if placed[y] == mark {
                    continue;
                }
                placed[y] = mark;
                if live[y] == mark {
                    param_vars[y].push(x);
                }
                if queued[y] != mark {
                    queued[y] = mark;
                    work.push(y);
                }
            }
        }
    }
    param_vars
}

/// Variables live into each block (rows in layout order), the variables
/// each block writes, and the row of each block.
#[inline(never)]
fn var_liveness(
    f: &mut Function,
    nvars: usize,
    blocks: &[Block],
    cfg: &ControlFlowGraph,
) -> (BitMatrix, BitMatrix, SecondaryMap<Block, u32>) {
    let n = blocks.len();
    let mut row: SecondaryMap<Block, u32> = SecondaryMap::with_capacity(n, u32::MAX);
    for (k, &b) in blocks.iter().enumerate() {
        row[b] = k as u32;
    }
    // Upward-exposed reads start the live-in sets.
    let mut live_in = BitMatrix::new(n, nvars);
    let mut kill = BitMatrix::new(n, nvars);
    for (k, &b) in blocks.iter().enumerate() {
        let (g, kr) = (live_in.row_mut(k), kill.row_mut(k));
        for i in f.layout.block_insts(b) {
            let shape = f.ops.info(f.dfg.insts[i].op).shape;
            let d = &mut f.dfg.insts[i];
            let guarded = d.guard.is_some();
            if let Some(gd) = d.guard {
                if !test_bit(kr, gd.pred.index()) {
                    set_bit(g, gd.pred.index());
                }
            }
            // The usual shape, one plain register written first, without
            // the general case's list.
            if let (Shape::Defs(1), Some(&Operand::Value(dv))) = (shape, d.operands.first()) {
                for o in &mut d.operands[1..] {
                    visit_operand(o, Slot::Use, &mut |v, _| {
                        if !test_bit(kr, v.index()) {
                            set_bit(g, v.index());
                        }
                    });
                }
                let x = dv.index();
                if guarded && !test_bit(kr, x) {
                    set_bit(g, x);
                }
                set_bit(kr, x);
                continue;
            }
            let mut defs: SmallVec<[usize; 4]> = SmallVec::new();
            visit_slots(shape, &mut d.operands, &mut |v, s| {
                let x = v.index();
                if (s != Slot::Def || guarded) && !test_bit(kr, x) {
                    set_bit(g, x);
                }
                if s != Slot::Use {
                    defs.push(x);
                }
            });
            for x in defs {
                set_bit(kr, x);
            }
        }
    }
    let words = live_in.row_words();
    let mut out = vec![0u64; words];
    loop {
        let mut changed = false;
        for k in (0..n).rev() {
            out.iter_mut().for_each(|w| *w = 0);
            for &s in cfg.succs(blocks[k]) {
                let r = row[s];
                if r != u32::MAX {
                    for (o, w) in out.iter_mut().zip(live_in.row(r as usize)) {
                        *o |= w;
                    }
                }
            }
            let kr = kill.row(k);
            for ((i, o), kw) in live_in.row_mut(k).iter_mut().zip(&out).zip(kr) {
                let add = o & !kw & !*i;
                if add != 0 {
                    *i |= add;
                    changed = true;
                }
            }
        }
        if !changed {
            break;
        }
    }
    (live_in, kill, row)
}

/// [`place_params`] over dense bit matrices: faster for the usual small
/// functions, used when blocks × variables stays small.
#[inline(never)]
fn place_params_dense(
    nvars: usize,
    dt: &DominatorTree,
    df: &SecondaryMap<Block, SmallVec<[Block; 2]>>,
    live_in: &BitMatrix,
    kill: &BitMatrix,
    row: &SecondaryMap<Block, u32>,
) -> SecondaryMap<Block, SmallVec<[u32; 2]>> {
    debug_assert!(live_in.row_words() * 64 >= nvars);
    // Variables live into some block; the others need no parameter.
    let mut live_somewhere = vec![0u64; live_in.row_words()];
    for &b in dt.rpo() {
        for (a, w) in live_somewhere.iter_mut().zip(live_in.row(row[b] as usize)) {
            *a |= w;
        }
    }
    // Definition sites of those variables: (variable, position in reverse
    // post-order), sorted, so each variable's sites come together in
    // reverse post-order.
    let mut sites: Vec<(u32, u32)> = Vec::new();
    let mut defined = vec![0u64; live_somewhere.len()];
    for (k, &b) in dt.rpo().iter().enumerate() {
        for ((d, w), l) in defined
            .iter_mut()
            .zip(kill.row(row[b] as usize))
            .zip(&live_somewhere)
        {
            *d = w & l;
        }
        sites.extend(iter_bits(&defined).map(|x| (x as u32, k as u32)));
    }
    sites.sort_unstable();
    let mut param_vars: SecondaryMap<Block, SmallVec<[u32; 2]>> = SecondaryMap::new();
    // Per-variable marks (variable number + 1): queued as a definition
    // site, and considered for a parameter.
    let mut queued: SecondaryMap<Block, u32> = SecondaryMap::new();
    let mut placed: SecondaryMap<Block, u32> = SecondaryMap::new();
    let mut work: Vec<Block> = Vec::new();
    for defs in sites.chunk_by(|a, b| a.0 == b.0) {
        let x = defs[0].0 as usize;
        let mark = x as u32 + 1;
        work.clear();
        for &(_, k) in defs {
            let b = dt.rpo()[k as usize];
            queued[b] = mark;
            work.push(b);
        }
        while let Some(b) = work.pop() {
            for &y in df[b].iter() {
                if placed[y] == mark {
                    continue;
                }
                placed[y] = mark;
                if test_bit(live_in.row(row[y] as usize), x) {
                    param_vars[y].push(x as u32);
                }
                if queued[y] != mark {
                    queued[y] = mark;
                    work.push(y);
                }
            }
        }
    }
    param_vars
}

/// Renames along the dominator tree, then every unreachable block alone.
#[inline(never)]
fn rename(
    f: &mut Function,
    vars: &[Var],
    blocks: &[Block],
    dt: &DominatorTree,
    param_vars: &SecondaryMap<Block, SmallVec<[u32; 2]>>,
) {
    let nvars = vars.len();
    let mut r = Renamer {
        vars,
        cur: vec![None; nvars],
        undef: vec![None; nvars],
        // One entry per definition: room for one per instruction.
        undo: Vec::with_capacity(f.dfg.insts.len()),
        param_vars,
    };
    let mut children: SecondaryMap<Block, SmallVec<[Block; 2]>> = SecondaryMap::new();
    for &b in dt.rpo() {
        if let Some(d) = dt.idom(b) {
            children[d].push(b);
        }
    }
    enum Step {
        Enter(Block),
        Exit(usize),
    }
    if let Some(entry) = f.layout.entry_block() {
        let mut stack = vec![Step::Enter(entry)];
        while let Some(s) = stack.pop() {
            match s {
                Step::Enter(b) => {
                    stack.push(Step::Exit(r.undo.len()));
                    r.block(f, b);
                    for &c in children[b].iter().rev() {
                        stack.push(Step::Enter(c));
                    }
                }
                Step::Exit(mark) => r.rollback(mark),
            }
        }
    }
    for &b in blocks {
        if !dt.is_reachable(b) {
            r.block(f, b);
            r.rollback(0);
        }
    }
}

struct Renamer<'a> {
    vars: &'a [Var],
    cur: Vec<Option<Value>>,
    undef: Vec<Option<Value>>,
    undo: Vec<(u32, Option<Value>)>,
    param_vars: &'a SecondaryMap<Block, SmallVec<[u32; 2]>>,
}

impl Renamer<'_> {
    fn rollback(&mut self, mark: usize) {
        while self.undo.len() > mark {
            let (x, v) = self.undo.pop().unwrap();
            self.cur[x as usize] = v;
        }
    }

    fn set(&mut self, x: usize, v: Value) {
        self.undo.push((x as u32, self.cur[x]));
        self.cur[x] = Some(v);
    }

    #[inline]
    fn read(&mut self, values: &mut PrimaryMap<Value, ValueData>, x: usize) -> Value {
        if let Some(v) = self.cur[x] {
            return v;
        }
        *self.undef[x].get_or_insert_with(|| {
            values.push(ValueData {
                ty: self.vars[x].ty,
                def: ValueDef::Undef,
                hint: Some(x as u32),
            })
        })
    }

    fn block(&mut self, f: &mut Function, b: Block) {
        for &x in &self.param_vars[b] {
            let v = f
                .dfg
                .append_block_param(b, self.vars[x as usize].ty, Some(x));
            self.set(x as usize, v);
        }
        // The layout does not change while renaming: walk it in place and
        // edit the instructions and values beside it.
        let Function {
            ops, dfg, layout, ..
        } = f;
        let DataFlowGraph { insts, values, .. } = dfg;
        for i in layout.block_insts(b) {
            let d = &mut insts[i];
            let shape = ops.info(d.op).shape;
            let guarded = d.guard.is_some();
            if let Some(g) = &mut d.guard {
                g.pred = self.read(values, g.pred.index());
            }
            // The usual shape, one plain register written first: what the
            // general case below does, without its lists.
            if let (Shape::Defs(1), Some(&Operand::Value(dv))) = (shape, d.operands.first()) {
                for o in &mut d.operands[1..] {
                    visit_operand(o, Slot::Use, &mut |v, _| *v = self.read(values, v.index()));
                }
                let x = dv.index();
                let tie = guarded.then(|| self.read(values, x));
                let v = values.push(ValueData {
                    ty: self.vars[x].ty,
                    def: ValueDef::Result(i, 0),
                    hint: Some(x as u32),
                });
                debug_assert!(d.results.is_empty());
                d.results.push(v);
                if let Some(t) = tie {
                    d.ties.push(t);
                }
                d.operands[0] = Operand::Value(v);
                self.set(x, v);
                self.branch_args(values, d);
                continue;
            }
            // Reads first, all against the definitions before `i`.
            let mut defs: SmallVec<[(usize, Slot); 4]> = SmallVec::new();
            visit_slots(shape, &mut d.operands, &mut |v, s| match s {
                Slot::Use => *v = self.read(values, v.index()),
                _ => defs.push((v.index(), s)),
            });
            // Then one result per written variable.
            let mut made: SmallVec<[(usize, Value); 2]> = SmallVec::new();
            for &(x, s) in &defs {
                if made.iter().any(|&(y, _)| y == x) {
                    continue;
                }
                let tie = (guarded || s == Slot::DefUse).then(|| self.read(values, x));
                let v = values.push(ValueData {
                    ty: self.vars[x].ty,
                    def: ValueDef::Result(i, d.results.len() as u16),
                    hint: Some(x as u32),
                });
                d.results.push(v);
                if let Some(t) = tie {
                    d.ties.push(t);
                }
                made.push((x, v));
            }
            // Mixed tied and untied results cannot happen: ties come from
            // the guard (all results) or from an unknown shape (all slots
            // read-and-written).
            debug_assert!(d.ties.is_empty() || d.ties.len() == d.results.len());
            if !made.is_empty() {
                visit_defs(shape, &mut d.operands, &mut |v| {
                    let x = v.index();
                    if let Some(&(_, nv)) = made.iter().find(|&&(y, _)| y == x) {
                        *v = nv;
                    }
                });
            }
            for (x, v) in made {
                self.set(x, v);
            }
            self.branch_args(values, d);
        }
    }

    /// Branch arguments: the definitions reaching the end of the block.
    #[inline]
    fn branch_args(&mut self, values: &mut PrimaryMap<Value, ValueData>, d: &mut InstData) {
        for t in d.targets.iter_mut() {
            let xs = &self.param_vars[t.block];
            if xs.is_empty() {
                continue;
            }
            let mut args: SmallVec<[Value; 2]> = SmallVec::with_capacity(xs.len());
            for &x in xs.iter() {
                args.push(self.read(values, x as usize));
            }
            t.args = args;
        }
    }
}
