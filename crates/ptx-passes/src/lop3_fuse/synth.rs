//! Synthesis of small multi-output functions into `lop3` networks, from
//! their truth tables (at most [`MAX_INPUTS`] inputs): the S-boxes of
//! bit-sliced ciphers and other dense logic of a few inputs, where the
//! structure a frontend wrote (a sum of products, a Shannon tree) is far
//! from the fewest `lop3`s.
//!
//! Outputs are built one after another into one pool of gates, so a later
//! output reuses what an earlier one made. A target (a function, with a
//! care set: where its value matters) is, in order of preference:
//!
//! 1. a gate of the pool, or its complement (free as a LUT input);
//! 2. one LUT over three gates of the pool (the table read off the care
//!    set, each of the eight rows constant on it);
//! 3. `lut(s, t1, t0)` over a selector `s` (an input, or a gate of the
//!    pool) and two new targets, `t1` cared for where `s` is 1 and `t0`
//!    where it is 0: each is half the problem, and the second may reuse
//!    what the first made. Every selector is tried for the cost of the
//!    two halves at one LUT of lookahead (0 or 1 or more); the best is
//!    built recursively (Shannon decomposition with don't-cares, as
//!    Dansarie's sboxgates does, greedily);
//! 4. before such a step that looks like three LUTs or more, and only
//!    some Shannon steps below an output (the caller says how many): two
//!    LUTs `lut(x, y, g)`, `g` a new LUT over three pool signals
//!    ([`Pool::find_two_luts`], within [`TWO_LUT_BUDGET`]).
//!
//! Several output orders are tried and the smallest network kept.
//!
//! **Invariants.** Every gate is a `lop3` of earlier gates or inputs; each
//! output equals its target on every row (the care set of an output is
//! everything); the tables are words of 64 rows, input `k` is bit `k` of
//! the row index, and inputs beyond the function's count are unused.

/// Inputs a function may have.
pub(super) const MAX_INPUTS: usize = 8;
/// Signals the LUT and selector searches look at.
const SEARCH_WINDOW: usize = 24;
/// Pairs of signals the two-LUT search looks at per pool (a time box: a
/// failed search over a full window takes about a million).
const TWO_LUT_BUDGET: u64 = 300_000;
/// Words of a truth table of [`MAX_INPUTS`] inputs.
const MAX_WORDS: usize = 1 << (MAX_INPUTS - 6);

/// A truth table over [`MAX_INPUTS`] inputs, as `words` words of 64 rows.
type Word = u64;

use ptx_ir::lut::exhaustive_word;
use smallvec::SmallVec;

/// A gate of the network: `lop3(a, b, c, table)` over earlier signals
/// (inputs are signals `0..inputs`, gate `g` is signal `inputs + g`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Gate {
    pub(super) fanins: [u32; 3],
    pub(super) table: u8,
}

/// A synthesised network: its gates and, per output, the signal and
/// whether it is complemented (only an output equal to an input's
/// complement is: that costs a `not`, counted in [`Network::cost`]).
#[derive(Clone, Debug)]
pub(super) struct Network {
    pub(super) inputs: usize,
    pub(super) gates: Vec<Gate>,
    pub(super) outputs: Vec<(u32, bool)>,
}

impl Network {
    /// Instructions it takes.
    pub(super) fn cost(&self) -> usize {
        self.gates.len()
    }

    /// Levels of LUTs on the longest path.
    pub(super) fn depth(&self) -> u32 {
        let mut level = vec![0u32; self.inputs];
        for g in &self.gates {
            let l = 1 + g
                .fanins
                .iter()
                .map(|&f| level[f as usize])
                .max()
                .unwrap_or(0);
            level.push(l);
        }
        self.outputs
            .iter()
            .map(|&(s, _)| level[s as usize])
            .max()
            .unwrap_or(0)
    }

