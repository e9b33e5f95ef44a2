//! `lop3-fuse`: technology mapping of bitwise logic onto `lop3.b32`.
//!
//! Within each block, the `.b32` `and`/`or`/`xor`/`not`/`lop3` instructions
//! form a network whose leaves are other values and immediates (0 and ~0
//! fold into truth tables). The pass covers it with three-input LUTs, as
//! ABC's `if -K 3` does (Mishchenko et al., ICCAD 2007):
//!
//! 1. **Cuts.** Every node gets its cuts of at most three leaves (priority
//!    cuts, at most [`MAX_CUTS`] each), each with its truth table; leaves a
//!    table does not depend on are dropped.
//! 2. **Depth.** Each node takes the cut of least depth (area flow breaks
//!    ties).
//! 3. **Area recovery.** Area flow, then exact area (the instructions a cut
//!    adds to the cover, counted by reference counting), under required
//!    times that keep every output at or below its depth before the pass.
//! 4. **Cover.** From the outputs (values used outside the network) down
//!    through the chosen cuts. A node with several users is duplicated into
//!    a cut only when exact area says that is no more expensive.
//!
//! **Guarantees.** Instruction count never rises: a connected piece of
//! logic is rewritten only when its cover has fewer instructions, or as
//! many and less depth; no output gets deeper. Every rewritten piece is
//! simulated before and after, bit-sliced over all values of its leaves
//! (up to [`EXHAUSTIVE_LEAVES`] leaves within a work budget; random words
//! beyond), and left alone if anything differs.
//! A guarded instruction absorbs only unguarded logic or logic under the
//! same guard, and is rewritten in place (keeping guard and tied value).
//! `.b64`, `.b16` and predicate logic are left alone. Immediates take
//! operand slots (ptxas accepts them in `a`, `b` and `c`). The CFG is
//! preserved.
//!
//! **Predicate output.** On sm_70+ with PTX ISA 8.2+ (the `.BoolOp` form's
//! minimum), `setp.ne x, 0` (optionally `.and`/`.or` with `q`) of a logic
//! result in the same block becomes the `lop3.or`/`lop3.and` `d|p` form
//! (`_|p` when nothing else reads `x`). Below sm_50 (no `lop3`) the pass
//! does nothing; `lop3-expand` is the inverse.
//!
//! ```text
//! before:                              after:
//!   and.b32  %r3, %r1, %r2;              lop3.b32 %r5, %r1, %r2, %r4, 0xEA;
//!   or.b32   %r5, %r3, %r4;                 // c | (a & b)
//! ```

use crate::{AnalysisManager, Pass, Preserved};
use ptx_ir::entity::SecondaryMap;
use ptx_ir::lut::{self, apply32};
use ptx_ir::{
    BoolOp, CmpOp, Function, Guard, Imm, Inst, Mod, Opcode, Operand, Type, Value, ValueDef,
};
use rustc_hash::FxHashMap;
use smallvec::{smallvec, SmallVec};

/// Cuts kept per node (priority cuts).
pub const MAX_CUTS: usize = 16;
/// Up to this many leaves, a rewrite is checked on every leaf assignment.
pub const EXHAUSTIVE_LEAVES: usize = 20;
/// Exact-area recovery stops (keeping the area-flow cover) after this many
/// reference steps per node, so long chains stay linear.
const EXACT_STEPS_PER_NODE: usize = 64;

/// The pass.
pub struct Lop3Fuse;

/// A value computed outside the network, or an immediate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Leaf {
    Val(Value),
    Imm(u32),
}

#[derive(Clone, Copy, Debug)]
enum Func {
    And,
    Or,
    Xor,
    Not,
    Lut(u8),
}

#[derive(Clone, Copy, Debug)]
enum Fanin {
    Sig(u32),
    /// 0x00 or 0xFF.
    Const(u8),
}

#[derive(Debug)]
struct Node {
    inst: Inst,
    result: Value,
    guard: Option<Guard>,
    func: Func,
    fanins: SmallVec<[Fanin; 3]>,
    /// Read outside the network (so it must be computed).
    output: bool,
    /// Network users plus one if an output.
    fanout: u32,
    /// Depth before the pass (logic instructions on the longest path).
    depth: u32,
}

#[derive(Clone, Copy, Debug)]
enum Sig {
    Leaf(Leaf),
    Node(u32),
}

/// Patterns of the four cut inputs in a 16-bit truth table (input 0 is the
/// most significant index bit).
const PAT: [u16; 4] = [0xFF00, 0xF0F0, 0xCCCC, 0xAAAA];
const SHIFT: [u32; 4] = [8, 4, 2, 1];
const PAT0: u16 = PAT[0];
const NOT0: u16 = !PAT[0];

/// Substitutes the functions `p` for the inputs of `tt`.
fn compose(p: [u16; 4], tt: u16) -> u16 {
    let mut r = 0;
    for i in 0..16 {
        let idx = ((p[0] >> i) & 1) << 3
            | ((p[1] >> i) & 1) << 2
            | ((p[2] >> i) & 1) << 1
            | ((p[3] >> i) & 1);
        r |= ((tt >> idx) & 1) << i;
    }
    r
}

/// `lop3` on 16-bit truth tables.
fn lut3(a: u16, b: u16, c: u16, l: u8) -> u16 {
    let mut r = 0;
    for i in 0..16 {
        let idx = ((a >> i) & 1) << 2 | ((b >> i) & 1) << 1 | ((c >> i) & 1);
        r |= (((l >> idx) & 1) as u16) << i;
    }
    r
}

fn depends(tt: u16, k: usize) -> bool {
    ((tt & PAT[k]) >> SHIFT[k]) != (tt & !PAT[k])
}

/// `tt` with input `k` fixed to `v`.
fn cofactor(tt: u16, k: usize, v: bool) -> u16 {
    if v {
        let h = tt & PAT[k];
        h | (h >> SHIFT[k])
    } else {
        let l = tt & !PAT[k];
        l | (l << SHIFT[k])
    }
}

/// The `immLut` of `tt` when `lop3`'s a, b, c are inputs `vars` (the
/// fourth input must not matter).
fn lut_of(tt: u16, vars: [usize; 3]) -> u8 {
    let mut l = 0u8;
    for j in 0..8usize {
        let i = ((j >> 2) & 1) << (3 - vars[0])
            | ((j >> 1) & 1) << (3 - vars[1])
            | (j & 1) << (3 - vars[2]);
        l |= (((tt >> i) & 1) as u8) << j;
    }
    l
}

