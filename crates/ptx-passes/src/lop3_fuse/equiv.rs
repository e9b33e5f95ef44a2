//! Functional reduction (ABC's `fraig`): nodes that compute the same
//! function as an earlier node, or its complement, are found by
//! simulation signatures and proved with SAT ([`super::sat`]).
//!
//! The network is not changed: a proved node `n ≡ m` (or `¬m`) gets, in
//! the mapper, the cuts of `m` (complemented) and the one-leaf cut `{m}`
//! as well as its own, so the cover may compute it from `m`'s logic and
//! drop its own cone. Both are put in one piece (so they are rewritten
//! and checked together), and the check still simulates every node's own
//! instruction, so a wrong equivalence could not survive it.
//!
//! **Signatures.** Every signal is simulated on [`WORDS`] words of random
//! inputs. A refuted candidate yields a counterexample, written into one
//! bit of the current refinement word (words `WORDS / 4..`, in turn) and
//! simulated through the whole network, so that later nodes are split
//! from classes they only seemed to share. Classes are hashed on every
//! word but the current refinement word, which is compared when a
//! candidate is picked; the table is rebuilt when that word moves on.
//! A node whose signature is constant is first asked to be constant: the
//! counterexample makes its signature non-constant (a proved constant is
//! left to the truth tables when its cut sees it).
//!
//! **Small supports.** A query over at most twelve inputs is answered by
//! simulating both cones on every assignment ([`super::exhaust`]), for
//! the original nodes: exact, and on the xor-rich logic of S-boxes far
//! cheaper than SAT. Synthetic nodes keep SAT's short budgets: merging
//! every equivalence it cannot prove quickly cost LUTs on the S-box suite
//! (AES 295 → 365).
//!
//! **Cache.** A module repeats its kernels, and a reduction depends on the
//! network's structure alone (leaves are free variables, whatever their
//! register or immediate), so results are kept per process by that
//! structure ([`structure`]; networks of 64 to 50,000 nodes, at most 256
//! entries and about 32 MB).
//!
//! **Cost.** Candidates come in topological order and are proved in one
//! incremental solver whose clauses cover only the cones queried; a node
//! proved equal to an earlier one is encoded as that node, so proofs
//! further up are short. Each query stops after [`QUERY_CONFLICTS`]
//! conflicts, a node tries at most [`TRIES`] candidates, the stage stops
//! refining after [`MAX_COUNTEREXAMPLES`] and proving after
//! [`TOTAL_CONFLICTS`] or [`TOTAL_PROPAGATIONS`], and the solver is
//! started afresh when it holds [`RECYCLE_VARS`] variables (a model
//! assigns every one).
//!
//! Only unguarded nodes take part (a guarded node's value depends on its
//! old value); guarded nodes count as inputs.

use super::exhaust::{Exhaust, Verdict};
use super::memo::Memo;
use super::sat::{Answer, Cnf};
use super::*;
use smallvec::SmallVec;

/// Simulation words (of 64 vectors) per signal.
const WORDS: usize = REFINE_FROM + 30;
/// Words `REFINE_FROM..WORDS` take counterexamples, one bit each, in turn.
const REFINE_FROM: usize = 4;
/// Counterexamples the stage takes at most.
const MAX_COUNTEREXAMPLES: usize = (WORDS - REFINE_FROM) * 64;
/// Candidates one node is compared with at most.
const TRIES: usize = 3;
/// Conflicts one SAT query may take.
const QUERY_CONFLICTS: u64 = 300;
/// Conflicts all queries of one network may take.
const TOTAL_CONFLICTS: u64 = 200_000;
/// The budgets of synthetic nodes: one candidate each.
const SYNTHETIC_QUERY_CONFLICTS: u64 = 50;
const SYNTHETIC_TOTAL_CONFLICTS: u64 = 20_000;
const SYNTHETIC_COUNTEREXAMPLES: usize = 256;
/// Propagations all queries of one network may take: on deep logic over
/// few inputs (a 100,000-node random network over four words) every cone
/// is most of the network, and each model assigns all of it, so queries
/// cost by their size rather than by their conflicts.
const TOTAL_PROPAGATIONS: u64 = 20_000_000;
/// Solver size at which it is started afresh.
const RECYCLE_VARS: u32 = 3000;