    /// Evaluates every output on all rows (for checks).
    pub(super) fn eval(&self) -> Vec<Vec<Word>> {
        let words = words_for(self.inputs);
        let mut sig: Vec<Vec<Word>> = (0..self.inputs)
            .map(|k| (0..words).map(|w| exhaustive_word(k, w)).collect())
            .collect();
        for g in &self.gates {
            let v = (0..words)
                .map(|w| {
                    let [a, b, c] = g.fanins.map(|f| sig[f as usize][w]);
                    apply(a, b, c, g.table)
                })
                .collect();
            sig.push(v);
        }
        self.outputs
            .iter()
            .map(|&(s, c)| {
                sig[s as usize]
                    .iter()
                    .map(|&x| if c { !x } else { x })
                    .collect()
            })
            .collect()
    }
}

fn words_for(inputs: usize) -> usize {
    1 << inputs.saturating_sub(6)
}

/// `lop3` bitwise (a = 0xF0, b = 0xCC, c = 0xAA).
fn apply(a: Word, b: Word, c: Word, l: u8) -> Word {
    let mut r = 0;
    for row in 0..8u8 {
        if (l >> row) & 1 == 1 {
            let x = if row & 4 != 0 { a } else { !a };
            let y = if row & 2 != 0 { b } else { !b };
            let z = if row & 1 != 0 { c } else { !c };
            r |= x & y & z;
        }
    }
    r
}

/// The pool of signals a synthesis builds on.
#[derive(Clone)]
struct Pool {
    words: usize,
    /// Tables of every signal (inputs first), `words` each.
    tt: Vec<Word>,
    inputs: usize,
    gates: Vec<Gate>,
    /// Levels of every signal (inputs at 0).
    level: Vec<u32>,
    /// Breaks ties between selectors (varied per output order).
    seed: u64,
    /// Shannon steps above the target being built.
    depth: u32,
    /// Shannon depth from which a target may be two LUTs over the pool
    /// ([`Self::find_two_luts`]); `u32::MAX` for never.
    two_luts_from: u32,
    /// Pairs of signals the two-LUT search may still look at.
    budget: u64,
}

impl Pool {
    fn new(inputs: usize) -> Pool {
        let words = words_for(inputs);
        let mut tt = Vec::new();
        for k in 0..inputs {
            tt.extend((0..words).map(|w| exhaustive_word(k, w)));
        }
        Pool {
            words,
            tt,
            inputs,
            gates: Vec::new(),
            level: vec![0; inputs],
            seed: 0,
            depth: 0,
            two_luts_from: u32::MAX,
            budget: TWO_LUT_BUDGET,
        }
    }

    fn len(&self) -> usize {
        self.inputs + self.gates.len()
    }