/// How a four-input function becomes lop3s.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Decomp {
    /// `g = inner(vars)`, `f = outer(g, w, s)`: two lop3s.
    Two {
        vars: [usize; 3],
        inner: u8,
        w: usize,
        s: usize,
        outer: u8,
    },
    /// `f = w ? f1(rest) : f0(rest)`: three lop3s.
    Three {
        w: usize,
        rest: [usize; 3],
        f0: u8,
        f1: u8,
    },
}

/// Decomposes a function of four inputs into two lop3s when it can be
/// written `outer(inner(x, y, s), w, s)` (checked over every choice of `w`
/// and the shared input `s`: for each value of `s`, the two cofactors in
/// `w` must be constants or one function up to complement), else into
/// three by Shannon expansion. Every four-input function needs at most
/// three.
fn decompose(tt: u16) -> Decomp {
    for w in 0..4 {
        for (s, &ps) in PAT.iter().enumerate() {
            if s == w {
                continue;
            }
            let mut t = (0..4).filter(|&v| v != w && v != s);
            let (t0, t1) = (t.next().expect("two left"), t.next().expect("two left"));
            // kind[w][s]: 0 and 1 constants, 2 = h_s, 3 = !h_s.
            let mut kind = [[0u8; 2]; 2];
            let mut h = [0u16; 2];
            let mut ok = true;
            for sv in 0..2 {
                let co = [
                    cofactor(cofactor(tt, w, false), s, sv == 1),
                    cofactor(cofactor(tt, w, true), s, sv == 1),
                ];
                let hs = co
                    .iter()
                    .copied()
                    .find(|&x| x != 0 && x != 0xFFFF)
                    .unwrap_or(0);
                for (wv, &x) in co.iter().enumerate() {
                    kind[wv][sv] = match x {
                        0 => 0,
                        0xFFFF => 1,
                        _ if x == hs => 2,
                        _ if x == !hs => 3,
                        _ => {
                            ok = false;
                            0
                        }
                    };
                }
                h[sv] = hs;
            }
            if !ok {
                continue;
            }
            let g = (ps & h[1]) | (!ps & h[0]);
            let mut outer = 0u8;
            for j in 0..8usize {
                let (gv, wv, sv) = ((j >> 2) & 1, (j >> 1) & 1, j & 1);
                let bit = match kind[wv][sv] {
                    0 => 0,
                    1 => 1,
                    2 => gv,
                    _ => 1 - gv,
                };
                outer |= (bit as u8) << j;
            }
            return Decomp::Two {
                vars: [t0, t1, s],
                inner: lut_of(g, [t0, t1, s]),
                w,
                s,
                outer,
            };
        }
    }
    let rest = [1, 2, 3];
    Decomp::Three {
        w: 0,
        rest,
        f0: lut_of(cofactor(tt, 0, false), rest),
        f1: lut_of(cofactor(tt, 0, true), rest),
    }
}

/// Evaluates a decomposition bitwise on 32-bit words, as the emitted lop3s
/// compute it.
fn eval_decomp(d: Decomp, x: [u32; 4]) -> u32 {
    match d {
        Decomp::Two {
            vars,
            inner,
            w,
            s,
            outer,
        } => {
            let g = apply32(x[vars[0]], x[vars[1]], x[vars[2]], inner);
            apply32(g, x[w], x[s], outer)
        }
        Decomp::Three { w, rest, f0, f1 } => {
            let lo = apply32(x[rest[0]], x[rest[1]], x[rest[2]], f0);
            let hi = apply32(x[rest[0]], x[rest[1]], x[rest[2]], f1);
            apply32(x[w], hi, lo, 0xCA)
        }
    }
}

/// A cut: up to four leaf signals (ascending) and the node's function of
/// them. A four-leaf cut costs the lop3s of its decomposition.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Cut {
    leaves: [u32; 4],
    n: u8,
    tt: u16,
    /// Lop3s beyond the one at the node (four-leaf cuts only).
    extra: u8,
}

impl Cut {
    fn leaves(&self) -> &[u32] {
        &self.leaves[..self.n as usize]
    }
    fn trivial(s: u32) -> Cut {
        Cut {
            leaves: [s, 0, 0, 0],
            n: 1,
            tt: PAT[0],
            extra: 0,
        }
    }
}

/// How a cut is evaluated, as it will be emitted: one LUT, or a
/// decomposition of a four-leaf cut.
#[derive(Clone, Copy, Debug)]
enum Emitted {
    Lut(u8),
    Decomp(Decomp),
}

impl Emitted {
    fn of(c: &Cut) -> Emitted {
        if c.n == 4 {
            Emitted::Decomp(decompose(c.tt))
        } else {
            Emitted::Lut(lut_of(c.tt, [0, 1, 2]))
        }
    }
    fn eval(self, x: [u32; 4]) -> u32 {
        match self {
            Emitted::Lut(l) => apply32(x[0], x[1], x[2], l),
            Emitted::Decomp(d) => eval_decomp(d, x),
        }
    }
}

