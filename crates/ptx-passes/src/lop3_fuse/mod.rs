//! `lop3-fuse`: technology mapping of bitwise logic onto `lop3.b32`.
//!
//! Within each block, the `.b32` `and`/`or`/`xor`/`not`/`lop3` instructions
//! form a network whose leaves are other values and immediates (0 and ~0
//! fold into truth tables). The pass covers it with three-input LUTs, as
//! ABC's `if -K 3 -a` does (Mishchenko et al., ICCAD 2007). One file per
//! stage, in the order they run:
//!
//! 1. [`network`]: the network of one block and its connected pieces.
//! 2. [`equiv`]: functional reduction. Nodes that compute an earlier
//!    node's function (or its complement), found by structural hashing
//!    and simulation signatures and proved by simulation on every
//!    assignment over small supports ([`exhaust`]) or with SAT ([`sat`]),
//!    may take
//!    that node's cuts; nodes proved constant fold into their readers.
//! 3. [`choices`]: structural choices. The logic's XAIG ([`aig`]) is
//!    balanced ([`balance`]), its `and`s regrouped onto pairs that exist
//!    ([`regroup`]), its xor logic rebuilt with shared terms
//!    ([`linear`]), and small dense windows (S-boxes) resynthesised from
//!    their truth tables ([`resynth`], [`synth`]; a window of one output
//!    and at most six inputs also by SAT, [`exact`], cached by NPN class,
//!    [`npn`]); the new structure
//!    joins the network as synthetic nodes, each restructured node may
//!    take its version's cuts (a window's versions as one group), and the
//!    network is mapped with and without them, the better cover kept
//!    piece by piece.
//! 4. [`cuts`] and [`truth`]: every node's priority cuts of at most four
//!    leaves (at most [`MAX_CUTS`] each), with truth tables; a four-leaf
//!    cut costs the two or three lop3s of its decomposition.
//! 5. [`mapper`]: depth-optimal labels, area flow (fanout estimates taken
//!    from the cover), then exact area (reference counting, each walk
//!    bounded) until a pass gains nothing, under required times that keep
//!    every output at or below its depth before the pass; the best cover
//!    seen is kept.
//! 6. [`check`]: each piece to be rewritten is simulated before and after.
//! 7. [`rewrite`]: covered nodes become lop3s in place, synthetic ones
//!    new instructions before their first reader, the rest go;
//!    [`schedule`] then moves what was written to right before its first
//!    reader in the block.
//! 8. [`predicate`]: `setp.ne x, 0` folds into the `.BoolOp` form.
//! 9. [`remap`]: full `lop3-fuse` (not `skip-small`) expands its cover
//!    back into formulas and maps that again, in time-boxed rounds (every
//!    second one with choices), keeping the smallest cover that is no
//!    deeper and needs no more registers (as estimated).
//! 10. [`restructure`]: full `lop3-fuse` also maps a copy of a function
//!     with a block of at least [`restructure::MIN_NODES`] logic nodes
//!     whose logic was refactored first ([`refactor`], [`sop`]: cones
//!     collapsed to truth tables and rebuilt as factored forms, ABC's
//!     `drf`), remapping it in rounds that refactor again, and keeps
//!     whichever function ends smaller under the same depth and register
//!     bounds.
//!
//! Results a module repeats (synthesised windows, exact networks by NPN
//! class, functional reductions by structure) are kept per process in
//! [`memo`] tables; [`clear_cache`] empties them.
//!
//! **Guarantees.** Instruction count never rises: a connected piece of
//! logic is rewritten only when its cover has fewer instructions, or as
//! many and less depth; no output gets deeper. Every rewritten piece is
//! simulated before and after, bit-sliced over all values of its leaves
//! (up to [`EXHAUSTIVE_LEAVES`] leaves within a work budget; random words
//! beyond), and left alone if anything differs.
//! A guarded instruction absorbs only unguarded logic or logic under the
//! same guard, and is rewritten in place (keeping guard and tied value).
//! `.b64`, `.b16` and predicate logic are left alone. Immediates take
//! operand slots (ptxas accepts them in `a`, `b` and `c`). The CFG is
//! preserved.
//!
//! **Predicate output.** On sm_70+ with PTX ISA 8.2+ (the `.BoolOp` form's
//! minimum), `setp.ne x, 0` (optionally `.and`/`.or` with `q`) of a logic
//! result in the same block becomes the `lop3.or`/`lop3.and` `d|p` form
//! (`_|p` when nothing else reads `x`). Below sm_50 (no `lop3`) the pass
//! does nothing; `lop3-expand` is the inverse.
//!
//! ```text
//! before:                              after:
//!   and.b32  %r3, %r1, %r2;              lop3.b32 %r5, %r1, %r2, %r4, 0xEA;
//!   or.b32   %r5, %r3, %r4;                 // c | (a & b)
//! ```

