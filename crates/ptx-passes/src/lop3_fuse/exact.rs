//! Exact synthesis: the fewest `lop3`s (that the search finds within its
//! budget) that compute a function of four to
//! [`MAX_INPUTS`] inputs, found by SAT (the single-selection-variable
//! encoding of Knuth, TAOCP 7.1.2, and Haaswijk et al., "SAT-based exact
//! synthesis", 2020), and cached by NPN class ([`super::npn`]).
//!
//! A network of `r` steps is asked for, each step a three-input LUT over
//! earlier signals. Variables: per step, one selection variable per
//! fanin triple (exactly one true), the LUT's table bits, and its value
//! on every row of the truth table; the last step's values are the
//! function's. Every step is normal (0 on the all-zero row; a reader's
//! table absorbs the complement), so row 0 drops out; a function that is 1
//! there is synthesised complemented and its last table inverted. Each
//! step but the last must be read by a later one.
//!
//! **Search.** From the size the heuristic synthesiser ([`super::synth`])
//! gets for the canonical form, one step fewer at a time, while the
//! solver finds a network within [`CONFLICTS`] conflicts; the smallest
//! found is kept (it is optimal when the next query was refuted, not only
//! out of conflicts). The result depends on the canonical table alone, so
//! the process-wide cache cannot make output depend on the order in which
//! threads ask.
//!
//! **Invariants.** A returned network computes the function on every row
//! (checked before it is cached) and has fewer gates than the heuristic
//! network of the function's canonical form.

use super::memo::Memo;
use super::npn::{self, Canon};
use super::sat::Budget;
use super::synth::{Gate, Network};
use batsat::{lbool, Lit, Solver, SolverInterface, SolverOpts};

/// Inputs a function may have.
pub(super) const MAX_INPUTS: usize = 6;
/// Steps a network of `inputs` inputs may have: larger queries are not
/// asked (the encoding grows with steps cubed times rows, and on random
/// six-input functions no query of more steps succeeded in time).
fn max_steps(inputs: usize) -> usize {
    if inputs <= 5 {
        7
    } else {
        5
    }
}
/// Conflicts one query may spend.
const CONFLICTS: u64 = 10_000;
/// Cached classes at most.
const CACHE_SIZE: usize = 1 << 16;

/// Per canonical form (inputs, table): the gates of its smallest network
/// over the canonical inputs, output last, or `None` when exact synthesis
/// found nothing smaller than the heuristic.
pub(super) static NETWORKS: Memo<(usize, u64), Option<Vec<Gate>>> =
    Memo::new(CACHE_SIZE, usize::MAX);

/// A network of fewer `lop3`s than [`super::synth`] finds for the NPN
/// canonical form of `table` (a function of `inputs` inputs, its `2^inputs`
/// rows repeated over the word), if exact synthesis finds one; callers
/// compare it with their own network.
pub(super) fn synthesize(inputs: usize, table: u64) -> Option<Network> {
    // Three inputs or fewer are one LUT already.
    if !(4..=MAX_INPUTS).contains(&inputs) {
        return None;
    }
    let canon = npn::canon(table, inputs);
    let key = (inputs, canon.table);
    let gates = match NETWORKS.get(&key) {
        Some(g) => g,
        None => {
            let g = search(inputs, canon.table);
            NETWORKS.insert(key, g.clone(), 0);
            g
        }
    }?;
    Some(from_canonical(inputs, &gates, &canon))
}

/// The smallest network found for the canonical `table`, if smaller than
/// the heuristic one.
fn search(inputs: usize, table: u64) -> Option<Vec<Gate>> {
    let heuristic = super::synth::synthesize(inputs, &[vec![table]], &[u32::MAX], 1, None)?.cost();
    // Each step adds at most two inputs to the support.
    let lower = (inputs - 1).div_ceil(2);
    let mut best = None;
    let mut steps = heuristic.checked_sub(1)?.min(max_steps(inputs));
    while steps >= lower.max(1) {
        match solve(inputs, table, steps) {
            Some(gates) => {
                best = Some(gates);
                steps -= 1;
            }
            None => break,
        }
    }
    best
}

/// A literal of the encoding, or a value known when it is built (an
/// input's value on a row, the function's on the last step).
#[derive(Clone, Copy)]
enum Term {
    Lit(Lit),
    Const(bool),
}

impl Term {
    fn not(self) -> Term {
        match self {
            Term::Lit(l) => Term::Lit(!l),
            Term::Const(b) => Term::Const(!b),
        }
    }
}