    /// The signals a search looks at: the inputs and the most recent
    /// gates, at most [`SEARCH_WINDOW`] in all (the searches are cubic),
    /// of at most `cap` levels.
    fn window(&self, cap: u32) -> impl Iterator<Item = usize> + Clone + '_ {
        let from = self.len().saturating_sub(SEARCH_WINDOW).max(self.inputs);
        (0..self.inputs)
            .chain(from..self.len())
            .filter(move |&s| self.level[s] <= cap)
    }

    fn sig(&self, s: usize) -> &[Word] {
        &self.tt[s * self.words..(s + 1) * self.words]
    }

    fn push(&mut self, g: Gate) -> u32 {
        let w = self.words;
        for i in 0..w {
            let [a, b, c] = g.fanins.map(|f| self.tt[f as usize * w + i]);
            let v = apply(a, b, c, g.table);
            self.tt.push(v);
        }
        self.gates.push(g);
        let l = 1 + g
            .fanins
            .iter()
            .map(|&f| self.level[f as usize])
            .max()
            .unwrap_or(0);
        self.level.push(l);
        (self.len() - 1) as u32
    }

    /// A signal of at most `cap` levels equal to `t` on `care`, or its
    /// complement.
    fn find(&self, t: &[Word], care: &[Word], cap: u32) -> Option<(u32, bool)> {
        for s in (0..self.len()).filter(|&s| self.level[s] <= cap) {
            let x = self.sig(s);
            let mut eq = true;
            let mut ne = true;
            for i in 0..self.words {
                let d = (x[i] ^ t[i]) & care[i];
                eq &= d == 0;
                ne &= (!x[i] ^ t[i]) & care[i] == 0;
                if !eq && !ne {
                    break;
                }
            }
            if eq {
                return Some((s as u32, false));
            }
            if ne {
                return Some((s as u32, true));
            }
        }
        None
    }

    /// One LUT over three signals of at most `cap` levels equal to `t` on
    /// `care`: the first pair `a < b` (in window order) and third signal
    /// `c` after `b` such that, in each of the four regions where `a` and
    /// `b` are constant and `t` takes both values, `c` separates them.
    fn find_lut(&self, t: &[Word], care: &[Word], cap: u32) -> Option<Gate> {
        // Tables are 1, 2 or 4 words: fixed-size arrays, no allocation,
        // and scalars for the common one-word case (six inputs or fewer).
        match self.words {
            1 => self.find_lut_in::<1>(t, care, cap),
            2 => self.find_lut_in::<2>(t, care, cap),
            _ => self.find_lut_in::<MAX_WORDS>(t, care, cap),
        }
    }

    /// [`Self::find_lut`] for tables of `W` words.
    fn find_lut_in<const W: usize>(&self, t: &[Word], care: &[Word], cap: u32) -> Option<Gate> {
        debug_assert_eq!(self.words, W);
        let words = |s: usize| -> [Word; W] { self.sig(s).try_into().expect("W words") };
        let mut on = [0 as Word; W];
        let mut off = [0 as Word; W];
        for i in 0..W {
            on[i] = t[i] & care[i];
            off[i] = !t[i] & care[i];
        }
        let mut sigs = [0usize; MAX_INPUTS + SEARCH_WINDOW];
        let mut tables = [[0 as Word; W]; MAX_INPUTS + SEARCH_WINDOW];
        let mut n = 0;
        for s in self.window(cap) {
            sigs[n] = s;
            tables[n] = words(s);
            n += 1;
        }
        for ia in 0..n {
            let xa = tables[ia];
            for ib in ia + 1..n {
                let xb = tables[ib];
                // The regions of the pair where t is both 1 and 0.
                let mut regions = [([0 as Word; W], [0 as Word; W]); 4];
                let mut k = 0;
                for r in 0..4 {
                    let (mut o, mut f) = ([0 as Word; W], [0 as Word; W]);
                    for i in 0..W {
                        let x = if r & 2 != 0 { xa[i] } else { !xa[i] };
                        let y = if r & 1 != 0 { xb[i] } else { !xb[i] };
                        o[i] = on[i] & x & y;
                        f[i] = off[i] & x & y;
                    }
                    if o.iter().any(|&v| v != 0) && f.iter().any(|&v| v != 0) {
                        regions[k] = (o, f);
                        k += 1;
                    }
                }
                let regions = &regions[..k];
                let c = if regions.is_empty() {
                    Some(ib)
                } else {
                    (ib + 1..n).find(|&ic| {
                        let xc = &tables[ic];
                        // on inside c and off outside, or the reverse.
                        regions.iter().all(|(o, f)| {
                            (0..W).all(|i| o[i] & !xc[i] == 0 && f[i] & xc[i] == 0)
                                || (0..W).all(|i| o[i] & xc[i] == 0 && f[i] & !xc[i] == 0)
                        })
                    })
                };
                if let Some(ic) = c {
                    let x = [sigs[ia], sigs[ib], sigs[ic]];
                    return Some(Gate {
                        fanins: x.map(|s| s as u32),
                        table: self.table_of(t, care, x),
                    });
                }
            }
        }
        None
    }

    /// Two LUTs for a one-word target: `lut(x, y, g)` with `g` a new LUT
    /// over three signals, `x`, `y` of at most `cap - 1` levels and `g`'s
    /// inputs of at most `cap - 2`. In each of the four regions where `x`
    /// and `y` are constant and `t` takes both values, `g` must separate
    /// the ones from the zeros, one way or the other: each choice of ways
    /// is one target for [`Self::find_lut`]. Returns `g` and `[x, y]`.
    fn find_two_luts(&mut self, t: Word, care: Word, cap: u32) -> Option<(Gate, [usize; 2])> {
        let on = t & care;
        let off = !t & care;
        let outer: SmallVec<[usize; 32]> = self.window(cap - 1).collect();
        let inner: SmallVec<[usize; 32]> = self.window(cap - 2).collect();
        let tables: SmallVec<[Word; 32]> = inner.iter().map(|&s| self.sig(s)[0]).collect();
        for (ia, &a) in outer.iter().enumerate() {
            let xa = self.sig(a)[0];
            for &b in &outer[ia + 1..] {
                let (regions, k) = mixed_regions(on, off, xa, self.sig(b)[0]);
                // No region: a function of `a` and `b` alone, one LUT.
                if k == 0 {
                    continue;
                }
                for ways in 0..1u32 << (k - 1) {
                    if self.budget == 0 {
                        return None;
                    }
                    let mut h = 0 as Word;
                    let mut hcare = 0 as Word;
                    for (r, &(o, f)) in regions[..k].iter().enumerate() {
                        h |= if ways >> r & 1 == 1 { f } else { o };
                        hcare |= o | f;
                    }
                    let (found, work) = lut_over(&tables, h & hcare, !h & hcare);
                    self.budget = self.budget.saturating_sub(work);
                    if let Some([i, j, l]) = found {
                        let x = [inner[i], inner[j], inner[l]];
                        let table = self.table_of(&[h], &[hcare], x);
                        let g = Gate {
                            fanins: x.map(|s| s as u32),
                            table,
                        };
                        return Some((g, [a, b]));
                    }
                }
            }
        }
        None
    }

    /// The LUT over `x` equal to `t` on `care` (rows without care are 0).
    fn table_of(&self, t: &[Word], care: &[Word], x: [usize; 3]) -> u8 {
        let mut table = 0u8;
        for row in 0..8u8 {
            let hit = (0..self.words).any(|i| {
                let m = x.iter().enumerate().fold(care[i] & t[i], |m, (k, &s)| {
                    let v = self.sig(s)[i];
                    m & if row >> (2 - k) & 1 == 1 { v } else { !v }
                });
                m != 0
            });
            if hit {
                table |= 1 << row;
            }
        }
        table
    }
}