/// Signatures of every signal, `WORDS` words each.
struct Sim {
    words: Vec<u64>,
}

impl Sim {
    /// Recomputes the words `ks` of every node from the leaves' words,
    /// node by node (a node's words are adjacent).
    fn simulate(&mut self, net: &Network, ks: std::ops::Range<usize>) {
        for s in 0..net.sigs.len() {
            let Sig::Node(n) = net.sigs[s] else { continue };
            let node = &net.nodes[n as usize];
            if node.guard.is_some() {
                continue;
            }
            for k in ks.clone() {
                let words = &self.words;
                self.words[s * WORDS + k] = node.eval(|t| words[t as usize * WORDS + k]);
            }
        }
    }

    fn sig(&self, s: usize) -> &[u64] {
        &self.words[s * WORDS..(s + 1) * WORDS]
    }
}

/// The class key of a signature: a hash of every word but `skip`,
/// complemented so that the first vector is 0.
fn key(sig: &[u64], skip: usize) -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let flip = if sig[0] & 1 == 1 { u64::MAX } else { 0 };
    let mut h = rustc_hash::FxBuildHasher.build_hasher();
    for (k, &w) in sig.iter().enumerate() {
        if k != skip {
            h.write_u64(w ^ flip);
        }
    }
    h.finish()
}

/// Whether two signatures are equal, or complements when `complement`.
fn same(a: &[u64], b: &[u64], complement: bool) -> bool {
    let c = if complement { u64::MAX } else { 0 };
    a.iter().zip(b).all(|(x, y)| x ^ c == *y)
}

/// A node's function and fanins, each fanin named by its class head (or
/// leaf) and polarity; the constant fanins are `u32::MAX`.
type Shape = (Func, [(u32, bool); 3]);

/// The structural-hashing key of node `n` over the merges so far, and
/// the polarity the node has relative to it (xor and not take their
/// fanins' complements out).
fn shape(
    net: &Network,
    n: usize,
    out: &[Option<(u32, bool)>],
    consts: &[Option<bool>],
) -> (Shape, bool) {
    let node = &net.nodes[n];
    let mut x = [(u32::MAX, false); 3];
    for (k, f) in node.fanins.iter().enumerate() {
        x[k] = match *f {
            Fanin::Const(c) => (u32::MAX, c != 0),
            Fanin::Sig(t) => match net.node_of(t) {
                Some(m) if consts[m].is_some() => (u32::MAX, consts[m] == Some(true)),
                Some(m) => match out[m] {
                    Some((h, c)) => (net.node_sig[h as usize], c),
                    None => (t, false),
                },
                None => (t, false),
            },
        };
    }
    let mut polarity = false;
    match node.func {
        Func::Xor | Func::Not => {
            for v in &mut x[..node.fanins.len()] {
                polarity ^= v.1;
                v.1 = false;
            }
            x[..node.fanins.len()].sort_unstable();
        }
        Func::And | Func::Or => x[..2].sort_unstable(),
        Func::Lut(_) => {}
    }
    ((node.func, x), polarity)
}

/// What the functional reduction proved of each node.
#[derive(Clone)]
pub(super) struct Reduced {
    /// The earlier node it computes, and whether as the complement.
    pub(super) equiv: Vec<Option<(u32, bool)>>,
    /// The constant it always is.
    pub(super) constant: Vec<Option<bool>>,
}

/// For each node, the earlier node it is proved equivalent to (and
/// whether it is the complement), or the constant it is proved to be.
///
/// With `incremental`, only the synthetic nodes ([`super::choices`]) are
/// reduced: the original nodes keep what `net.equiv` and `net.constant`
/// hold from an earlier run (and head their classes otherwise). A node's
/// restructured version (`net.choice`) is taken as proved when it is the
/// candidate: it is equivalent by construction.
pub(super) fn equivalences(net: &Network, incremental: bool) -> Reduced {
    if !(CACHE_MIN_NODES..=CACHE_MAX_NODES).contains(&net.nodes.len()) {
        return reduce(net, incremental);
    }
    let key = structure(net, incremental);
    if let Some(hit) = REDUCTIONS.get(&key) {
        return hit;
    }
    let reduced = reduce(net, incremental);
    // Each node costs its key words and about two words of result.
    let words = key.len() + 2 * net.nodes.len();
    REDUCTIONS.insert(key, reduced.clone(), words);
    reduced
}

