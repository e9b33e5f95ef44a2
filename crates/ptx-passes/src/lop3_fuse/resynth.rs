//! Window resynthesis: dense logic of a few inputs (an S-box, a small
//! lookup written as and/or/xor) rebuilt from its truth tables by
//! [`super::synth`], and offered as a structural choice for each output
//! of the window ([`super::choices`]).
//!
//! A window is a set of gates bounded by a cut of at most
//! [`MAX_WINDOW_INPUTS`] signals, with the outputs the rest of the logic
//! reads. Windows are found two ways: gates whose whole support (network
//! inputs) is that small and whose readers' is not, grouped by support
//! (a piece of logic of eight inputs is one window); and, inside larger
//! logic, the reconvergence-driven cut of each gate (ABC's: grow the cone
//! by the frontier gate that widens the frontier least, the deepest first,
//! while at most [`CUT_INPUTS`] signals), gates that reach the same cut
//! grouped (the four outputs of a DES S-box behind its six key xors).
//!
//! **Cost.** A window is synthesised only when it is dense enough to
//! shrink ([`worth`]: at least [`MIN_GATES`] gates, three per output plus
//! one per input, more for wide windows), with fewer output orders for
//! more inputs; results are cached by their truth tables for
//! the whole process (a kernel unrolled 16 times has its S-boxes 16
//! times), and a window's version is offered only when it has at most
//! half as many LUTs as the window has gates.

use super::aig::*;
use super::memo::Memo;
use super::synth::{self, MAX_INPUTS};
use rustc_hash::{FxHashMap, FxHashSet};
use smallvec::SmallVec;

/// Inputs a window may have.
pub(super) const MAX_WINDOW_INPUTS: usize = MAX_INPUTS;
/// Signals a reconvergence-driven cut may have.
const CUT_INPUTS: usize = 6;
/// Signals its frontier may have on the way.
const SEARCH_INPUTS: usize = 16;
/// Gates a cut's cone may take.
const MAX_CONE: usize = 256;
/// Gates a window may have.
const MAX_WINDOW_GATES: usize = 4096;
/// Gates a window needs to be worth synthesising.
const MIN_GATES: usize = 8;
/// Windows synthesised at most per network.
const MAX_WINDOWS: usize = 64;
/// Cached results at most.
const CACHE_SIZE: usize = 4096;

type Key = (usize, Vec<Vec<u64>>, Vec<u32>, u32);
/// A window: its cut, its gates (ascending) and its outputs.
type Window = (SmallVec<[u32; 8]>, Vec<u32>, Vec<u32>);

/// Shannon depth from which the synthesiser may build a target as two
/// LUTs over its pool, in full `lop3-fuse`. Under `skip-small` it is
/// [`super::SKIP_SMALL_TWO_LUTS_FROM`].
pub(super) const TWO_LUTS_FROM: u32 = 2;

/// Synthesised windows, by inputs, tables, depth caps and two-LUT depth.
pub(super) static WINDOWS: Memo<Key, Option<synth::Network>> = Memo::new(CACHE_SIZE, usize::MAX);

fn synthesize(
    inputs: usize,
    tables: &[Vec<u64>],
    caps: &[u32],
    two_luts_from: u32,
) -> Option<synth::Network> {
    let key = (inputs, tables.to_vec(), caps.to_vec(), two_luts_from);
    if let Some(hit) = WINDOWS.get(&key) {
        return hit;
    }
    let orders = match inputs {
        0..=6 => 8,
        7 => 3,
        _ => 2,
    };
    let mut net = synth::synthesize(inputs, tables, caps, orders, Some(two_luts_from));
    // One output of at most six inputs: exact synthesis may take fewer.
    if let (Some(heuristic), [table]) = (&net, tables) {
        if inputs <= super::exact::MAX_INPUTS {
            if let Some(exact) = super::exact::synthesize(inputs, table[0]) {
                if exact.cost() < heuristic.cost() && exact.depth() <= caps[0] {
                    net = Some(exact);
                }
            }
        }
    }
    WINDOWS.insert(key, net.clone(), 0);
    net
}

/// How hard window resynthesis works.
#[derive(Clone, Copy, Debug)]
pub(super) struct Effort {
    /// Inputs a window may have (at most [`MAX_WINDOW_INPUTS`]).
    pub(super) max_inputs: usize,
    /// Shannon depth from which a target may be two LUTs over the pool.
    pub(super) two_luts_from: u32,
}

