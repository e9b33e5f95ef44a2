//! Restructuring in area mode (ABC's `dc2`): a script ([`SCRIPT`]) of
//! balancing, rewriting and refactoring steps.
//!
//! Refactoring (ABC's `drf`, area-oriented): a gate's cone is collapsed
//! into its truth table and rebuilt as a factored form ([`super::sop`])
//! when that takes fewer gates than the cone frees. The cone is the
//! gate's fanout-free cone (at most [`MFFC_LEVELS`] levels deep) when
//! that has at most [`CUT_LEAVES`] inputs; when it has more, or its form
//! does not win, the cone of the reconvergence-driven cut (the leaf
//! whose expansion widens the cut least, the deepest first, while within
//! [`CUT_LEAVES`]) is tried too.
//!
//! The XAIG is rebuilt in topological order into a new one: a gate is
//! either copied (its fanins' new literals, structurally hashed) or, when
//! its refactored form wins, replaced by that form over its cut leaves'
//! new literals. What a form costs is counted against the new XAIG as it
//! stands (gates it already has are free, unless they are copies of gates
//! the replacement frees); what it saves is the gate's maximum fanout-free
//! cone within the cut (the gates only it reads), with reference counts
//! kept up to date as replacements free gates. A cone stops at a gate
//! replaced earlier in the pass (its source fanins no longer compute it),
//! and a form that rebuilds the gate as it was is no replacement. Several passes run, the
//! later ones also taking replacements that save nothing (a different
//! structure is what the next pass and the mapper feed on), as ABC's
//! `drf -z` does. Depth is not bounded here: the mapper's required times
//! and the caller's checks bound it.
//!
//! Rewriting (ABC's `drw`) is the same step over each gate's cuts of at
//! most four leaves ([`SMALL_CUTS`] of them, enumerated on the XAIG the
//! step starts from, the smallest first), the first whose factored form
//! wins taken. ABC looks its cuts up in a library of optimal structures;
//! a factored form with its `xor`s split off is what we have instead.
//! Its cones reach through gates other gates read too, which is where
//! it finds what refactoring's fanout-free cones cannot; alternating the
//! two (with balancing between) is what made `dc2`'s output map well.
//!
//! **Invariants.** Every root of the result computes the same function of
//! the inputs as the corresponding root of the input; inputs keep their
//! signals (`Gate::Input`); the result holds only gates the roots reach.

use super::aig::*;
use super::balance::NONE;
use super::sop::{self, Expr};
use smallvec::SmallVec;

/// Cut leaves at most.
const CUT_LEAVES: usize = 12;
/// Gates a cone may have.
const MAX_CONE: usize = 50;
/// Levels a fanout-free cone may reach below its root.
const MFFC_LEVELS: u32 = 10;
/// Cubes a cover may have before the gate is left alone.
const MAX_CUBES: usize = 128;

/// One step of a restructuring script.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Step {
    /// Balancing ([`super::balance`]), kept whole.
    Balance,
    /// Rewriting over cuts of at most four leaves (ABC's `drw`); with
    /// `zero_cost`, replacements that save nothing are taken too (`-z`).
    Rewrite { zero_cost: bool },
    /// Refactoring over the fanout-free and the reconvergence-driven cut
    /// (ABC's `drf`), `zero_cost` as for rewriting.
    Refactor { zero_cost: bool },
}

/// The script the refactored copies run: ABC's `dc2` order in area mode
/// (no step bounds the depth), with one more rewriting and refactoring
/// round. Against four refactoring passes alone, on the circuits bench:
/// `sqrt32` 658 → 557, `prio256` 475 → 465, `int2float` 321 → 320,
/// `alu32` 961 → 974 (ABC's `dc2` output, mapped by us: 544, 497, 306,
/// 932).
pub(super) const SCRIPT: &[Step] = &[
    Step::Balance,
    Step::Rewrite { zero_cost: false },
    Step::Refactor { zero_cost: false },
    Step::Balance,
    Step::Rewrite { zero_cost: true },
    Step::Refactor { zero_cost: true },
    Step::Balance,
    Step::Rewrite { zero_cost: true },
    Step::Refactor { zero_cost: true },
    Step::Balance,
];

