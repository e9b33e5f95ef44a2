//! Congruence classes: the sets of values that share one register.
//!
//! 1. **Seeded from the source's registers.** Values with the same hint and
//!    register class start in one class. Going through the values in
//!    definition order (dominator-tree pre-order), each joins the first
//!    class of its hint it does not interfere with; only a value that
//!    interferes with every class of its hint starts a new one. Freshly
//!    parsed code never interferes in reachable blocks, so there each hint
//!    is one class.
//! 2. **Coalesced along copies.** Every block argument and its parameter,
//!    and every tied result and its tie, would need a `mov` if their
//!    classes differ. These *affinities* are taken heaviest first (deeper
//!    loops, then critical edges, where a copy costs a new block), and two
//!    classes merge when no member of one interferes with a member of the
//!    other.
//! 3. **The rest.** `Undef` values and values of unreachable blocks are not
//!    checked: each joins the first class of its hint (or one made for the
//!    hint), so code that never runs keeps the source's registers.
//!
//! A class is kept sorted in definition order. Checking it needs no
//! interference graph: walking its members with a stack of the
//! definitions that dominate the current one, a member is compared with
//! the stack from the top down, stopping below the first member no
//! ancestor intersects (live ranges are dominator subtrees, so nothing
//! above it can reach further). With copies (equal values), intersections
//! are allowed between equal values only.
//!
//! Invariant: no two members of a class that are checked interfere.
//! Merging is bounded by a work budget proportional to the function, so
//! huge functions stay linear; past it, classes are left as they are
//! (correct, with more copies).

use super::interference::Interference;
use crate::entity::{EntityRef, SecondaryMap};
use crate::types::Type;
use crate::Value;
use rustc_hash::FxHashMap;

/// No class yet.
pub(super) const NONE: u32 = u32::MAX;

/// The congruence classes of a function.
pub(super) struct Classes {
    /// The class of each value.
    pub(super) of: SecondaryMap<Value, u32>,
    /// The checked members of each class, in definition order.
    members: Vec<Vec<Value>>,
    /// The register class of each class.
    pub(super) ty: Vec<Type>,
}

/// A copy the classes should make unnecessary, with its weight.
pub(super) struct Affinity {
    pub(super) a: Value,
    pub(super) b: Value,
    pub(super) weight: u32,
}

/// A member on the dominance stack, with whether some member below it in
/// the stack intersects it.
#[derive(Clone, Copy)]
struct Entry {
    v: Value,
    has_intersecting_ancestor: bool,
}

/// Pushes `c` on `stack` if it interferes with none of the members there;
/// `stack` holds, bottom to top, the chain of members whose definitions
/// dominate the one before `c`. `work` counts comparisons.
fn try_push(ix: &Interference, stack: &mut Vec<Entry>, c: Value, work: &mut u64) -> bool {
    while let Some(top) = stack.last() {
        if ix.dominates(top.v, c) {
            break;
        }
        stack.pop();
    }
    let mut has = false;
    for e in stack.iter().rev() {
        *work += 1;
        if ix.intersect(e.v, c) {
            if !ix.same_value(e.v, c) {
                return false;
            }
            has = true;
        }
        // Anything deeper that reached `c` would also reach `e`.
        if !e.has_intersecting_ancestor {
            break;
        }
    }
    stack.push(Entry {
        v: c,
        has_intersecting_ancestor: has,
    });
    true
}

impl Classes {
    /// Seeds classes from the hints of the defined values in `order` (all
    /// of them, sorted by definition).
    pub(super) fn seed(ix: &Interference, order: &[Value]) -> Classes {
        let func = ix.func();
        let nv = func.dfg.values.len();
        let mut c = Classes {
            of: SecondaryMap::with_capacity(nv, NONE),
            members: Vec::new(),
            ty: Vec::new(),
        };
        // Classes of each (hint, register class), with their stacks.
        let mut by_hint: FxHashMap<(u32, Type), Vec<u32>> = FxHashMap::default();
        let mut stacks: Vec<Vec<Entry>> = Vec::new();
        let mut work = 0u64;
        for &v in order {
            let d = &func.dfg.values[v];
            let ty = d.ty.reg_class();
            let Some(h) = d.hint else {
                c.new_class(v, ty);
                stacks.push(Vec::new());
                continue;
            };
            let list = by_hint.entry((h, ty)).or_default();
            let mut placed = false;
            for &k in list.iter() {
                if try_push(ix, &mut stacks[k as usize], v, &mut work) {
                    c.of[v] = k;
                    c.members[k as usize].push(v);
                    placed = true;
                    break;
                }
            }
            if !placed {
                let k = c.new_class(v, ty);
                stacks.push(vec![Entry {
                    v,
                    has_intersecting_ancestor: false,
                }]);
                list.push(k);
            }
        }
        c
    }

