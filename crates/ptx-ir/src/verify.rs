//! The IR verifier.
//!
//! Invariants checked, in this order (later checks assume earlier ones):
//!
//! 1. **Entities.** Every value, block and target an instruction names
//!    exists; every result's definition points back at its instruction and
//!    slot; every block parameter's at its block and slot.
//! 2. **CFG shape.** Every block in the layout is non-empty and ends with
//!    exactly one terminator (`bra`, `ret`, `exit`, IR `jump`); no
//!    terminator appears elsewhere. A guarded `bra` has two targets (taken,
//!    fall-through), an unguarded one one; a guarded `ret`/`exit` has one
//!    (fall-through), an unguarded one none; `jump` has one; `brx.idx` one
//!    per table entry, plus the fall-through when guarded. Targets are in
//!    the layout. The entry block has no parameters.
//! 3. **Block arguments.** Each target passes one argument per parameter,
//!    of the parameter's register class.
//! 4. **Ties.** `ties` is empty or has one entry per result, of the same
//!    class.
//! 5. **Operands.** Known families have their operand counts; destinations
//!    are registers (or `_` where allowed); guards are predicates; for
//!    families whose operands all share the instruction type, register
//!    classes are compatible with it.
//! 6. **SSA dominance.** In reachable blocks, every use is dominated by its
//!    definition: parameters at the block top, results right after their
//!    instruction, branch arguments used at the end of their block, undef
//!    values anywhere.

use crate::cfg::{ControlFlowGraph, DominatorTree};
use crate::dfg::ValueDef;
use crate::entity::SecondaryMap;
use crate::function::Function;
use crate::op::{Opcode, Shape};
use crate::operand::Operand;
use crate::types::Type;
use crate::{Block, Inst, Value};

/// One verifier finding.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VerifierError {
    /// The offending instruction, if the finding is about one.
    pub inst: Option<Inst>,
    /// The offending block, if the finding is about one.
    pub block: Option<Block>,
    /// Source byte offset of the instruction (`u32::MAX` if unknown).
    pub pos: u32,
    /// What is wrong.
    pub message: String,
}

struct Verifier<'a> {
    f: &'a Function,
    errors: Vec<VerifierError>,
}

impl<'a> Verifier<'a> {
    fn new(f: &'a Function) -> Self {
        Verifier {
            f,
            errors: Vec::new(),
        }
    }

    fn err(&mut self, inst: Option<Inst>, block: Option<Block>, message: String) {
        let pos = inst.map_or(u32::MAX, |i| self.f.dfg.insts[i].pos);
        self.errors.push(VerifierError {
            inst,
            block,
            pos,
            message,
        });
    }
}

/// Verifies `f`, returning every finding (empty when valid).
pub fn verify_function(f: &Function) -> Vec<VerifierError> {
    if !f.has_body {
        return Vec::new();
    }
    let cfg = ControlFlowGraph::compute(f);
    let dt = DominatorTree::compute(f, &cfg);
    verify_function_with(f, &dt)
}

/// Verifies `f` given its dominator tree, which must be current (computed
/// from `f`'s CFG as it is now; SSA construction hands out such a tree).
pub fn verify_function_with(f: &Function, dt: &DominatorTree) -> Vec<VerifierError> {
    let mut v = Verifier::new(f);
    if !f.has_body {
        return v.errors;
    }
    let seq = check_entities(&mut v);
    if !v.errors.is_empty() {
        return v.errors;
    }
    // Shape, operands and dominance in one walk. Operand and dominance
    // findings only count on a well-shaped function, and come out as the
    // separate checks gave them: every operand finding, then every
    // dominance one.
    let mut operands = Verifier::new(f);
    let mut dominance = Verifier::new(f);
    check_entry(&mut v);
    for b in f.layout.blocks() {
        let Some(last) = check_block(&mut v, b) else {
            continue;
        };
        let reachable = dt.is_reachable(b);
        for i in f.layout.block_insts(b) {
            check_shape(&mut v, b, i, last);
            check_operands(&mut operands, b, i);
            if reachable {
                check_dominance(&mut dominance, dt, &seq, b, i);
            }
        }
    }
    if !v.errors.is_empty() {
        return v.errors;
    }
    v.errors.append(&mut operands.errors);
    v.errors.append(&mut dominance.errors);
    v.errors
}

