//! Structural choices (ABC's `dch`): restructured versions of the block's
//! logic are added to the network as synthetic nodes, each version's root
//! known to compute the same function as the node it restructures. The
//! mapper then gives that node the cuts of both structures
//! ([`super::mapper`]), and the cover takes whichever is cheaper; a
//! synthetic node becomes an instruction only when the cover uses it
//! ([`super::rewrite`]).
//!
//! The versions come from the network's XAIG ([`super::aig`]): balancing
//! ([`super::balance`]) rebuilds every `and` and `xor` supergate.
//!
//! **Invariants.** The combined network is in topological order, and a
//! synthetic node stands right before the first original node that it
//! was made for, so that every signal it reads is computed before that
//! node (every leaf of a restructured cone is in the cone's support).
//! The original nodes keep their order, instructions and flags.

use super::aig::{self, complemented, node, Aig, Gate, Lit};
use super::balance::{balance, NONE};
use super::*;
use smallvec::SmallVec;

/// Synthetic nodes added at most, per original node.
const MAX_GROWTH: usize = 2;

/// A signal of the combined network before it is built.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ref {
    /// An original signal.
    Orig(u32),
    /// The k-th synthetic node.
    New(u32),
}

struct Extra {
    /// The original node it stands before.
    slot: usize,
    table: u8,
    fanins: SmallVec<[Option<Ref>; 3]>,
}

/// The combined network and where each signal of the plain one went.
pub(super) struct Combined {
    pub(super) net: Network,
    pub(super) sig_of: Vec<u32>,
}

/// Adds the restructured versions to `net` (whose functional reduction is
/// done: its equivalences carry over to the original nodes). `None` when
/// there is nothing to add. Windows are resynthesised with `effort`;
/// `regroup` adds [`super::regroup`]'s versions (on networks of at most
/// [`super::regroup::MAX_NODES`] nodes).
pub(super) fn add(
    net: &Network,
    effort: super::resynth::Effort,
    regroup: bool,
) -> Option<Combined> {
    if net.nodes.len() < 2 {
        return None;
    }
    let img = aig::image(net);
    let mut aig = img.aig;
    let old = aig.len();
    let bal = balance(&mut aig, &img.roots);
    let reg = if regroup && net.nodes.len() <= super::regroup::MAX_NODES {
        super::regroup::regroup(&mut aig, &img.roots)
    } else {
        vec![NONE; old]
    };
    let lin = super::linear::linear(&mut aig, &img.roots);
    let syn = super::resynth::resynthesize(&mut aig, &img.roots, old, effort);
    // Versions that only pay off together share a group: the linear
    // network (group 0) and each resynthesised window (1, 2, ...).
    // Each gate's original signal and polarity, where one computes it.
    let mut rep: Vec<Option<(u32, bool)>> = vec![None; old];
    for (s, &l) in img.lit.iter().enumerate() {
        let slot = &mut rep[node(l)];
        if slot.is_none() {
            *slot = Some((s as u32, complemented(l)));
        }
    }
    // The node index of each original signal (leaves: none).
    let position = |s: u32| net.node_of(s);
    let mut made = Materializer {
        aig: &aig,
        rep: &rep,
        new_of: vec![None; aig.len()],
        extras: Vec::new(),
    };
    let mut known: Vec<(usize, Ref, bool, Option<u32>)> = Vec::new();
    let budget = MAX_GROWTH * net.nodes.len();
    for n in 0..net.nodes.len() {
        if net.nodes[n].guard.is_some() {
            continue;
        }
        let l = img.lit[net.node_sig[n] as usize];
        let (s, window) = syn[node(l)];
        let versions = [
            (bal[node(l)], None),
            (reg[node(l)], None),
            (lin[node(l)], Some(0)),
            (s, Some(window)),
        ];
        for (v, group) in versions {
            if v == NONE {
                continue;
            }
            let b = v ^ (l & 1);
            if b == l || node(b) == 0 {
                continue;
            }
            if made.extras.len() >= budget {
                break;
            }
            let Some((r, p)) = made.materialize(node(b), n, &position) else {
                continue;
            };
            let target_ok = match r {
                Ref::New(_) => true,
                Ref::Orig(s) => position(s).is_some_and(|m| m < n),
            };
            if target_ok {
                known.push((n, r, p ^ complemented(b), group));
            }
        }
    }
    // A gate an original node computes after the slot that needed it was
    // copied: the node may take the copy instead (no logic twice).
    for (g, k) in made.new_of.iter().enumerate() {
        if let (Some(k), Some(Some((s, p)))) = (k, rep.get(g)) {
            if let Some(m) = position(*s) {
                known.push((m, Ref::New(*k), *p, None));
            }
        }
    }
    known.sort_by_key(|k| k.0);
    let extras = made.extras;
    tracing::debug!(target: "lop3-fuse", nodes = net.nodes.len(), added = extras.len(), choices = known.len(), "structural choices");
    if extras.is_empty() && known.is_empty() {
        return None;
    }
    Some(combine(net.clone(), &extras, &known))
}

