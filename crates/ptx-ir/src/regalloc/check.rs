//! An independent check of an [`Assignment`]: that the printed registers
//! and copies compute what the SSA form says.
//!
//! It shares nothing with the allocator but liveness. Walking every
//! reachable block backwards, no definition may write a register that
//! holds another live value (a `mov`'s result may share with its source);
//! a tied result, whose copy runs before its instruction, also may not
//! write a register the instruction reads. Then each edge is run
//! symbolically: registers hold the values live at the end of the
//! predecessor, the copies placed before its terminator, in a block of
//! their own or at the top of the successor run in order, and every
//! parameter must then hold its argument, every value live into the
//! successor itself, and the branch's own operands must survive. Tied
//! copies are run the same way before their instruction.
//!
//! `Undef` values are never checked (they may hold anything).

use super::{Assignment, Copy, Reg};
use crate::entity::{EntityRef, SecondaryMap};
use crate::function::Function;
use crate::liveness::Liveness;
use crate::op::Opcode;
use crate::operand::Operand;
use crate::{ControlFlowGraph, DominatorTree, Inst, Value, ValueDef};
use rustc_hash::{FxHashMap, FxHashSet};

/// Checks that `a` is a correct way out of SSA for `func`; the error names
/// the first problem found.
pub fn check_assignment(func: &Function, a: &Assignment) -> Result<(), String> {
    let cfg = ControlFlowGraph::compute(func);
    let dt = DominatorTree::compute(func, &cfg);
    let live = Liveness::compute(func, &cfg);
    let dfg = &func.dfg;
    let undef = |v: Value| matches!(dfg.values[v].def, ValueDef::Undef);
    let same = copy_roots(func, &dt);
    let name = |v: Value| format!("{v} ({:?})", a.reg(v));
    for &b in dt.rpo() {
        // Interference, walking the block backwards.
        let mut live_now: FxHashSet<Value> = FxHashSet::default();
        live.for_each_live_out(b, |v| {
            if !undef(v) {
                live_now.insert(v);
            }
        });
        let insts: Vec<Inst> = func.layout.block_insts(b).collect();
        for &i in insts.iter().rev() {
            let d = &dfg.insts[i];
            let mut reads: Vec<Value> = Vec::new();
            d.for_each_use(|v| {
                if !undef(v) {
                    reads.push(v);
                }
            });
            for (k, &r) in d.results.iter().enumerate() {
                for &r2 in &d.results[k + 1..] {
                    if a.reg(r) == a.reg(r2) {
                        return Err(format!(
                            "{}: results {} and {} share",
                            func.name,
                            name(r),
                            name(r2)
                        ));
                    }
                }
                let tie = d.ties.get(k).copied();
                let clash = live_now
                    .iter()
                    .chain(tie.is_some().then_some(reads.iter()).into_iter().flatten())
                    .find(|&&x| {
                        x != r && Some(x) != tie && a.reg(x) == a.reg(r) && same[x] != same[r]
                    });
                if let Some(&x) = clash {
                    return Err(format!(
                        "{}: {} is written while {} lives in its register",
                        func.name,
                        name(r),
                        name(x)
                    ));
                }
                if let Some(t) = tie.filter(|&t| live_now.contains(&t) && a.reg(t) == a.reg(r)) {
                    return Err(format!(
                        "{}: tied {} overwrites its tie {}, still live",
                        func.name,
                        name(r),
                        name(t)
                    ));
                }
            }
            if !d.ties.is_empty() {
                // The tied copies, run before the instruction.
                let mut state = State::default();
                for &x in live_now.iter().chain(&reads) {
                    state.hold(a.reg(x), same[x]);
                }
                state.run(a.before.get(&i).map(Vec::as_slice).unwrap_or(&[]));
                for (&r, &t) in d.results.iter().zip(&d.ties) {
                    if !undef(t) && state.get(a.reg(r)) != Some(same[t]) {
                        return Err(format!(
                            "{}: tied {} does not start as {}",
                            func.name,
                            name(r),
                            name(t)
                        ));
                    }
                }
                for &x in &reads {
                    if !d.ties.contains(&x) && state.get(a.reg(x)) != Some(same[x]) {
                        return Err(format!(
                            "{}: a tied copy clobbers {}, read by {i}",
                            func.name,
                            name(x)
                        ));
                    }
                }
            }
            for r in &d.results {
                live_now.remove(r);
            }
            live_now.extend(reads);
        }
        let params = &dfg.blocks[b].params;
        for (k, &p) in params.iter().enumerate() {
            for &p2 in &params[k + 1..] {
                if a.reg(p) == a.reg(p2) {
                    return Err(format!(
                        "{}: parameters {} and {} share",
                        func.name,
                        name(p),
                        name(p2)
                    ));
                }
            }
            for &x in &live_now {
                if x != p && !params.contains(&x) && a.reg(x) == a.reg(p) && same[x] != same[p] {
                    return Err(format!(
                        "{}: parameter {} shares with {}, live into its block",
                        func.name,
                        name(p),
                        name(x)
                    ));
                }
            }
        }
        // The edges out of the block.
        let Some(term) = func.layout.last_inst(b) else {
            continue;
        };
        let d = &dfg.insts[term];
        let mut start = State::default();
        let mut term_reads: Vec<Value> = Vec::new();
        d.for_each_use(|v| {
            if !undef(v) {
                term_reads.push(v);
            }
        });
        live.for_each_live_out(b, |v| {
            if !undef(v) {
                start.hold(a.reg(v), same[v]);
            }
        });
        for &v in &term_reads {
            start.hold(a.reg(v), same[v]);
        }
        start.run(a.before.get(&term).map(Vec::as_slice).unwrap_or(&[]));
        let branch_reads: Vec<Value> = match func.op(term).opcode {
            Opcode::Bra | Opcode::Brx | Opcode::Ret | Opcode::Exit | Opcode::Jump => {
                let mut r: Vec<Value> = d.guard.map(|g| g.pred).into_iter().collect();
                for o in &d.operands {
                    if !matches!(o, Operand::Symbol(..)) {
                        o.for_each_value(&mut |v| r.push(v));
                    }
                }
                r
            }
            _ => Vec::new(),
        };
        for &v in branch_reads.iter().filter(|&&v| !undef(v)) {
            if start.get(a.reg(v)) != Some(same[v]) {
                return Err(format!(
                    "{}: copies before {term} clobber {}, which it reads",
                    func.name,
                    name(v)
                ));
            }
        }
        for (k, call) in d.targets.iter().enumerate() {
            let mut state = start.clone();
            if let Some(c) = a.edges.get(&(term, k as u32)) {
                state.run(c);
            }
            if let Some(c) = a.at_top.get(&call.block) {
                if cfg.preds(call.block) != [b] {
                    return Err(format!(
                        "{}: copies at the top of {} but it has several predecessors",
                        func.name, call.block
                    ));
                }
                state.run(c);
            }
            let ps = &dfg.blocks[call.block].params;
            for (&p, &x) in ps.iter().zip(&call.args) {
                if !undef(x) && state.get(a.reg(p)) != Some(same[x]) {
                    return Err(format!(
                        "{}: on the edge {b} -> {}, parameter {} does not receive {}",
                        func.name,
                        call.block,
                        name(p),
                        name(x)
                    ));
                }
            }
            let mut bad = None;
            live.for_each_live_in(call.block, |v| {
                if bad.is_none() && !undef(v) && state.get(a.reg(v)) != Some(same[v]) {
                    bad = Some(v);
                }
            });
            if let Some(v) = bad {
                return Err(format!(
                    "{}: on the edge {b} -> {}, {} live into it is clobbered",
                    func.name,
                    call.block,
                    name(v)
                ));
            }
        }
    }
    Ok(())
}