thread_local! {
    /// Lop3s beyond the first that each four-input function needs (0 =
    /// not computed yet, else 1 + extra), filled as functions turn up.
    static EXTRA: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// [`Cut::extra`] of a four-leaf cut, memoised.
fn extra_of(tt: u16) -> u8 {
    EXTRA.with(|t| {
        let mut t = t.borrow_mut();
        if t.is_empty() {
            t.resize(1 << 16, 0);
        }
        let slot = &mut t[tt as usize];
        if *slot == 0 {
            *slot = 1 + match decompose(tt) {
                Decomp::Two { .. } => 1,
                Decomp::Three { .. } => 2,
            };
        }
        *slot - 1
    })
}

/// The logic of one block.
struct Network {
    sigs: Vec<Sig>,
    nodes: Vec<Node>,
    /// Signal of each node.
    node_sig: Vec<u32>,
    /// Register class of each signal (`None` for immediates).
    class: Vec<Option<Type>>,
}

impl Network {
    fn node_of(&self, s: u32) -> Option<usize> {
        match self.sigs[s as usize] {
            Sig::Node(n) => Some(n as usize),
            Sig::Leaf(_) => None,
        }
    }
}

/// The logic function and sources of `i`, if it is network material.
fn logic_form(f: &Function, i: Inst) -> Option<(Func, &[Operand])> {
    let d = f.inst(i);
    let info = f.op(i);
    if info.mods[..] != [Mod::Type(Type::B32)] || d.results.len() != 1 {
        return None;
    }
    if d.ties.len() != usize::from(d.guard.is_some()) {
        return None;
    }
    if d.operands.first() != Some(&Operand::Value(d.results[0])) {
        return None;
    }
    let (func, n) = match info.opcode {
        Opcode::And => (Func::And, 3),
        Opcode::Or => (Func::Or, 3),
        Opcode::Xor => (Func::Xor, 3),
        Opcode::Not => (Func::Not, 2),
        Opcode::Lop3 => match d.operands.get(4) {
            Some(Operand::Imm(l)) if l.is_int() => (Func::Lut(l.bits as u8), 5),
            _ => return None,
        },
        _ => return None,
    };
    if d.operands.len() != n {
        return None;
    }
    let srcs = &d.operands[1..n.min(4)];
    let ok = srcs.iter().all(|o| match o {
        Operand::Value(v) => f.dfg.value_type(*v).bits() == 32,
        Operand::Imm(imm) => imm.is_int(),
        _ => false,
    });
    ok.then_some((func, srcs))
}

fn build(f: &Function, insts: &[Inst], uses: &SecondaryMap<Value, SmallVec<[Inst; 2]>>) -> Network {
    let mut net = Network {
        sigs: Vec::new(),
        nodes: Vec::new(),
        node_sig: Vec::new(),
        class: Vec::new(),
    };
    let mut sig_of: FxHashMap<Leaf, u32> = FxHashMap::default();
    let mut node_of_inst: FxHashMap<Inst, u32> = FxHashMap::default();
    for &i in insts {
        let Some((func, srcs)) = logic_form(f, i) else {
            continue;
        };
        let mut fanins: SmallVec<[Fanin; 3]> = SmallVec::new();
        for o in srcs {
            let leaf = match o {
                Operand::Imm(imm) => match imm.bits as u32 {
                    0 => {
                        fanins.push(Fanin::Const(0));
                        continue;
                    }
                    u32::MAX => {
                        fanins.push(Fanin::Const(0xFF));
                        continue;
                    }
                    x => Leaf::Imm(x),
                },
                Operand::Value(v) => Leaf::Val(*v),
                _ => unreachable!("checked by logic_form"),
            };
            let s = *sig_of.entry(leaf).or_insert_with(|| {
                net.sigs.push(Sig::Leaf(leaf));
                net.class.push(match leaf {
                    Leaf::Val(v) => Some(f.dfg.value_type(v).reg_class()),
                    Leaf::Imm(_) => None,
                });
                (net.sigs.len() - 1) as u32
            });
            fanins.push(Fanin::Sig(s));
        }
        let d = f.inst(i);
        let n = net.nodes.len() as u32;
        let depth = 1 + fanins
            .iter()
            .filter_map(|x| match x {
                Fanin::Sig(s) => match net.sigs[*s as usize] {
                    Sig::Node(m) => Some(net.nodes[m as usize].depth),
                    Sig::Leaf(_) => None,
                },
                Fanin::Const(_) => None,
            })
            .max()
            .unwrap_or(0);
        for x in &fanins {
            if let Fanin::Sig(s) = x {
                if let Sig::Node(m) = net.sigs[*s as usize] {
                    net.nodes[m as usize].fanout += 1;
                }
            }
        }
        net.nodes.push(Node {
            inst: i,
            result: d.results[0],
            guard: d.guard,
            func,
            fanins,
            output: false,
            fanout: 0,
            depth,
        });
        net.sigs.push(Sig::Node(n));
        net.class
            .push(Some(f.dfg.value_type(d.results[0]).reg_class()));
        let s = (net.sigs.len() - 1) as u32;
        net.node_sig.push(s);
        // A later use of the result refers to this node.
        sig_of.insert(Leaf::Val(d.results[0]), s);
        node_of_inst.insert(i, n);
    }
    for node in &mut net.nodes {
        let r = node.result;
        node.output = uses[r].iter().any(|u| match node_of_inst.get(u) {
            None => true,
            // A tie (the old value of a guarded definition) is no fanin.
            Some(_) => f.inst(*u).ties.contains(&r),
        });
        node.fanout += u32::from(node.output);
    }
    net
}

/// Whether node `m` may sit inside a cut of node `n`.
fn absorbable(net: &Network, m: usize, n: usize) -> bool {
    let g = net.nodes[m].guard;
    g.is_none() || g == net.nodes[n].guard
}

/// The function of the fanin `c` (a cut of it) over the leaves `union`.
fn over(c: &Cut, union: &[u32]) -> u16 {
    let pat = |k: usize| -> u16 {
        if k >= c.n as usize {
            return 0;
        }
        let p = union
            .iter()
            .position(|&u| u == c.leaves[k])
            .expect("leaf in union");
        PAT[p]
    };
    compose([pat(0), pat(1), pat(2), pat(3)], c.tt)
}

/// Drops leaves the table does not depend on.
fn reduce(mut c: Cut) -> Cut {
    let mut k = 0;
    while k < c.n as usize {
        if depends(c.tt, k) {
            k += 1;
            continue;
        }
        let mut pats = [0u16; 4];
        let mut leaves = [0u32; 4];
        let mut m = 0;
        for (j, p) in pats.iter_mut().enumerate().take(c.n as usize) {
            if j != k {
                *p = PAT[m];
                leaves[m] = c.leaves[j];
                m += 1;
            }
        }
        c = Cut {
            leaves,
            n: m as u8,
            tt: compose(pats, c.tt),
            extra: 0,
        };
    }
    if c.n == 4 {
        c.extra = extra_of(c.tt);
    }
    c
}

/// All cuts of node `n` from its fanins' cuts (trivial cut first).
fn enumerate(net: &Network, cuts: &[Vec<Cut>], n: usize) -> Vec<Cut> {
    let node = &net.nodes[n];
    let me = net.node_sig[n];
    let mut consts: SmallVec<[Option<u8>; 3]> = SmallVec::new();
    let mut owned: SmallVec<[Vec<Cut>; 3]> = SmallVec::new();
    for x in &node.fanins {
        match *x {
            Fanin::Const(c) => {
                consts.push(Some(c));
                owned.push(Vec::new());
            }
            Fanin::Sig(s) => {
                consts.push(None);
                match net.node_of(s) {
                    Some(m) if absorbable(net, m, n) => owned.push(Vec::new()),
                    _ => owned.push(vec![Cut::trivial(s)]),
                }
            }
        }
    }
    let trivial_only = vec![Cut {
        leaves: [0; 4],
        n: 0,
        tt: 0,
        extra: 0,
    }];
    let mut lists: SmallVec<[&[Cut]; 3]> = SmallVec::new();
    for (k, x) in node.fanins.iter().enumerate() {
        match *x {
            Fanin::Const(_) => lists.push(&trivial_only),
            Fanin::Sig(s) => {
                if owned[k].is_empty() {
                    lists.push(&cuts[s as usize]);
                } else {
                    lists.push(&owned[k]);
                }
            }
        }
    }
    let mut out: Vec<Cut> = vec![Cut::trivial(me)];
    let mut pick: SmallVec<[usize; 3]> = smallvec![0; lists.len()];
    'product: loop {
        // The union of the picked cuts' leaves, if it fits.
        let mut union: SmallVec<[u32; 8]> = SmallVec::new();
        let mut fits = true;
        for (k, l) in lists.iter().enumerate() {
            if consts[k].is_some() {
                continue;
            }
            for &leaf in l[pick[k]].leaves() {
                if !union.contains(&leaf) {
                    union.push(leaf);
                }
            }
            if union.len() > 4 {
                fits = false;
                break;
            }
        }
        if fits {
            union.sort_unstable();
            let t: SmallVec<[u16; 3]> = lists
                .iter()
                .enumerate()
                .map(|(k, l)| match consts[k] {
                    Some(c) => u16::from(c) * 0x0101,
                    None => over(&l[pick[k]], &union),
                })
                .collect();
            let tt = match node.func {
                Func::And => t[0] & t[1],
                Func::Or => t[0] | t[1],
                Func::Xor => t[0] ^ t[1],
                Func::Not => !t[0],
                Func::Lut(l) => lut3(t[0], t[1], t[2], l),
            };
            let mut leaves = [0u32; 4];
            leaves[..union.len()].copy_from_slice(&union);
            let c = reduce(Cut {
                leaves,
                n: union.len() as u8,
                tt,
                extra: 0,
            });
            if !out[1..].iter().any(|o| o.leaves() == c.leaves()) {
                out.push(c);
            }
        }
        // Next combination.
        for k in 0..lists.len() {
            pick[k] += 1;
            if pick[k] < lists[k].len() {
                continue 'product;
            }
            pick[k] = 0;
        }
        break;
    }
    // Drop cuts that contain another cut's leaves.
    let dominated = |c: &Cut, out: &[Cut]| {
        out[1..]
            .iter()
            .any(|o| o != c && o.n < c.n && o.leaves().iter().all(|l| c.leaves().contains(l)))
    };
    let keep: Vec<Cut> = out[1..]
        .iter()
        .filter(|c| !dominated(c, &out))
        .copied()
        .collect();
    out.truncate(1);
    out.extend(keep);
    out
}

