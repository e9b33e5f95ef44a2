//! Cuts (up to four leaves with the node's truth table over them), their
//! enumeration from the fanins' cuts, and their cost in instructions and
//! levels.

use super::*;
use ptx_ir::lut::apply64;

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
    pub(super) fn eval(self, x: [u64; 4]) -> u64 {
        match self {
            Emitted::Lut(l) => apply64(x[0], x[1], x[2], l),
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

/// The cuts of every signal, in one buffer: signal `s`'s are
/// `all[start[s]..start[s + 1]]`, its trivial cut first. Signals are
/// added in order.
pub(super) struct CutSets {
    all: Vec<Cut>,
    start: Vec<u32>,
}

impl CutSets {
    pub(super) fn with_capacity(signals: usize) -> Self {
        let mut start = Vec::with_capacity(signals + 1);
        start.push(0);
        CutSets {
            all: Vec::with_capacity(signals * (MAX_CUTS + 2)),
            start,
        }
    }

    /// Adds the cuts of the next signal.
    pub(super) fn push(&mut self, cuts: &[Cut]) {
        self.all.extend_from_slice(cuts);
        self.start.push(self.all.len() as u32);
    }

    pub(super) fn of(&self, s: usize) -> &[Cut] {
        &self.all[self.start[s] as usize..self.start[s + 1] as usize]
    }
}

/// Buffers [`enumerate`] reuses from node to node.
#[derive(Default)]
pub(super) struct EnumScratch {
    /// The leaf signature of each cut found so far, so that most
    /// comparisons between cuts (duplicates, dominance) take one word test.
    out_sig: Vec<u64>,
    /// The leaf signature of each cut of each fanin.
    sigs: [Vec<u64>; 3],
    kept: Vec<Cut>,
}

/// The cut of no leaves a constant fanin contributes.
const CONST_CUT: [Cut; 1] = [Cut {
    leaves: [0; 4],
    n: 0,
    tt: 0,
    extra: 0,
}];

/// All cuts of node `n` from its fanins' cuts (trivial cut first), into
/// `out` (cleared first).
pub(super) fn enumerate(
    net: &Network,
    cuts: &CutSets,
    n: usize,
    scratch: &mut EnumScratch,
    out: &mut Vec<Cut>,
) {
    let node = &net.nodes[n];
    let me = net.node_sig[n];
    let arity = node.fanins.len();
    let mut consts: [Option<u8>; 3] = [None; 3];
    let mut own = [Cut::trivial(0); 3];
    let mut absorbed = [true; 3];
    for (k, x) in node.fanins.iter().enumerate() {
        match *x {
            Fanin::Const(c) => consts[k] = Some(c),
            Fanin::Sig(s) => {
                if !net.node_of(s).is_some_and(|m| absorbable(net, m, n)) {
                    own[k] = Cut::trivial(s);
                    absorbed[k] = false;
                }
            }
        }
    }
    let mut lists: [&[Cut]; 3] = [&[]; 3];
    for (k, x) in node.fanins.iter().enumerate() {
        lists[k] = match *x {
            Fanin::Const(_) => &CONST_CUT,
            Fanin::Sig(s) if absorbed[k] => cuts.of(s as usize),
            Fanin::Sig(_) => std::slice::from_ref(&own[k]),
        };
    }
    out.clear();
    out.push(Cut::trivial(me));
    let out_sig = &mut scratch.out_sig;
    out_sig.clear();
    out_sig.push(out[0].leaf_sig());
    // One bit per leaf (modulo 64): more than four bits set in the union of
    // the picked cuts' signatures means more than four leaves, so most
    // combinations that do not fit are rejected without building a union.
    for k in 0..arity {
        let sigs = &mut scratch.sigs[k];
        sigs.clear();
        if consts[k].is_some() {
            sigs.push(0);
        } else {
            sigs.extend(lists[k].iter().map(Cut::leaf_sig));
        }
    }
    let sigs = &scratch.sigs;
    let mut pick = [0usize; 3];
    'product: loop {
        let sig = (0..arity).fold(0u64, |a, k| a | sigs[k][pick[k]]);
        // The union of the picked cuts' leaves, if it fits.
        let mut union = [0u32; 8];
        let mut len = 0;
        let mut fits = sig.count_ones() <= 4;
        for k in 0..arity {
            if !fits {
                break;
            }
            if consts[k].is_some() {
                continue;
            }
            for &leaf in lists[k][pick[k]].leaves() {
                if !union[..len].contains(&leaf) {
                    union[len] = leaf;
                    len += 1;
                }
            }
            if len > 4 {
                fits = false;
            }
        }
        if fits {
            let union = &mut union[..len];
            union.sort_unstable();
            let mut t = [0u16; 3];
            for k in 0..arity {
                t[k] = match consts[k] {
                    Some(c) => u16::from(c) * 0x0101,
                    None => over(&lists[k][pick[k]], union),
                };
            }
            let tt = match node.func {
                Func::And => t[0] & t[1],
                Func::Or => t[0] | t[1],
                Func::Xor => t[0] ^ t[1],
                Func::Not => !t[0],
                Func::Lut(l) => lut3(t[0], t[1], t[2], l),
            };
            let mut leaves = [0u32; 4];
            leaves[..len].copy_from_slice(union);
            let c = reduce(Cut {
                leaves,
                n: len as u8,
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
        for k in 0..arity {
            pick[k] += 1;
            if pick[k] < sigs[k].len() {
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
    let kept = &mut scratch.kept;
    kept.clear();
    kept.extend(
        out[1..]
            .iter()
            .zip(&out_sig[1..])
            .filter(|(c, &cs)| !dominated(c, cs))
            .map(|(c, _)| *c),
    );
    out.truncate(1);
    out.extend_from_slice(kept);
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