/// Networks smaller than this are reduced without the cache.
const CACHE_MIN_NODES: usize = 64;
/// Networks larger than this too (a repeated kernel is rarely this large,
/// and its key would hold much of the cache).
const CACHE_MAX_NODES: usize = 50_000;
/// Cached reductions at most.
const CACHE_SIZE: usize = 256;
/// Words the cache may hold (keys and results), about 32 MB.
const CACHE_WORDS: usize = 1 << 22;

/// Reductions of networks seen before in this process, by structure: a
/// module repeats its kernels (template instances, unrolled copies), and
/// the reduction of a block depends on its structure alone.
pub(super) static REDUCTIONS: Memo<Vec<u64>, Reduced> = Memo::new(CACHE_SIZE, CACHE_WORDS);

/// Everything [`reduce`] reads of `net`, as words: which signals are
/// leaves, each node's signal, function, fanins, guard and origin, and for
/// an incremental run the choices and what the original nodes hold. Every
/// leaf is a free variable to the reduction (an immediate too), so leaves
/// need no more than their position; equal keys give equal reductions.
pub(super) fn structure(net: &Network, incremental: bool) -> Vec<u64> {
    let mut key = Vec::with_capacity(2 + net.sigs.len() + 6 * net.nodes.len());
    key.push(u64::from(incremental));
    key.push(net.sigs.len() as u64);
    for sig in &net.sigs {
        key.push(match *sig {
            Sig::Leaf(_) => u64::MAX,
            Sig::Node(n) => u64::from(n),
        });
    }
    let pair =
        |e: Option<(u32, bool)>| e.map_or(u64::MAX, |(m, c)| u64::from(m) << 1 | u64::from(c));
    for (n, node) in net.nodes.iter().enumerate() {
        let func = match node.func {
            Func::And => 0u64,
            Func::Or => 1,
            Func::Xor => 2,
            Func::Not => 3,
            Func::Lut(l) => 4 | u64::from(l) << 8,
        };
        key.push(
            func | u64::from(node.guard.is_some()) << 16
                | u64::from(net.synthetic(n)) << 17
                | (node.fanins.len() as u64) << 18
                | u64::from(net.node_sig[n]) << 32,
        );
        for f in &node.fanins {
            key.push(match *f {
                Fanin::Sig(t) => u64::from(t),
                Fanin::Const(c) => 1 << 40 | u64::from(c),
            });
        }
        if incremental {
            key.push(pair(net.equiv[n]));
            key.push(net.constant[n].map_or(2, u64::from));
        }
        let choices = net.choice.get(n).map_or(&[][..], |l| &l[..]);
        key.push(choices.len() as u64);
        key.extend(choices.iter().map(|&c| pair(Some(c))));
    }
    key
}

