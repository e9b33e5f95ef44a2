//! Functional reduction (ABC's `fraig`, without SAT): nodes that compute
//! the same function as an earlier node, or its complement, are found by
//! simulation signatures and proved by exhaustive simulation over their
//! joint support.
//!
//! The network is not changed: a proved node `n ≡ m` (or `¬m`) gets, in
//! the mapper, the cuts of `m` (complemented) and the one-leaf cut `{m}`
//! as well as its own, so the cover may compute it from `m`'s logic and
//! drop its own cone. Both are put in one piece (so they are rewritten
//! and checked together), and the check still simulates every node's own
//! instruction, so a wrong equivalence could not survive it.
//!
//! Only unguarded nodes take part (a guarded node's value depends on its
//! old value); guarded nodes count as inputs. A proof enumerates at most
//! [`MAX_SUPPORT`] inputs and is skipped beyond [`PROOF_WORK`] node
//! evaluations; the stage stops after [`TOTAL_WORK`], so it stays near
//! linear.

use super::*;
use ptx_ir::lut::{apply64, exhaustive_word};
use smallvec::SmallVec;

/// Simulation words (of 64 vectors) per signal for the signatures.
const WORDS: usize = 4;
/// Largest joint support a proof enumerates.
const MAX_SUPPORT: usize = 16;
/// Node evaluations one proof may take (cone size × 64-vector words).
const PROOF_WORK: usize = 1 << 18;
/// Node evaluations all proofs of one network may take.
const TOTAL_WORK: usize = 1 << 25;

fn eval(func: Func, v: &[u64]) -> u64 {
    match func {
        Func::And => v[0] & v[1],
        Func::Or => v[0] | v[1],
        Func::Xor => v[0] ^ v[1],
        Func::Not => !v[0],
        Func::Lut(l) => apply64(v[0], v[1], v[2], l),
    }
}

fn fanin_word(x: &Fanin, vals: &[u64]) -> u64 {
    match *x {
        Fanin::Const(c) => (c as i8 as i64) as u64,
        Fanin::Sig(s) => vals[s as usize],
    }
}

/// For each node, the earlier node it is proved equivalent to and whether
/// it is the complement.
pub(super) fn equivalences(net: &Network) -> Vec<Option<(u32, bool)>> {
    let nodes = net.nodes.len();
    let mut out = vec![None; nodes];
    let free = |n: usize| net.nodes[n].guard.is_none();
    // Signatures.
    let mut rng = 0x2545_F491_4F6C_DD1Du64;
    let mut next = || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng
    };
    let mut sig: Vec<[u64; WORDS]> = vec![[0; WORDS]; net.sigs.len()];
    let mut scratch: SmallVec<[u64; 3]> = SmallVec::new();
    for s in 0..net.sigs.len() {
        sig[s] = match net.sigs[s] {
            Sig::Node(n) if free(n as usize) => {
                let node = &net.nodes[n as usize];
                let mut w = [0; WORDS];
                for (k, slot) in w.iter_mut().enumerate() {
                    scratch.clear();
                    scratch.extend(node.fanins.iter().map(|x| match *x {
                        Fanin::Const(c) => (c as i8 as i64) as u64,
                        Fanin::Sig(t) => sig[t as usize][k],
                    }));
                    *slot = eval(node.func, &scratch);
                }
                w
            }
            _ => std::array::from_fn(|_| next()),
        };
    }
    // Structural supports (inputs reached through unguarded nodes), or
    // None beyond MAX_SUPPORT.
    let mut support: Vec<Option<SmallVec<[u32; MAX_SUPPORT]>>> = vec![None; net.sigs.len()];
    for s in 0..net.sigs.len() {
        support[s] = match net.sigs[s] {
            Sig::Node(n) if free(n as usize) => {
                let mut u: SmallVec<[u32; MAX_SUPPORT]> = SmallVec::new();
                let mut ok = true;
                for x in &net.nodes[n as usize].fanins {
                    if let Fanin::Sig(t) = *x {
                        match &support[t as usize] {
                            Some(l) => {
                                for &v in l {
                                    if !u.contains(&v) {
                                        u.push(v);
                                    }
                                }
                            }
                            None => ok = false,
                        }
                    }
                    if u.len() > MAX_SUPPORT {
                        ok = false;
                    }
                    if !ok {
                        break;
                    }
                }
                ok.then_some(u)
            }
            _ => Some(smallvec::smallvec![s as u32]),
        };
    }
    let mut classes: FxHashMap<[u64; WORDS], u32> = FxHashMap::default();
    let mut work = 0usize;
    let mut vals: Vec<u64> = vec![0; net.sigs.len()];
    let mut cone: Vec<usize> = Vec::new();
    let mut mark: Vec<bool> = vec![false; nodes];
    for (n, slot) in out.iter_mut().enumerate() {
        if !free(n) {
            continue;
        }
        let s = net.node_sig[n] as usize;
        let flip = sig[s][0] & 1 == 1;
        let key = if flip { sig[s].map(|w| !w) } else { sig[s] };
        if key.iter().all(|&w| w == 0) {
            continue; // a constant: the truth tables already see it
        }
        let Some(&m) = classes.get(&key) else {
            classes.insert(key, n as u32);
            continue;
        };
        let t = net.node_sig[m as usize] as usize;
        let complement = flip != (sig[t][0] & 1 == 1);
        let (Some(a), Some(b)) = (&support[s], &support[t]) else {
            continue;
        };
        let mut vars: SmallVec<[u32; 32]> = a.clone().into_iter().collect();
        for &v in b {
            if !vars.contains(&v) {
                vars.push(v);
            }
        }
        if vars.len() > MAX_SUPPORT || work > TOTAL_WORK {
            continue;
        }
        // The joint cone, in topological order.
        cone.clear();
        let mut stack = vec![n, m as usize];
        while let Some(x) = stack.pop() {
            if mark[x] || vars.contains(&net.node_sig[x]) {
                continue;
            }
            mark[x] = true;
            cone.push(x);
            for f in &net.nodes[x].fanins {
                if let Fanin::Sig(t) = *f {
                    if let Some(y) = net.node_of(t) {
                        stack.push(y);
                    }
                }
            }
        }
        cone.iter().for_each(|&x| mark[x] = false);
        cone.sort_unstable();
        let words = ((1usize << vars.len()) / 64).max(1);
        if cone.len() * words > PROOF_WORK {
            continue;
        }
        work += cone.len() * words;
        let mut same = true;
        for w in 0..words {
            for (j, &v) in vars.iter().enumerate() {
                vals[v as usize] = exhaustive_word(j, w);
            }
            for &x in &cone {
                let node = &net.nodes[x];
                scratch.clear();
                scratch.extend(node.fanins.iter().map(|f| fanin_word(f, &vals)));
                vals[net.node_sig[x] as usize] = eval(node.func, &scratch);
            }
            let mask = if vars.len() >= 6 {
                u64::MAX
            } else {
                (1u64 << (1 << vars.len())) - 1
            };
            let d = vals[s] ^ vals[t] ^ if complement { u64::MAX } else { 0 };
            if d & mask != 0 {
                same = false;
                break;
            }
        }
        if same {
            *slot = Some((m, complement));
        }
    }
    out
}