struct Materializer<'a> {
    aig: &'a Aig,
    rep: &'a [Option<(u32, bool)>],
    /// Synthetic node made for each gate.
    new_of: Vec<Option<u32>>,
    extras: Vec<Extra>,
}

impl Materializer<'_> {
    /// The signal computing gate `g` (and its polarity) for a node at
    /// `slot`: an original signal available there, else a synthetic node,
    /// made with its cone as needed. `None` for the constant.
    fn materialize(
        &mut self,
        g: usize,
        slot: usize,
        position: &dyn Fn(u32) -> Option<usize>,
    ) -> Option<(Ref, bool)> {
        let usable = |me: &Self, g: usize| -> Option<(Ref, bool)> {
            if let Some((s, p)) = me.rep.get(g).copied().flatten() {
                if position(s).is_none_or(|m| m < slot) {
                    return Some((Ref::Orig(s), p));
                }
            }
            me.new_of[g].map(|k| (Ref::New(k), false))
        };
        if g == 0 {
            return None;
        }
        if let Some(r) = usable(self, g) {
            return Some(r);
        }
        // Depth-first over the cone, making each gate after its fanins.
        let mut stack: Vec<(usize, bool)> = vec![(g, false)];
        while let Some((h, expanded)) = stack.pop() {
            if usable(self, h).is_some() {
                continue;
            }
            let fanins: SmallVec<[Lit; 3]> = self.aig.fanins(h).collect();
            if !expanded {
                stack.push((h, true));
                for &l in &fanins {
                    if node(l) != 0 && usable(self, node(l)).is_none() {
                        stack.push((node(l), false));
                    }
                }
                continue;
            }
            // Fanins are made: the gate's table over their signals.
            let mut refs: SmallVec<[Option<Ref>; 3]> = SmallVec::new();
            let mut flips: SmallVec<[bool; 3]> = SmallVec::new();
            let mut consts: SmallVec<[Option<bool>; 3]> = SmallVec::new();
            for &l in &fanins {
                if node(l) == 0 {
                    refs.push(None);
                    flips.push(false);
                    consts.push(Some(complemented(l)));
                } else {
                    let (r, p) = usable(self, node(l)).expect("fanin made first");
                    refs.push(Some(r));
                    flips.push(p ^ complemented(l));
                    consts.push(None);
                }
            }
            let mut table = match self.aig.gates[h] {
                Gate::And(..) => aig::and_table(false, false),
                Gate::Xor(..) => aig::xor_table(false),
                Gate::Lut(l, _) => l,
                // An input not computed by the slot: not in the support
                // of the slot's node, so the version is not usable there.
                Gate::Const | Gate::Input(_) => return None,
            };
            for (k, &f) in flips.iter().enumerate() {
                if f {
                    table = aig::lut_flip_input(table, k);
                }
            }
            // Constant fanins are passed as constants (the table sees them).
            let fanins = refs
                .iter()
                .zip(&consts)
                .map(|(r, c)| match c {
                    Some(_) => None,
                    None => *r,
                })
                .collect();
            let mut t = table;
            for (k, c) in consts.iter().enumerate() {
                if let Some(v) = c {
                    // Fold the constant into the table: input k fixed.
                    t = fix_input(t, k, *v);
                }
            }
            let k = self.extras.len() as u32;
            self.extras.push(Extra {
                slot,
                table: t,
                fanins,
            });
            self.new_of[h] = Some(k);
        }
        usable(self, g)
    }
}

/// `l` with input `k` fixed to `v` (the input then does not matter).
fn fix_input(l: u8, k: usize, v: bool) -> u8 {
    let shift = 4 >> k;
    let mut r = 0u8;
    for j in 0..8 {
        let src = if v { j | shift } else { j & !shift };
        r |= ((l >> src) & 1) << j;
    }
    r
}