/// The regions where one-word signals `xa` and `xb` are constant and a
/// target takes both values, as (ones, zeros) of `on` and `off` there;
/// the first `k` of the four are filled.
fn mixed_regions(on: Word, off: Word, xa: Word, xb: Word) -> ([(Word, Word); 4], usize) {
    let mut regions = [(0 as Word, 0 as Word); 4];
    let mut k = 0;
    for r in 0..4 {
        let x = if r & 2 != 0 { xa } else { !xa };
        let y = if r & 1 != 0 { xb } else { !xb };
        let (o, f) = (on & x & y, off & x & y);
        if o != 0 && f != 0 {
            regions[k] = (o, f);
            k += 1;
        }
    }
    (regions, k)
}

/// Three of the one-word `tables` (indices `i < j < l`) over which a LUT
/// is 1 on `on` and 0 on `off`, and the pairs looked at.
fn lut_over(tables: &[Word], on: Word, off: Word) -> (Option<[usize; 3]>, u64) {
    let n = tables.len();
    let mut work = 0;
    for i in 0..n {
        for j in i + 1..n {
            work += 1;
            let (regions, k) = mixed_regions(on, off, tables[i], tables[j]);
            let regions = &regions[..k];
            if regions.is_empty() {
                // Constant on each region of the pair: any third input.
                let l = if j + 1 < n {
                    j + 1
                } else if i > 0 {
                    0
                } else {
                    continue;
                };
                let mut x = [i, j, l];
                x.sort_unstable();
                if x[0] != x[1] && x[1] != x[2] {
                    return (Some(x), work);
                }
                continue;
            }
            let separates = |&xc: &Word| {
                regions
                    .iter()
                    .all(|&(o, f)| (o & !xc == 0 && f & xc == 0) || (o & xc == 0 && f & !xc == 0))
            };
            if let Some(l) = tables[j + 1..].iter().position(separates) {
                return (Some([i, j, j + 1 + l]), work);
            }
        }
    }
    (None, work)
}

/// Lookahead cost of a target of at most `cap` levels: 0 in the pool, 1
/// one LUT, else 2.
fn quick_cost(pool: &Pool, t: &[Word], care: &[Word], cap: u32) -> u32 {
    if care.iter().all(|&c| c == 0) || pool.find(t, care, cap).is_some() {
        0
    } else if cap > 0 && pool.find_lut(t, care, cap - 1).is_some() {
        1
    } else {
        2
    }
}