/// Runs `script` over the XAIG; returns the smallest XAIG a rewriting or
/// refactoring step made (a later step may grow it: balancing, equal-size
/// replacements) and its roots.
pub(super) fn restructure(src: &Aig, roots: &[Lit], script: &[Step]) -> (Aig, Vec<Lit>) {
    let mut aig = compact(src, roots);
    let mut best: Option<(Aig, Vec<Lit>)> = None;
    for &step in script {
        aig = match step {
            Step::Balance => {
                aig = balanced(aig);
                continue;
            }
            Step::Rewrite { zero_cost } => refactor_once(&aig.0, &aig.1, zero_cost, true),
            Step::Refactor { zero_cost } => refactor_once(&aig.0, &aig.1, zero_cost, false),
        };
        if best.as_ref().is_none_or(|b| aig.0.len() < b.0.len()) {
            best = Some(aig.clone());
        }
    }
    best.unwrap_or(aig)
}

/// The XAIG with every supergate balanced ([`super::balance`]), only the
/// gates its roots reach kept.
fn balanced((mut aig, roots): (Aig, Vec<Lit>)) -> (Aig, Vec<Lit>) {
    let bal = super::balance::balance(&mut aig, &roots);
    let roots: Vec<Lit> = roots
        .iter()
        .map(|&r| match bal.get(node(r)) {
            Some(&b) if b != NONE => b ^ (r & 1),
            _ => r,
        })
        .collect();
    compact(&aig, &roots)
}

/// The gates `roots` reach, copied into a fresh XAIG in their order.
fn compact(src: &Aig, roots: &[Lit]) -> (Aig, Vec<Lit>) {
    let refs = src.refs(roots);
    let mut out = Aig::new();
    let mut map = vec![FALSE; src.len()];
    for n in 1..src.len() {
        if refs[n] == 0 {
            continue;
        }
        map[n] = copy(&mut out, src.gates[n], &map);
    }
    let roots = roots.iter().map(|&r| map[node(r)] ^ (r & 1)).collect();
    (out, roots)
}

/// Gate `g` of a source XAIG rebuilt in `out` over its fanins' new
/// literals (`map`, per source gate).
fn copy(out: &mut Aig, g: Gate, map: &[Lit]) -> Lit {
    let m = |l: Lit| map[node(l)] ^ (l & 1);
    match g {
        Gate::Const => FALSE,
        Gate::Input(s) => out.input(s),
        Gate::And(a, b) => out.and(m(a), m(b)),
        Gate::Xor(a, b) => out.xor(m(a), m(b)),
        Gate::Lut(t, x) => out.lut(t, x.map(m)),
    }
}

/// Takes away the references of `n` and, transitively, of every gate
/// whose count drops to zero and that `inside` admits, until more than
/// `limit` gates are freed: the gates freed (`n` first) and how many of
/// them had their fanins' references taken (all of them unless the
/// limit stopped the walk).
fn deref_walk(
    src: &Aig,
    refs: &mut [u32],
    n: usize,
    inside: impl Fn(usize) -> bool,
    limit: usize,
) -> (Vec<u32>, usize) {
    let mut freed = vec![n as u32];
    let mut i = 0;
    while i < freed.len() && freed.len() <= limit {
        let g = freed[i] as usize;
        i += 1;
        for l in src.fanins(g) {
            let h = node(l);
            if h == 0 {
                continue;
            }
            refs[h] -= 1;
            if refs[h] == 0 && inside(h) {
                freed.push(h as u32);
            }
        }
    }
    (freed, i)
}