/// The combined network: original signals in their order, each synthetic
/// node right before the original node of its slot.
fn combine(net: Network, extras: &[Extra], known: &[(usize, Ref, bool, Option<u32>)]) -> Combined {
    let mut out = Network {
        sigs: Vec::with_capacity(net.sigs.len() + extras.len()),
        nodes: Vec::with_capacity(net.nodes.len() + extras.len()),
        node_sig: Vec::with_capacity(net.nodes.len() + extras.len()),
        class: Vec::with_capacity(net.sigs.len() + extras.len()),
        equiv: Vec::new(),
        choice: Vec::new(),
        groups: Vec::new(),
        constant: Vec::new(),
    };
    let mut orig_sig = vec![u32::MAX; net.sigs.len()];
    let mut new_sig = vec![u32::MAX; extras.len()];
    let mut orig_node = vec![u32::MAX; net.nodes.len()];
    let mut next_extra = 0usize;
    let Network {
        sigs,
        nodes,
        class,
        equiv,
        constant,
        ..
    } = net;
    let mut nodes: Vec<Option<Node>> = nodes.into_iter().map(Some).collect();
    let map_fanin = |orig_sig: &[u32], new_sig: &[u32], x: &Fanin| match *x {
        Fanin::Sig(s) => Fanin::Sig(orig_sig[s as usize]),
        c => {
            let _ = new_sig;
            c
        }
    };
    for (s, sig) in sigs.iter().enumerate() {
        if let Sig::Node(n) = *sig {
            let n = n as usize;
            while next_extra < extras.len() && extras[next_extra].slot == n {
                let e = &extras[next_extra];
                let mut fanins: SmallVec<[Fanin; 3]> = e
                    .fanins
                    .iter()
                    .map(|r| match r {
                        None => Fanin::Const(0),
                        Some(Ref::Orig(t)) => Fanin::Sig(orig_sig[*t as usize]),
                        Some(Ref::New(k)) => Fanin::Sig(new_sig[*k as usize]),
                    })
                    .collect();
                while fanins.len() < 3 {
                    fanins.push(Fanin::Const(0));
                }
                let depth = 1 + fanins
                    .iter()
                    .filter_map(|x| match x {
                        Fanin::Sig(t) => out.node_of(*t).map(|m| out.nodes[m].depth),
                        Fanin::Const(_) => None,
                    })
                    .max()
                    .unwrap_or(0);
                let id = out.nodes.len() as u32;
                out.nodes.push(Node {
                    inst: None,
                    result: None,
                    guard: None,
                    func: Func::Lut(e.table),
                    fanins,
                    output: false,
                    fanout: 0,
                    depth,
                });
                out.sigs.push(Sig::Node(id));
                out.class.push(class[s]);
                new_sig[next_extra] = (out.sigs.len() - 1) as u32;
                out.node_sig.push(new_sig[next_extra]);
                next_extra += 1;
            }
            let mut node = nodes[n].take().expect("each node once");
            node.fanins = node
                .fanins
                .iter()
                .map(|x| map_fanin(&orig_sig, &new_sig, x))
                .collect();
            let id = out.nodes.len() as u32;
            out.nodes.push(node);
            out.sigs.push(Sig::Node(id));
            orig_node[n] = id;
            out.node_sig.push((out.sigs.len() - 1) as u32);
        } else {
            out.sigs.push(*sig);
        }
        out.class.push(class[s]);
        orig_sig[s] = (out.sigs.len() - 1) as u32;
    }
    debug_assert_eq!(next_extra, extras.len());
    // Fanouts over the combined network (outputs count once).
    for node in &mut out.nodes {
        node.fanout = u32::from(node.output);
    }
    for n in 0..out.nodes.len() {
        for k in 0..out.nodes[n].fanins.len() {
            if let Fanin::Sig(t) = out.nodes[n].fanins[k] {
                if let Some(m) = out.node_of(t) {
                    out.nodes[m].fanout += 1;
                }
            }
        }
    }
    out.equiv = vec![None; out.nodes.len()];
    out.choice = vec![SmallVec::new(); out.nodes.len()];
    out.constant = vec![None; out.nodes.len()];
    for (n, &id) in orig_node.iter().enumerate() {
        out.equiv[id as usize] = equiv[n].map(|(m, c)| (orig_node[m as usize], c));
        out.constant[id as usize] = constant[n];
    }
    let mut groups: FxHashMap<u32, Vec<(u32, u32, bool)>> = FxHashMap::default();
    for &(n, r, c, group) in known {
        let target = match r {
            Ref::Orig(s) => out.node_of(orig_sig[s as usize]),
            Ref::New(k) => out.node_of(new_sig[k as usize]),
        };
        if let Some(m) = target {
            out.choice[orig_node[n] as usize].push((m as u32, c));
            if let Some(g) = group {
                groups
                    .entry(g)
                    .or_default()
                    .push((orig_node[n], m as u32, c));
            }
        }
    }
    let mut ids: Vec<u32> = groups.keys().copied().collect();
    ids.sort_unstable();
    out.groups = ids
        .into_iter()
        .filter_map(|g| groups.remove(&g))
        .filter(|g| g.len() > 1)
        .collect();
    Combined {
        net: out,
        sig_of: orig_sig,
    }
}
