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
//! `vote.sync.MODE d, {!}a, 0xffffffff` becomes the non-sync form (only an
//! immediate full mask is provably "every lane"). Any other mask holds,
//! by the `.sync` contract, exactly the lanes that execute the vote, so
//! the vote goes **through ballot**: on sm_20+ `b = ballot({!}a) & m`
//! gives every mode (`any`: `b != 0`; `all`: the ballot of the negation
//! is 0; `uni`: `b == 0 || b == m`).
//!
//! **Forms a target lacks**: sm_12..sm_1x have `vote.{all,any,uni}` but no
//! ballot, so `vote.ballot.b32` (and `vote.sync.ballot`) becomes 32
//! `vote.any`, bit `i` voting `a && %laneid == i`, and a masked
//! `vote.sync.{any,all,uni}` votes `a && in` / `a || !in` (`uni`: two
//! `all`s) with `in` = bit `%laneid` of the mask. Below sm_12 (no vote)
//! nothing changes. The collective votes keep the original guard, so the
//! same lanes take part.
//!
//! `legalize` runs the forward rewrite only where the non-sync form is
//! refused or unpredictable (sm_70 and newer), the backward one only
//! where `vote.sync` does not exist, and the ballot emulation only where
//! ballot does not, so on other targets it changes nothing. Preserves the
//! CFG.
//!
//! ```text
//! before:                              after (sm_80):
//!   vote.any.pred %p2, %p1;              activemask.b32 %r1;
//!                                        vote.sync.any.pred %p2, %p1, %r1;
//! ```