/// Checks 1 and numbers each instruction within its block (from 1), for
/// the dominance check.
fn check_entities(v: &mut Verifier) -> SecondaryMap<Inst, u32> {
    let f = v.f;
    let dfg = &f.dfg;
    let value_ok = |x: Value| dfg.values.is_valid(x);
    let mut seq: SecondaryMap<Inst, u32> = SecondaryMap::new();
    seq.reserve(f.dfg.insts.len());
    for b in f.layout.blocks() {
        for (k, &p) in dfg.blocks[b].params.iter().enumerate() {
            if !value_ok(p) || dfg.values[p].def != ValueDef::Param(b, k as u16) {
                v.err(
                    None,
                    Some(b),
                    format!("parameter {k} of {b} is not defined by it"),
                );
            }
        }
        for (k, i) in f.layout.block_insts(b).enumerate() {
            seq[i] = k as u32 + 1;
            let d = &dfg.insts[i];
            // Every value the instruction names: guard, operands (uses
            // and results), tied values, branch arguments.
            let mut bad = d.guard.is_some_and(|g| !value_ok(g.pred))
                || d.ties.iter().any(|&t| !value_ok(t))
                || d.targets
                    .iter()
                    .flat_map(|t| &t.args)
                    .any(|&a| !value_ok(a));
            for (k, &r) in d.results.iter().enumerate() {
                if !value_ok(r) || dfg.values[r].def != ValueDef::Result(i, k as u16) {
                    bad = true;
                }
            }
            for o in &d.operands {
                o.for_each_value(&mut |x| bad |= !value_ok(x));
            }
            if bad {
                v.err(
                    Some(i),
                    Some(b),
                    "instruction refers to an invalid value".into(),
                );
            }
            for t in &d.targets {
                if !dfg.blocks.is_valid(t.block) || !f.layout.is_block_inserted(t.block) {
                    v.err(
                        Some(i),
                        Some(b),
                        format!("branch to {} outside the layout", t.block),
                    );
                }
            }
        }
    }
    seq
}

/// Check 2's entry block rule.
fn check_entry(v: &mut Verifier) {
    let f = v.f;
    if let Some(e) = f.layout.entry_block() {
        if !f.dfg.blocks[e].params.is_empty() {
            v.err(None, Some(e), "entry block has parameters".into());
        }
    } else {
        v.err(None, None, "function body has no blocks".into());
    }
}

/// Check 2's rule for block `b` itself: it is not empty.
fn check_block(v: &mut Verifier, b: Block) -> Option<Inst> {
    let last = v.f.layout.last_inst(b);
    if last.is_none() {
        v.err(None, Some(b), format!("{b} is empty"));
    }
    last
}

/// Checks 2 to 4 on instruction `i` of block `b`, whose last is `last`.
fn check_shape(v: &mut Verifier, b: Block, i: Inst, last: Inst) {
    let f = v.f;
    let d = f.inst(i);
    let op = f.op(i).opcode;
    if op.is_terminator() != (i == last) {
        let msg = if i == last {
            format!("{b} does not end with a terminator")
        } else {
            format!("terminator in the middle of {b}")
        };
        v.err(Some(i), Some(b), msg);
        return;
    }
    let fall = usize::from(d.guard.is_some());
    let want = match (op, d.guard.is_some()) {
        (Opcode::Brx, _) if d.targets.len() > fall => d.targets.len(),
        (Opcode::Brx, _) => 1 + fall,
        (Opcode::Bra, true) => 2,
        (Opcode::Bra, false) | (Opcode::Jump, _) => 1,
        (Opcode::Ret | Opcode::Exit, true) => 1,
        (Opcode::Ret | Opcode::Exit, false) => 0,
        _ => 0,
    };
    if d.targets.len() != want {
        v.err(
            Some(i),
            Some(b),
            format!(
                "{} has {} targets, expected {want}",
                f.op(i).text,
                d.targets.len()
            ),
        );
    }
    for t in &d.targets {
        let params = &f.dfg.blocks[t.block].params;
        if params.len() != t.args.len() {
            v.err(
                Some(i),
                Some(b),
                format!(
                    "branch to {} passes {} arguments for {} parameters",
                    t.block,
                    t.args.len(),
                    params.len()
                ),
            );
            continue;
        }
        for (&p, &a) in params.iter().zip(&t.args) {
            if f.dfg.value_type(p).reg_class() != f.dfg.value_type(a).reg_class() {
                v.err(
                    Some(i),
                    Some(b),
                    format!("argument {a} does not match type of {p}"),
                );
            }
        }
    }
    if !d.ties.is_empty() {
        if d.ties.len() != d.results.len() {
            v.err(Some(i), Some(b), "tied values do not match results".into());
        } else {
            for (&r, &t) in d.results.iter().zip(&d.ties) {
                if f.dfg.value_type(r).reg_class() != f.dfg.value_type(t).reg_class() {
                    v.err(
                        Some(i),
                        Some(b),
                        format!("{r} is tied to {t} of another class"),
                    );
                }
            }
        }
    }
}