/// Resynthesises the windows of the gates reached from `roots` (gates
/// below `old` only); returns, per such gate, its new literal (or
/// [`super::balance::NONE`]) and the window it belongs to.
pub(super) fn resynthesize(
    aig: &mut Aig,
    roots: &[Lit],
    old: usize,
    effort: Effort,
) -> Vec<(Lit, u32)> {
    let Effort {
        max_inputs,
        two_luts_from,
    } = effort;
    let none = super::balance::NONE;
    let mut out = vec![(none, 0); old];
    let refs = aig.refs(roots);
    let live = |n: usize| n < old && refs[n] > 0;
    let is_logic =
        |aig: &Aig, n: usize| matches!(aig.gates[n], Gate::And(..) | Gate::Xor(..) | Gate::Lut(..));
    // Supports over the inputs, while small.
    let mut support: Vec<Option<SmallVec<[u32; 8]>>> = vec![None; old];
    for n in 0..old {
        if !live(n) {
            continue;
        }
        support[n] = match aig.gates[n] {
            Gate::Const => Some(SmallVec::new()),
            Gate::Input(_) => Some(smallvec::smallvec![n as u32]),
            _ => {
                let mut s: SmallVec<[u32; 8]> = SmallVec::new();
                let mut ok = true;
                for l in aig.fanins(n) {
                    match &support[node(l)] {
                        Some(f) => {
                            for &x in f {
                                if !s.contains(&x) {
                                    s.push(x);
                                }
                            }
                            if s.len() > MAX_WINDOW_INPUTS {
                                ok = false;
                                break;
                            }
                        }
                        None => {
                            ok = false;
                            break;
                        }
                    }
                }
                if ok {
                    s.sort_unstable();
                    Some(s)
                } else {
                    None
                }
            }
        };
    }
    // Readers of each gate, to find the gates whose readers are wider.
    let mut wide_reader = vec![false; old];
    let mut root = vec![false; old];
    for &r in roots {
        root[node(r)] = true;
    }
    for (n, s) in support.iter().enumerate() {
        if live(n) && s.is_none() {
            for l in aig.fanins(n) {
                wide_reader[node(l)] = true;
            }
        }
    }
    let mut groups: FxHashMap<SmallVec<[u32; 8]>, Vec<u32>> = FxHashMap::default();
    let mut search = CutSearch::new(aig, &live, old);
    for n in 0..old {
        if !live(n) || !is_logic(aig, n) {
            continue;
        }
        match &support[n] {
            Some(s) if root[n] || wide_reader[n] => {
                groups.entry(s.clone()).or_default().push(n as u32);
            }
            Some(_) => {}
            None => {
                // Inside wide logic: the reconvergence-driven cut.
                if let Some(c) = search.cut(n) {
                    groups.entry(c).or_default().push(n as u32);
                }
            }
        }
    }
    // Largest windows first; a window whose outputs a larger one holds
    // already is left out.
    let mut windows: Vec<Window> = groups
        .into_iter()
        .filter_map(|(cut, members)| {
            if cut.len() > max_inputs {
                return None;
            }
            let (gates, outputs) = window(aig, &cut, &members, &refs, &root)?;
            worth(cut.len(), gates.len(), outputs.len()).then_some((cut, gates, outputs))
        })
        .collect();
    windows.sort_by(|a, b| b.1.len().cmp(&a.1.len()).then_with(|| a.0.cmp(&b.0)));
    let mut held: FxHashSet<u32> = FxHashSet::default();
    let mut done = 0;
    for (cut, gates, outputs) in windows {
        if done == MAX_WINDOWS {
            break;
        }
        if outputs.iter().all(|o| held.contains(o)) {
            continue;
        }
        held.extend(gates.iter().copied());
        done += 1;
        let tables = truth_tables(aig, &cut, &gates, &outputs);
        // No output deeper than it is (counted from the deepest cut signal).
        let base = cut
            .iter()
            .map(|&c| aig.level[c as usize])
            .max()
            .unwrap_or(0);
        let caps: Vec<u32> = outputs
            .iter()
            .map(|&o| aig.level[o as usize].saturating_sub(base).max(1))
            .collect();
        let Some(net) = synthesize(cut.len(), &tables, &caps, two_luts_from) else {
            continue;
        };
        tracing::debug!(target: "lop3-fuse", inputs = cut.len(), gates = gates.len(), outputs = outputs.len(), lop3s = net.cost(), "window");
        if 2 * net.cost() > gates.len() || net.eval() != tables {
            continue;
        }
        // The network's gates into the XAIG.
        let mut lit: Vec<Lit> = cut.iter().map(|&c| c << 1).collect();
        for g in &net.gates {
            let x = g.fanins.map(|f| lit[f as usize]);
            let l = aig.lut(g.table, x);
            lit.push(l);
        }
        for (k, &o) in outputs.iter().enumerate() {
            let (s, c) = net.outputs[k];
            let l = lit[s as usize] ^ u32::from(c);
            if l != o << 1 {
                out[o as usize] = (l, done as u32);
            }
        }
    }
    out
}

