//! Refactored input: full `lop3-fuse` also maps two copies of the
//! function whose logic was first refactored ([`super::refactor`]), and
//! keeps the smallest cover of the three.
//!
//! The mapper's choices ([`super::choices`]) add structure next to the
//! logic as written, window by window, so a structure that only wins as
//! a whole (an area-oriented rewrite of a square root, ABC's `dc2`) is
//! never found through them. Here each block's logic becomes its XAIG,
//! is restructured by [`super::refactor::SCRIPT`] (balancing, rewriting
//! and refactoring, as ABC's `dc2`), and is written back as plain
//! `and`/`or`/`xor`/`not` (and the input's `lop3`s), either in place of
//! the block's logic ([`Snapshot::Replace`]) or beside it
//! ([`Snapshot::Beside`]: ABC's `dch` over one snapshot, the functional
//! reduction giving the mapper both structures node by node). The caller
//! maps each copy like any input and compares the results whole; neither
//! copy wins everywhere (the circuits bench: `sqrt32` and `int2float`
//! take the first, `prio256` and `alu32` the second).
//!
//! **Invariants.** Only blocks without guarded logic are rewritten; every
//! value the rest of the function reads from the logic keeps its
//! function (under `Replace` its uses are renamed to the new instruction
//! that computes it; under `Beside` they keep the old one); a new
//! instruction stands after every definition it reads in the block and
//! before every reader.

use super::aig::{self, complemented, node, Gate, Lit};
use super::network::{build_plain, Leaf, Network, Sig};
use super::rewrite::defining_inst;
use ptx_ir::entity::SecondaryMap;
use ptx_ir::{Function, Imm, Inst, Mod, Opcode, Operand, Type, Value};
use rustc_hash::FxHashMap;
use smallvec::SmallVec;

/// Logic instructions of a function beyond which it is not refactored
/// (a time box: its copy is mapped in remapping rounds of its own).
pub(super) const MAX_LOGIC: usize = super::remap::CHOICE_ROUND_LOGIC;
/// Logic nodes a block needs before it is refactored. The real corpus's
/// largest blocks (bit-sliced DES, a few hundred nodes) gain a few
/// instructions from a refactored copy and lose registers in ptxas
/// (DES at sm_120: 7 SASS instructions fewer, 7 registers more), so
/// only large networks are refactored.
pub(super) const MIN_NODES: usize = 1_000;
/// Logic nodes a block of a remapping round of the refactored copy needs
/// (a cover expanded back into formulas is several times smaller than
/// the network it came from).
pub(super) const MIN_ROUND_NODES: usize = 16;

/// How a block's refactored logic enters the copy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Snapshot {
    /// In place of the block's logic: the mapper sees only the new
    /// structure.
    Replace,
    /// Beside it, ahead of it, read by nothing: the functional reduction
    /// proves the old nodes equal to new ones, so the mapper chooses per
    /// node between both structures (ABC's `dch` over one snapshot), and
    /// what the cover leaves unused is dropped with the piece.
    Beside,
}

/// Rewrites the logic of each block of `f` that has at least `min_nodes`
/// logic nodes as its refactored XAIG, as `how` says; whether any block
/// changed.
pub(super) fn refactor_function(f: &mut Function, min_nodes: usize, how: Snapshot) -> bool {
    match refactored_copies(f, min_nodes, &[how]).and_then(|mut v| v.pop()) {
        Some(g) => {
            *f = g;
            true
        }
        None => false,
    }
}

/// Copies of `f`, one for each of `hows`, each block of at least
/// `min_nodes` logic nodes rewritten as its refactored XAIG as that
/// snapshot says; `None` when no block is. Each block is restructured
/// once for all the copies.
pub(super) fn refactored_copies(
    f: &Function,
    min_nodes: usize,
    hows: &[Snapshot],
) -> Option<Vec<Function>> {
    let uses = f.uses();
    let mut copies: Vec<Function> = hows.iter().map(|_| f.clone()).collect();
    let mut renames: Vec<FxHashMap<Value, Value>> = vec![FxHashMap::default(); hows.len()];
    let mut changed = false;
    for b in f.layout.blocks() {
        let insts: Vec<Inst> = f.layout.block_insts(b).collect();
        let Some(plan) = plan_block(f, &insts, &uses, min_nodes) else {
            continue;
        };
        for ((g, &how), renamed) in copies.iter_mut().zip(hows).zip(&mut renames) {
            write_block(g, &insts, &plan, how, renamed);
        }
        changed = true;
    }
    for (g, renamed) in copies.iter_mut().zip(&renames) {
        crate::rewrite::replace_all_uses(g, renamed);
    }
    changed.then_some(copies)
}