/// Expected operand counts `(min, max)` of the known families (`bool_form`:
/// the form has a `.BoolOp`, or for `vote` a `.sync`).
pub fn operand_counts(op: Opcode, bool_form: bool) -> Option<(usize, usize)> {
    use Opcode::*;
    Some(match op {
        Mov | Neg | Abs | Not | Cnot | Cvta => (2, 2),
        // `cvt.pack.sat.{u8,s8,u4,s4,u2,s2}.s32.b32 d, a, b, c` takes four.
        Cvt => (2, 4),
        Add | Sub | Mul | And | Or | Xor | Shl | Shr => (3, 3),
        // Three-input `min`/`max` (PTX 8.8, sm_100+) take a fourth.
        Min | Max => (3, 4),
        Mad => (4, 4),
        Lop3 if bool_form => (6, 6),
        Lop3 => (5, 5),
        Set | Setp if bool_form => (4, 4),
        Set | Setp => (3, 3),
        Selp | Slct | Prmt | Bfe | Shf => (4, 4),
        Bfi => (5, 5),
        Vadd2 | Vsub2 | Vavrg2 | Vabsdiff2 | Vmin2 | Vmax2 => (4, 4),
        Vote if bool_form => (3, 3),
        Vote => (2, 2),
        Activemask => (1, 1),
        Ld | St => (2, 3),
        Bra | Ret | Exit | Jump => (0, 0),
        Brx => (2, 2),
        Call => (1, 4),
        Other => return None,
    })
}

/// Whether the form `op` takes its optional extra operand: a `.BoolOp`
/// (`set`, `setp`, `lop3`) or `.sync` (`vote`).
pub fn bool_form(ops: &crate::op::OpTable, op: crate::op::OpId) -> bool {
    ops.info(op).checks.bool_form
}

/// Check 5 on instruction `i` of block `b`.
fn check_operands(v: &mut Verifier, b: Block, i: Inst) {
    let f = v.f;
    let d = f.inst(i);
    let info = f.op(i);
    if let Some(g) = d.guard {
        if f.dfg.value_type(g.pred) != Type::Pred {
            v.err(Some(i), Some(b), "guard is not a predicate".into());
        }
    }
    if let Some((lo, hi)) = operand_counts(info.opcode, bool_form(&f.ops, d.op)) {
        let n = d.operands.len();
        if n < lo || n > hi {
            let want = if lo == hi {
                format!("{lo}")
            } else {
                format!("{lo} to {hi}")
            };
            v.err(
                Some(i),
                Some(b),
                format!("'{}' takes {want} operands, found {n}", info.text),
            );
            return;
        }
    }
    if let Shape::Defs(n) = info.shape {
        for o in d.operands.iter().take(n as usize) {
            let ok = matches!(
                o,
                Operand::Value(_)
                    | Operand::Sel(..)
                    | Operand::Pair(..)
                    | Operand::Vector(_)
                    | Operand::Sink
                    | Operand::Pinned(..)
            );
            if !ok {
                v.err(
                    Some(i),
                    Some(b),
                    format!("destination of '{}' is not a register", info.text),
                );
            }
        }
    }
    if let Some(msg) = type_mismatch(f, i) {
        v.err(Some(i), Some(b), msg);
    }
}