struct Pass<'a> {
    src: &'a Aig,
    refs: Vec<u32>,
    out: Aig,
    /// New literal of each source gate.
    map: Vec<Lit>,
    /// The source gate each output gate stands for, if any.
    origin: Vec<u32>,
    /// Stamps marking the current cone (`mark == stamp`) and cut leaves
    /// (`mark == stamp + 1`).
    mark: Vec<u32>,
    stamp: u32,
    /// Source gates replaced by a form: later cones stop at them (their
    /// source fanins are no longer what computes them).
    replaced: Vec<bool>,
    /// Per source gate, its place in the table being simulated.
    slot: Vec<u32>,
    values: Vec<u64>,
}

fn mask(l: Lit) -> u64 {
    if complemented(l) {
        u64::MAX
    } else {
        0
    }
}

/// One step over `src`: each gate, in topological order, is rewritten
/// over its small cuts (`small`) or refactored, or copied.
fn refactor_once(src: &Aig, roots: &[Lit], zero_cost: bool, small: bool) -> (Aig, Vec<Lit>) {
    let small_cuts = if small { four_cuts(src) } else { Vec::new() };
    let mut p = Pass {
        src,
        refs: src.refs(roots),
        out: Aig::new(),
        map: vec![NONE; src.len()],
        origin: vec![u32::MAX],
        mark: vec![0; src.len()],
        stamp: 0,
        replaced: vec![false; src.len()],
        slot: vec![0; src.len()],
        values: Vec::new(),
    };
    p.map[0] = FALSE;
    for n in 1..src.len() {
        if p.refs[n] == 0 {
            continue;
        }
        if matches!(src.gates[n], Gate::And(..) | Gate::Xor(..)) {
            let found = if small {
                p.try_small_cuts(n, small_cuts.get(n).map_or(&[], Vec::as_slice), zero_cost)
            } else {
                p.try_refactor(n, zero_cost)
            };
            if let Some(l) = found {
                p.replaced[n] = true;
                p.map[n] = l;
                p.note_origin(l, n);
                continue;
            }
        }
        let l = copy(&mut p.out, src.gates[n], &p.map);
        p.map[n] = l;
        p.note_origin(l, n);
    }
    let new_roots: Vec<Lit> = roots.iter().map(|&r| p.map[node(r)] ^ (r & 1)).collect();
    compact(&p.out, &new_roots)
}

