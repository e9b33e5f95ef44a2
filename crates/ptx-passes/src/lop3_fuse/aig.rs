//! An and-xor-inverter graph (XAIG) of a block's free logic, the form the
//! restructuring stages ([`super::balance`]) work on before their results
//! become structural choices ([`super::choices`]).
//!
//! A literal is a gate index shifted left once, its low bit a complement.
//! Gate 0 is the constant false. Gates are two-input `and`s (either input
//! complemented), two-input `xor`s (inputs never complemented: the
//! complement moves to the output), opaque three-input LUTs (a `lop3` of
//! the input, kept as it is), and inputs (a network leaf, or a guarded
//! node, whose value depends on more than its fanins).
//!
//! **Invariants.** Gates are in topological order (a gate's fanins have
//! smaller indices); structural hashing makes every gate unique; `and`
//! folds constants, `x & x` and `x & !x`, and recognises the three-`and`
//! form of `xor` (`!(p & q) & !(!p & !q)`), so the bit-sliced netlists a
//! frontend writes as `and`/`or`/`not` show their xors.

use super::*;
use rustc_hash::FxHashMap;

pub(super) type Lit = u32;
pub(super) const FALSE: Lit = 0;
pub(super) const TRUE: Lit = 1;

pub(super) fn node(l: Lit) -> usize {
    (l >> 1) as usize
}

pub(super) fn complemented(l: Lit) -> bool {
    l & 1 == 1
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) enum Gate {
    Const,
    /// A network signal (leaf or guarded node).
    Input(u32),
    And(Lit, Lit),
    Xor(Lit, Lit),
    Lut(u8, [Lit; 3]),
}

#[derive(Clone)]
pub(super) struct Aig {
    pub(super) gates: Vec<Gate>,
    /// Logic levels (inputs at 0).
    pub(super) level: Vec<u32>,
    strash: FxHashMap<Gate, u32>,
}

/// `l` with input `k` complemented (a = 0xF0, b = 0xCC, c = 0xAA).
pub(super) fn lut_flip_input(l: u8, k: usize) -> u8 {
    let shift = 4 >> k;
    let mut r = 0u8;
    for j in 0..8 {
        if (l >> j) & 1 == 1 {
            r |= 1 << (j ^ shift);
        }
    }
    r
}

impl Aig {
    pub(super) fn new() -> Aig {
        Aig {
            gates: vec![Gate::Const],
            level: vec![0],
            strash: FxHashMap::default(),
        }
    }

    pub(super) fn len(&self) -> usize {
        self.gates.len()
    }

    fn level_of(&self, l: Lit) -> u32 {
        self.level[node(l)]
    }

    fn hash(&mut self, g: Gate) -> Lit {
        if let Some(&n) = self.strash.get(&g) {
            return n << 1;
        }
        let level = match g {
            Gate::Const | Gate::Input(_) => 0,
            Gate::And(a, b) | Gate::Xor(a, b) => 1 + self.level_of(a).max(self.level_of(b)),
            Gate::Lut(_, x) => 1 + x.iter().map(|&l| self.level_of(l)).max().unwrap_or(0),
        };
        let n = self.gates.len() as u32;
        self.gates.push(g);
        self.level.push(level);
        self.strash.insert(g, n);
        n << 1
    }

    pub(super) fn input(&mut self, sig: u32) -> Lit {
        self.hash(Gate::Input(sig))
    }

    /// The canonical form of `a & b` (constants and repeats folded, the
    /// xor pattern recognised), without creating it.
    pub(super) fn and_form(&self, a: Lit, b: Lit) -> Result<Lit, Gate> {
        let (a, b) = if a <= b { (a, b) } else { (b, a) };
        if a == FALSE {
            return Ok(FALSE);
        }
        if a == TRUE || a == b {
            return Ok(b);
        }
        if a == b ^ 1 {
            return Ok(FALSE);
        }
        Err(Gate::And(a, b))
    }

    pub(super) fn and(&mut self, a: Lit, b: Lit) -> Lit {
        match self.and_form(a, b) {
            Ok(l) => l,
            Err(Gate::And(a, b)) => {
                if complemented(a) && complemented(b) {
                    if let (Gate::And(p, q), Gate::And(r, s)) =
                        (self.gates[node(a)], self.gates[node(b)])
                    {
                        let (x, y) = if p ^ 1 <= q ^ 1 {
                            (p ^ 1, q ^ 1)
                        } else {
                            (q ^ 1, p ^ 1)
                        };
                        if (r, s) == (x, y) {
                            return self.xor(p, q);
                        }
                    }
                }
                self.hash(Gate::And(a, b))
            }
            Err(_) => unreachable!("and_form gives an and"),
        }
    }

    /// Whether `a & b` exists already (or folds to an existing literal).
    pub(super) fn and_exists(&self, a: Lit, b: Lit) -> bool {
        match self.and_form(a, b) {
            Ok(_) => true,
            Err(g) => self.strash.contains_key(&g),
        }
    }

    /// The literal of `a & b` when it folds or exists already.
    pub(super) fn and_lookup(&self, a: Lit, b: Lit) -> Option<Lit> {
        match self.and_form(a, b) {
            Ok(l) => Some(l),
            Err(g) => self.strash.get(&g).map(|&n| n << 1),
        }
    }

    /// The literal of `a ^ b` when it folds or exists already.
    pub(super) fn xor_lookup(&self, a: Lit, b: Lit) -> Option<Lit> {
        match self.xor_form(a, b) {
            Ok(l) => Some(l),
            Err((g, c)) => self.strash.get(&g).map(|&n| (n << 1) ^ u32::from(c)),
        }
    }

