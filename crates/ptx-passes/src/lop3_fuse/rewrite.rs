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
    how: Lop3Fuse,
    written: &mut rustc_hash::FxHashSet<Inst>,
) -> bool {
    let skip_small = how.skip_small;
    let net = build(f, insts, uses);
    if net.nodes.is_empty() {
        return false;
    }
    // Under skip-small (the pipelines' form), a block of logic larger than
    // any kernel's is mapped as written: choices there cost seconds.
    let with = if how.no_choices || (skip_small && net.nodes.len() > SKIP_SMALL_CHOICE_NODES) {
        None
    } else {
        // Under skip-small, windows of at most six inputs: the one wider
        // window of the real corpus (AES's S-box, eight inputs) raised
        // register pressure by half and cost most of -O2's time there.
        // Two-LUT targets only deeper down: near the outputs they cost
        // ptxas registers on the bit-sliced DES kernel. No regrouping: on
        // the real corpus it changed one file, 12 SASS instructions more
        // for 2 registers fewer.
        let effort = if skip_small {
            super::resynth::Effort {
                max_inputs: SKIP_SMALL_WINDOW_INPUTS,
                two_luts_from: SKIP_SMALL_TWO_LUTS_FROM,
            }
        } else {
            // A remapping round's windows are narrower: the wide ones are
            // most of a round's time and gain nothing a round later.
            let max_inputs = if how.remap_round {
                super::remap::WINDOW_INPUTS
            } else {
                super::resynth::MAX_WINDOW_INPUTS
            };
            super::resynth::Effort {
                max_inputs,
                two_luts_from: super::resynth::TWO_LUTS_FROM,
            }
        };
        super::choices::add(&net, effort, !skip_small)
    };
    let (net, best, covered) = match with {
        None => {
            let (best, covered) = map(&net);
            (net, best, covered)
        }
        Some(with) => best_of(&net, with),
    };
    // New depth of every node in the cover.
    let mut depth = vec![0u32; net.sigs.len()];
    for (n, c) in best.iter().enumerate() {
        let m = c.leaves().iter().map(|&l| depth[l as usize]).max();
        depth[net.node_sig[n] as usize] = cut_delay(&net, n, c) + m.unwrap_or(0);
    }
    // Per component: (instructions, deepest output) before and after;
    // under skip-small, "before" is what ptxas's own fusion makes of it.
    let comp = components(&net);
    let fused = if skip_small {
        ptxas_fusion(&net)
    } else {
        (0..net.nodes.len()).map(|n| !net.synthetic(n)).collect()
    };
    let mut score: FxHashMap<u32, (Score, Score)> = FxHashMap::default();
    for (n, node) in net.nodes.iter().enumerate() {
        let e = score.entry(comp[n]).or_default();
        e.0 .0 += u32::from(fused[n]);
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
        .filter(|&n| {
            net.nodes[n]
                .result
                .is_some_and(|r| tested_against_zero(f, r, uses))
        })
        .map(|n| comp[n])
        .collect();
    for n in 0..net.nodes.len() {
        if risky.contains(&comp[n]) {
            chosen[n] = false;
        }
    }
    let at = placement(f, insts, &net, &best, &covered);
    let misplaced: rustc_hash::FxHashSet<u32> = (0..net.nodes.len())
        .filter(|&n| chosen[n] && covered[n] > 0 && at[n].is_none())
        .map(|n| comp[n])
        .collect();
    for n in 0..net.nodes.len() {
        if misplaced.contains(&comp[n]) {
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
    // The operand of each synthetic signal once emitted.
    let mut made: FxHashMap<u32, Operand> = FxHashMap::default();
    // Removed at the end: a synthetic node may be placed before one.
    let mut removed: Vec<Inst> = Vec::new();
    for (n, node) in net.nodes.iter().enumerate() {
        if !chosen[n] {
            continue;
        }
        if covered[n] == 0 {
            removed.extend(node.inst);
            continue;
        }
        let c = best[n];
        let place = insts[at[n].expect("placed")];
        let leaf = |j: usize| {
            if j < c.n as usize {
                let s = c.leaves[j];
                made.get(&s)
                    .cloned()
                    .unwrap_or_else(|| leaf_operand(&net, s))
            } else {
                Operand::Imm(Imm::int(0))
            }
        };
        let hex = |l: u8| Operand::Imm(Imm::hex(l as u64));
        let (op, operands): (_, SmallVec<[Operand; 3]>) = match (c.n, c.tt) {
            (0, tt) => (
                mov,
                smallvec![Operand::Imm(Imm::int(if tt == 0 { 0 } else { -1 }))],
            ),
            (1, PAT0) if cut_cost(&net, n, &best[n]) == 0 => {
                match node.result {
                    Some(r) => {
                        if let Operand::Value(v) = leaf(0) {
                            copies.insert(r, v);
                        }
                        removed.extend(node.inst);
                    }
                    None => {
                        made.insert(net.node_sig[n], leaf(0));
                    }
                }
                continue;
            }
            (1, PAT0) => (mov, smallvec![leaf(0)]),
            (1, NOT0) if matches!(leaf(0), Operand::Value(_)) => (not, smallvec![leaf(0)]),
            (4, tt) => {
                let x = [leaf(0), leaf(1), leaf(2), leaf(3)];
                // Inner lop3s go right before the node, unguarded.
                let mut fresh = |f: &mut Function, ops: [Operand; 3], l: u8| {
                    let [p, q, r] = ops;
                    let v = f.insert_def_before(place, lop3, Type::B32, [p, q, r, hex(l)]);
                    written.extend(defining_inst(f, v));
                    Operand::Value(v)
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
                        (lop3, smallvec![g, x[w].clone(), x[s].clone(), hex(outer)])
                    }
                    Decomp::Three { w, rest, f0, f1 } => {
                        let r = || [x[rest[0]].clone(), x[rest[1]].clone(), x[rest[2]].clone()];
                        let lo = fresh(f, r(), f0);
                        let hi = fresh(f, r(), f1);
                        (lop3, smallvec![x[w].clone(), hi, lo, hex(0xCA)])
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
                (op, smallvec![x, y])
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
                (lop3, smallvec![ops(0), ops(1), ops(2), hex(l)])
            }
        };
        match (node.inst, node.result) {
            (Some(i), Some(r)) => {
                let data = &mut f.dfg.insts[i];
                data.op = op;
                data.operands = std::iter::once(Operand::Value(r)).chain(operands).collect();
                written.insert(i);
            }
            _ => {
                let v = f.insert_def_before(place, op, Type::B32, operands);
                written.extend(defining_inst(f, v));
                made.insert(net.node_sig[n], Operand::Value(v));
            }
        }
    }
    for i in removed {
        f.layout.remove_inst(i);
    }
    true
}

/// The instruction that defines `v`, if one does.
pub(super) fn defining_inst(f: &Function, v: Value) -> Option<Inst> {
    match f.dfg.values[v].def {
        ptx_ir::ValueDef::Result(i, _) => Some(i),
        _ => None,
    }
}

/// Which original nodes stay instructions when ptxas fuses the logic as
/// written into its own `LOP3`s, as a greedy model: in block order, a node
/// absorbs each fanin node read only by it (and not an output) while the
/// union of their operands stays within three, at most one of them an
/// immediate (`LOP3` takes one in its `b` slot). Under `skip-small` a
/// piece is rewritten only when it beats this, not the PTX count: what
/// ptxas gets anyway is no gain.
fn ptxas_fusion(net: &Network) -> Vec<bool> {
    let nodes = net.nodes.len();
    let mut readers = vec![0u32; nodes];
    for (n, node) in net.nodes.iter().enumerate() {
        if net.synthetic(n) {
            continue;
        }
        for x in &node.fanins {
            if let Fanin::Sig(s) = *x {
                if let Some(m) = net.node_of(s) {
                    readers[m] += 1;
                }
            }
        }
    }
    let mut leaves: Vec<SmallVec<[u32; 3]>> = vec![SmallVec::new(); nodes];
    let mut stays = vec![false; nodes];
    let imm = |s: u32| matches!(net.sigs[s as usize], Sig::Leaf(Leaf::Imm(_)));
    for n in 0..nodes {
        if net.synthetic(n) {
            continue;
        }
        stays[n] = true;
        // Start from the operands; absorb fanin nodes while the union stays
        // within three operands, at most one an immediate.
        let node = &net.nodes[n];
        let mut mine: SmallVec<[u32; 4]> = SmallVec::new();
        for x in &node.fanins {
            if let Fanin::Sig(s) = *x {
                if !mine.contains(&s) {
                    mine.push(s);
                }
            }
        }
        let mut absorbed: SmallVec<[usize; 3]> = SmallVec::new();
        for x in &node.fanins {
            let Fanin::Sig(s) = *x else { continue };
            let Some(m) = net.node_of(s).filter(|&m| {
                readers[m] == 1
                    && !net.nodes[m].output
                    && !net.synthetic(m)
                    && absorbable(net, m, n)
                    && !absorbed.contains(&m)
            }) else {
                continue;
            };
            let mut union: SmallVec<[u32; 4]> = mine.iter().copied().filter(|&l| l != s).collect();
            for &l in &leaves[m] {
                if !union.contains(&l) {
                    union.push(l);
                }
            }
            if union.len() <= 3 && union.iter().filter(|&&l| imm(l)).count() <= 1 {
                mine = union;
                absorbed.push(m);
            }
        }
        for m in absorbed {
            stays[m] = false;
        }
        leaves[n] = mine.into_iter().collect();
    }
    stays
}

/// Networks of at least this many nodes map their plain and combined
/// covers at the same time (the 56,000-node 72-bit multiplier: 0.48 s →
/// 0.3 s on two cores), unless the embedder asked for one thread
/// ([`crate::with_helper_threads`]); smaller ones are not worth a thread.
const PARALLEL_MAP_NODES: usize = 20_000;

/// Maps both the plain network and the one with structural choices, and
/// takes, piece by piece (pieces of the combined network), the cover with
/// fewer instructions: choices widen the search, but the area heuristics
/// do not always find a cover as good in the wider space.
fn best_of(plain: &Network, with: super::choices::Combined) -> (Network, Vec<Cut>, Vec<u32>) {
    let super::choices::Combined {
        net: mut with,
        sig_of,
    } = with;
    // On a large network the plain cover is mapped on a second thread
    // while the combined one is reduced and mapped: the two are
    // independent, and the result is the same either way (also when no
    // thread can be started, and both are mapped here).
    let ((b0, c0), (mut best, mut covered)) = std::thread::scope(|scope| {
        let plain_cover = (plain.nodes.len() >= PARALLEL_MAP_NODES
            && crate::helper_threads_allowed())
        .then(|| {
            std::thread::Builder::new()
                .spawn_scoped(scope, || map(plain))
                .ok()
        })
        .flatten();
        let r = super::equiv::equivalences(&with, true);
        with.equiv = r.equiv;
        with.constant = r.constant;
        let combined = map(&with);
        let plain = match plain_cover {
            Some(h) => h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)),
            None => map(plain),
        };
        (plain, combined)
    });
    // The plain cover in the combined network's numbering (the map keeps
    // the order of signals, so cut leaves stay ascending).
    let nodes = with.nodes.len();
    let mut b0w = vec![Cut::trivial(0); nodes];
    let mut c0w = vec![0u32; nodes];
    for n in 0..plain.nodes.len() {
        let w = with
            .node_of(sig_of[plain.node_sig[n] as usize])
            .expect("an original node");
        let mut c = b0[n];
        for l in &mut c.leaves[..c.n as usize] {
            *l = sig_of[*l as usize];
        }
        b0w[w] = c;
        c0w[w] = c0[n];
    }
    let comp = components(&with);
    let mut cost: FxHashMap<u32, (u32, u32)> = FxHashMap::default();
    for n in 0..nodes {
        let e = cost.entry(comp[n]).or_default();
        if c0w[n] > 0 {
            e.0 += cut_cost(&with, n, &b0w[n]);
        }
        if covered[n] > 0 {
            e.1 += cut_cost(&with, n, &best[n]);
        }
    }
    tracing::debug!(
        target: "lop3-fuse",
        plain = cost.values().map(|c| c.0).sum::<u32>(),
        choices = cost.values().map(|c| c.1).sum::<u32>(),
        "covers"
    );
    for n in 0..nodes {
        let (p, c) = cost[&comp[n]];
        if p <= c {
            best[n] = b0w[n];
            covered[n] = c0w[n];
        }
    }
    (with, best, covered)
}

/// Where each covered node is emitted (an index into `insts`): an
/// original node in place, a synthetic one right before its first reader
/// in the cover. `None` for a covered node some leaf of whose cut is not
/// computed by then (its piece must stay as it is).
fn placement(
    f: &Function,
    insts: &[Inst],
    net: &Network,
    best: &[Cut],
    covered: &[u32],
) -> Vec<Option<usize>> {
    let pos: FxHashMap<Inst, usize> = insts.iter().enumerate().map(|(k, &i)| (i, k)).collect();
    let nodes = net.nodes.len();
    let mut at: Vec<Option<usize>> = (0..nodes)
        .map(|n| net.nodes[n].inst.map(|i| pos[&i]))
        .collect();
    for n in (0..nodes).rev() {
        if covered[n] == 0 {
            continue;
        }
        let Some(here) = at[n] else { continue };
        for &l in best[n].leaves() {
            if let Some(m) = net.node_of(l) {
                if net.synthetic(m) {
                    at[m] = Some(at[m].map_or(here, |a| a.min(here)));
                }
            }
        }
    }
    // Every leaf must be computed before the node.
    let ready = |s: u32| -> Option<usize> {
        match net.sigs[s as usize] {
            Sig::Leaf(Leaf::Imm(_)) => None,
            Sig::Leaf(Leaf::Val(v)) => defining_inst(f, v).and_then(|i| pos.get(&i).copied()),
            Sig::Node(m) => {
                let m = m as usize;
                if net.synthetic(m) {
                    None
                } else {
                    at[m]
                }
            }
        }
    };
    (0..nodes)
        .map(|n| {
            let here = at[n]?;
            if covered[n] == 0 {
                return Some(here);
            }
            let ok = best[n]
                .leaves()
                .iter()
                .all(|&l| ready(l).is_none_or(|p| p < here));
            ok.then_some(here)
        })
        .collect()
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