impl Pass<'_> {
    fn note_origin(&mut self, l: Lit, n: usize) {
        self.origin.resize(self.out.len(), u32::MAX);
        let g = node(l);
        if g != 0 && self.origin[g] == u32::MAX {
            self.origin[g] = n as u32;
        }
    }

    fn next_stamp(&mut self) -> u32 {
        if self.stamp >= u32::MAX - 4 {
            self.mark.fill(0);
            self.stamp = 0;
        }
        self.stamp += 2;
        self.stamp
    }

    /// The refactored literal of gate `n`, when it wins (the freed cone
    /// then stays freed in the reference counts).
    fn try_refactor(&mut self, n: usize, zero_cost: bool) -> Option<Lit> {
        let stamp = self.next_stamp();
        if let Some((leaves, cone)) = self.mffc_cut(n, stamp) {
            if let Some(l) = self.try_cut(n, &leaves, &cone, stamp, zero_cost) {
                return Some(l);
            }
        }
        let stamp = self.next_stamp();
        let (leaves, cone) = self.cut(n, stamp)?;
        self.try_cut(n, &leaves, &cone, stamp, zero_cost)
    }

    /// Rewriting `n` over one of its cuts of at most four leaves (ABC's
    /// `drw`, with factored forms in place of its library): the first
    /// whose form wins.
    fn try_small_cuts(
        &mut self,
        n: usize,
        cuts: &[SmallVec<[u32; 4]>],
        zero_cost: bool,
    ) -> Option<Lit> {
        for cut in cuts {
            let stamp = self.next_stamp();
            let (inside, leaf) = (stamp, stamp + 1);
            for &g in cut {
                self.mark[g as usize] = leaf;
            }
            let mut cone: Vec<u32> = vec![n as u32];
            self.mark[n] = inside;
            let mut stack = vec![n];
            let mut valid = true;
            while let Some(g) = stack.pop() {
                for l in self.src.fanins(g) {
                    let h = node(l);
                    if h == 0 || self.mark[h] == leaf || self.mark[h] == inside {
                        continue;
                    }
                    if self.replaced[h]
                        || !matches!(self.src.gates[h], Gate::And(..) | Gate::Xor(..))
                    {
                        valid = false;
                        break;
                    }
                    self.mark[h] = inside;
                    cone.push(h as u32);
                    stack.push(h);
                }
                if !valid {
                    break;
                }
            }
            if !valid {
                continue;
            }
            cone.sort_unstable();
            let leaves: SmallVec<[u32; 16]> = cut.iter().copied().collect();
            if let Some(l) = self.try_cut(n, &leaves, &cone, stamp, zero_cost) {
                return Some(l);
            }
        }
        None
    }

    /// Refactoring `n` over a cut whose cone is marked `stamp`.
    fn try_cut(
        &mut self,
        n: usize,
        leaves: &[u32],
        cone: &[u32],
        stamp: u32,
        zero_cost: bool,
    ) -> Option<Lit> {
        if leaves.len() < 2 || cone.len() < 2 {
            return None;
        }
        // The fanout-free cone: freed when `n` is replaced.
        let freed = self.deref(n, stamp);
        if freed.len() < 2 {
            self.reref(&freed);
            return None;
        }
        // A cover of many more cubes than the gates freed cannot win
        // (and its search is what costs time on xor logic).
        let table = self.table(leaves, cone);
        let max_cubes = (2 * freed.len() + 8).min(MAX_CUBES);
        let Some(expr) = sop::factor_table(&table, leaves.len(), max_cubes) else {
            self.reref(&freed);
            return None;
        };
        // Two-input gates the form takes at most.
        let bound = expr.literals().saturating_sub(1) as usize;
        if bound > freed.len() + 4 {
            self.reref(&freed);
            return None;
        }
        let stamp_free = self.next_stamp();
        for &g in &freed {
            self.mark[g as usize] = stamp_free;
        }
        let inputs: SmallVec<[Lit; 16]> = leaves.iter().map(|&g| self.map[g as usize]).collect();
        let cost = {
            let (origin, mark, refs) = (&self.origin, &self.mark, &self.refs);
            let counted = move |g: usize| -> bool {
                let o = origin.get(g).copied().unwrap_or(u32::MAX);
                o != u32::MAX && (mark[o as usize] == stamp_free || refs[o as usize] == 0)
            };
            let mut dry = Build {
                aig: &mut self.out,
                dry: true,
                fresh: 0,
                added: 0,
                counted: &counted,
            };
            dry.expr(&expr, &inputs);
            dry.added
        };
        let saved = freed.len() as i64 - i64::from(cost);
        if saved > 0 || (zero_cost && saved == 0) {
            let start = self.out.len();
            let mut build = Build {
                aig: &mut self.out,
                dry: false,
                fresh: 0,
                added: 0,
                counted: &|_| false,
            };
            let l = build.expr(&expr, &inputs);
            // The same gate over the same fanins as the copy: nothing was
            // replaced, and later cones may still grow through `n`.
            let m = |l: Lit| self.map[node(l)] ^ (l & 1);
            let copy = match self.src.gates[n] {
                Gate::And(a, b) => self.out.and_lookup(m(a), m(b)),
                Gate::Xor(a, b) => self.out.xor_lookup(m(a), m(b)),
                _ => None,
            };
            if copy == Some(l) {
                self.reref(&freed);
                return None;
            }
            self.origin.resize(self.out.len(), u32::MAX);
            // What the new form reads stays alive: one more reference to
            // each gate it finds (new gates were counted when made). A
            // leaf's gate counts for that leaf, whatever other source gate
            // it also stands for (the deref took the leaf's references).
            let mut stack: Vec<usize> = vec![node(l)];
            let mut seen: SmallVec<[usize; 32]> = SmallVec::new();
            while let Some(g) = stack.pop() {
                if g == 0 || seen.contains(&g) {
                    continue;
                }
                seen.push(g);
                if g >= start {
                    stack.extend(self.out.fanins(g).map(node));
                } else if let Some(k) = inputs.iter().position(|&x| node(x) == g) {
                    self.refs[leaves[k] as usize] += 1;
                } else if self.origin[g] != u32::MAX {
                    self.refs[self.origin[g] as usize] += 1;
                }
            }
            return Some(l);
        }
        self.reref(&freed);
        None
    }

    /// The inputs of `n`'s fanout-free cone, when there are at most
    /// [`CUT_LEAVES`] of them, and the cone (marked `stamp`).
    fn mffc_cut(&mut self, n: usize, stamp: u32) -> Option<(SmallVec<[u32; 16]>, Vec<u32>)> {
        let src = self.src;
        // Ten levels deep at most, as ABC's `drf` bounds it.
        let floor = src.level[n].saturating_sub(MFFC_LEVELS);
        let replaced = &self.replaced;
        let logic = |g: usize| {
            matches!(src.gates[g], Gate::And(..) | Gate::Xor(..))
                && src.level[g] > floor
                && !replaced[g]
        };
        let (mut cone, walked) = deref_walk(src, &mut self.refs, n, logic, MAX_CONE);
        self.reref(&cone[..walked]);
        if walked < cone.len() {
            return None;
        }
        for &g in &cone {
            self.mark[g as usize] = stamp;
        }
        let mut leaves: SmallVec<[u32; 16]> = SmallVec::new();
        for &g in &cone {
            for l in src.fanins(g as usize) {
                let h = node(l);
                if h != 0 && self.mark[h] != stamp && self.mark[h] != stamp + 1 {
                    self.mark[h] = stamp + 1;
                    leaves.push(h as u32);
                    if leaves.len() > CUT_LEAVES {
                        return None;
                    }
                }
            }
        }
        leaves.sort_unstable();
        cone.sort_unstable();
        Some((leaves, cone))
    }

    /// The reconvergence-driven cut of `n` (the leaf whose expansion
    /// widens the cut least, the deepest first, while within
    /// [`CUT_LEAVES`]) and its cone in topological order.
    fn cut(&mut self, n: usize, stamp: u32) -> Option<(SmallVec<[u32; 16]>, Vec<u32>)> {
        let (inside, leaf) = (stamp, stamp + 1);
        let src = self.src;
        let mut leaves: SmallVec<[u32; 16]> = SmallVec::new();
        let mut cone: Vec<u32> = vec![n as u32];
        self.mark[n] = inside;
        for l in src.fanins(n) {
            let g = node(l);
            if g != 0 && self.mark[g] != leaf {
                self.mark[g] = leaf;
                leaves.push(g as u32);
            }
        }
        let replaced = &self.replaced;
        let expandable =
            |g: usize| matches!(src.gates[g], Gate::And(..) | Gate::Xor(..)) && !replaced[g];
        loop {
            let mut pick: Option<(i32, u32, usize)> = None;
            for (k, &g) in leaves.iter().enumerate() {
                let g = g as usize;
                if !expandable(g) {
                    continue;
                }
                let new = src
                    .fanins(g)
                    .filter(|&l| {
                        let m = self.mark[node(l)];
                        node(l) != 0 && m != leaf && m != inside
                    })
                    .count() as i32;
                let cost = new - 1;
                if leaves.len() as i32 + cost > CUT_LEAVES as i32 {
                    continue;
                }
                let key = (cost, u32::MAX - src.level[g], k);
                if pick.is_none_or(|b| key < b) {
                    pick = Some(key);
                }
            }
            let Some((_, _, k)) = pick else { break };
            let g = leaves.swap_remove(k) as usize;
            self.mark[g] = inside;
            cone.push(g as u32);
            for l in src.fanins(g) {
                let h = node(l);
                if h != 0 && self.mark[h] != leaf && self.mark[h] != inside {
                    self.mark[h] = leaf;
                    leaves.push(h as u32);
                }
            }
            if cone.len() >= MAX_CONE {
                break;
            }
        }
        leaves.sort_unstable();
        cone.sort_unstable();
        Some((leaves, cone))
    }

    /// The truth table of the cone's root (the last gate) over the leaves.
    fn table(&mut self, leaves: &[u32], cone: &[u32]) -> Vec<u64> {
        let words = sop::words(leaves.len());
        let values = &mut self.values;
        values.clear();
        values.resize((leaves.len() + cone.len()) * words, 0);
        for (k, &g) in leaves.iter().enumerate() {
            self.slot[g as usize] = k as u32;
            for w in 0..words {
                values[k * words + w] = ptx_ir::lut::exhaustive_word(k, w);
            }
        }
        for (i, &g) in cone.iter().enumerate() {
            self.slot[g as usize] = (leaves.len() + i) as u32;
        }
        let slot = &self.slot;
        for (i, &g) in cone.iter().enumerate() {
            let at = (leaves.len() + i) * words;
            let (a, b, xor) = match self.src.gates[g as usize] {
                Gate::And(a, b) => (a, b, false),
                Gate::Xor(a, b) => (a, b, true),
                _ => unreachable!("cones grow through and and xor only"),
            };
            let (sa, sb) = (
                slot[node(a)] as usize * words,
                slot[node(b)] as usize * words,
            );
            let (ma, mb) = (mask(a), mask(b));
            for w in 0..words {
                let (x, y) = (values[sa + w] ^ ma, values[sb + w] ^ mb);
                values[at + w] = if xor { x ^ y } else { x & y };
            }
        }
        let at = (leaves.len() + cone.len() - 1) * words;
        values[at..at + words].to_vec()
    }

    /// Dereferences the fanout-free cone of `n` within the cut (the cone's
    /// gates, marked `stamp`): the gates freed, `n` first.
    fn deref(&mut self, n: usize, stamp: u32) -> Vec<u32> {
        let mark = &self.mark;
        deref_walk(
            self.src,
            &mut self.refs,
            n,
            |h| mark[h] == stamp,
            usize::MAX,
        )
        .0
    }

    fn reref(&mut self, freed: &[u32]) {
        for &g in freed {
            for l in self.src.fanins(g as usize) {
                if node(l) != 0 {
                    self.refs[node(l)] += 1;
                }
            }
        }
    }
}