/// Instructions cut `c` costs at node `n`: one, except that an unguarded
/// copy of a register of the same class costs nothing (uses are renamed).
fn cut_cost(net: &Network, n: usize, c: &Cut) -> u32 {
    if is_wire(net, n, c) {
        0
    } else {
        1 + u32::from(c.extra)
    }
}

/// Levels of logic cut `c` adds at node `n`.
fn cut_delay(net: &Network, n: usize, c: &Cut) -> u32 {
    if is_wire(net, n, c) {
        0
    } else {
        1 + u32::from(c.extra > 0)
    }
}

fn is_wire(net: &Network, n: usize, c: &Cut) -> bool {
    c.n == 1
        && c.tt == PAT[0]
        && net.nodes[n].guard.is_none()
        && net.class[c.leaves[0] as usize].is_some()
        && net.class[c.leaves[0] as usize] == net.class[net.node_sig[n] as usize]
}

/// The mapper's state for one network.
struct Mapper<'n> {
    net: &'n Network,
    cuts: Vec<Vec<Cut>>,
    best: Vec<Cut>,
    arrival: Vec<u32>,
    flow: Vec<f32>,
    refs: Vec<u32>,
    required: Vec<u32>,
    steps: usize,
}

impl Mapper<'_> {
    /// Instructions the cut costs at node `n`: a copy of a register costs
    /// nothing when the node is unguarded (its uses are renamed).
    fn cost(&self, n: usize, c: &Cut) -> u32 {
        cut_cost(self.net, n, c)
    }

    fn arrival_of(&self, n: usize, c: &Cut) -> u32 {
        let m = c.leaves().iter().map(|&l| self.arrival[l as usize]).max();
        cut_delay(self.net, n, c) + m.unwrap_or(0)
    }

    fn flow_of(&self, n: usize, c: &Cut) -> f32 {
        let mut a = self.cost(n, c) as f32;
        for &l in c.leaves() {
            if let Some(m) = self.net.node_of(l) {
                a += self.flow[l as usize] / self.net.nodes[m].fanout.max(1) as f32;
            }
        }
        a
    }

    fn set_best(&mut self, n: usize, c: Cut) {
        let s = self.net.node_sig[n] as usize;
        self.arrival[s] = self.arrival_of(n, &c);
        self.flow[s] = self.flow_of(n, &c);
        self.best[n] = c;
    }

    /// Candidate cuts of `n` (the trivial one excluded).
    fn candidates(&self, n: usize) -> &[Cut] {
        &self.cuts[self.net.node_sig[n] as usize][1..]
    }

    fn depth_pass(&mut self) {
        for n in 0..self.net.nodes.len() {
            let c = *self
                .candidates(n)
                .iter()
                .min_by(|x, y| {
                    let kx = (self.arrival_of(n, x), self.flow_of(n, x));
                    let ky = (self.arrival_of(n, y), self.flow_of(n, y));
                    kx.partial_cmp(&ky).expect("finite")
                })
                .expect("every node has its fanin cut");
            self.set_best(n, c);
        }
    }

    fn flow_pass(&mut self) {
        for n in 0..self.net.nodes.len() {
            let req = self.required[self.net.node_sig[n] as usize];
            let pick = self
                .candidates(n)
                .iter()
                .filter(|c| self.arrival_of(n, c) <= req)
                .min_by(|x, y| {
                    let kx = (self.flow_of(n, x), self.arrival_of(n, x));
                    let ky = (self.flow_of(n, y), self.arrival_of(n, y));
                    kx.partial_cmp(&ky).expect("finite")
                })
                .copied();
            if let Some(c) = pick {
                self.set_best(n, c);
            }
        }
    }

    /// References the cut of node `n` and, recursively, the cuts of leaves
    /// that become used; returns the instructions added.
    fn reference(&mut self, n: usize) -> u32 {
        let mut area = 0;
        let mut stack = vec![n];
        while let Some(n) = stack.pop() {
            let c = self.best[n];
            area += self.cost(n, &c);
            for &l in c.leaves() {
                self.steps += 1;
                if let Some(m) = self.net.node_of(l) {
                    self.refs[l as usize] += 1;
                    if self.refs[l as usize] == 1 {
                        stack.push(m);
                    }
                }
            }
        }
        area
    }

    /// The inverse of [`Self::reference`].
    fn dereference(&mut self, n: usize) -> u32 {
        let mut area = 0;
        let mut stack = vec![n];
        while let Some(n) = stack.pop() {
            let c = self.best[n];
            area += self.cost(n, &c);
            for &l in c.leaves() {
                self.steps += 1;
                if let Some(m) = self.net.node_of(l) {
                    self.refs[l as usize] -= 1;
                    if self.refs[l as usize] == 0 {
                        stack.push(m);
                    }
                }
            }
        }
        area
    }

    /// Counts references of the current cover from the outputs.
    fn count_refs(&mut self) {
        self.refs.iter_mut().for_each(|r| *r = 0);
        for n in 0..self.net.nodes.len() {
            if self.net.nodes[n].output {
                let s = self.net.node_sig[n] as usize;
                self.refs[s] += 1;
                if self.refs[s] == 1 {
                    self.reference(n);
                }
            }
        }
    }

    /// Exact-area recovery; false when it ran out of steps.
    fn exact_pass(&mut self) -> bool {
        let budget = self.steps + EXACT_STEPS_PER_NODE * self.net.nodes.len() + 4096;
        self.count_refs();
        for n in 0..self.net.nodes.len() {
            let s = self.net.node_sig[n] as usize;
            if self.refs[s] == 0 {
                continue;
            }
            let req = self.required[s];
            self.dereference(n);
            let old = self.best[n];
            let mut pick = (u32::MAX, u32::MAX, old);
            for k in 1..self.cuts[s].len() {
                let c = self.cuts[s][k];
                let arr = self.arrival_of(n, &c);
                if arr > req && c != old {
                    continue;
                }
                self.best[n] = c;
                let area = self.reference(n);
                self.dereference(n);
                if (area, arr) < (pick.0, pick.1) {
                    pick = (area, arr, c);
                }
            }
            self.set_best(n, pick.2);
            self.reference(n);
            if self.steps > budget {
                return false;
            }
        }
        true
    }

    /// Required times from the outputs (their depth before the pass) down
    /// through the cover.
    fn compute_required(&mut self) {
        self.count_refs();
        self.required.iter_mut().for_each(|r| *r = u32::MAX);
        for n in 0..self.net.nodes.len() {
            if self.net.nodes[n].output {
                self.required[self.net.node_sig[n] as usize] = self.net.nodes[n].depth;
            }
        }
        for n in (0..self.net.nodes.len()).rev() {
            let s = self.net.node_sig[n] as usize;
            if self.refs[s] == 0 {
                continue;
            }
            let c = self.best[n];
            let r = self.required[s].saturating_sub(cut_delay(self.net, n, &c));
            for &l in c.leaves() {
                let slot = &mut self.required[l as usize];
                *slot = (*slot).min(r);
            }
        }
    }

    fn meets_required(&self) -> bool {
        self.net
            .nodes
            .iter()
            .enumerate()
            .all(|(n, x)| !x.output || self.arrival[self.net.node_sig[n] as usize] <= x.depth)
    }
}