mod aig;
mod balance;
mod check;
mod choices;
mod cuts;
mod equiv;
mod exact;
mod exhaust;
mod linear;
mod mapper;
mod memo;
mod network;
mod npn;
mod predicate;
mod refactor;
mod regroup;
mod remap;
mod restructure;
mod resynth;
mod rewrite;
mod sat;
mod schedule;
mod sop;
mod synth;
#[cfg(test)]
mod tests;
mod truth;

use check::*;
use cuts::*;
use mapper::*;
use network::*;
use predicate::*;
use rewrite::*;
use truth::*;

use crate::{AnalysisManager, Pass, Preserved};
use ptx_ir::{Function, Inst, Opcode};
use restructure::Snapshot;
use rustc_hash::FxHashMap;

/// Cuts kept per node (priority cuts).
pub const MAX_CUTS: usize = 12;
/// Cuts on network inputs only kept beyond [`MAX_CUTS`].
const MAX_INPUT_CUTS: u32 = 4;
/// Up to this many leaves, a rewrite is checked on every leaf assignment.
pub const EXHAUSTIVE_LEAVES: usize = 20;
/// Leaf visits one reference walk of exact-area recovery may take; a node
/// whose walk would take more keeps its cut, so long chains of single-use
/// nodes stay linear.
const EXACT_WALK_LIMIT: usize = 256;
/// Area-flow passes after the depth-optimal one.
const FLOW_PASSES: usize = 2;
/// Nodes reading a group's nodes (transitively) that a group move lets
/// take new cuts.
const GROUP_READERS: usize = 512;
/// Exact-area passes at most (they stop when one gains nothing).
const EXACT_PASSES: usize = 4;

/// The pass.
#[derive(Clone, Copy, Debug, Default)]
pub struct Lop3Fuse {
    /// `lop3-fuse<skip-small>`: rewrite a piece only when it saves at least
    /// [`SMALL_SAVING`] instructions (and never for depth alone). ptxas
    /// fuses short logic chains into its own `LOP3` anyway; on the real
    /// corpus, one-instruction rewrites cost SASS instructions or registers
    /// more often than they save them, so `-O2` uses this form. It also
    /// keeps register pressure, and leaves debug targets (`nvcc -G`) alone.
    pub skip_small: bool,
    /// `lop3-fuse<no-choices>`: map the logic as it is written, without
    /// the restructured versions of [`choices`] (faster; for comparison).
    pub no_choices: bool,
    /// `lop3-fuse<no-refactor>`: without the refactored copy of
    /// [`restructure`] (faster; for comparison).
    pub no_refactor: bool,
    /// Set on [`remap`]'s rounds: their choices resynthesise narrower
    /// windows.
    pub(crate) remap_round: bool,
}

/// The least saving per piece under `skip-small`.
pub const SMALL_SAVING: u32 = 2;
/// Inputs a resynthesised window may have under `skip-small`.
const SKIP_SMALL_WINDOW_INPUTS: usize = 6;
/// Shannon depth from which window synthesis may build a target as two
/// LUTs under `skip-small` (2 in full `lop3-fuse`): from 2, the bit-sliced
/// DES kernel's SASS takes 11 instructions fewer but up to 7 registers
/// more than from 3.
const SKIP_SMALL_TWO_LUTS_FROM: u32 = 3;
/// Logic nodes of a block beyond which `skip-small` maps it without
/// structural choices (a time box: the real corpus's largest block of
/// logic has a few hundred).
const SKIP_SMALL_CHOICE_NODES: usize = 20_000;