    fn new_class(&mut self, v: Value, ty: Type) -> u32 {
        let k = self.members.len() as u32;
        self.members.push(vec![v]);
        self.ty.push(ty);
        self.of[v] = k;
        k
    }

    /// Merges the classes of each affinity's ends, heaviest first, where
    /// the merged class has no interference; stops when `budget`
    /// comparisons have been spent.
    pub(super) fn coalesce(&mut self, ix: &Interference, affinities: &mut [Affinity], budget: u64) {
        affinities.sort_by_key(|a| std::cmp::Reverse(a.weight));
        let mut work = 0u64;
        let mut merged: Vec<Value> = Vec::new();
        let mut stack: Vec<Entry> = Vec::new();
        for aff in affinities.iter() {
            if work > budget {
                break;
            }
            let (ka, kb) = (self.of[aff.a], self.of[aff.b]);
            if ka == kb || ka == NONE || kb == NONE || self.ty[ka as usize] != self.ty[kb as usize]
            {
                continue;
            }
            // Keep the larger class's number; relabel the smaller.
            let (keep, gone) = if self.members[ka as usize].len() >= self.members[kb as usize].len()
            {
                (ka, kb)
            } else {
                (kb, ka)
            };
            merged.clear();
            merge_sorted(
                ix,
                &self.members[keep as usize],
                &self.members[gone as usize],
                &mut merged,
            );
            stack.clear();
            let fits = merged
                .iter()
                .all(|&v| try_push(ix, &mut stack, v, &mut work));
            work += merged.len() as u64;
            if !fits {
                continue;
            }
            for &v in &self.members[gone as usize] {
                self.of[v] = keep;
            }
            self.members[gone as usize] = Vec::new();
            std::mem::swap(&mut self.members[keep as usize], &mut merged);
        }
    }

    /// Gives every value not yet in a class (`Undef`, or defined in an
    /// unreachable block) the first class of its hint, or one made for the
    /// hint; a value without a hint gets a class of its own.
    pub(super) fn place_unchecked(&mut self, ix: &Interference) {
        let func = ix.func();
        let mut first: FxHashMap<(u32, Type), u32> = FxHashMap::default();
        // The first class of each hint in definition order: the class of
        // the earliest defined member.
        for (k, m) in self.members.iter().enumerate() {
            for &v in m {
                if let Some(h) = func.dfg.values[v].hint {
                    let key = (h, self.ty[k]);
                    let e = first.entry(key).or_insert(k as u32);
                    if ix.key(self.members[*e as usize][0]) > ix.key(v) {
                        *e = k as u32;
                    }
                }
            }
        }
        for k in 0..func.dfg.values.len() {
            let v = Value::new(k);
            if self.of[v] != NONE {
                continue;
            }
            let d = &func.dfg.values[v];
            let ty = d.ty.reg_class();
            let class = match d.hint {
                Some(h) => match first.get(&(h, ty)) {
                    Some(&c) => c,
                    None => {
                        let c = self.new_unchecked(ty);
                        first.insert((h, ty), c);
                        c
                    }
                },
                None => self.new_unchecked(ty),
            };
            self.of[v] = class;
        }
    }

    fn new_unchecked(&mut self, ty: Type) -> u32 {
        self.members.push(Vec::new());
        self.ty.push(ty);
        self.members.len() as u32 - 1
    }

    /// Number of classes.
    pub(super) fn len(&self) -> usize {
        self.ty.len()
    }
}

/// Merges two lists sorted in definition order.
fn merge_sorted(ix: &Interference, a: &[Value], b: &[Value], out: &mut Vec<Value>) {
    out.reserve(a.len() + b.len());
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        if ix.key(a[i]) <= ix.key(b[j]) {
            out.push(a[i]);
            i += 1;
        } else {
            out.push(b[j]);
            j += 1;
        }
    }
    out.extend_from_slice(&a[i..]);
    out.extend_from_slice(&b[j..]);
}
