//! `lower-vote` and `legalize`: rewrite `vote` for what the target allows.
//!
//! **Forward** (the default of `lower-vote`): a non-sync
//! `vote.{all,any,uni}.pred d, {!}a` or `vote.ballot.b32 d, {!}a` becomes
//!
//! ```text
//!   @g activemask.b32 m;
//!   @g vote.sync.MODE d, {!}a, m;
//! ```
//!
//! with the guard copied, so that `activemask` sees exactly the lanes that
//! execute the vote: the result is the old one in divergent code too
//! (`../shared/docs/ptx-semantics.md` §8.5). This needs PTX 6.2 (for
//! `activemask`) and sm_30; the pass records PTX 6.2 as the function's
//! minimum and the driver raises `.version`. Below sm_30 nothing changes.
//!
//! **Backward**, on targets without `vote.sync` (below sm_30 or PTX 6.0):
//! `vote.sync.MODE d, {!}a, 0xffffffff` becomes the non-sync form. Only an
//! immediate full mask is provably "every lane"; anything else stays.
//!
//! `legalize` runs the forward rewrite only where the non-sync form is
//! refused or unpredictable (sm_70 and newer) and the backward one only
//! where `vote.sync` does not exist, so on other targets it changes
//! nothing. Preserves the CFG.
//!
//! ```text
//! before:                              after (sm_80):
//!   vote.any.pred %p2, %p1;              activemask.b32 %r1;
//!                                        vote.sync.any.pred %p2, %p1, %r1;
//! ```

use crate::{AnalysisManager, Pass, Preserved};
use ptx_ir::{Function, Imm, Inst, Mod, Opcode, Operand, Type, ValueDef};
use ptx_target::{Feature, PtxVersion, Sm};

/// The pass; `legalize` rewrites only what the target needs.
pub struct LowerVote {
    /// Only where the target needs it (`legalize`), rather than always.
    pub only_when_needed: bool,
}

fn is_sync(f: &Function, i: Inst) -> bool {
    f.op(i).mods.iter().any(|m| f.ops.is_word(*m, "sync"))
}

/// The spelling of `i` with `.sync` added after the mnemonic or removed.
fn respell(f: &Function, i: Inst, sync: bool) -> String {
    let info = f.op(i);
    let mut parts: Vec<&str> = info.text.split('.').collect();
    if sync {
        parts.insert(1, "sync");
    } else {
        parts.retain(|p| *p != "sync");
    }
    parts.join(".")
}

impl Pass for LowerVote {
    fn name(&self) -> &'static str {
        if self.only_when_needed {
            "legalize"
        } else {
            "lower-vote"
        }
    }

    fn run(&mut self, f: &mut Function, am: &mut AnalysisManager) -> Preserved {
        let target = am.target.map(|t| {
            (
                Sm {
                    number: t.sm,
                    suffix: None,
                },
                PtxVersion(t.ptx.0, t.ptx.1),
            )
        });
        // What to do on this target.
        let has_sync = target.is_none_or(|(sm, _)| sm.number >= 30);
        let backward = target.is_some_and(|(sm, ptx)| !Feature::VoteSync.allowed(sm, ptx));
        let forward = has_sync
            && !backward
            && (!self.only_when_needed || target.is_some_and(|(sm, _)| sm.number >= 70));
        let insts = f.layout_insts();
        let mut changed = false;
        for i in insts {
            if f.op(i).opcode != Opcode::Vote {
                continue;
            }
            let d = f.inst(i);
            if forward && !is_sync(f, i) && d.operands.len() == 2 {
                let guard = d.guard;
                let am_op = f.ops.intern(Opcode::Activemask, &[Mod::Type(Type::B32)]);
                let m = f.insert_def_before(i, am_op, Type::B32, []);
                let ValueDef::Result(a, _) = f.dfg.values[m].def else {
                    unreachable!("insert_def_before defines its result")
                };
                if guard.is_some() {
                    // Guarded off, the register keeps whatever it held.
                    let old = f.dfg.make_value(Type::B32, ValueDef::Undef, None);
                    f.dfg.insts[a].guard = guard;
                    f.dfg.insts[a].ties.push(old);
                }
                let op = f.ops.intern_text(&respell(f, i, true));
                let d = &mut f.dfg.insts[i];
                d.op = op;
                d.operands.push(Operand::Value(m));
                changed = true;
            } else if backward && is_sync(f, i) && d.operands.len() == 3 {
                let full = matches!(d.operands[2], Operand::Imm(Imm { bits, .. }) if bits as u32 == u32::MAX);
                if !full {
                    continue;
                }
                let op = f.ops.intern_text(&respell(f, i, false));
                let d = &mut f.dfg.insts[i];
                d.op = op;
                d.operands.truncate(2);
                changed = true;
            }
        }
        if changed && forward {
            let (v, _) = Feature::Activemask.minimum();
            am.require_ptx((v.0, v.1));
        }
        Preserved::cfg_if(changed)
    }
}