/// Builds an expression into the XAIG, or (`dry`) counts the gates it
/// would add: gates not there yet, and those `counted` says the
/// replacement frees.
struct Build<'a, 'c> {
    aig: &'a mut Aig,
    dry: bool,
    /// Placeholder gates of a dry run, numbered past the XAIG's end.
    fresh: u32,
    added: u32,
    counted: &'c dyn Fn(usize) -> bool,
}

impl Build<'_, '_> {
    fn is_fresh(&self, l: Lit) -> bool {
        node(l) >= self.aig.len()
    }

    fn new_fresh(&mut self) -> Lit {
        self.fresh += 1;
        self.added += 1;
        ((self.aig.len() as u32 + self.fresh) << 1) as Lit
    }

    fn found(&mut self, l: Lit) -> Lit {
        if (self.counted)(node(l)) {
            self.added += 1;
        }
        l
    }

    fn and(&mut self, a: Lit, b: Lit) -> Lit {
        if !self.dry {
            return self.aig.and(a, b);
        }
        if self.is_fresh(a) || self.is_fresh(b) {
            // Folded as the XAIG folds; a gate over a placeholder is new.
            return match self.aig.and_form(a, b) {
                Ok(l) => l,
                Err(_) => self.new_fresh(),
            };
        }
        match self.aig.and_lookup(a, b) {
            Some(l) => self.found(l),
            None => self.new_fresh(),
        }
    }