/// Builds a signal of at most `cap` levels equal to `t` on `care` (and
/// its polarity: complemented or not).
fn build(pool: &mut Pool, t: &[Word], care: &[Word], cap: u32) -> Option<(u32, bool)> {
    if let Some(s) = pool.find(t, care, cap) {
        return Some(s);
    }
    if cap == 0 {
        return None;
    }
    if let Some(g) = pool.find_lut(t, care, cap - 1) {
        return Some((pool.push(g), false));
    }
    // Shannon on the selector whose halves look cheapest (then the
    // shallowest).
    let w = pool.words;
    let mut best: Option<(u32, u32, u64, usize)> = None;
    let mut c1 = vec![0 as Word; w];
    let mut c0 = vec![0 as Word; w];
    for s in pool.window(cap - 1) {
        let x = pool.sig(s);
        for i in 0..w {
            c1[i] = care[i] & x[i];
            c0[i] = care[i] & !x[i];
        }
        // A selector must split the care set.
        if c1.iter().all(|&v| v == 0) || c0.iter().all(|&v| v == 0) {
            continue;
        }
        let key = (
            quick_cost(pool, t, &c1, cap - 1) + quick_cost(pool, t, &c0, cap - 1),
            pool.level[s],
            (s as u64 ^ pool.seed).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 40,
            s,
        );
        if best.is_none_or(|b| key < b) {
            best = Some(key);
        }
    }
    let (lookahead, _, _, s) = best?;
    // Shannon takes 1 + `lookahead` LUTs at least: at 2 or more, two
    // LUTs over the pool are worth a search.
    if lookahead >= 2 && cap >= 2 && pool.words == 1 && pool.depth >= pool.two_luts_from {
        if let Some((inner, [x, y])) = pool.find_two_luts(t[0], care[0], cap) {
            let g = pool.push(inner) as usize;
            let table = pool.table_of(t, care, [x, y, g]);
            let fanins = [x as u32, y as u32, g as u32];
            return Some((pool.push(Gate { fanins, table }), false));
        }
    }
    let x: Vec<Word> = pool.sig(s).to_vec();
    for i in 0..w {
        c1[i] = care[i] & x[i];
        c0[i] = care[i] & !x[i];
    }
    pool.depth += 1;
    let hi = build(pool, t, &c1, cap - 1);
    let lo = build(pool, t, &c0, cap - 1);
    pool.depth -= 1;
    let (hi, lo) = (hi?, lo?);
    // lut(s, hi, lo) = s ? hi : lo, complements folded into the table.
    let mut table = 0u8;
    for row in 0..8u8 {
        let (sv, h, l) = (row & 4 != 0, row & 2 != 0, row & 1 != 0);
        let v = if sv { h ^ hi.1 } else { l ^ lo.1 };
        if v {
            table |= 1 << row;
        }
    }
    Some((
        pool.push(Gate {
            fanins: [s as u32, hi.0, lo.0],
            table,
        }),
        false,
    ))
}

/// Synthesises the functions `outputs` (tables of `inputs` inputs, each
/// `words_for(inputs)` words) in the given order, output `o` at most
/// `caps[o]` levels deep.
fn synthesize_in(
    inputs: usize,
    outputs: &[Vec<Word>],
    caps: &[u32],
    order: &[usize],
    seed: u64,
    two_luts_from: u32,
) -> Option<Network> {
    let mut pool = Pool::new(inputs);
    pool.seed = seed;
    pool.two_luts_from = two_luts_from;
    let care = vec![!0 as Word; pool.words];
    let mut outs = vec![(0u32, false); outputs.len()];
    for &o in order {
        let (s, c) = build(&mut pool, &outputs[o], &care, caps[o])?;
        // An output must be exact.
        outs[o] = (exact_output(&mut pool, s, c), false);
    }
    Some(Network {
        inputs,
        gates: pool.gates,
        outputs: outs,
    })
}