/// Maps the network; returns the chosen cut of every node.
fn map(net: &Network) -> (Vec<Cut>, Vec<u32>) {
    let mut cuts: Vec<Vec<Cut>> = Vec::with_capacity(net.sigs.len());
    let mut arrival = vec![0u32; net.sigs.len()];
    let mut flow = vec![0f32; net.sigs.len()];
    for s in 0..net.sigs.len() {
        match net.sigs[s] {
            Sig::Leaf(_) => cuts.push(vec![Cut::trivial(s as u32)]),
            Sig::Node(n) => {
                let mut list = enumerate(net, &cuts, n as usize);
                let arr = |c: &Cut| {
                    let m = c.leaves().iter().map(|&l| arrival[l as usize]).max();
                    1 + u32::from(c.extra > 0) + m.unwrap_or(0)
                };
                let af = |c: &Cut| {
                    let mut a = 1.0 + f32::from(c.extra);
                    for &l in c.leaves() {
                        if let Some(m) = net.node_of(l) {
                            a += flow[l as usize] / net.nodes[m].fanout.max(1) as f32;
                        }
                    }
                    a
                };
                // Priority: half the cuts by depth, half by area flow, so
                // that area recovery has cheap cuts to choose from.
                let mut scored: Vec<(u32, f32, u8, Cut)> =
                    list[1..].iter().map(|c| (arr(c), af(c), c.n, *c)).collect();
                let by_depth = |x: &(u32, f32, u8, Cut), y: &(u32, f32, u8, Cut)| {
                    (x.0, x.1, x.2)
                        .partial_cmp(&(y.0, y.1, y.2))
                        .expect("finite")
                };
                let by_flow = |x: &(u32, f32, u8, Cut), y: &(u32, f32, u8, Cut)| {
                    (x.1, x.0, x.2)
                        .partial_cmp(&(y.1, y.0, y.2))
                        .expect("finite")
                };
                scored.sort_by(by_depth);
                arrival[s] = scored.first().map_or(1, |x| x.0);
                if scored.len() > MAX_CUTS {
                    scored[MAX_CUTS / 2..].sort_by(by_flow);
                    // Cuts on network inputs only are kept whatever their
                    // rank: they stay usable all the way up a cone.
                    let inputs_only =
                        |c: &Cut| c.leaves().iter().all(|&l| net.node_of(l).is_none());
                    let mut k = 0;
                    scored.retain(|x| {
                        k += 1;
                        k <= MAX_CUTS || inputs_only(&x.3)
                    });
                }
                flow[s] = scored.iter().map(|x| x.1).fold(f32::INFINITY, f32::min);
                list.truncate(1);
                list.extend(scored.into_iter().map(|x| x.3));
                cuts.push(list);
            }
        }
    }
    let nodes = net.nodes.len();
    let mut m = Mapper {
        net,
        cuts,
        best: vec![Cut::trivial(0); nodes],
        arrival: vec![0; net.sigs.len()],
        flow: vec![0.0; net.sigs.len()],
        refs: vec![0; net.sigs.len()],
        required: vec![u32::MAX; net.sigs.len()],
        steps: 0,
    };
    m.depth_pass();
    let depth_best = m.best.clone();
    m.compute_required();
    m.flow_pass();
    m.compute_required();
    for _ in 0..2 {
        let before = m.best.clone();
        if !m.exact_pass() {
            for (n, c) in before.into_iter().enumerate() {
                m.set_best(n, c);
            }
            break;
        }
        m.compute_required();
    }
    if !m.meets_required() {
        for (n, c) in depth_best.into_iter().enumerate() {
            m.set_best(n, c);
        }
    }
    m.count_refs();
    let covered = (0..nodes)
        .map(|n| m.refs[net.node_sig[n] as usize])
        .collect();
    (m.best, covered)
}

