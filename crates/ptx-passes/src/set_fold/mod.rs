//! `set-fold`: fold `set` and constant `selp` results into their users, and
//! simplify the select/predicate logic around them.
//!
//! A *mask value* is one known to be `P ? t : f` for a predicate `P` and
//! constants `t`, `f`: the result of `set` (`t` = `0xffffffff` or `1.0`,
//! `f` = 0, `P` its comparison) or of `selp` with two immediate arms. From
//! each such source the pass follows its users:
//!
//! * arithmetic on the value and immediates (`neg`, `not`, `abs`, `cnot`,
//!   `and`/`or`/`xor`/`add`/`sub`/`mul.lo`/`shl`/`shr`/`min`/`max` with an
//!   immediate, integer `cvt`) gives another mask value with the constants
//!   folded: it becomes `selp.bN d, op(t), op(f), P`, or disappears if all
//!   its users fold too;
//! * `setp.CMP x, K` of a mask value is `P`, `!P` (folded into guards,
//!   `selp` conditions and `.BoolOp` operands, which take the negation for
//!   free) or left alone;
//! * anything else reads the value as it is.
//!
//! The chain is rewritten only when it then has fewer instructions; a `set`
//! whose comparison is needed as a predicate becomes the `setp` of the same
//! comparison (`.BoolOp`, `c`/`!c` and `.ftz` kept).
//!
//! Further rules: `and`/`or`/`xor` of two `set` results is one `set` with
//! that `.BoolOp` over the other's `setp`; `not` of an integer `set`
//! (spelled `not.b32` or `xor.b32` with `-1`, either way round) is the
//! `set` of the complement comparison, De Morgan through a `.BoolOp`; a lone `setp` + `selp -1, 0` (or
//! `1.0, 0.0`, either order) — what LLVM writes — becomes one `set`;
//! `selp` with equal arms is a copy; `selp` of a `selp` on the same
//! predicate takes the inner arm; `slct` with an immediate selector is a
//! copy of the chosen operand.
//!
//! **Negation** of a float comparison uses the unordered complement
//! (`!lt` is `geu`), so NaN behaves exactly as before; with a `.BoolOp`,
//! De Morgan (`!(t and c)` = `!t or !c`). Guarded instructions and
//! instructions with tied results are neither folded nor folded into.
//! Sources with `f16`/`bf16`/`x2` types are left alone. Preserves the CFG.
//!
//! Parts: [`compare`] (the comparison algebra), [`chains`] (mask-value
//! chains, the main rule), [`logic`] (logic over `set` results, `setp` +
//! `selp` pairs), [`selects`] (select simplifications); this file holds the
//! pass and the order the rules run in.
//!
//! ```text
//! before:                              after:
//!   set.lt.u32.s32 %r3, %r1, %r2;        setp.lt.s32 %p1, %r1, %r2;
//!   neg.s32  %r4, %r3;                   @%p1 st.global.u32 [%rd1], %r1;
//!   setp.ne.s32 %p1, %r4, 0;
//!   @%p1 st.global.u32 [%rd1], %r1;
//! ```

mod chains;
mod compare;
mod logic;
mod selects;

use chains::*;
pub use compare::complement;
use compare::*;
use logic::*;
use selects::*;

use crate::const_fold::{mask, sext};
use crate::rewrite::plain;
use crate::{AnalysisManager, Pass, Preserved};
use ptx_ir::entity::SecondaryMap;
use ptx_ir::{BoolOp, CmpOp, Function, Imm, Inst, Mod, Opcode, Operand, Type, Value, ValueDef};
use rustc_hash::FxHashMap;
use smallvec::{smallvec, SmallVec};

/// The pass.
pub struct SetFold;

type Uses = SecondaryMap<Value, SmallVec<[Inst; 2]>>;

fn imm(o: &Operand) -> Option<u64> {
    match o {
        Operand::Imm(x) if x.is_int() || matches!(x.kind, ptx_ir::ImmKind::F32) => Some(x.bits),
        _ => None,
    }
}

/// `opcode.bN` (`selp`, `mov`) at the bit width of `ty`.
fn bits_op(f: &mut Function, opcode: Opcode, ty: Type) -> ptx_ir::OpId {
    let t = match ty.bits() {
        16 => Type::B16,
        64 => Type::B64,
        _ => Type::B32,
    };
    f.ops.intern(opcode, &[Mod::Type(t)])
}

fn hex(x: u64) -> Operand {
    Operand::Imm(Imm::hex(x))
}

impl Pass for SetFold {
    fn name(&self) -> &'static str {
        "set-fold"
    }

    fn run(&mut self, f: &mut Function, _am: &mut AnalysisManager) -> Preserved {
        // Every rule starts from a set, selp or slct.
        let any = f.layout.blocks().any(|b| {
            f.layout
                .block_insts(b)
                .any(|i| matches!(f.op(i).opcode, Opcode::Set | Opcode::Selp | Opcode::Slct))
        });
        if !any {
            return Preserved::All;
        }
        let mut changed = false;
        // Each round strictly shrinks the function or rewrites in place a
        // bounded number of times; stop at a fixed point.
        for _ in 0..8 {
            // Use lists are recomputed only after a step changed something.
            let mut round = fold_selects(f);
            round |= fold_set_of_set(f);
            let mut uses = f.uses();
            let mut step = fold_set_logic(f, &uses);
            round |= step;
            if step {
                uses = f.uses();
            }
            step = fold_chains(f, &uses);
            round |= step;
            if step {
                uses = f.uses();
            }
            round |= merge_pairs(f, &uses);
            changed |= round;
            if !round {
                break;
            }
        }
        tracing::debug!(target: "set-fold", function = %f.name, changed, "done");
        Preserved::cfg_if(changed)
    }
}