impl Pass for Lop3Fuse {
    fn name(&self) -> &'static str {
        "lop3-fuse"
    }

    fn run(&mut self, f: &mut Function, am: &mut AnalysisManager) -> Preserved {
        let target = am.target;
        if target.is_some_and(|t| t.sm < 50) {
            return Preserved::All;
        }
        // Both mappings start from a logic instruction: without one, skip
        // the use lists.
        let logic = f
            .layout
            .blocks()
            .flat_map(|b| f.layout.block_insts(b))
            .any(|i| {
                matches!(
                    f.op(i).opcode,
                    Opcode::And | Opcode::Or | Opcode::Xor | Opcode::Not | Opcode::Lop3
                )
            });
        if !logic {
            return Preserved::All;
        }
        if !self.skip_small {
            // The readers' depths and the register pressure in the input,
            // which remapping keeps.
            let logic = remap::logic_count(f);
            let remapping = !self.no_choices && logic <= remap::MAX_LOGIC;
            let input = remapping.then(|| (remap::reader_depths(f), pressure(f)));
            // The refactored copies (the new structure in place of the
            // logic, and beside it), mapped after the function itself.
            let refactoring = remapping
                && !self.no_refactor
                && (restructure::MIN_NODES..=restructure::MAX_LOGIC).contains(&logic);
            const HOWS: [Snapshot; 2] = [Snapshot::Replace, Snapshot::Beside];
            let copies = refactoring
                .then(|| restructure::refactored_copies(f, restructure::MIN_NODES, &HOWS))
                .flatten()
                .unwrap_or_default();
            let (mut preserved, written) = self.fuse(f, target);
            written.place(f);
            if let (Some((input, input_pressure)), true) = (&input, preserved.changed()) {
                remap::remap(self, f, target, input, logic, *input_pressure, None);
            }
            let Some((input, input_pressure)) = input else {
                return preserved;
            };
            let plain_pressure = pressure(f);
            for (&how, mut g) in HOWS.iter().zip(copies) {
                let (_, written) = self.fuse(&mut g, target);
                written.place(&mut g);
                let logic = remap::logic_count(&g);
                remap::remap(
                    self,
                    &mut g,
                    target,
                    &input,
                    logic,
                    input_pressure,
                    Some(how),
                );
                tracing::debug!(target: "lop3-fuse", function = %f.name, ?how, best = f.inst_count(), refactored = g.inst_count(), input_pressure, plain_pressure, refactored_pressure = pressure(&g), "refactored input");
                if g.inst_count() < f.inst_count()
                    && remap::no_deeper(&g, &input)
                    && pressure(&g) <= input_pressure.max(plain_pressure)
                {
                    *f = g;
                    preserved = Preserved::Cfg;
                }
            }
            return preserved;
        }
        // A debug build (`nvcc -G`) is compiled by ptxas without
        // optimising, its registers following the PTX's: any change moves
        // them, so skip-small (the pipelines' form) leaves it alone.
        if target.is_some_and(|t| t.debug) {
            return Preserved::All;
        }
        // Under skip-small, a rewrite that raises register pressure beyond
        // a little is not worth its instructions: try without the
        // restructured versions, then give up. (The pressure is judged
        // before the placement, whose layout ptxas reorders anyway.)
        let before = f.clone();
        let (preserved, written) = self.fuse(f, target);
        if !preserved.changed() {
            return Preserved::All;
        }
        let p0 = pressure(&before);
        let allowed = p0 + (p0 / 20).max(2);
        let p1 = pressure(f);
        tracing::debug!(target: "lop3-fuse", function = %f.name, before = p0, after = p1, "register pressure");
        if p1 <= allowed {
            written.place(f);
            return Preserved::Cfg;
        }
        if self.no_choices {
            *f = before;
            return Preserved::All;
        }
        *f = before.clone();
        let plain = Lop3Fuse {
            no_choices: true,
            ..*self
        };
        let (preserved, written) = plain.fuse(f, target);
        if preserved.changed() && pressure(f) <= allowed {
            written.place(f);
            return Preserved::Cfg;
        }
        *f = before;
        Preserved::All
    }
}

/// A xorshift64 generator from `state` (not 0): the pass's random words
/// and orders, the same on every run.
fn xorshift(mut state: u64) -> impl FnMut() -> u64 {
    move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    }
}

/// The registers `f` needs at most, as [`ptx_ir::liveness::max_pressure`]
/// estimates them.
fn pressure(f: &Function) -> u32 {
    let cfg = ptx_ir::ControlFlowGraph::compute(f);
    let live = ptx_ir::liveness::Liveness::compute(f, &cfg);
    ptx_ir::liveness::max_pressure(f, &live)
}

/// What a rewrite wrote: the blocks it changed and the instructions it
/// wrote there, which [`Written::place`] moves next to their readers.
#[derive(Default)]
struct Written {
    blocks: Vec<ptx_ir::Block>,
    insts: rustc_hash::FxHashSet<Inst>,
}

impl Written {
    fn place(&self, f: &mut Function) {
        for &b in &self.blocks {
            schedule::sink_to_readers(f, b, &self.insts);
        }
    }
}

impl Lop3Fuse {
    /// The mapping of every block of `f`, left where the original nodes
    /// were (see [`Written::place`]).
    fn fuse(&self, f: &mut Function, target: Option<crate::TargetInfo>) -> (Preserved, Written) {
        let blocks: Vec<_> = f.layout.blocks().collect();
        let uses = f.uses();
        let mut copies = FxHashMap::default();
        let mut changed = false;
        let mut written = Written::default();
        for &b in &blocks {
            let insts: Vec<Inst> = f.layout.block_insts(b).collect();
            if fuse_block(f, &insts, &uses, &mut copies, *self, &mut written.insts) {
                changed = true;
                written.blocks.push(b);
            }
        }
        crate::rewrite::replace_all_uses(f, &copies);
        // ptxas folds `setp.ne x, 0` into its own LOP3 (a predicate
        // output), so under skip-small that is no gain either.
        if !self.skip_small && target.is_some_and(|t| t.sm >= 70 && t.ptx >= (8, 2)) {
            let uses = f.uses();
            for &b in &blocks {
                let insts: Vec<Inst> = f.layout.block_insts(b).collect();
                changed |= fuse_predicates(f, &insts, &uses);
            }
        }
        tracing::debug!(target: "lop3-fuse", function = %f.name, changed, "done");
        (Preserved::cfg_if(changed), written)
    }
}

/// Empties the process-wide caches (synthesised windows, exact synthesis,
/// functional reductions): benchmarks time a cold run with it.
pub fn clear_cache() {
    resynth::WINDOWS.clear();
    exact::NETWORKS.clear();
    equiv::REDUCTIONS.clear();
}