/// [`equivalences`] without the cache.
pub(super) fn reduce(net: &Network, incremental: bool) -> Reduced {
    let nodes = net.nodes.len();
    let mut out: Vec<Option<(u32, bool)>> = vec![None; nodes];
    let mut consts: Vec<Option<bool>> = vec![None; nodes];
    let free = |n: usize| net.nodes[n].guard.is_none();
    // The free variables: leaves and guarded nodes.
    let input = |s: usize| match net.sigs[s] {
        Sig::Node(n) => !free(n as usize),
        Sig::Leaf(_) => true,
    };
    let mut next = super::xorshift(0x2545_F491_4F6C_DD1D);
    let mut sim = Sim {
        words: vec![0; net.sigs.len() * WORDS],
    };
    for s in 0..net.sigs.len() {
        if input(s) {
            for k in 0..WORDS {
                sim.words[s * WORDS + k] = next();
            }
        }
    }
    sim.simulate(net, 0..WORDS);
    // Synthetic nodes (incremental) keep SAT's short budgets: see above.
    let mut exhaust = (!incremental).then(|| Exhaust::new(net, input));
    let mut cnf = Cnf::new(net);
    let mut recycle_at = RECYCLE_VARS;
    let mut examples = 0usize;
    // The refinement word and bit the next counterexample takes.
    let word = |examples: usize| REFINE_FROM + examples / 64;
    let mut classes: FxHashMap<u64, SmallVec<[u32; 2]>> = FxHashMap::default();
    let mut heads: Vec<u32> = Vec::new();
    let mut strash: FxHashMap<Shape, (u32, bool)> = FxHashMap::default();
    for n in 0..nodes {
        if !free(n) {
            continue;
        }
        let (shape, polarity) = shape(net, n, &out, &consts);
        if incremental && !net.synthetic(n) && (net.equiv[n].is_some() || net.constant[n].is_some())
        {
            out[n] = net.equiv[n];
            consts[n] = net.constant[n];
            let head = match out[n] {
                Some((m, c)) => (m, c != polarity),
                None => (n as u32, polarity),
            };
            strash.entry(shape).or_insert(head);
            continue;
        }
        if let Some(&(m, p)) = strash.get(&shape) {
            out[n] = Some((m, p != polarity));
            continue;
        }
        if let (Func::Not, (h, _)) = (shape.0, shape.1[0]) {
            // The complement of a node (or of its class head).
            // (A guarded node is an input here: its cuts are not ours.)
            if let Some(m) = (h != u32::MAX)
                .then(|| net.node_of(h))
                .flatten()
                .filter(|&m| free(m))
            {
                out[n] = Some((m as u32, !polarity));
                // The shape (with the fanin's polarity taken out) is the
                // head's complement, whatever this node's polarity.
                strash.insert(shape, (m as u32, true));
                continue;
            }
        }
        let s = net.node_sig[n] as usize;
        let mut tries = 0;
        // Synthetic nodes are cheaper to leave unmerged (their original
        // twins are the choices): a tighter budget.
        let (tries_max, query, total, examples_max) = if incremental {
            (
                1,
                SYNTHETIC_QUERY_CONFLICTS,
                SYNTHETIC_TOTAL_CONFLICTS,
                SYNTHETIC_COUNTEREXAMPLES,
            )
        } else {
            (TRIES, QUERY_CONFLICTS, TOTAL_CONFLICTS, MAX_COUNTEREXAMPLES)
        };
        while cnf.conflicts <= total && cnf.propagations <= TOTAL_PROPAGATIONS {
            let skip = word(examples);
            let sig = sim.sig(s);
            let flip = sig[0] & 1 == 1;
            let constant = sig.iter().all(|&w| w == if flip { u64::MAX } else { 0 });
            let k = key(sig, skip);
            // A candidate: a class head whose refinement word agrees too.
            let candidate = if constant {
                None
            } else {
                classes.get(&k).and_then(|list| {
                    list.iter().copied().find(|&m| {
                        let t = sim.sig(net.node_sig[m as usize] as usize);
                        same(sig, t, flip != (t[0] & 1 == 1))
                    })
                })
            };
            if tries == tries_max || examples >= examples_max {
                if !constant && candidate.is_none() {
                    classes.entry(k).or_default().push(n as u32);
                    heads.push(n as u32);
                }
                break;
            }
            if candidate.is_none() && !constant {
                // Nothing to prove: the node heads a class (its cone is
                // encoded only when a query needs it).
                classes.entry(k).or_default().push(n as u32);
                heads.push(n as u32);
                break;
            }
            tries += 1;
            // A node's own restructured version is equivalent by
            // construction; over a small support, simulation on every
            // assignment answers exactly and at once.
            let exact = match candidate {
                None => exhaust
                    .as_mut()
                    .and_then(|e| e.decide(net, s as u32, None, flip)),
                Some(m) => {
                    let t = net.node_sig[m as usize];
                    let complement = flip != (sim.sig(t as usize)[0] & 1 == 1);
                    if net
                        .choice
                        .get(n)
                        .is_some_and(|l| l.contains(&(m, complement)))
                    {
                        Some(Verdict::Proved)
                    } else {
                        exhaust
                            .as_mut()
                            .and_then(|e| e.decide(net, s as u32, Some((t, complement)), false))
                    }
                }
            };
            let mut row = None;
            let answer = match exact {
                Some(Verdict::Proved) => Some(Answer::Proved),
                Some(Verdict::Refuted(values)) => {
                    row = Some(values);
                    Some(Answer::Refuted)
                }
                None => None,
            };
            let answer = match answer {
                Some(answer) => {
                    if let (Answer::Proved, Some(m)) = (answer, candidate) {
                        let t = net.node_sig[m as usize] as usize;
                        out[n] = Some((m, flip != (sim.sig(t)[0] & 1 == 1)));
                    }
                    answer
                }
                None => sat_query(
                    net,
                    &mut cnf,
                    &mut recycle_at,
                    &sim,
                    &mut out,
                    &consts,
                    (n, s, flip, candidate, query),
                ),
            };
            match answer {
                Answer::Proved => {
                    if candidate.is_none() {
                        consts[n] = Some(flip);
                    }
                    break;
                }
                Answer::Unknown => {
                    // Not proved: the node heads a class of its own
                    // (unless constant: then it is left out).
                    if !constant {
                        classes.entry(k).or_default().push(n as u32);
                        heads.push(n as u32);
                    }
                    break;
                }
                Answer::Refuted => {
                    let (w, bit) = (word(examples), examples % 64);
                    for leaf in 0..net.sigs.len() {
                        if !input(leaf) {
                            continue;
                        }
                        let v = match &row {
                            Some(values) => values
                                .iter()
                                .find(|&&(x, _)| x == leaf as u32)
                                .map_or_else(|| next() & 1 == 1, |&(_, v)| v),
                            None => cnf.leaf_value(leaf as u32).unwrap_or(next() & 1 == 1),
                        };
                        let slot = &mut sim.words[leaf * WORDS + w];
                        *slot = (*slot & !(1 << bit)) | (u64::from(v) << bit);
                    }
                    sim.simulate(net, w..w + 1);
                    examples += 1;
                    if word(examples) != w {
                        // The word is complete: hash it in from now on.
                        classes.clear();
                        let skip = word(examples);
                        for &h in &heads {
                            let t = net.node_sig[h as usize] as usize;
                            classes.entry(key(sim.sig(t), skip)).or_default().push(h);
                        }
                    }
                }
            }
        }
        let head = match out[n] {
            Some((m, c)) => (m, c != polarity),
            None => (n as u32, polarity),
        };
        strash.insert(shape, head);
    }
    tracing::debug!(
        target: "lop3-fuse",
        structural = strash.len(),
        merged = out.iter().filter(|e| e.is_some()).count(),
        examples,
        conflicts = cnf.conflicts,
        queries = cnf.queries,
        propagations = cnf.propagations,
        constants = consts.iter().filter(|c| c.is_some()).count(),
        "functional reduction"
    );
    Reduced {
        equiv: out,
        constant: consts,
    }
}