/// Whether a window of `gates` gates, `inputs` inputs and `outputs`
/// outputs is dense enough to be worth synthesising: a network needs a
/// LUT per output at least, and logic that is already lean (adders: about
/// three gates per output) comes back no smaller; wider windows cost more
/// to synthesise and need to be denser still.
fn worth(inputs: usize, gates: usize, outputs: usize) -> bool {
    let dense = gates >= 3 * outputs + inputs;
    let wide_ok = inputs <= 6 || gates >= 8 * inputs;
    gates >= MIN_GATES && dense && wide_ok
}

/// The searches for reconvergence-driven cuts ([`Self::cut`]) over one
/// XAIG, with each gate's fanin gates laid out flat.
struct CutSearch<'a> {
    level: &'a [u32],
    /// Each gate's distinct fanin gates but the constant, in fanin order,
    /// and how many.
    fanins: Vec<([u32; 3], u8)>,
    /// Whether the search may grow the cone through a gate: a live logic
    /// gate.
    expandable: Vec<bool>,
    marks: Marks,
}

impl<'a> CutSearch<'a> {
    fn new(aig: &'a Aig, live: &dyn Fn(usize) -> bool, old: usize) -> Self {
        let mut fanins = vec![([0u32; 3], 0u8); old];
        let mut expandable = vec![false; old];
        for n in 0..old {
            let (list, len) = &mut fanins[n];
            for l in aig.fanins(n) {
                let g = node(l) as u32;
                if g != 0 && !list[..*len as usize].contains(&g) {
                    list[*len as usize] = g;
                    *len += 1;
                }
            }
            expandable[n] = live(n) && !matches!(aig.gates[n], Gate::Const | Gate::Input(_));
        }
        CutSearch {
            level: &aig.level,
            fanins,
            expandable,
            marks: Marks::new(old),
        }
    }

    /// The reconvergence-driven cut of gate `n`: the cone grows by the
    /// frontier gate that widens the frontier least (the deepest first)
    /// while the frontier has at most [`SEARCH_INPUTS`] signals; of the
    /// frontiers passed, the one of at most [`CUT_INPUTS`] signals that
    /// takes the most gates for its width (then the narrowest) is the cut,
    /// sorted.
    fn cut(&mut self, n: usize) -> Option<SmallVec<[u32; 8]>> {
        let (inside, front) = self.marks.next();
        let mark = &mut self.marks.mark;
        // Growing by a gate adds at most two signals net, and only while
        // the result stays within SEARCH_INPUTS.
        let mut frontier = [0u32; SEARCH_INPUTS + 3];
        let mut len = 0usize;
        let mut cone = 1usize;
        mark[n] = inside;
        let (list, k) = self.fanins[n];
        for &f in &list[..k as usize] {
            if mark[f as usize] != front {
                mark[f as usize] = front;
                frontier[len] = f;
                len += 1;
            }
        }
        let mut best: Option<(i64, usize, [u32; CUT_INPUTS])> = None;
        loop {
            if len <= CUT_INPUTS && cone >= 2 {
                let score = cone as i64 - len as i64;
                let better = best.as_ref().is_none_or(|b| {
                    (score, std::cmp::Reverse(len)) > (b.0, std::cmp::Reverse(b.1))
                });
                if better {
                    let mut cut = [0u32; CUT_INPUTS];
                    cut[..len].copy_from_slice(&frontier[..len]);
                    best = Some((score, len, cut));
                }
            }
            let mut pick: Option<(i32, u32, usize)> = None;
            for (k, &f) in frontier[..len].iter().enumerate() {
                let f = f as usize;
                if !self.expandable[f] {
                    continue;
                }
                let (list, m) = &self.fanins[f];
                let new = list[..*m as usize]
                    .iter()
                    .filter(|&&g| {
                        let x = mark[g as usize];
                        x != front && x != inside
                    })
                    .count() as i32;
                let cost = new - 1;
                if len as i32 + cost > SEARCH_INPUTS as i32 {
                    continue;
                }
                let key = (cost, u32::MAX - self.level[f], k);
                if pick.is_none_or(|b| key < b) {
                    pick = Some(key);
                }
            }
            let Some((_, _, k)) = pick else { break };
            // As `swap_remove`.
            let f = frontier[k] as usize;
            len -= 1;
            frontier[k] = frontier[len];
            mark[f] = inside;
            cone += 1;
            let (list, m) = self.fanins[f];
            for &g in &list[..m as usize] {
                let x = mark[g as usize];
                if x != front && x != inside {
                    mark[g as usize] = front;
                    frontier[len] = g;
                    len += 1;
                }
            }
            if cone > MAX_CONE {
                break;
            }
        }
        let (_, len, cut) = best?;
        let mut cut: SmallVec<[u32; 8]> = cut[..len].iter().copied().collect();
        cut.sort_unstable();
        Some(cut)
    }
}

