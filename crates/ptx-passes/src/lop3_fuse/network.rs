//! The logic of one block as a network: nodes (`and`/`or`/`xor`/`not`/
//! `lop3`), leaves (other values and immediates) and signals naming both;
//! its connected pieces.

use ptx_ir::entity::SecondaryMap;
use ptx_ir::{Function, Guard, Imm, Inst, Mod, Opcode, Operand, Type, Value};
use rustc_hash::FxHashMap;
use smallvec::SmallVec;

/// A value computed outside the network, or an immediate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) enum Leaf {
    Val(Value),
    Imm(u32),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) enum Func {
    And,
    Or,
    Xor,
    Not,
    Lut(u8),
}

#[derive(Clone, Copy, Debug)]
pub(super) enum Fanin {
    Sig(u32),
    /// 0x00 or 0xFF.
    Const(u8),
}

#[derive(Clone, Debug)]
pub(super) struct Node {
    /// The instruction, or `None` for a node a restructuring stage added
    /// ([`super::choices`]): it is emitted only if the cover uses it.
    pub(super) inst: Option<Inst>,
    pub(super) result: Option<Value>,
    pub(super) guard: Option<Guard>,
    pub(super) func: Func,
    pub(super) fanins: SmallVec<[Fanin; 3]>,
    /// Read outside the network (so it must be computed).
    pub(super) output: bool,
    /// Network users plus one if an output.
    pub(super) fanout: u32,
    /// Depth before the pass (logic instructions on the longest path).
    pub(super) depth: u32,
}

impl Node {
    /// The node's value on 64 bit-parallel vectors, given its fanin
    /// signals' (`word`); immediates are all zeros or all ones.
    pub(super) fn eval(&self, word: impl Fn(u32) -> u64) -> u64 {
        let mut v = [0u64; 3];
        for (x, f) in v.iter_mut().zip(&self.fanins) {
            *x = match *f {
                Fanin::Const(c) => (c as i8 as i64) as u64,
                Fanin::Sig(t) => word(t),
            };
        }
        match self.func {
            Func::And => v[0] & v[1],
            Func::Or => v[0] | v[1],
            Func::Xor => v[0] ^ v[1],
            Func::Not => !v[0],
            Func::Lut(l) => ptx_ir::lut::apply64(v[0], v[1], v[2], l),
        }
    }
}

#[derive(Clone, Copy, Debug)]
pub(super) enum Sig {
    Leaf(Leaf),
    Node(u32),
}

/// The logic of one block.
#[derive(Clone)]
pub(super) struct Network {
    pub(super) sigs: Vec<Sig>,
    pub(super) nodes: Vec<Node>,
    /// Signal of each node.
    pub(super) node_sig: Vec<u32>,
    /// Register class of each signal (`None` for immediates).
    pub(super) class: Vec<Option<Type>>,
    /// Per node, an earlier node proved to compute the same function (or,
    /// with `true`, its complement): see [`super::equiv`].
    pub(super) equiv: Vec<Option<(u32, bool)>>,
    /// Per node, a restructured version of it (a synthetic node computing
    /// the same function, or with `true` its complement): see
    /// [`super::choices`].
    pub(super) choice: Vec<SmallVec<[(u32, bool); 1]>>,
    /// Choices that pay off only taken together (a resynthesised window,
    /// the shared xor network): (node, version, complement) each.
    pub(super) groups: Vec<Vec<(u32, u32, bool)>>,
    /// Per node, the constant it is proved to be.
    pub(super) constant: Vec<Option<bool>>,
}

impl Network {
    /// Whether node `n` was added by a restructuring stage.
    pub(super) fn synthetic(&self, n: usize) -> bool {
        self.nodes[n].inst.is_none()
    }

    pub(super) fn node_of(&self, s: u32) -> Option<usize> {
        match self.sigs[s as usize] {
            Sig::Node(n) => Some(n as usize),
            Sig::Leaf(_) => None,
        }
    }
}

/// The logic function and sources of `i`, if it is network material.
pub(super) fn logic_form(f: &Function, i: Inst) -> Option<(Func, &[Operand])> {
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

/// The network of one block, with structural choices added and the
/// functional reduction done.
pub(super) fn build(
    f: &Function,
    insts: &[Inst],
    uses: &SecondaryMap<Value, SmallVec<[Inst; 2]>>,
) -> Network {
    let mut net = build_plain(f, insts, uses);
    if net.nodes.is_empty() {
        return net;
    }
    let reduced = super::equiv::equivalences(&net, false);
    net.equiv = reduced.equiv;
    net.constant = reduced.constant;
    net
}

/// The network of the block's instructions as they are.
pub(super) fn build_plain(
    f: &Function,
    insts: &[Inst],
    uses: &SecondaryMap<Value, SmallVec<[Inst; 2]>>,
) -> Network {
    let mut net = Network {
        sigs: Vec::new(),
        nodes: Vec::new(),
        node_sig: Vec::new(),
        class: Vec::new(),
        equiv: Vec::new(),
        choice: Vec::new(),
        groups: Vec::new(),
        constant: Vec::new(),
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
            inst: Some(i),
            result: Some(d.results[0]),
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
        let r = node.result.expect("built from an instruction");
        node.output = uses[r].iter().any(|u| match node_of_inst.get(u) {
            None => true,
            // A tie (the old value of a guarded definition) is no fanin.
            Some(_) => f.inst(*u).ties.contains(&r),
        });
        node.fanout += u32::from(node.output);
    }
    net.equiv = vec![None; net.nodes.len()];
    net.choice = vec![SmallVec::new(); net.nodes.len()];
    net.constant = vec![None; net.nodes.len()];
    net
}

/// Whether node `m` may sit inside a cut of node `n`.
pub(super) fn absorbable(net: &Network, m: usize, n: usize) -> bool {
    let g = net.nodes[m].guard;
    g.is_none() || g == net.nodes[n].guard
}

/// Union-find over network edges: the connected pieces of logic.
pub(super) fn components(net: &Network) -> Vec<u32> {
    let mut parent: Vec<u32> = (0..net.nodes.len() as u32).collect();
    pub(super) fn find(p: &mut [u32], mut x: u32) -> u32 {
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
    let pairs = net
        .equiv
        .iter()
        .enumerate()
        .filter_map(|(n, e)| e.map(|e| (n, e)));
    let choices = (net.choice.iter().enumerate()).flat_map(|(n, l)| l.iter().map(move |&e| (n, e)));
    for (n, e) in pairs.chain(choices) {
        {
            let (m, _) = e;
            let (a, b) = (find(&mut parent, n as u32), find(&mut parent, m));
            parent[a as usize] = b;
        }
    }
    (0..net.nodes.len() as u32)
        .map(|n| find(&mut parent, n))
        .collect()
}

pub(super) fn leaf_operand(net: &Network, s: u32) -> Operand {
    match net.sigs[s as usize] {
        Sig::Leaf(Leaf::Val(v)) => Operand::Value(v),
        Sig::Leaf(Leaf::Imm(x)) => Operand::Imm(Imm::hex(x as u64)),
        Sig::Node(n) => Operand::Value(
            net.nodes[n as usize]
                .result
                .expect("an added node's operand comes from the rewrite"),
        ),
    }
}
