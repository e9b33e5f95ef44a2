//! Cuts (up to four leaves with the node's truth table over them), their
//! enumeration from the fanins' cuts, and their cost in instructions and
//! levels.

use super::*;
use ptx_ir::lut::apply32;
use smallvec::{smallvec, SmallVec};

/// A cut: up to four leaf signals (ascending) and the node's function of
/// them. A four-leaf cut costs the lop3s of its decomposition.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Cut {
    pub(super) leaves: [u32; 4],
    pub(super) n: u8,
    pub(super) tt: u16,
    /// Lop3s beyond the one at the node (four-leaf cuts only).
    pub(super) extra: u8,
}

impl Cut {
    pub(super) fn leaves(&self) -> &[u32] {
        &self.leaves[..self.n as usize]
    }
    /// One bit per leaf (modulo 64): a cut whose signature has a bit
    /// another's lacks has a leaf the other lacks.
    pub(super) fn leaf_sig(&self) -> u64 {
        self.leaves().iter().fold(0u64, |a, &x| a | 1 << (x % 64))
    }
    pub(super) fn trivial(s: u32) -> Cut {
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
pub(super) enum Emitted {
    Lut(u8),
    Decomp(Decomp),
}

impl Emitted {
    pub(super) fn of(c: &Cut) -> Emitted {
        if c.n == 4 {
            Emitted::Decomp(decompose(c.tt))
        } else {
            Emitted::Lut(lut_of(c.tt, [0, 1, 2]))
        }
    }
    pub(super) fn eval(self, x: [u32; 4]) -> u32 {
        match self {
            Emitted::Lut(l) => apply32(x[0], x[1], x[2], l),
            Emitted::Decomp(d) => eval_decomp(d, x),
        }
    }
}

/// The function of the fanin `c` (a cut of it) over the leaves `union`.
pub(super) fn over(c: &Cut, union: &[u32]) -> u16 {
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
pub(super) fn reduce(mut c: Cut) -> Cut {
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
pub(super) fn enumerate(net: &Network, cuts: &[Vec<Cut>], n: usize) -> Vec<Cut> {
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
    // The leaf signature of each cut in `out`, so that most comparisons
    // between cuts (duplicates, dominance) take one word test.
    let mut out_sig: Vec<u64> = vec![out[0].leaf_sig()];
    let mut pick: SmallVec<[usize; 3]> = smallvec![0; lists.len()];
    // One bit per leaf (modulo 64): more than four bits set in the union of
    // the picked cuts' signatures means more than four leaves, so most
    // combinations that do not fit are rejected without building a union.
    let sigs: SmallVec<[SmallVec<[u64; 20]>; 3]> = lists
        .iter()
        .enumerate()
        .map(|(k, l)| {
            if consts[k].is_some() {
                smallvec![0; l.len()]
            } else {
                l.iter().map(Cut::leaf_sig).collect()
            }
        })
        .collect();
    'product: loop {
        let sig = (0..lists.len()).fold(0u64, |a, k| a | sigs[k][pick[k]]);
        // The union of the picked cuts' leaves, if it fits.
        let mut union: SmallVec<[u32; 8]> = SmallVec::new();
        let mut fits = sig.count_ones() <= 4;
        for (k, l) in lists.iter().enumerate() {
            if !fits {
                break;
            }
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
            let cs = c.leaf_sig();
            let known = out[1..]
                .iter()
                .zip(&out_sig[1..])
                .any(|(o, &os)| os == cs && o.leaves() == c.leaves());
            if !known {
                out.push(c);
                out_sig.push(cs);
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
    let dominated = |c: &Cut, cs: u64| {
        out[1..].iter().zip(&out_sig[1..]).any(|(o, &os)| {
            o.n < c.n
                && os & !cs == 0
                && o != c
                && o.leaves().iter().all(|l| c.leaves().contains(l))
        })
    };
    let keep: Vec<Cut> = out[1..]
        .iter()
        .zip(&out_sig[1..])
        .filter(|(c, &cs)| !dominated(c, cs))
        .map(|(c, _)| *c)
        .collect();
    out.truncate(1);
    out.extend(keep);
    out
}

/// Instructions cut `c` costs at node `n`: one, except that an unguarded
/// copy of a register of the same class costs nothing (uses are renamed).
pub(super) fn cut_cost(net: &Network, n: usize, c: &Cut) -> u32 {
    if is_wire(net, n, c) {
        0
    } else {
        1 + u32::from(c.extra)
    }
}

/// Levels of logic cut `c` adds at node `n`.
pub(super) fn cut_delay(net: &Network, n: usize, c: &Cut) -> u32 {
    if is_wire(net, n, c) {
        0
    } else {
        1 + u32::from(c.extra > 0)
    }
}

pub(super) fn is_wire(net: &Network, n: usize, c: &Cut) -> bool {
    c.n == 1
        && c.tt == PAT[0]
        && net.nodes[n].guard.is_none()
        && net.class[c.leaves[0] as usize].is_some()
        && net.class[c.leaves[0] as usize] == net.class[net.node_sig[n] as usize]
}