/// Union-find over network edges: the connected pieces of logic.
fn components(net: &Network) -> Vec<u32> {
    let mut parent: Vec<u32> = (0..net.nodes.len() as u32).collect();
    fn find(p: &mut [u32], mut x: u32) -> u32 {
        while p[x as usize] != x {
            p[x as usize] = p[p[x as usize] as usize];
            x = p[x as usize];
        }
        x
    }
    for (n, node) in net.nodes.iter().enumerate() {
        for x in &node.fanins {
            if let Fanin::Sig(s) = x {
                if let Some(m) = net.node_of(*s) {
                    let (a, b) = (find(&mut parent, n as u32), find(&mut parent, m as u32));
                    parent[a as usize] = b;
                }
            }
        }
    }
    (0..net.nodes.len() as u32)
        .map(|n| find(&mut parent, n))
        .collect()
}

/// How a rewrite was checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Checked {
    /// On every assignment of the piece's leaves.
    Exhaustive,
    /// On [`RANDOM_WORDS`] random words per leaf (too many leaves).
    Random,
    /// A difference was found.
    Differs,
}

/// Buffers [`check_piece`] reuses between pieces: values before and
/// after, and how each covered node is emitted.
type Scratch = (Vec<u32>, Vec<u32>, Vec<Emitted>);

/// Random 32-bit words per leaf when a piece is too big to enumerate.
const RANDOM_WORDS: usize = 256;
/// Node evaluations an exhaustive check may take per piece.
const EXHAUSTIVE_BUDGET: usize = 1 << 23;

/// Simulates one piece of logic (`nodes`, ascending) before and after on
/// bit-parallel words: on every assignment of its leaves (bit `b` of word
/// `w` is assignment `32w + b`) when at most [`EXHAUSTIVE_LEAVES`] leaves
/// and the work fits [`EXHAUSTIVE_BUDGET`], else on random words. Leaves
/// that are immediates count as free inputs, which is stronger than needed.
fn check_piece(
    net: &Network,
    best: &[Cut],
    covered: &[u32],
    nodes: &[usize],
    scratch: &mut Scratch,
) -> Checked {
    let mut leaves: Vec<u32> = Vec::new();
    let mut seen: rustc_hash::FxHashSet<u32> = rustc_hash::FxHashSet::default();
    for &n in nodes {
        for x in &net.nodes[n].fanins {
            if let Fanin::Sig(t) = *x {
                if net.node_of(t).is_none() && seen.insert(t) {
                    leaves.push(t);
                }
            }
        }
    }
    let exhaustive = leaves.len() <= EXHAUSTIVE_LEAVES
        && nodes.len() * 2 * (1usize << leaves.len()) / 32 <= EXHAUSTIVE_BUDGET;
    let words = if exhaustive {
        ((1usize << leaves.len()) / 32).max(1)
    } else {
        RANDOM_WORDS
    };
    let mut rng = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = || {
        rng = rng.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = rng;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        (z ^ (z >> 31)) as u32
    };
    // Values of the piece's leaves and nodes; every slot read is written
    // first in this call, so the buffers are shared between pieces.
    let (before, after, _) = scratch;
    before.resize(net.sigs.len(), 0);
    after.resize(net.sigs.len(), 0);
    let emitted = &mut scratch.2;
    emitted.resize(net.nodes.len(), Emitted::Lut(0));
    for &n in nodes {
        if covered[n] > 0 {
            emitted[n] = Emitted::of(&best[n]);
        }
    }
    for w in 0..words {
        for (j, &s) in leaves.iter().enumerate() {
            let x = if exhaustive {
                (0..32u32).fold(0, |acc, b| acc | ((((w as u32 * 32 + b) >> j) & 1) << b))
            } else {
                next()
            };
            before[s as usize] = x;
            after[s as usize] = x;
        }
        for &n in nodes {
            let node = &net.nodes[n];
            let v: SmallVec<[u32; 3]> = node
                .fanins
                .iter()
                .map(|x| match *x {
                    Fanin::Const(c) => (c as i8 as i32) as u32,
                    Fanin::Sig(t) => before[t as usize],
                })
                .collect();
            before[net.node_sig[n] as usize] = match node.func {
                Func::And => v[0] & v[1],
                Func::Or => v[0] | v[1],
                Func::Xor => v[0] ^ v[1],
                Func::Not => !v[0],
                Func::Lut(l) => apply32(v[0], v[1], v[2], l),
            };
        }
        for &n in nodes {
            if covered[n] == 0 {
                continue;
            }
            let c = &best[n];
            let x = |k: usize| {
                if k < c.n as usize {
                    after[c.leaves[k] as usize]
                } else {
                    0
                }
            };
            after[net.node_sig[n] as usize] = scratch.2[n].eval([x(0), x(1), x(2), x(3)]);
        }
        for &n in nodes {
            let s = net.node_sig[n] as usize;
            if net.nodes[n].output && before[s] != after[s] {
                return Checked::Differs;
            }
        }
    }
    if exhaustive {
        Checked::Exhaustive
    } else {
        Checked::Random
    }
}