/// Adds the clause of `terms`, unless one of them is true.
fn clause(solver: &mut Solver<Budget>, terms: &[Term], buf: &mut Vec<Lit>) {
    buf.clear();
    for t in terms {
        match *t {
            Term::Const(true) => return,
            Term::Const(false) => {}
            Term::Lit(l) => buf.push(l),
        }
    }
    solver.add_clause_reuse(buf);
}

/// A network of exactly `steps` LUTs for `table`, if the solver finds one
/// within [`CONFLICTS`].
fn solve(inputs: usize, table: u64, steps: usize) -> Option<Vec<Gate>> {
    let rows = 1usize << inputs;
    let complement = table & 1 == 1;
    let target = if complement { !table } else { table };
    let mut solver = Solver::new(SolverOpts::default(), Budget::default());
    let var = |s: &mut Solver<Budget>| Lit::new(s.new_var_default(), true);
    // Values: value[i][t] of step i on row t (row 0 is 0 for every step).
    let mut value: Vec<Vec<Term>> = Vec::with_capacity(steps);
    for i in 0..steps {
        let row: Vec<Term> = (0..rows)
            .map(|t| {
                if t == 0 {
                    Term::Const(false)
                } else if i + 1 == steps {
                    Term::Const((target >> t) & 1 == 1)
                } else {
                    Term::Lit(var(&mut solver))
                }
            })
            .collect();
        value.push(row);
    }
    let signal = |value: &[Vec<Term>], s: usize, t: usize| -> Term {
        if s < inputs {
            Term::Const((t >> s) & 1 == 1)
        } else {
            value[s - inputs][t]
        }
    };
    // Table bits 1..8 (bit 0 is 0: steps are normal).
    let tables: Vec<[Lit; 8]> = (0..steps)
        .map(|_| {
            let mut b = [Lit::new(solver.new_var_default(), true); 8];
            for l in b.iter_mut().skip(1) {
                *l = var(&mut solver);
            }
            b
        })
        .collect();
    let mut buf = Vec::new();
    let mut selections: Vec<Vec<([u32; 3], Lit)>> = Vec::with_capacity(steps);
    for (i, bits) in tables.iter().enumerate() {
        let avail = inputs + i;
        let mut sel = Vec::new();
        for a in 0..avail {
            for b in a + 1..avail {
                for c in b + 1..avail {
                    sel.push(([a as u32, b as u32, c as u32], var(&mut solver)));
                }
            }
        }
        // Exactly one triple.
        let all: Vec<Term> = sel.iter().map(|&(_, s)| Term::Lit(s)).collect();
        clause(&mut solver, &all, &mut buf);
        for x in 0..sel.len() {
            for y in x + 1..sel.len() {
                clause(
                    &mut solver,
                    &[Term::Lit(!sel[x].1), Term::Lit(!sel[y].1)],
                    &mut buf,
                );
            }
        }
        // The step's value on every row, given its fanins'.
        for &(fanins, s) in &sel {
            for t in 1..rows {
                let f = fanins.map(|x| signal(&value, x as usize, t));
                let out = value[i][t];
                for (p, &bit) in bits.iter().enumerate() {
                    // Fanins equal to pattern p: their literals that say
                    // otherwise.
                    let mismatch = |k: usize| {
                        let bit = (p >> (2 - k)) & 1 == 1;
                        if bit {
                            f[k].not()
                        } else {
                            f[k]
                        }
                    };
                    let (m0, m1, m2) = (mismatch(0), mismatch(1), mismatch(2));
                    if p == 0 {
                        clause(
                            &mut solver,
                            &[Term::Lit(!s), m0, m1, m2, out.not()],
                            &mut buf,
                        );
                    } else {
                        let bit = Term::Lit(bit);
                        clause(
                            &mut solver,
                            &[Term::Lit(!s), m0, m1, m2, out.not(), bit],
                            &mut buf,
                        );
                        clause(
                            &mut solver,
                            &[Term::Lit(!s), m0, m1, m2, out, bit.not()],
                            &mut buf,
                        );
                    }
                }
            }
        }
        selections.push(sel);
    }
    // Every step but the last is read.
    for i in 0..steps.saturating_sub(1) {
        let me = (inputs + i) as u32;
        let readers: Vec<Term> = selections[i + 1..]
            .iter()
            .flatten()
            .filter(|(f, _)| f.contains(&me))
            .map(|&(_, s)| Term::Lit(s))
            .collect();
        clause(&mut solver, &readers, &mut buf);
    }
    solver.cb_mut().limit = CONFLICTS;
    if solver.solve_limited(&[]) != lbool::TRUE {
        return None;
    }
    let mut gates = Vec::with_capacity(steps);
    for (i, sel) in selections.iter().enumerate() {
        let &(fanins, _) = sel
            .iter()
            .find(|(_, s)| solver.value_lit(*s) == lbool::TRUE)?;
        let mut t = 0u8;
        for (p, &bit) in tables[i].iter().enumerate().skip(1) {
            if solver.value_lit(bit) == lbool::TRUE {
                t |= 1 << p;
            }
        }
        gates.push(Gate { fanins, table: t });
    }
    if complement {
        gates.last_mut()?.table ^= 0xFF;
    }
    let net = Network {
        inputs,
        gates: gates.clone(),
        outputs: vec![((inputs + steps - 1) as u32, false)],
    };
    (net.eval()[0][0] == table).then_some(gates)
}