    fn xor(&mut self, a: Lit, b: Lit) -> Lit {
        if !self.dry {
            return self.aig.xor(a, b);
        }
        if self.is_fresh(a) || self.is_fresh(b) {
            return match self.aig.xor_form(a, b) {
                Ok(l) => l,
                Err((_, c)) => self.new_fresh() ^ u32::from(c),
            };
        }
        match self.aig.xor_lookup(a, b) {
            Some(l) => {
                let c = l & 1;
                self.found(l & !1) ^ c
            }
            None => self.new_fresh() ^ ((a ^ b) & 1),
        }
    }

    /// Balanced trees: pairs of neighbours, level by level.
    fn tree(&mut self, mut v: Vec<Lit>, xor: bool) -> Lit {
        while v.len() > 1 {
            let mut next = Vec::with_capacity(v.len().div_ceil(2));
            for pair in v.chunks(2) {
                next.push(match pair {
                    [a, b] if xor => self.xor(*a, *b),
                    [a, b] => self.and(*a, *b),
                    [a] => *a,
                    _ => unreachable!("chunks of two"),
                });
            }
            v = next;
        }
        v[0]
    }

    fn expr(&mut self, e: &Expr, inputs: &[Lit]) -> Lit {
        match e {
            Expr::Const(c) => Lit::from(*c),
            Expr::Var(k, c) => inputs[*k as usize] ^ Lit::from(*c),
            Expr::And(v) => {
                let x: Vec<Lit> = v.iter().map(|e| self.expr(e, inputs)).collect();
                self.tree(x, false)
            }
            Expr::Or(v) => {
                let x: Vec<Lit> = v.iter().map(|e| self.expr(e, inputs) ^ 1).collect();
                self.tree(x, false) ^ 1
            }
            Expr::Xor(v, c) => {
                let x: Vec<Lit> = v.iter().map(|e| self.expr(e, inputs)).collect();
                self.tree(x, true) ^ Lit::from(*c)
            }
        }
    }
}