/// Rip-up and rebuild: each output in turn loses the gates only it uses
/// and is built again over the rest (which the first build of an early
/// output could not reuse); kept when the network gets smaller. Rounds
/// repeat while one gains.
fn improve(
    mut net: Network,
    outputs: &[Vec<Word>],
    caps: &[u32],
    seed: u64,
    two_luts_from: u32,
) -> Network {
    let m = outputs.len();
    for _ in 0..3 {
        let mut gained = false;
        for o in 0..m {
            // Gates the other outputs reach.
            let k = net.inputs;
            let mut keep = vec![false; net.gates.len()];
            let mut stack: Vec<u32> = (0..m)
                .filter(|&p| p != o)
                .map(|p| net.outputs[p].0)
                .collect();
            while let Some(sg) = stack.pop() {
                let sg = sg as usize;
                if sg < k || keep[sg - k] {
                    continue;
                }
                keep[sg - k] = true;
                stack.extend(net.gates[sg - k].fanins);
            }
            if keep.iter().all(|&x| x) {
                continue;
            }
            // The pool of the kept gates, renumbered.
            let mut pool = Pool::new(k);
            pool.seed = seed.wrapping_add(o as u64 + 1);
            pool.two_luts_from = two_luts_from;
            let mut map: Vec<u32> = (0..k as u32).collect();
            for (g, gate) in net.gates.iter().enumerate() {
                if keep[g] {
                    let fanins = gate.fanins.map(|f| map[f as usize]);
                    map.push(pool.push(Gate { fanins, ..*gate }));
                } else {
                    map.push(u32::MAX);
                }
            }
            let kept = pool.gates.len();
            let care = vec![!0 as Word; pool.words];
            let Some((sg, c)) = build(&mut pool, &outputs[o], &care, caps[o]) else {
                continue;
            };
            let out = exact_output(&mut pool, sg, c);
            if pool.gates.len() < net.gates.len() {
                let _ = kept;
                let mut outs: Vec<(u32, bool)> = net
                    .outputs
                    .iter()
                    .map(|&(sig, c)| (map[sig as usize], c))
                    .collect();
                outs[o] = (out, false);
                net = Network {
                    inputs: k,
                    gates: pool.gates,
                    outputs: outs,
                };
                gained = true;
            }
        }
        if !gained {
            break;
        }
    }
    net
}

/// The output signal for `(s, c)`: a complemented gate is rebuilt with the
/// complemented table; a complemented input costs a `not`.
fn exact_output(pool: &mut Pool, s: u32, c: bool) -> u32 {
    let inputs = pool.inputs;
    if c && s as usize >= inputs {
        let g = pool.gates[s as usize - inputs];
        pool.push(Gate {
            table: !g.table,
            ..g
        })
    } else if c {
        pool.push(Gate {
            fanins: [s, s, s],
            table: 0x0F,
        })
    } else {
        s
    }
}

