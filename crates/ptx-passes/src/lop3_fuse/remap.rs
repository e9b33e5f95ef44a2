//! Remapping: full `lop3-fuse` maps its own cover again.
//!
//! A cover's lop3s, expanded back into their minimal `and`/`or`/`xor`/`not`
//! formulas (`lop3-expand`), are a structure the input did not have: its
//! cuts differ, and mapping it again can find a smaller cover, as ABC's
//! scripts find by iterating mapping and choice computation. A round is
//! kept only when it has fewer instructions than the last one kept and no
//! reader of the logic (an instruction outside a block's network) sees a
//! deeper operand than in the input to the pass; at most [`ROUNDS`]
//! rounds, the first that gains nothing ends them, and functions with
//! more than [`MAX_LOGIC`] logic instructions are not remapped (each round
//! costs a whole mapping).
//!
//! Invariants: every round is an ordinary run of the pass, checked piece
//! by piece as the first; the function is replaced only by a round's
//! whole result.

use super::Lop3Fuse;
use crate::TargetInfo;
use crate::{AnalysisManager, Pass};
use ptx_ir::{Function, Inst, Opcode, Type, Value, ValueDef};
use rustc_hash::FxHashMap;

/// Remapping rounds after the first mapping, at most.
pub(super) const ROUNDS: usize = 2;
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

/// Maps `f` (already mapped once) again while that saves instructions
/// and keeps every reader's depth within `input`'s ([`reader_depths`] of
/// the pass's input). The caller checks [`MAX_LOGIC`]; rounds only shrink
/// the function.
pub(super) fn remap(
    pass: &Lop3Fuse,
    f: &mut Function,
    target: Option<TargetInfo>,
    input: &FxHashMap<Inst, u32>,
) {
    for round in 0..ROUNDS {
        let mut g = f.clone();
        crate::lop3_expand::Lop3Expand.run(&mut g, &mut AnalysisManager::new());
        let plain = Lop3Fuse {
            no_choices: true,
            ..*pass
        };
        let (preserved, written) = plain.fuse(&mut g, target);
        written.place(&mut g);
        let fewer = g.inst_count() < f.inst_count();
        let no_deeper = || {
            reader_depths(&g)
                .iter()
                .all(|(i, d)| input.get(i).is_none_or(|d0| d <= d0))
        };
        tracing::debug!(target: "lop3-fuse", function = %f.name, round, before = f.inst_count(), after = g.inst_count(), "remap");
        if !preserved.changed() || !fewer || !no_deeper() {
            return;
        }
        *f = g;
    }
}