/// Cuts of at most four leaves kept per gate.
const SMALL_CUTS: usize = 8;

/// Each gate's cuts of at most four leaves (leaves ascending, the trivial
/// cut left out), the smallest first; inputs and lop3 gates are leaves.
fn four_cuts(src: &Aig) -> Vec<Vec<SmallVec<[u32; 4]>>> {
    let mut cuts: Vec<Vec<SmallVec<[u32; 4]>>> = vec![Vec::new(); src.len()];
    for n in 1..src.len() {
        let (a, b) = match src.gates[n] {
            Gate::And(a, b) | Gate::Xor(a, b) => (node(a), node(b)),
            _ => continue,
        };
        let trivial = |g: usize| (g != 0).then(|| SmallVec::from_slice(&[g as u32]));
        let (ta, tb) = (trivial(a), trivial(b));
        let mut mine: Vec<SmallVec<[u32; 4]>> = Vec::new();
        for x in ta.iter().chain(&cuts[a]) {
            for y in tb.iter().chain(&cuts[b]) {
                let mut m = x.clone();
                if !super::exhaust::union_into(&mut m, y, 4) || m.len() < 2 {
                    continue;
                }
                if mine.iter().any(|c| c.iter().all(|v| m.contains(v))) {
                    continue;
                }
                mine.retain(|c| !m.iter().all(|v| c.contains(v)));
                mine.push(m);
            }
        }
        mine.sort_by_key(|c| c.len());
        mine.truncate(SMALL_CUTS);
        cuts[n] = mine;
    }
    cuts
}

