//! Remapping: full `lop3-fuse` maps its own cover again.
//!
//! A cover's lop3s, expanded back into their minimal `and`/`or`/`xor`/`not`
//! formulas (`lop3-expand`), are a structure the input did not have: its
//! cuts differ, and mapping it again can find a smaller cover, as ABC's
//! scripts find by iterating mapping and choice computation. Each round
//! expands the cover the round before it wrote and maps it again, every
//! second round with structural choices (windows of at most
//! [`WINDOW_INPUTS`] inputs) on functions of at most
//! [`CHOICE_ROUND_LOGIC`] logic instructions. A round's cover replaces
//! the function when it has fewer instructions than the best so far, no
//! reader of the logic (an instruction outside a block's network) sees a
//! deeper operand than in the input to the pass, and its estimated
//! register pressure is no higher than the input's or the first
//! mapping's. A round that is no
//! smaller than the best still seeds the next one (another structure
//! often maps smaller a round later), up to [`PATIENCE`] in a row; a
//! round that is larger than the one before it, deeper, or over the
//! pressure bound ends them.
//! The rounds of [`super::restructure`]'s refactored copies refactor the
//! expanded formulas before every second mapping (`refactoring`), in
//! place of them or beside them as the copy was made.
//! Time box: `ROUND_WORK / n` rounds for `n` logic instructions in the
//! input (at most [`ROUNDS`]), none beyond [`MAX_LOGIC`].
//!
//! Invariants: every round is an ordinary run of the pass, checked piece
//! by piece as the first; the function is replaced only by a round's
//! whole result.

use super::restructure::Snapshot;
use super::Lop3Fuse;
use crate::TargetInfo;
use crate::{AnalysisManager, Pass};
use ptx_ir::{Function, Inst, Opcode, Type, Value, ValueDef};
use rustc_hash::FxHashMap;

/// Remapping rounds after the first mapping, at most.
pub(super) const ROUNDS: usize = 12;
/// Logic instructions mapped over all rounds, at most: a function of
/// `n` logic instructions gets `ROUND_WORK / n` rounds (up to
/// [`ROUNDS`]), so remapping costs time in proportion to the function.
pub(super) const ROUND_WORK: usize = 40_000;
/// Rounds in a row that may end no smaller than the best cover so far
/// (each still no larger than the round before it).
pub(super) const PATIENCE: usize = 3;
/// Logic instructions up to which every second round maps with
/// structural choices (several times the cost of a plain round).
pub(super) const CHOICE_ROUND_LOGIC: usize = 5_000;
/// Inputs a window resynthesised in a remapping round may have. Six
/// (DES's S-boxes) took the bit-sliced DES kernel from 0.41 to 0.96 s
/// for 3 LUTs on one S-box netlist; eight (AES's) cost its S-box 0.7 s
/// more and gained nothing.
pub(super) const WINDOW_INPUTS: usize = 5;
/// Logic instructions beyond which a function is not remapped.
pub(super) const MAX_LOGIC: usize = 16_000;

/// Whether `i` is `.b32` logic the pass maps.
fn is_logic(f: &Function, i: Inst) -> bool {
    matches!(
        f.op(i).opcode,
        Opcode::And | Opcode::Or | Opcode::Xor | Opcode::Not | Opcode::Lop3
    ) && f
        .op(i)
        .last_type()
        .is_some_and(|t| t.reg_class() == Type::B32)
}

/// Logic instructions in `f`.
pub(super) fn logic_count(f: &Function) -> usize {
    f.layout
        .blocks()
        .flat_map(|b| f.layout.block_insts(b))
        .filter(|&i| is_logic(f, i))
        .count()
}

/// Per instruction reading logic from outside its network (a non-logic
/// instruction, or one in another block): the deepest logic operand, in
/// logic instructions counted within the defining block.
pub(super) fn reader_depths(f: &Function) -> FxHashMap<Inst, u32> {
    let mut depth: FxHashMap<Value, u32> = FxHashMap::default();
    let mut readers = FxHashMap::default();
    for b in f.layout.blocks() {
        for i in f.layout.block_insts(b) {
            let logic = is_logic(f, i);
            let (mut inside, mut outside) = (0u32, 0u32);
            f.inst(i).for_each_use(|v| {
                let Some(&d) = depth.get(&v) else { return };
                let same_block = match f.dfg.values[v].def {
                    ValueDef::Result(j, _) => f.layout.inst_block(j) == Some(b),
                    _ => false,
                };
                if logic && same_block {
                    inside = inside.max(d);
                } else {
                    outside = outside.max(d);
                }
            });
            if logic {
                for &r in &f.inst(i).results {
                    depth.insert(r, inside + 1);
                }
            }
            if outside > 0 {
                readers.insert(i, outside);
            }
        }
    }
    readers
}

/// Maps `f` (already mapped once from `logic` logic instructions, with
/// `input_pressure` registers estimated) again in rounds, keeping the
/// smallest cover whose readers' depths stay within `input`'s
/// ([`reader_depths`] of the pass's input) and whose pressure stays
/// within bounds; with `refactoring`, even rounds refactor the expanded
/// logic first, taking the refactored structure as it says. The caller checks [`MAX_LOGIC`]; `f` only shrinks.
pub(super) fn remap(
    pass: &Lop3Fuse,
    f: &mut Function,
    target: Option<TargetInfo>,
    input: &FxHashMap<Inst, u32>,
    logic: usize,
    input_pressure: u32,
    refactoring: Option<Snapshot>,
) {
    let rounds = (ROUND_WORK / logic.max(1)).min(ROUNDS);
    let with_choices = logic <= CHOICE_ROUND_LOGIC;
    // The cover the next round expands: the last round's, which may be
    // no smaller than the best so far but is a different structure.
    let mut current = f.clone();
    let mut misses = 0;
    // Registers: a round may not need more than the input or the first
    // mapping did (bit-sliced DES at sm_90 took a register more for 8
    // instructions fewer without this bound).
    let pressure_bound = input_pressure.max(super::pressure(f));
    for round in 0..rounds {
        let mut g = current.clone();
        crate::lop3_expand::Lop3Expand.run(&mut g, &mut AnalysisManager::new());
        if let (Some(how), 0) = (refactoring, round % 2) {
            super::restructure::refactor_function(&mut g, super::restructure::MIN_ROUND_NODES, how);
        }
        let this = Lop3Fuse {
            no_choices: !(with_choices && round % 2 == 1),
            remap_round: true,
            ..*pass
        };
        let (preserved, written) = this.fuse(&mut g, target);
        written.place(&mut g);
        tracing::debug!(target: "lop3-fuse", function = %f.name, round, before = current.inst_count(), after = g.inst_count(), "remap");
        if !preserved.changed() || g.inst_count() > current.inst_count() || !no_deeper(&g, input) {
            return;
        }
        if g.inst_count() < f.inst_count() {
            // Rounds seldom bring the pressure back down: one over the
            // bound ends them.
            if super::pressure(&g) > pressure_bound {
                return;
            }
            *f = g.clone();
            misses = 0;
        } else {
            misses += 1;
            if misses > PATIENCE {
                return;
            }
        }
        current = g;
    }
}

/// Whether no reader of logic in `g` sees a deeper operand than in the
/// pass's input (`input`, [`reader_depths`] of it).
pub(super) fn no_deeper(g: &Function, input: &FxHashMap<Inst, u32>) -> bool {
    reader_depths(g)
        .iter()
        .all(|(i, d)| input.get(i).is_none_or(|d0| d <= d0))
}