/// A block's logic and its restructured XAIG, which the writer can
/// express.
struct Plan {
    net: Network,
    new: aig::Aig,
    roots: Vec<Lit>,
}

impl Plan {
    /// The block's leaf that input gate `g` stands for.
    fn leaf(&self, g: usize) -> Option<Leaf> {
        match self.new.gates[g] {
            Gate::Input(s) => match self.net.sigs[s as usize] {
                Sig::Leaf(l) => Some(l),
                Sig::Node(_) => None,
            },
            _ => None,
        }
    }
}

/// The restructured logic of a block of at least `min_nodes` logic nodes
/// and no guarded logic, when it has fewer gates than the block's.
fn plan_block(
    f: &Function,
    insts: &[Inst],
    uses: &SecondaryMap<Value, SmallVec<[Inst; 2]>>,
    min_nodes: usize,
) -> Option<Plan> {
    let net = build_plain(f, insts, uses);
    if net.nodes.len() < min_nodes.max(2) || net.nodes.iter().any(|n| n.guard.is_some()) {
        return None;
    }
    let img = aig::image(&net);
    let live = |a: &aig::Aig, roots: &[Lit]| {
        let refs = a.refs(roots);
        (1..a.len())
            .filter(|&g| refs[g] > 0 && !matches!(a.gates[g], Gate::Input(_)))
            .count()
    };
    let before = live(&img.aig, &img.roots);
    let (new, roots) = super::refactor::restructure(&img.aig, &img.roots, super::refactor::SCRIPT);
    let after = live(&new, &roots);
    tracing::debug!(target: "lop3-fuse", function = %f.name, before, after, "refactored block");
    if after >= before {
        return None;
    }
    let plan = Plan { net, new, roots };
    // What the writer cannot express: an output that is a constant or an
    // immediate, or an `and`/`xor` of two immediates.
    let imm = |l: Lit| node(l) == 0 || matches!(plan.leaf(node(l)), Some(Leaf::Imm(_)));
    if plan.roots.iter().any(|&r| imm(r)) {
        return None;
    }
    let two_imms = (1..plan.new.len()).any(|g| match plan.new.gates[g] {
        Gate::And(a, b) | Gate::Xor(a, b) => imm(a) && imm(b),
        _ => false,
    });
    (!two_imms).then_some(plan)
}