#[cfg(test)]
mod tests {
    use super::*;

    const REFACTOR: Step = Step::Refactor { zero_cost: false };
    const REFACTOR_Z: Step = Step::Refactor { zero_cost: true };

    /// The roots' values on 64 random assignments of the inputs.
    fn simulate(aig: &Aig, roots: &[Lit], inputs: &[u64]) -> Vec<u64> {
        let mut v = vec![0u64; aig.len()];
        let lit = |v: &[u64], l: Lit| v[node(l)] ^ if complemented(l) { u64::MAX } else { 0 };
        for g in 1..aig.len() {
            v[g] = match aig.gates[g] {
                Gate::Const => 0,
                Gate::Input(s) => inputs[s as usize],
                Gate::And(a, b) => lit(&v, a) & lit(&v, b),
                Gate::Xor(a, b) => lit(&v, a) ^ lit(&v, b),
                Gate::Lut(t, x) => {
                    ptx_ir::lut::apply64(lit(&v, x[0]), lit(&v, x[1]), lit(&v, x[2]), t)
                }
            };
        }
        roots.iter().map(|&r| lit(&v, r)).collect()
    }

    fn live_gates(aig: &Aig, roots: &[Lit]) -> usize {
        let refs = aig.refs(roots);
        (1..aig.len())
            .filter(|&g| refs[g] > 0 && matches!(aig.gates[g], Gate::And(..) | Gate::Xor(..)))
            .count()
    }

    #[test]
    fn refactoring_keeps_every_root_and_shrinks_redundant_logic() {
        let mut next = super::super::xorshift(0x7ac7);
        let mut shrunk = 0;
        for _ in 0..40 {
            let mut aig = Aig::new();
            let mut lits: Vec<Lit> = (0..8).map(|s| aig.input(s)).collect();
            for _ in 0..120 {
                let pick = |x: u64| lits[(x % lits.len() as u64) as usize] ^ (x >> 32 & 1) as Lit;
                let (a, b) = (pick(next()), pick(next()));
                let l = if next().is_multiple_of(4) {
                    aig.xor(a, b)
                } else {
                    aig.and(a, b)
                };
                lits.push(l);
            }
            let roots: Vec<Lit> = lits[lits.len() - 6..].to_vec();
            let (new, new_roots) = restructure(&aig, &roots, &[REFACTOR, REFACTOR_Z, REFACTOR_Z]);
            for _ in 0..4 {
                let inputs: Vec<u64> = (0..8).map(|_| next()).collect();
                assert_eq!(
                    simulate(&aig, &roots, &inputs),
                    simulate(&new, &new_roots, &inputs)
                );
            }
            shrunk += usize::from(live_gates(&new, &new_roots) < live_gates(&aig, &roots));
        }
        assert!(shrunk > 0, "refactoring never shrank random logic");
    }

    #[test]
    fn a_common_literal_is_factored_out() {
        // (a & b) | (a & c) | (a & d): four gates as written (three `and`s
        // and an `or` of them, as `and`s of complements), `a & (b | c | d)`
        // takes three.
        let mut aig = Aig::new();
        let [a, b, c, d] = [0, 1, 2, 3].map(|s| aig.input(s));
        let (ab, ac, ad) = (aig.and(a, b), aig.and(a, c), aig.and(a, d));
        let or1 = aig.and(ab ^ 1, ac ^ 1) ^ 1;
        let root = aig.and(or1 ^ 1, ad ^ 1) ^ 1;
        assert_eq!(live_gates(&aig, &[root]), 5);
        // The first pass factors the inner `or` (a cone stops at a gate
        // replaced before it), the second the whole.
        let (new, roots) = restructure(&aig, &[root], &[REFACTOR, REFACTOR_Z]);
        assert_eq!(live_gates(&new, &roots), 3);
    }
}