/// A query the exhaustive simulation could not answer, asked of SAT:
/// node `n` (signal `s`, signature polarity `flip`) against `candidate`,
/// or constant when there is none, within `query` conflicts. Records a
/// proved equivalence in `out`.
fn sat_query(
    net: &Network,
    cnf: &mut Cnf,
    recycle_at: &mut u32,
    sim: &Sim,
    out: &mut [Option<(u32, bool)>],
    consts: &[Option<bool>],
    (n, s, flip, candidate, query): (usize, usize, bool, Option<u32>, u64),
) -> Answer {
    if cnf.vars() > *recycle_at {
        // A fresh solver; the cones it needs are encoded again,
        // so the next recycling waits until it has doubled.
        cnf.restart();
        *recycle_at = u32::MAX;
    }
    let a = cnf.lit(s as u32, out, consts);
    if *recycle_at == u32::MAX {
        *recycle_at = RECYCLE_VARS.max(2 * cnf.vars());
    }
    match candidate {
        None => cnf.constant(a, flip, query),
        Some(m) => {
            let t = net.node_sig[m as usize] as usize;
            let complement = flip != (sim.sig(t)[0] & 1 == 1);
            let b = cnf.lit(t as u32, out, consts);
            let answer = cnf.equal(a, b ^ complement, query);
            if answer == Answer::Proved {
                out[n] = Some((m, complement));
            }
            answer
        }
    }
}