    /// The canonical form of `a ^ b` (inputs uncomplemented, the
    /// complement apart), without creating it.
    pub(super) fn xor_form(&self, a: Lit, b: Lit) -> Result<Lit, (Gate, bool)> {
        let c = (a ^ b) & 1 == 1;
        let (a, b) = (a & !1, b & !1);
        let (a, b) = if a <= b { (a, b) } else { (b, a) };
        if a == b {
            return Ok(u32::from(c));
        }
        if a == FALSE {
            return Ok(b ^ u32::from(c));
        }
        Err((Gate::Xor(a, b), c))
    }

    pub(super) fn xor(&mut self, a: Lit, b: Lit) -> Lit {
        match self.xor_form(a, b) {
            Ok(l) => l,
            Err((g, c)) => self.hash(g) ^ u32::from(c),
        }
    }

    pub(super) fn xor_exists(&self, a: Lit, b: Lit) -> bool {
        match self.xor_form(a, b) {
            Ok(_) => true,
            Err((g, _)) => self.strash.contains_key(&g),
        }
    }

    /// A three-input LUT of literals; complemented inputs are folded into
    /// the table, constant inputs are kept (the table sees them).
    pub(super) fn lut(&mut self, mut l: u8, mut x: [Lit; 3]) -> Lit {
        for (k, lit) in x.iter_mut().enumerate() {
            if complemented(*lit) {
                l = lut_flip_input(l, k);
                *lit ^= 1;
            }
        }
        // The output is complemented when that makes the table's first
        // row 0, so a gate and its complement hash alike.
        let c = l & 1 == 1;
        if c {
            l = !l;
        }
        self.hash(Gate::Lut(l, x)) ^ u32::from(c)
    }

    /// Fanin literals of gate `n`.
    pub(super) fn fanins(&self, n: usize) -> impl Iterator<Item = Lit> + '_ {
        let (a, k): ([Lit; 3], usize) = match self.gates[n] {
            Gate::Const | Gate::Input(_) => ([0; 3], 0),
            Gate::And(a, b) | Gate::Xor(a, b) => ([a, b, 0], 2),
            Gate::Lut(_, x) => (x, 3),
        };
        (0..k).map(move |i| a[i])
    }

    /// References of every gate from the gates reachable from `roots`,
    /// plus one per root.
    pub(super) fn refs(&self, roots: &[Lit]) -> Vec<u32> {
        let mut refs = vec![0u32; self.len()];
        let mut live = vec![false; self.len()];
        let mut stack: Vec<usize> = Vec::new();
        for &r in roots {
            refs[node(r)] += 1;
            stack.push(node(r));
        }
        while let Some(n) = stack.pop() {
            if std::mem::replace(&mut live[n], true) {
                continue;
            }
            for l in self.fanins(n) {
                refs[node(l)] += 1;
                if !live[node(l)] {
                    stack.push(node(l));
                }
            }
        }
        refs
    }
}

/// The network's free logic as an XAIG: the literal of every signal
/// (leaves, guarded nodes and nodes alike), and the literals whose values
/// the block needs (outputs and the fanins of guarded nodes).
pub(super) struct Image {
    pub(super) aig: Aig,
    pub(super) lit: Vec<Lit>,
    pub(super) roots: Vec<Lit>,
}

pub(super) fn image(net: &Network) -> Image {
    let mut aig = Aig::new();
    let mut lit: Vec<Lit> = Vec::with_capacity(net.sigs.len());
    let mut roots = Vec::new();
    let fanin = |lit: &[Lit], x: &Fanin| match *x {
        Fanin::Const(0) => FALSE,
        Fanin::Const(_) => TRUE,
        Fanin::Sig(s) => lit[s as usize],
    };
    for s in 0..net.sigs.len() {
        let l = match net.sigs[s] {
            Sig::Leaf(_) => aig.input(s as u32),
            Sig::Node(n) => {
                let node = &net.nodes[n as usize];
                if node.guard.is_some() {
                    for x in &node.fanins {
                        if let Fanin::Sig(t) = *x {
                            roots.push(lit[t as usize]);
                        }
                    }
                    aig.input(s as u32)
                } else {
                    let x: smallvec::SmallVec<[Lit; 3]> =
                        node.fanins.iter().map(|x| fanin(&lit, x)).collect();
                    match node.func {
                        Func::And => aig.and(x[0], x[1]),
                        Func::Or => aig.and(x[0] ^ 1, x[1] ^ 1) ^ 1,
                        Func::Xor => aig.xor(x[0], x[1]),
                        Func::Not => x[0] ^ 1,
                        Func::Lut(l) => aig.lut(l, [x[0], x[1], x[2]]),
                    }
                }
            }
        };
        lit.push(l);
    }
    for (n, node) in net.nodes.iter().enumerate() {
        if node.output {
            roots.push(lit[net.node_sig[n] as usize]);
        }
    }
    Image { aig, lit, roots }
}

/// The two-input function `a & b` (with the literals' complements) as a
/// three-input table over `a`, `b` (the third input ignored).
pub(super) fn and_table(ca: bool, cb: bool) -> u8 {
    let a = if ca { !0xF0u8 } else { 0xF0 };
    let b = if cb { !0xCCu8 } else { 0xCC };
    a & b
}

pub(super) fn xor_table(c: bool) -> u8 {
    if c {
        !(0xF0u8 ^ 0xCC)
    } else {
        0xF0 ^ 0xCC
    }
}