/// Complements fanin `k` (0 is `a`, the table's high bit) of a table.
fn complement_fanin(table: u8, k: usize) -> u8 {
    let d = 1usize << (2 - k);
    (0..8).fold(0u8, |acc, p| acc | (((table >> (p ^ d)) & 1) << p))
}

/// The network over the original inputs, from one over the canonical
/// ones.
fn from_canonical(inputs: usize, gates: &[Gate], canon: &Canon) -> Network {
    let tr = &canon.transform;
    // Canonical input k is original input m, complemented if neg[m].
    let mut original = [0u32; 6];
    for m in 0..inputs {
        original[tr.pos[m] as usize] = m as u32;
    }
    let mut out: Vec<Gate> = gates
        .iter()
        .map(|g| {
            let mut gate = *g;
            for k in 0..3 {
                let f = g.fanins[k] as usize;
                if f < inputs {
                    let m = original[f];
                    gate.fanins[k] = m;
                    if tr.neg[m as usize] {
                        gate.table = complement_fanin(gate.table, k);
                    }
                }
            }
            gate
        })
        .collect();
    if tr.output {
        if let Some(last) = out.last_mut() {
            last.table ^= 0xFF;
        }
    }
    Network {
        inputs,
        outputs: vec![((inputs + out.len() - 1) as u32, false)],
        gates: out,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn heuristic(inputs: usize, t: u64) -> usize {
        super::super::synth::synthesize(inputs, &[vec![t]], &[u32::MAX], 1, None)
            .unwrap()
            .cost()
    }

    #[test]
    fn networks_compute_their_function() {
        let mut next = super::super::xorshift(0xC0FF_EE12_3456_789B);
        let mut smaller = 0;
        for n in 3..=5 {
            for _ in 0..12 {
                let t = npn::repeat(next(), n);
                if let Some(net) = synthesize(n, t) {
                    assert_eq!(net.eval()[0][0], t, "n = {n}, t = {t:#x}");
                    assert!(net.cost() < heuristic(n, npn::canon(t, n).table));
                    smaller += 1;
                }
            }
        }
        assert!(smaller > 0, "exact synthesis never beat the heuristic");
    }

    /// Timing and gains on random functions: `cargo test --release -p
    /// ptx-passes exact_survey -- --ignored --nocapture`.
    #[test]
    #[ignore]
    fn exact_survey() {
        let mut next = super::super::xorshift(0x5EED_0000_0000_0001);
        for n in 3..=6 {
            let start = std::time::Instant::now();
            let (mut h, mut e) = (0, 0);
            for _ in 0..20 {
                let t = npn::repeat(next(), n);
                let c = npn::canon(t, n).table;
                let hc = heuristic(n, c);
                h += hc;
                e += synthesize(n, t).map_or(hc, |net| net.cost());
            }
            eprintln!("n={n}: heuristic {h}, exact {e}, {:?}", start.elapsed());
        }
    }

    #[test]
    fn known_optima() {
        // Five-input parity: two LUTs; the heuristic may already get it.
        let x = |k| npn::var(k);
        let parity5 = x(0) ^ x(1) ^ x(2) ^ x(3) ^ x(4);
        let best = synthesize(5, parity5).map_or(heuristic(5, parity5), |n| n.cost());
        assert_eq!(best, 2, "parity of five in {best} LUTs");
        // Majority of five: (a+b+c+d+e >= 3).
        let mut maj = 0u64;
        for r in 0..64u64 {
            if (r & 31).count_ones() >= 3 {
                maj |= 1 << r;
            }
        }
        let best = synthesize(5, maj).map_or(heuristic(5, maj), |n| n.cost());
        assert!(best <= 4, "majority of five in {best} LUTs");
    }

    #[test]
    fn a_complemented_input_is_folded_into_the_table() {
        for t in 0..=255u8 {
            for k in 0..3 {
                let u = complement_fanin(t, k);
                assert_eq!(complement_fanin(u, k), t);
                for p in 0..8usize {
                    let q = p ^ (1 << (2 - k));
                    assert_eq!((u >> p) & 1, (t >> q) & 1);
                }
            }
        }
    }
}