fn leaf_operand(net: &Network, s: u32) -> Operand {
    match net.sigs[s as usize] {
        Sig::Leaf(Leaf::Val(v)) => Operand::Value(v),
        Sig::Leaf(Leaf::Imm(x)) => Operand::Imm(Imm::hex(x as u64)),
        Sig::Node(n) => Operand::Value(net.nodes[n as usize].result),
    }
}

/// (instructions, deepest output) of a piece of logic.
type Score = (u32, u32);

/// Maps one block; returns whether anything changed.
fn fuse_block(
    f: &mut Function,
    insts: &[Inst],
    uses: &SecondaryMap<Value, SmallVec<[Inst; 2]>>,
    copies: &mut FxHashMap<Value, Value>,
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
            new < old
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
            // Two registers under a plain operator read better as it.
            (2, tt)
                if matches!(lut_of(tt, [0, 1, 2]), 0xC0 | 0xFC | 0x3C)
                    && matches!((leaf(0), leaf(1)), (Operand::Value(_), Operand::Value(_))) =>
            {
                let opcode = match lut_of(tt, [0, 1, 2]) {
                    0xC0 => Opcode::And,
                    0xFC => Opcode::Or,
                    _ => Opcode::Xor,
                };
                let op = f.ops.intern(opcode, &[Mod::Type(Type::B32)]);
                (op, smallvec![d, leaf(0), leaf(1)])
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
fn tested_against_zero(
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

/// Folds `setp.ne x, 0` of a logic result into the `lop3.BoolOp` form.
fn fuse_predicates(
    f: &mut Function,
    insts: &[Inst],
    uses: &SecondaryMap<Value, SmallVec<[Inst; 2]>>,
) -> bool {
    let pos: FxHashMap<Inst, usize> = insts.iter().enumerate().map(|(k, &i)| (i, k)).collect();
    let mut changed = false;
    for &s in insts {
        if f.layout.inst_block(s).is_none() {
            continue;
        }
        let info = f.op(s);
        let d = f.inst(s);
        if info.opcode != Opcode::Setp
            || info.cmp() != Some(CmpOp::Ne)
            || d.guard.is_some()
            || !d.ties.is_empty()
            || d.results.len() != 1
            || !info
                .types()
                .all(|t| matches!(t, Type::B32 | Type::U32 | Type::S32))
            || info.mods.iter().any(|m| matches!(m, Mod::Word(_)))
        {
            continue;
        }
        let bool_op = info.bool_op();
        if bool_op == Some(BoolOp::Xor) {
            continue;
        }
        let (x, p) = match (d.operands.get(1), d.operands.get(2)) {
            (Some(Operand::Value(x)), Some(Operand::Imm(z)))
            | (Some(Operand::Imm(z)), Some(Operand::Value(x)))
                if z.is_int() && z.bits as u32 == 0 =>
            {
                (*x, d.results[0])
            }
            _ => continue,
        };
        if d.operands.first() != Some(&Operand::Value(p)) {
            continue;
        }
        let q = match (bool_op, d.operands.get(3)) {
            (None, None) => Operand::Imm(Imm::int(0)),
            (Some(_), Some(q @ (Operand::Value(_) | Operand::Not(_)))) => q.clone(),
            _ => continue,
        };
        let ValueDef::Result(def, 0) = f.dfg.values[x].def else {
            continue;
        };
        let Some(&def_pos) = pos.get(&def) else {
            continue;
        };
        if f.layout.inst_block(def).is_none() || pos.get(&s).is_none_or(|&k| k < def_pos) {
            continue;
        }
        let Some((func, srcs)) = logic_form(f, def) else {
            continue;
        };
        if f.inst(def).guard.is_some() {
            continue;
        }
        // q must be available where the definition is.
        let mut q_ok = true;
        q.for_each_value(&mut |v| {
            if let ValueDef::Result(qi, _) = f.dfg.values[v].def {
                if let Some(&k) = pos.get(&qi) {
                    q_ok &= k < def_pos;
                }
            }
        });
        if !q_ok {
            continue;
        }
        let mut abc: SmallVec<[Operand; 3]> = srcs.iter().cloned().collect();
        let lut = match func {
            Func::And => lut::A & lut::B,
            Func::Or => lut::A | lut::B,
            Func::Xor => lut::A ^ lut::B,
            Func::Not => !lut::A,
            Func::Lut(l) => l,
        };
        while abc.len() < 3 {
            abc.push(Operand::Imm(Imm::int(0)));
        }
        let others = uses[x]
            .iter()
            .any(|&u| u != s && f.layout.inst_block(u).is_some());
        let dest = Operand::Pair(others.then_some(x), Some(p));
        let op = f.ops.intern(
            Opcode::Lop3,
            &[
                Mod::Bool(bool_op.unwrap_or(BoolOp::Or)),
                Mod::Type(Type::B32),
            ],
        );
        let data = &mut f.dfg.insts[def];
        data.op = op;
        data.operands = smallvec![
            dest,
            abc[0].clone(),
            abc[1].clone(),
            abc[2].clone(),
            Operand::Imm(Imm::hex(lut as u64)),
            q
        ];
        data.results = if others {
            smallvec![x, p]
        } else {
            smallvec![p]
        };
        let k = data.results.len() as u16 - 1;
        f.dfg.values[p].def = ValueDef::Result(def, k);
        f.layout.remove_inst(s);
        changed = true;
    }
    changed
}

impl Pass for Lop3Fuse {
    fn name(&self) -> &'static str {
        "lop3-fuse"
    }

    fn run(&mut self, f: &mut Function, am: &mut AnalysisManager) -> Preserved {
        let target = am.target;
        if target.is_some_and(|t| t.sm < 50) {
            return Preserved::All;
        }
        // Both mappings start from a logic instruction: without one, skip
        // the use lists.
        let logic = f
            .layout
            .blocks()
            .flat_map(|b| f.layout.block_insts(b))
            .any(|i| {
                matches!(
                    f.op(i).opcode,
                    Opcode::And | Opcode::Or | Opcode::Xor | Opcode::Not | Opcode::Lop3
                )
            });
        if !logic {
            return Preserved::All;
        }
        let blocks: Vec<_> = f.layout.blocks().collect();
        let uses = f.uses();
        let mut copies = FxHashMap::default();
        let mut changed = false;
        for &b in &blocks {
            let insts: Vec<Inst> = f.layout.block_insts(b).collect();
            changed |= fuse_block(f, &insts, &uses, &mut copies);
        }
        crate::rewrite::replace_all_uses(f, &copies);
        if target.is_some_and(|t| t.sm >= 70 && t.ptx >= (8, 2)) {
            let uses = f.uses();
            for &b in &blocks {
                let insts: Vec<Inst> = f.layout.block_insts(b).collect();
                changed |= fuse_predicates(f, &insts, &uses);
            }
        }
        tracing::debug!(target: "lop3-fuse", function = %f.name, changed, "done");
        Preserved::cfg_if(changed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words() -> [u32; 4] {
        PAT.map(u32::from)
    }

    #[test]
    fn every_four_input_function_decomposes_exactly() {
        let (mut two, mut three) = (0, 0);
        for tt in 0..=u16::MAX {
            if !(0..4).all(|k| depends(tt, k)) {
                continue;
            }
            let d = decompose(tt);
            assert_eq!(eval_decomp(d, words()) as u16, tt, "{tt:#06x} {d:?}");
            match d {
                Decomp::Two { .. } => two += 1,
                Decomp::Three { .. } => three += 1,
            }
        }
        assert!(two > 0 && three > 0, "{two} {three}");
        // Parity of four is two lop3s.
        let x = words();
        let parity = (x[0] ^ x[1] ^ x[2] ^ x[3]) as u16;
        assert!(matches!(decompose(parity), Decomp::Two { .. }));
    }

    #[test]
    fn truth_table_helpers_agree() {
        for l in 0..=255u8 {
            let tt = lut3(PAT[0], PAT[1], PAT[2], l);
            assert_eq!(lut_of(tt, [0, 1, 2]), l);
            // Swapping a and b in the operands swaps them in the LUT.
            let swapped = lut_of(tt, [1, 0, 2]);
            let w = words();
            assert_eq!(
                apply32(w[1], w[0], w[2], swapped),
                apply32(w[0], w[1], w[2], l)
            );
        }
        assert_eq!(cofactor(PAT[0] & PAT[1], 0, true), PAT[1]);
        assert_eq!(cofactor(PAT[0] & PAT[1], 0, false), 0);
    }

    fn run(body: &str) -> String {
        let full = format!(
            ".version 7.0\n.target sm_80\n.address_size 64\n.visible .entry k(.param .u64 p)\n{{\n.reg .b32 %r<20>;\n.reg .b64 %rd<2>;\nld.param.u64 %rd1, [p];\nld.global.v4.u32 {{%r1, %r2, %r3, %r4}}, [%rd1];\n{body}\nret;\n}}\n"
        );
        let mut m = ptx_parse::parse_module(&full).unwrap();
        for f in m.functions_mut() {
            let before = f.clone();
            Lop3Fuse.run(f, &mut AnalysisManager::new());
            assert!(ptx_ir::verify::verify_function(f).is_empty());
            assert!(f.inst_count() <= before.inst_count());
        }
        ptx_ir::write::module_to_string(&m)
    }

    /// Every piece of every benchmark kernel is checked on all leaf values,
    /// and a wrong truth table is caught.
    #[test]
    fn benchmark_pieces_are_checked_exhaustively() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../tools/ptx-opt/benches/lop3");
        let mut pieces = 0;
        for e in std::fs::read_dir(dir).unwrap() {
            let path = e.unwrap().path();
            if path.extension().is_none_or(|x| x != "ptx") {
                continue;
            }
            let m = ptx_parse::parse_module(&std::fs::read_to_string(&path).unwrap()).unwrap();
            for f in m.functions() {
                let uses = f.uses();
                for b in f.layout.blocks() {
                    let insts: Vec<Inst> = f.layout.block_insts(b).collect();
                    let net = build(f, &insts, &uses);
                    if net.nodes.is_empty() {
                        continue;
                    }
                    let (mut best, covered) = map(&net);
                    let all_nodes: Vec<usize> = (0..net.nodes.len()).collect();
                    let mut scratch: Scratch = (Vec::new(), Vec::new(), Vec::new());
                    assert_eq!(
                        check_piece(&net, &best, &covered, &all_nodes, &mut scratch),
                        Checked::Exhaustive,
                        "{}",
                        path.display()
                    );
                    pieces += 1;
                    // Complement a covered output's table.
                    let n = (0..net.nodes.len())
                        .rev()
                        .find(|&n| covered[n] > 0 && net.nodes[n].output)
                        .unwrap();
                    best[n].tt = !best[n].tt;
                    assert_eq!(
                        check_piece(&net, &best, &covered, &all_nodes, &mut scratch),
                        Checked::Differs
                    );
                }
            }
        }
        assert!(pieces >= 28, "{pieces}");
    }

    #[test]
    fn four_input_cone_takes_two_lop3s() {
        // (a & b) ^ (c | d) ^ a: five instructions, four inputs.
        let out = run("and.b32 %r5, %r1, %r2;\nor.b32 %r6, %r3, %r4;\nxor.b32 %r7, %r5, %r6;\nxor.b32 %r8, %r7, %r1;\nst.global.u32 [%rd1], %r8;");
        let logic = ["lop3.b32", "and.b32", "or.b32", "xor.b32"]
            .iter()
            .map(|w| out.matches(w).count())
            .sum::<usize>();
        assert_eq!(logic, 2, "{out}");
        assert!(out.contains("lop3.b32"), "{out}");
    }

    #[test]
    fn nothing_to_gain_means_no_change() {
        let src = "lop3.b32 %r5, %r1, %r2, %r3, 0x96;\nst.global.u32 [%rd1], %r5;";
        let out = run(src);
        assert!(
            out.contains("lop3.b32 \t%r5, %r1, %r2, %r3, 0x96;"),
            "{out}"
        );
        // A copy through `and` with all ones is renamed away.
        let out = run("and.b32 %r5, %r1, -1;\nst.global.u32 [%rd1], %r5;");
        assert!(out.contains("st.global.u32 \t[%rd1], %r1;"), "{out}");
    }
}