/// Per-gate marks for [`CutSearch::cut`], renewed per search by moving
/// to fresh stamp values instead of clearing.
struct Marks {
    mark: Vec<u32>,
    stamp: u32,
}

impl Marks {
    fn new(len: usize) -> Self {
        Marks {
            mark: vec![0; len],
            stamp: 0,
        }
    }

    /// Fresh (inside, frontier) stamps.
    fn next(&mut self) -> (u32, u32) {
        if self.stamp >= u32::MAX - 2 {
            self.mark.fill(0);
            self.stamp = 0;
        }
        self.stamp += 2;
        (self.stamp - 1, self.stamp)
    }
}

/// The gates between `members` and `cut` (ascending) and the outputs
/// among them (gates read from outside, or roots); `None` when a cone
/// leaves the cut.
fn window(
    aig: &Aig,
    cut: &[u32],
    members: &[u32],
    refs: &[u32],
    root: &[bool],
) -> Option<(Vec<u32>, Vec<u32>)> {
    let mut gates: FxHashSet<u32> = FxHashSet::default();
    let mut stack: Vec<u32> = members.to_vec();
    while let Some(g) = stack.pop() {
        if cut.contains(&g) || !gates.insert(g) {
            continue;
        }
        match aig.gates[g as usize] {
            Gate::Const => {}
            Gate::Input(_) => return None,
            _ => {
                for l in aig.fanins(g as usize) {
                    if node(l) != 0 {
                        stack.push(node(l) as u32);
                    }
                }
            }
        }
        if gates.len() > MAX_WINDOW_GATES {
            return None;
        }
    }
    let mut gates: Vec<u32> = gates.into_iter().collect();
    gates.sort_unstable();
    let mut inner: FxHashMap<u32, u32> = FxHashMap::default();
    for &g in &gates {
        for l in aig.fanins(g as usize) {
            *inner.entry(node(l) as u32).or_default() += 1;
        }
    }
    let outputs: Vec<u32> = gates
        .iter()
        .copied()
        .filter(|&g| root[g as usize] || refs[g as usize] > inner.get(&g).copied().unwrap_or(0))
        .collect();
    (!outputs.is_empty()).then_some((gates, outputs))
}

/// The outputs' truth tables over the cut (cut signal `k` is input `k`).
fn truth_tables(aig: &Aig, cut: &[u32], gates: &[u32], outputs: &[u32]) -> Vec<Vec<u64>> {
    let inputs = cut.len();
    let words = 1usize << inputs.saturating_sub(6);
    let var = ptx_ir::lut::exhaustive_word;
    let mut value: FxHashMap<u32, Vec<u64>> = FxHashMap::default();
    value.insert(0, vec![0; words]);
    for (k, &c) in cut.iter().enumerate() {
        value.insert(c, (0..words).map(|w| var(k, w)).collect());
    }
    let lit = |value: &FxHashMap<u32, Vec<u64>>, l: Lit, w: usize| -> u64 {
        let v = value[&(node(l) as u32)][w];
        if complemented(l) {
            !v
        } else {
            v
        }
    };
    for &g in gates {
        let v: Vec<u64> = (0..words)
            .map(|w| match aig.gates[g as usize] {
                Gate::And(a, b) => lit(&value, a, w) & lit(&value, b, w),
                Gate::Xor(a, b) => lit(&value, a, w) ^ lit(&value, b, w),
                Gate::Lut(t, x) => {
                    let [a, b, c] = x.map(|l| lit(&value, l, w));
                    ptx_ir::lut::apply64(a, b, c, t)
                }
                Gate::Const | Gate::Input(_) => unreachable!("cut signals are set"),
            })
            .collect();
        value.insert(g, v);
    }
    outputs.iter().map(|o| value[o].clone()).collect()
}