/// Register contents: which value (by copy root) each register holds.
#[derive(Clone, Default)]
struct State(FxHashMap<Reg, Value>);

impl State {
    fn hold(&mut self, r: Reg, v: Value) {
        self.0.insert(r, v);
    }

    fn get(&self, r: Reg) -> Option<Value> {
        self.0.get(&r).copied()
    }

    fn run(&mut self, copies: &[Copy]) {
        for c in copies {
            match self.0.get(&c.src).copied() {
                Some(v) => self.0.insert(c.dst, v),
                None => self.0.remove(&c.dst),
            };
        }
    }
}

/// Each value's copy root: the value a chain of unguarded same-class
/// `mov`s (in reachable blocks) copies, or itself.
fn copy_roots(func: &Function, dt: &DominatorTree) -> SecondaryMap<Value, Value> {
    let dfg = &func.dfg;
    let nv = dfg.values.len();
    let mut root: SecondaryMap<Value, Value> = SecondaryMap::with_capacity(nv, Value::new(0));
    for k in 0..nv {
        root[Value::new(k)] = Value::new(k);
    }
    let mut links = Vec::new();
    for &b in dt.rpo() {
        for i in func.layout.block_insts(b) {
            let d = &dfg.insts[i];
            if func.op(i).opcode != Opcode::Mov || d.guard.is_some() || !d.ties.is_empty() {
                continue;
            }
            if let (Some(Operand::Value(dst)), Some(Operand::Value(src)), [r]) =
                (d.operands.first(), d.operands.get(1), d.results.as_slice())
            {
                let class = |v: Value| dfg.values[v].ty.reg_class();
                if r == dst
                    && class(*dst) == class(*src)
                    && !matches!(dfg.values[*src].def, ValueDef::Undef)
                {
                    links.push((*dst, *src));
                }
            }
        }
    }
    for &(dst, src) in &links {
        root[dst] = src;
    }
    for &(dst, _) in &links {
        let mut v = root[dst];
        for _ in 0..64 {
            if root[v] == v {
                break;
            }
            v = root[v];
        }
        root[dst] = v;
    }
    root
}