/// Synthesises `outputs`, output `o` at most `caps[o]` levels deep, trying
/// up to `orders` output orders; the network with the fewest LUTs (then
/// the fewest levels) is kept. With `two_luts_from = Some(d)`, a target at
/// least `d` Shannon steps below an output (and of at most six inputs) may
/// also become two LUTs over the pool.
pub(super) fn synthesize(
    inputs: usize,
    outputs: &[Vec<Word>],
    caps: &[u32],
    orders: usize,
    two_luts_from: Option<u32>,
) -> Option<Network> {
    assert!(inputs <= MAX_INPUTS);
    let two_luts_from = two_luts_from.unwrap_or(u32::MAX);
    let m = outputs.len();
    let mut order: Vec<usize> = (0..m).collect();
    let mut best: Option<Network> = None;
    let mut next = super::xorshift(0x9E37_79B9_7F4A_7C15);
    for k in 0..orders.max(1) {
        if k > 0 {
            // A pseudo-random permutation (Fisher-Yates).
            for i in (1..m).rev() {
                order.swap(i, (next() % (i as u64 + 1)) as usize);
            }
        }
        if let Some(net) = synthesize_in(inputs, outputs, caps, &order, k as u64, two_luts_from) {
            let net = improve(net, outputs, caps, k as u64, two_luts_from);
            if best
                .as_ref()
                .is_none_or(|b| (net.cost(), net.depth()) < (b.cost(), b.depth()))
            {
                best = Some(net);
            }
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    fn des_tables(sbox: &[u8; 64]) -> Vec<Vec<Word>> {
        (0..4)
            .map(|o| {
                let mut v = 0u64;
                for x in 0..64usize {
                    let row = ((x >> 5) & 1) << 1 | (x & 1);
                    let col = (x >> 1) & 0xF;
                    if (sbox[16 * row + col] >> o) & 1 == 1 {
                        v |= 1 << x;
                    }
                }
                vec![v]
            })
            .collect()
    }

    const DES_S1: [u8; 64] = [
        14, 4, 13, 1, 2, 15, 11, 8, 3, 10, 6, 12, 5, 9, 0, 7, 0, 15, 7, 4, 14, 2, 13, 1, 10, 6, 12,
        11, 9, 5, 3, 8, 4, 1, 14, 8, 13, 6, 2, 11, 15, 12, 9, 7, 3, 10, 5, 0, 15, 12, 8, 2, 4, 9,
        1, 7, 5, 11, 3, 14, 10, 0, 6, 13,
    ];

    pub(super) const DES: [[u8; 64]; 8] = [
        DES_S1,
        [
            15, 1, 8, 14, 6, 11, 3, 4, 9, 7, 2, 13, 12, 0, 5, 10, 3, 13, 4, 7, 15, 2, 8, 14, 12, 0,
            1, 10, 6, 9, 11, 5, 0, 14, 7, 11, 10, 4, 13, 1, 5, 8, 12, 6, 9, 3, 2, 15, 13, 8, 10, 1,
            3, 15, 4, 2, 11, 6, 7, 12, 0, 5, 14, 9,
        ],
        [
            10, 0, 9, 14, 6, 3, 15, 5, 1, 13, 12, 7, 11, 4, 2, 8, 13, 7, 0, 9, 3, 4, 6, 10, 2, 8,
            5, 14, 12, 11, 15, 1, 13, 6, 4, 9, 8, 15, 3, 0, 11, 1, 2, 12, 5, 10, 14, 7, 1, 10, 13,
            0, 6, 9, 8, 7, 4, 15, 14, 3, 11, 5, 2, 12,
        ],
        [
            7, 13, 14, 3, 0, 6, 9, 10, 1, 2, 8, 5, 11, 12, 4, 15, 13, 8, 11, 5, 6, 15, 0, 3, 4, 7,
            2, 12, 1, 10, 14, 9, 10, 6, 9, 0, 12, 11, 7, 13, 15, 1, 3, 14, 5, 2, 8, 4, 3, 15, 0, 6,
            10, 1, 13, 8, 9, 4, 5, 11, 12, 7, 2, 14,
        ],
        [
            2, 12, 4, 1, 7, 10, 11, 6, 8, 5, 3, 15, 13, 0, 14, 9, 14, 11, 2, 12, 4, 7, 13, 1, 5, 0,
            15, 10, 3, 9, 8, 6, 4, 2, 1, 11, 10, 13, 7, 8, 15, 9, 12, 5, 6, 3, 0, 14, 11, 8, 12, 7,
            1, 14, 2, 13, 6, 15, 0, 9, 10, 4, 5, 3,
        ],
        [
            12, 1, 10, 15, 9, 2, 6, 8, 0, 13, 3, 4, 14, 7, 5, 11, 10, 15, 4, 2, 7, 12, 9, 5, 6, 1,
            13, 14, 0, 11, 3, 8, 9, 14, 15, 5, 2, 8, 12, 3, 7, 0, 4, 10, 1, 13, 11, 6, 4, 3, 2, 12,
            9, 5, 15, 10, 11, 14, 1, 7, 6, 0, 8, 13,
        ],
        [
            4, 11, 2, 14, 15, 0, 8, 13, 3, 12, 9, 7, 5, 10, 6, 1, 13, 0, 11, 7, 4, 9, 1, 10, 14, 3,
            5, 12, 2, 15, 8, 6, 1, 4, 11, 13, 12, 3, 7, 14, 10, 15, 6, 8, 0, 5, 9, 2, 6, 11, 13, 8,
            1, 4, 10, 7, 9, 5, 0, 15, 14, 2, 3, 12,
        ],
        [
            13, 2, 8, 4, 6, 15, 11, 1, 10, 9, 3, 14, 5, 0, 12, 7, 1, 15, 13, 8, 10, 3, 7, 4, 12, 5,
            6, 11, 0, 14, 9, 2, 7, 11, 4, 1, 9, 12, 14, 2, 0, 6, 10, 13, 15, 3, 5, 8, 2, 1, 14, 7,
            4, 10, 8, 13, 15, 12, 9, 0, 3, 5, 6, 11,
        ],
    ];

    #[test]
    #[ignore = "a report: cargo test -p ptx-passes --release --lib synth_report -- --ignored --nocapture"]
    fn synth_report() {
        let t0 = std::time::Instant::now();
        let mut total = 0;
        for (k, s) in DES.iter().enumerate() {
            let t = des_tables(s);
            let net = synthesize(6, &t, &[u32::MAX; 4], 24, Some(2)).expect("synthesised");
            assert_eq!(net.eval(), t);
            eprintln!("DES S{}: {}", k + 1, net.cost());
            total += net.cost();
        }
        eprintln!("total {total} in {:?}", t0.elapsed());
        // AES: inversion in GF(2^8), then the affine map.
        let mul = |mut a: u32, mut b: u32| {
            let mut r = 0;
            while b != 0 {
                if b & 1 == 1 {
                    r ^= a;
                }
                a <<= 1;
                if a & 0x100 != 0 {
                    a ^= 0x11B;
                }
                b >>= 1;
            }
            r
        };
        let mut sbox = [0u32; 256];
        for x in 0..256u32 {
            let inv = (1..256).find(|&y| x != 0 && mul(x, y) == 1).unwrap_or(0);
            let mut s = 0x63;
            for i in 0..8 {
                let bit = ((inv >> i)
                    ^ (inv >> ((i + 4) % 8))
                    ^ (inv >> ((i + 5) % 8))
                    ^ (inv >> ((i + 6) % 8))
                    ^ (inv >> ((i + 7) % 8)))
                    & 1;
                s ^= bit << i;
            }
            sbox[x as usize] = s;
        }
        assert_eq!(sbox[0x53], 0xED);
        let t: Vec<Vec<Word>> = (0..8)
            .map(|o| {
                (0..4)
                    .map(|w| {
                        (0..64).fold(0u64, |acc, b| {
                            acc | (u64::from((sbox[w * 64 + b] >> o) & 1) << b)
                        })
                    })
                    .collect()
            })
            .collect();
        let t1 = std::time::Instant::now();
        let net = synthesize(8, &t, &[u32::MAX; 8], 4, Some(2)).expect("synthesised");
        assert_eq!(net.eval(), t);
        eprintln!("AES: {} in {:?}", net.cost(), t1.elapsed());
    }

    /// Functions `outer(x0, x1, inner(x2, x3, x4))` of five inputs: the
    /// two-LUT search finds two LUTs wherever Shannon's lookahead sees
    /// three or more, and every network computes its function.
    #[test]
    fn two_lut_targets_take_two_luts() {
        let var = |k: usize| exhaustive_word(k, 0);
        let mut next = super::super::xorshift(0x2545_F491_4F6C_DD1D);
        let (mut with, mut without) = (0, 0);
        for _ in 0..40 {
            let (outer, inner) = (next() as u8, next() as u8);
            let g = apply(var(2), var(3), var(4), inner);
            let f = apply(var(0), var(1), g, outer);
            let t = vec![vec![f]];
            let a = synthesize(5, &t, &[u32::MAX], 1, Some(0)).expect("synthesised");
            let b = synthesize(5, &t, &[u32::MAX], 1, None).expect("synthesised");
            assert_eq!(a.eval(), t);
            assert_eq!(b.eval(), t);
            assert!(a.cost() <= 2, "{outer:#04x} {inner:#04x}: {:?}", a);
            with += a.cost();
            without += b.cost();
        }
        assert!(with < without, "two-LUT {with}, Shannon only {without}");
    }

    #[test]
    fn des_s1_is_synthesised_exactly() {
        let t = des_tables(&DES_S1);
        let net = synthesize(6, &t, &[u32::MAX; 4], 8, Some(2)).expect("synthesised");
        assert_eq!(net.eval(), t);
        eprintln!("DES S1: {} lop3s", net.cost());
    }
}