/// Writes `plan` into `f` as `how` says; under `Replace`, the renaming of
/// each output's readers goes into `renamed`.
fn write_block(
    f: &mut Function,
    insts: &[Inst],
    plan: &Plan,
    how: Snapshot,
    renamed: &mut FxHashMap<Value, Value>,
) {
    let Plan { net, new, roots } = plan;
    let leaf = |g: usize| plan.leaf(g);
    let position: FxHashMap<Inst, usize> = insts.iter().enumerate().map(|(k, &i)| (i, k)).collect();
    let mut w = Writer {
        pos: vec![None; new.len()],
        neg: vec![None; new.len()],
        anchor: vec![insts[0]; new.len()],
        ops: Ops::new(f),
    };
    w.pos[0] = Some(Operand::Imm(Imm::hex(0)));
    w.neg[0] = Some(Operand::Imm(Imm::hex(u32::MAX as u64)));
    // The index of the last in-block definition each gate depends on.
    let mut last: Vec<Option<usize>> = vec![None; new.len()];
    for g in 1..new.len() {
        last[g] = match new.gates[g] {
            Gate::Input(_) => match leaf(g) {
                Some(Leaf::Val(v)) => defining_inst(f, v).and_then(|i| position.get(&i).copied()),
                _ => None,
            },
            _ => new.fanins(g).map(|l| last[node(l)]).max().flatten(),
        };
        // Right after that definition (a reader of it follows in the
        // block), else at the block's start.
        w.anchor[g] = last[g].map_or(insts[0], |k| insts[k + 1]);
        match new.gates[g] {
            Gate::Const => {}
            Gate::Input(_) => {
                w.pos[g] = Some(match leaf(g) {
                    Some(Leaf::Val(v)) => Operand::Value(v),
                    Some(Leaf::Imm(x)) => Operand::Imm(Imm::hex(x as u64)),
                    // Only guarded nodes are inputs that are not leaves.
                    None => unreachable!("a block with guarded logic is skipped"),
                });
            }
            Gate::And(a, b) if complemented(a) && complemented(b) => {
                let x = [w.get(f, a ^ 1), w.get(f, b ^ 1)];
                let o = w.emit(f, g, w.ops.or, x);
                w.neg[g] = Some(o);
            }
            Gate::And(a, b) => {
                let x = [w.get(f, a), w.get(f, b)];
                let o = w.emit(f, g, w.ops.and, x);
                w.pos[g] = Some(o);
            }
            Gate::Xor(a, b) => {
                let x = [w.get(f, a), w.get(f, b)];
                let o = w.emit(f, g, w.ops.xor, x);
                w.pos[g] = Some(o);
            }
            Gate::Lut(t, x) => {
                let mut ops: SmallVec<[Operand; 4]> = x.iter().map(|&l| w.get(f, l)).collect();
                ops.push(Operand::Imm(Imm::hex(t as u64)));
                let v = f.insert_def_before(w.anchor[g], w.ops.lop3, Type::B32, ops);
                w.pos[g] = Some(Operand::Value(v));
            }
        }
    }
    if how == Snapshot::Beside {
        for &r in roots {
            w.get(f, r);
        }
        return;
    }
    let outputs = net.nodes.iter().filter(|n| n.output);
    debug_assert_eq!(outputs.clone().count(), roots.len());
    for (n, &r) in outputs.zip(roots) {
        let Operand::Value(v) = w.get(f, r) else {
            unreachable!("outputs are values: checked by plan_block")
        };
        let old = n.result.expect("built from an instruction");
        renamed.insert(old, v);
    }
    for node in &net.nodes {
        if let Some(i) = node.inst {
            f.layout.remove_inst(i);
        }
    }
}

struct Ops {
    and: ptx_ir::OpId,
    or: ptx_ir::OpId,
    xor: ptx_ir::OpId,
    not: ptx_ir::OpId,
    lop3: ptx_ir::OpId,
}

impl Ops {
    fn new(f: &mut Function) -> Ops {
        let mut op = |o| f.ops.intern(o, &[Mod::Type(Type::B32)]);
        Ops {
            and: op(Opcode::And),
            or: op(Opcode::Or),
            xor: op(Opcode::Xor),
            not: op(Opcode::Not),
            lop3: op(Opcode::Lop3),
        }
    }
}

/// Each gate's value in either polarity, once written.
struct Writer {
    pos: Vec<Option<Operand>>,
    neg: Vec<Option<Operand>>,
    anchor: Vec<Inst>,
    ops: Ops,
}

impl Writer {
    /// The operand of literal `l`: a `not` of the other polarity is
    /// written when only that one exists.
    fn get(&mut self, f: &mut Function, l: Lit) -> Operand {
        let g = node(l);
        let (want, other) = if complemented(l) {
            (&self.neg[g], &self.pos[g])
        } else {
            (&self.pos[g], &self.neg[g])
        };
        if let Some(o) = want {
            return o.clone();
        }
        let o = match other.clone().expect("fanins are written first") {
            Operand::Imm(x) => Operand::Imm(Imm::hex(!(x.bits as u32) as u64)),
            v => Operand::Value(f.insert_def_before(self.anchor[g], self.ops.not, Type::B32, [v])),
        };
        if complemented(l) {
            self.neg[g] = Some(o.clone());
        } else {
            self.pos[g] = Some(o.clone());
        }
        o
    }

    /// A two-operand gate, the immediate (if any) second.
    fn emit(&self, f: &mut Function, g: usize, op: ptx_ir::OpId, x: [Operand; 2]) -> Operand {
        let [a, b] = x;
        let (a, b) = match (a, b) {
            (i @ Operand::Imm(_), v) => (v, i),
            p => p,
        };
        Operand::Value(f.insert_def_before(self.anchor[g], op, Type::B32, [a, b]))
    }
}