use crate::rewrite::{insert_before, reform};
use crate::{AnalysisManager, Pass, Preserved};
use ptx_ir::{Function, Imm, Inst, Opcode, Operand, Type};
use ptx_target::Feature;
use smallvec::smallvec;

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
        let target = am.target;
        // What to do on this target.
        let has_sync = target.is_none_or(|t| t.sm >= 30);
        let backward = target.is_some_and(|t| !t.allows(Feature::VoteSync));
        let forward =
            has_sync && !backward && (!self.only_when_needed || target.is_some_and(|t| t.sm >= 70));
        // Below sm_20 there is no ballot; below sm_12 no vote at all.
        let has_vote = target.is_none_or(|t| t.allows(Feature::NonSyncVote));
        let has_ballot = target.is_none_or(|t| t.sm >= 20);
        let insts = f.layout_insts();
        let mut changed = false;
        for i in insts {
            if f.op(i).opcode != Opcode::Vote {
                continue;
            }
            let d = f.inst(i);
            if forward && !is_sync(f, i) && d.operands.len() == 2 {
                // Under the vote's guard, so that the mask holds exactly
                // the lanes that execute the vote.
                let m = insert_before(f, i, "activemask.b32", Type::B32, smallvec![], d.guard);
                let op = f.ops.intern_text(&respell(f, i, true));
                let d = &mut f.dfg.insts[i];
                d.op = op;
                d.operands.push(Operand::Value(m));
                changed = true;
            } else if backward && is_sync(f, i) && d.operands.len() == 3 {
                let full = matches!(d.operands[2], Operand::Imm(Imm { bits, .. }) if bits as u32 == u32::MAX);
                let Some(mode) = mode(f, i) else {
                    continue;
                };
                if full && (mode != Mode::Ballot || has_ballot) {
                    let op = f.ops.intern_text(&respell(f, i, false));
                    let d = &mut f.dfg.insts[i];
                    d.op = op;
                    d.operands.truncate(2);
                    changed = true;
                } else if has_ballot {
                    through_ballot(f, i, mode);
                    changed = true;
                } else if has_vote {
                    through_lane_votes(f, i, mode);
                    changed = true;
                }
            } else if !has_ballot
                && has_vote
                && !is_sync(f, i)
                && d.operands.len() == 2
                && mode(f, i) == Some(Mode::Ballot)
            {
                through_lane_votes(f, i, Mode::Ballot);
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

/// The vote operation.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    All,
    Any,
    Uni,
    Ballot,
}

fn mode(f: &Function, i: Inst) -> Option<Mode> {
    let info = f.op(i);
    let is = |w: &str| info.mods.iter().any(|m| f.ops.is_word(*m, w));
    [
        ("all", Mode::All),
        ("any", Mode::Any),
        ("uni", Mode::Uni),
        ("ballot", Mode::Ballot),
    ]
    .into_iter()
    .find(|(w, _)| is(w))
    .map(|(_, m)| m)
}

/// `{!}p` negated.
fn negate(o: &Operand) -> Operand {
    match o {
        Operand::Not(p) => Operand::Value(*p),
        Operand::Value(p) => Operand::Not(*p),
        other => other.clone(),
    }
}

/// `vote.sync.MODE d, {!}a, m` on a target with non-sync `vote.ballot`
/// but no `vote.sync`: the lanes of `m` all execute the vote (the `.sync`
/// contract), so the non-sync ballot restricted to `m` is the ballot over
/// `m`:
///
/// ```text
/// ballot: vote.ballot.b32 t, {!}a;  and.b32 d, t, m
/// any:    (ballot({!}a) & m) != 0
/// all:    (ballot(!{!}a) & m) == 0
/// uni:    b = ballot({!}a) & m;  b == 0 || b == m
/// ```
fn through_ballot(f: &mut Function, i: Inst, mode: Mode) {
    let d = f.inst(i);
    let (guard, dv, src, m) = (
        d.guard,
        d.operands[0].clone(),
        d.operands[1].clone(),
        d.operands[2].clone(),
    );
    let voted = if mode == Mode::All { negate(&src) } else { src };
    let t = insert_before(f, i, "vote.ballot.b32", Type::B32, smallvec![voted], guard);
    if mode == Mode::Ballot {
        return reform(f, i, "and.b32", smallvec![dv, Operand::Value(t), m]);
    }
    let b = insert_before(
        f,
        i,
        "and.b32",
        Type::B32,
        smallvec![Operand::Value(t), m.clone()],
        None,
    );
    let zero = Operand::Imm(Imm::int(0));
    match mode {
        Mode::Any => reform(f, i, "setp.ne.b32", smallvec![dv, Operand::Value(b), zero]),
        Mode::All => reform(f, i, "setp.eq.b32", smallvec![dv, Operand::Value(b), zero]),
        _ => {
            let none = insert_before(
                f,
                i,
                "setp.eq.b32",
                Type::Pred,
                smallvec![Operand::Value(b), zero],
                None,
            );
            let every = insert_before(
                f,
                i,
                "setp.eq.b32",
                Type::Pred,
                smallvec![Operand::Value(b), m],
                None,
            );
            reform(
                f,
                i,
                "or.pred",
                smallvec![dv, Operand::Value(none), Operand::Value(every)],
            );
        }
    }
}

/// Vote forms on sm_12..sm_1x, which have `vote.{all,any,uni}` but no
/// ballot and no `.sync`, from `%laneid`:
///
/// * `vote.sync.{any,all,uni}` with a mask: a lane outside the mask must
///   not sway the vote, so `any` votes `a && in`, `all` votes `a || !in`,
///   and `uni` is `all(a || !in) || all(!a || !in)`;
/// * `vote.ballot.b32` (and `vote.sync.ballot`, then `& m`): bit `i` is
///   `vote.any(a && laneid == i)`, 32 votes.
fn through_lane_votes(f: &mut Function, i: Inst, mode: Mode) {
    let d = f.inst(i);
    let (guard, dv, src) = (d.guard, d.operands[0].clone(), d.operands[1].clone());
    let m = d.operands.get(2).cloned();
    // The source as a plain predicate (and/or take no `!`).
    let a = match src {
        Operand::Not(p) => insert_before(
            f,
            i,
            "not.pred",
            Type::Pred,
            smallvec![Operand::Value(p)],
            None,
        ),
        Operand::Value(p) => p,
        // Not a predicate source: nothing emitted, nothing to do.
        _ => return,
    };
    let lane_sym = f.ops.sym("%laneid");
    let lane = insert_before(
        f,
        i,
        "mov.u32",
        Type::B32,
        smallvec![Operand::Special(lane_sym)],
        None,
    );
    let lane = Operand::Value(lane);
    let a = Operand::Value(a);
    let zero = Operand::Imm(Imm::int(0));
    if mode == Mode::Ballot {
        let mut acc: Option<Operand> = None;
        for k in 0..32u32 {
            let at_k = insert_before(
                f,
                i,
                "setp.eq.u32",
                Type::Pred,
                smallvec![lane.clone(), Operand::Imm(Imm::int(k as i64))],
                None,
            );
            let q = insert_before(
                f,
                i,
                "and.pred",
                Type::Pred,
                smallvec![a.clone(), Operand::Value(at_k)],
                None,
            );
            let s = insert_before(
                f,
                i,
                "vote.any.pred",
                Type::Pred,
                smallvec![Operand::Value(q)],
                guard,
            );
            let bit = Operand::Imm(Imm::hex(1u64 << k));
            let b = insert_before(
                f,
                i,
                "selp.b32",
                Type::B32,
                smallvec![bit, zero.clone(), Operand::Value(s)],
                None,
            );
            acc = Some(match acc {
                None => Operand::Value(b),
                Some(x) => Operand::Value(insert_before(
                    f,
                    i,
                    "or.b32",
                    Type::B32,
                    smallvec![x, Operand::Value(b)],
                    None,
                )),
            });
        }
        let acc = acc.expect("32 lanes");
        return match m {
            Some(m) => reform(f, i, "and.b32", smallvec![dv, acc, m]),
            None => reform(f, i, "mov.b32", smallvec![dv, acc]),
        };
    }
    let Some(m) = m else { return };
    // Bit `laneid` of the mask.
    let shifted = insert_before(f, i, "shr.b32", Type::B32, smallvec![m, lane], None);
    let bit = insert_before(
        f,
        i,
        "and.b32",
        Type::B32,
        smallvec![Operand::Value(shifted), Operand::Imm(Imm::int(1))],
        None,
    );
    let bit = Operand::Value(bit);
    if mode == Mode::Any {
        let inside = insert_before(f, i, "setp.ne.b32", Type::Pred, smallvec![bit, zero], None);
        let q = insert_before(
            f,
            i,
            "and.pred",
            Type::Pred,
            smallvec![a, Operand::Value(inside)],
            None,
        );
        return reform(f, i, "vote.any.pred", smallvec![dv, Operand::Value(q)]);
    }
    let out = insert_before(f, i, "setp.eq.b32", Type::Pred, smallvec![bit, zero], None);
    let out = Operand::Value(out);
    match mode {
        Mode::All => {
            let q = insert_before(f, i, "or.pred", Type::Pred, smallvec![a, out], None);
            reform(f, i, "vote.all.pred", smallvec![dv, Operand::Value(q)]);
        }
        _ => {
            let q1 = insert_before(
                f,
                i,
                "or.pred",
                Type::Pred,
                smallvec![a.clone(), out.clone()],
                None,
            );
            let x1 = insert_before(
                f,
                i,
                "vote.all.pred",
                Type::Pred,
                smallvec![Operand::Value(q1)],
                guard,
            );
            let na = insert_before(f, i, "not.pred", Type::Pred, smallvec![a], None);
            let q2 = insert_before(
                f,
                i,
                "or.pred",
                Type::Pred,
                smallvec![Operand::Value(na), out],
                None,
            );
            let x2 = insert_before(
                f,
                i,
                "vote.all.pred",
                Type::Pred,
                smallvec![Operand::Value(q2)],
                guard,
            );
            reform(
                f,
                i,
                "or.pred",
                smallvec![dv, Operand::Value(x1), Operand::Value(x2)],
            );
        }
    }
}