/// For families whose register operands all have the instruction type,
/// the first operand whose class does not fit it.
#[inline]
pub fn type_mismatch(f: &Function, i: Inst) -> Option<String> {
    let d = f.inst(i);
    operand_type_mismatch(&f.ops, d.op, &d.operands, |v| f.dfg.value_type(v)).map(|(_, m)| m)
}

/// The same check over raw operands, with value types given by `ty_of`:
/// the index of the first bad operand and a message.
#[inline]
pub fn operand_type_mismatch(
    ops: &crate::op::OpTable,
    op: crate::op::OpId,
    operands: &[Operand],
    ty_of: impl Fn(Value) -> Type,
) -> Option<(usize, String)> {
    let info = ops.info(op);
    // `.hi` reads as the comparison operator of the same name.
    let wide = || info.checks.wide;
    let same_type_operands: &[usize] = match info.opcode {
        // Mixed precision (`sub.rn.f32.f16 d, a, c`): `d` and `c` have the
        // first type, `a` the second.
        Opcode::Add | Opcode::Sub if info.checks.first_of_two.is_some() => &[1],
        Opcode::Add | Opcode::Sub => &[0, 1, 2],
        Opcode::Min | Opcode::Max => &[0, 1, 2, 3],
        Opcode::And | Opcode::Or | Opcode::Xor => &[0, 1, 2],
        Opcode::Not | Opcode::Neg | Opcode::Abs | Opcode::Cnot => &[0, 1],
        Opcode::Mul | Opcode::Mad if wide() => &[],
        Opcode::Mul => &[0, 1, 2],
        Opcode::Mad => &[0, 1, 2, 3],
        Opcode::Shl | Opcode::Shr => &[0, 1],
        Opcode::Selp => &[0, 1, 2],
        Opcode::Setp => &[1, 2],
        // Nothing else is checked here.
        _ => return None,
    };
    let ty = info.checks.last_type?;
    let check = |k: usize, want: Type| -> Option<(usize, String)> {
        let v = match operands.get(k)? {
            Operand::Value(v) | Operand::Not(v) => *v,
            _ => return None,
        };
        let have = ty_of(v);
        if have.reg_compatible_with(want) {
            None
        } else {
            Some((
                k,
                format!(
                    "register type mismatch: operand {} of '{}' is a .{} register, expected .{}",
                    k + 1,
                    info.text,
                    have.name(),
                    want.name()
                ),
            ))
        }
    };
    for &k in same_type_operands {
        if let Some(m) = check(k, ty) {
            return Some(m);
        }
    }
    match info.opcode {
        Opcode::Add | Opcode::Sub => match info.checks.first_of_two {
            Some(first) => check(0, first).or_else(|| check(2, first)),
            None => None,
        },
        Opcode::Selp => check(3, Type::Pred),
        Opcode::Setp => match operands.first() {
            Some(Operand::Value(v)) if ty_of(*v) != Type::Pred => Some((
                0,
                format!(
                    "register type mismatch: destination of '{}' is not a predicate",
                    info.text
                ),
            )),
            _ => None,
        },
        _ => None,
    }
}

/// Check 6 on instruction `i` of reachable block `b` (`seq`: positions
/// within blocks, from [`check_entities`]).
fn check_dominance(
    v: &mut Verifier,
    dt: &DominatorTree,
    seq: &SecondaryMap<Inst, u32>,
    b: Block,
    i: Inst,
) {
    let f = v.f;
    let d = f.inst(i);
    let mut bad: Option<Value> = None;
    d.for_each_use(|x| {
        if bad.is_some() {
            return;
        }
        let ok = match f.dfg.values[x].def {
            ValueDef::Undef => true,
            ValueDef::Param(pb, _) => dt.dominates(pb, b),
            ValueDef::Result(di, _) => match f.layout.inst_block(di) {
                Some(db) if db == b => seq[di] < seq[i],
                Some(db) => dt.dominates(db, b),
                None => false,
            },
        };
        if !ok {
            bad = Some(x);
        }
    });
    if let Some(x) = bad {
        v.err(
            Some(i),
            Some(b),
            format!("use of {x} is not dominated by its definition"),
        );
    }
}
