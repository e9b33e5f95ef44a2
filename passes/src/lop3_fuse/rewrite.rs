//! Mapping one block and rewriting its covered nodes as `lop3`s.

use super::*;
use ptx_ir::entity::SecondaryMap;
use ptx_ir::{Function, Imm, Inst, Mod, Opcode, Operand, Type, Value};
use rustc_hash::FxHashMap;
use smallvec::{smallvec, SmallVec};

/// (instructions, deepest output) of a piece of logic.
pub(super) type Score = (u32, u32);

/// Maps one block; returns whether anything changed.
pub(super) fn fuse_block(
    f: &mut Function,
    insts: &[Inst],
    uses: &SecondaryMap<Value, SmallVec<[Inst; 2]>>,
    copies: &mut FxHashMap<Value, Value>,
    skip_small: bool,
) -> bool {
    let net = build(f, insts, uses);
    if net.nodes.is_empty() {
        return false;
    }
    let (best, covered) = map(&net);
    // New depth of every node in the cover.
    let mut depth = vec![0u32; net.sigs.len()];
    for (n, c) in best.iter().enumerate() {
        let m = c.leaves().iter().map(|&l| depth[l as usize]).max();
        depth[net.node_sig[n] as usize] = cut_delay(&net, n, c) + m.unwrap_or(0);
    }
    // Per component: (instructions, deepest output) before and after.
    let comp = components(&net);
    let mut score: FxHashMap<u32, (Score, Score)> = FxHashMap::default();
    for (n, node) in net.nodes.iter().enumerate() {
        let e = score.entry(comp[n]).or_default();
        e.0 .0 += 1;
        e.1 .0 += if covered[n] > 0 {
            cut_cost(&net, n, &best[n])
        } else {
            0
        };
        if node.output {
            e.0 .1 = e.0 .1.max(node.depth);
            e.1 .1 = e.1 .1.max(depth[net.node_sig[n] as usize]);
        }
    }
    let mut chosen: Vec<bool> = (0..net.nodes.len())
        .map(|n| {
            let (old, new) = score[&comp[n]];
            if skip_small {
                new.0 + SMALL_SAVING <= old.0
            } else {
                new < old
            }
        })
        .collect();
    // ptxas 13.5 crashes (a segfault, sm_80 and sm_90) on a lop3 whose
    // result `setp.eq … 0` tests, when the predicate guards a store or a
    // branch (tests/ptxas.rs reproduces it). Such pieces stay as they are:
    // ptxas fuses that compare into its own LOP3 anyway.
    let risky: rustc_hash::FxHashSet<u32> = (0..net.nodes.len())
        .filter(|&n| chosen[n] && covered[n] > 0 && best[n].n >= 2)
        .filter(|&n| tested_against_zero(f, net.nodes[n].result, uses))
        .map(|n| comp[n])
        .collect();
    for n in 0..net.nodes.len() {
        if risky.contains(&comp[n]) {
            chosen[n] = false;
        }
    }
    // Check every piece to be rewritten; one that differs is left alone.
    let mut pieces: FxHashMap<u32, Vec<usize>> = FxHashMap::default();
    for n in (0..net.nodes.len()).filter(|&n| chosen[n]) {
        pieces.entry(comp[n]).or_default().push(n);
    }
    let mut scratch: Scratch = (Vec::new(), Vec::new(), Vec::new());
    for nodes in pieces.values() {
        let how = check_piece(&net, &best, &covered, nodes, &mut scratch);
        tracing::debug!(target: "lop3-fuse", function = %f.name, nodes = nodes.len(), check = ?how, "piece");
        if how == Checked::Differs {
            debug_assert!(
                false,
                "lop3-fuse: a mapping in '{}' is not equivalent",
                f.name
            );
            for &n in nodes {
                chosen[n] = false;
            }
        }
    }
    if !chosen.iter().any(|&c| c) {
        return false;
    }
    let lop3 = f.ops.intern(Opcode::Lop3, &[Mod::Type(Type::B32)]);
    let mov = f.ops.intern(Opcode::Mov, &[Mod::Type(Type::B32)]);
    let not = f.ops.intern(Opcode::Not, &[Mod::Type(Type::B32)]);
    for (n, node) in net.nodes.iter().enumerate() {
        if !chosen[n] {
            continue;
        }
        if covered[n] == 0 {
            f.layout.remove_inst(node.inst);
            continue;
        }
        let c = best[n];
        let d = Operand::Value(node.result);
        let leaf = |j: usize| {
            if j < c.n as usize {
                leaf_operand(&net, c.leaves[j])
            } else {
                Operand::Imm(Imm::int(0))
            }
        };
        let hex = |l: u8| Operand::Imm(Imm::hex(l as u64));
        let (op, operands): (_, SmallVec<[Operand; 3]>) = match (c.n, c.tt) {
            (0, tt) => (
                mov,
                smallvec![d, Operand::Imm(Imm::int(if tt == 0 { 0 } else { -1 }))],
            ),
            (1, PAT0) if cut_cost(&net, n, &best[n]) == 0 => {
                if let Operand::Value(v) = leaf(0) {
                    copies.insert(node.result, v);
                }
                f.layout.remove_inst(node.inst);
                continue;
            }
            (1, PAT0) => (mov, smallvec![d, leaf(0)]),
            (1, NOT0) if matches!(leaf(0), Operand::Value(_)) => (not, smallvec![d, leaf(0)]),
            (4, tt) => {
                let x = [leaf(0), leaf(1), leaf(2), leaf(3)];
                // Inner lop3s go right before the node, unguarded.
                let fresh = |f: &mut Function, ops: [Operand; 3], l: u8| {
                    let [p, q, r] = ops;
                    Operand::Value(f.insert_def_before(
                        node.inst,
                        lop3,
                        Type::B32,
                        [p, q, r, hex(l)],
                    ))
                };
                match decompose(tt) {
                    Decomp::Two {
                        vars,
                        inner,
                        w,
                        s,
                        outer,
                    } => {
                        let g = fresh(
                            f,
                            [x[vars[0]].clone(), x[vars[1]].clone(), x[vars[2]].clone()],
                            inner,
                        );
                        (
                            lop3,
                            smallvec![d, g, x[w].clone(), x[s].clone(), hex(outer)],
                        )
                    }
                    Decomp::Three { w, rest, f0, f1 } => {
                        let r = || [x[rest[0]].clone(), x[rest[1]].clone(), x[rest[2]].clone()];
                        let lo = fresh(f, r(), f0);
                        let hi = fresh(f, r(), f1);
                        (lop3, smallvec![d, x[w].clone(), hi, lo, hex(0xCA)])
                    }
                }
            }
            // A plain operator of two registers, or of a register and an
            // immediate, stays that instruction: it reads better, and
            // ptxas matches its own patterns (masks, fused logic) on it.
            (2, tt)
                if matches!(lut_of(tt, [0, 1, 2]), 0xC0 | 0xFC | 0x3C)
                    && (matches!(leaf(0), Operand::Value(_))
                        || matches!(leaf(1), Operand::Value(_))) =>
            {
                let opcode = match lut_of(tt, [0, 1, 2]) {
                    0xC0 => Opcode::And,
                    0xFC => Opcode::Or,
                    _ => Opcode::Xor,
                };
                let op = f.ops.intern(opcode, &[Mod::Type(Type::B32)]);
                let (x, y) = match (leaf(0), leaf(1)) {
                    (imm @ Operand::Imm(_), v) => (v, imm),
                    (v, w) => (v, w),
                };
                (op, smallvec![d, x, y])
            }
            (k, tt) => {
                // Registers in value order, immediates last: stable output.
                let mut order: SmallVec<[usize; 3]> = (0..k as usize).collect();
                order.sort_by_key(|&j| match leaf(j) {
                    Operand::Value(v) => (0, v.as_u32()),
                    _ => (1, j as u32),
                });
                let var = |p: usize| order.get(p).copied().unwrap_or(3);
                let ops = |p: usize| order.get(p).map_or(Operand::Imm(Imm::int(0)), |&j| leaf(j));
                let l = lut_of(tt, [var(0), var(1), var(2)]);
                (lop3, smallvec![d, ops(0), ops(1), ops(2), hex(l)])
            }
        };
        let data = &mut f.dfg.insts[node.inst];
        data.op = op;
        data.operands = operands;
    }
    true
}

/// Whether `v` is read by `setp.eq.{b32,s32,u32} p, v, 0` (either way
/// round, no `.BoolOp`).
pub(super) fn tested_against_zero(
    f: &Function,
    v: Value,
    uses: &SecondaryMap<Value, SmallVec<[Inst; 2]>>,
) -> bool {
    uses[v].iter().any(|&u| {
        let info = f.op(u);
        let d = f.inst(u);
        info.opcode == Opcode::Setp
            && info.cmp() == Some(ptx_ir::CmpOp::Eq)
            && info.bool_op().is_none()
            && d.operands.len() == 3
            && match (&d.operands[1], &d.operands[2]) {
                (Operand::Value(x), Operand::Imm(k)) | (Operand::Imm(k), Operand::Value(x)) => {
                    *x == v && k.is_int() && k.bits == 0
                }
                _ => false,
            }
    })
}
