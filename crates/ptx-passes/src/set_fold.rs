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
//! ```text
//! before:                              after:
//!   set.lt.u32.s32 %r3, %r1, %r2;        setp.lt.s32 %p1, %r1, %r2;
//!   neg.s32  %r4, %r3;                   @%p1 st.global.u32 [%rd1], %r1;
//!   setp.ne.s32 %p1, %r4, 0;
//!   @%p1 st.global.u32 [%rd1], %r1;
//! ```

use crate::const_fold::{mask, sext};
use crate::{AnalysisManager, Pass, Preserved};
use ptx_ir::entity::SecondaryMap;
use ptx_ir::{BoolOp, CmpOp, Function, Imm, Inst, Mod, Opcode, Operand, Type, Value, ValueDef};
use rustc_hash::FxHashMap;
use smallvec::{smallvec, SmallVec};

/// The pass.
pub struct SetFold;

type Uses = SecondaryMap<Value, SmallVec<[Inst; 2]>>;

/// Whether `i` may be rewritten or folded: unguarded, no tied results.
fn plain(f: &Function, i: Inst) -> bool {
    let d = f.inst(i);
    d.guard.is_none() && d.ties.is_empty() && f.layout.inst_block(i).is_some()
}

fn imm(o: &Operand) -> Option<u64> {
    match o {
        Operand::Imm(x) if x.is_int() || matches!(x.kind, ptx_ir::ImmKind::F32) => Some(x.bits),
        _ => None,
    }
}

/// The complement of a comparison: for floats the unordered opposite.
pub fn complement(c: CmpOp, float: bool) -> CmpOp {
    use CmpOp::*;
    if float {
        match c {
            Eq => Neu,
            Ne => Equ,
            Lt => Geu,
            Le => Gtu,
            Gt => Leu,
            Ge => Ltu,
            Equ => Ne,
            Neu => Eq,
            Ltu => Ge,
            Leu => Gt,
            Gtu => Le,
            Geu => Lt,
            Num => Nan,
            Nan => Num,
            other => other,
        }
    } else {
        match c {
            Eq => Ne,
            Ne => Eq,
            Lt => Ge,
            Ge => Lt,
            Le => Gt,
            Gt => Le,
            Lo => Hs,
            Hs => Lo,
            Ls => Hi,
            Hi => Ls,
            other => other,
        }
    }
}

/// Integer comparison at a type's width.
fn compare(c: CmpOp, a: u64, b: u64, ty: Type) -> Option<bool> {
    let bits = ty.bits();
    let (a, b) = (a & mask(bits), b & mask(bits));
    let (sa, sb) = (sext(a, bits), sext(b, bits));
    let signed = ty.is_signed();
    Some(match c {
        CmpOp::Eq => a == b,
        CmpOp::Ne => a != b,
        CmpOp::Lt if signed => sa < sb,
        CmpOp::Le if signed => sa <= sb,
        CmpOp::Gt if signed => sa > sb,
        CmpOp::Ge if signed => sa >= sb,
        CmpOp::Lt | CmpOp::Lo => a < b,
        CmpOp::Le | CmpOp::Ls => a <= b,
        CmpOp::Gt | CmpOp::Hi => a > b,
        CmpOp::Ge | CmpOp::Hs => a >= b,
        _ => return None,
    })
}

/// Scalar source types a `set`/`setp` conversion may use.
fn classic_stype(t: Type) -> bool {
    matches!(
        t,
        Type::F16
            | Type::BF16
            | Type::B16
            | Type::B32
            | Type::B64
            | Type::U16
            | Type::U32
            | Type::U64
            | Type::S16
            | Type::S32
            | Type::S64
            | Type::F32
            | Type::F64
    )
}

/// A `set` whose dtype/stype this pass handles: (dtype, stype, TRUE bits).
fn set_form(f: &Function, i: Inst) -> Option<(Type, Type, u64)> {
    let info = f.op(i);
    if info.opcode != Opcode::Set || !plain(f, i) || f.inst(i).results.len() != 1 {
        return None;
    }
    let mut types = info.types();
    let (d, s) = (types.next()?, types.next()?);
    if types.next().is_some() || !classic_stype(s) {
        return None;
    }
    let t = match d {
        Type::U32 | Type::S32 => 0xffff_ffff,
        Type::F32 => 0x3f80_0000,
        Type::U16 | Type::S16 => 0xffff,
        Type::F16 => 0x3c00,
        Type::BF16 => 0x3f80,
        _ => return None,
    };
    (f.inst(i).operands.first() == Some(&Operand::Value(f.inst(i).results[0]))).then_some((d, s, t))
}

/// The mods of the `setp` computing a `set`'s comparison (dtype dropped).
fn setp_mods(f: &Function, set: Inst) -> Vec<Mod> {
    let mut seen_type = false;
    f.op(set)
        .mods
        .iter()
        .filter(|m| {
            if matches!(m, Mod::Type(_)) && !seen_type {
                seen_type = true;
                return false;
            }
            true
        })
        .copied()
        .collect()
}

/// Rewrites `set` in place into the `setp` of its comparison; returns the
/// new predicate (the set's value is no longer defined).
fn set_to_setp(f: &mut Function, set: Inst) -> Value {
    let op = f.ops.intern(Opcode::Setp, &setp_mods(f, set));
    let p = f.dfg.make_value(Type::Pred, ValueDef::Result(set, 0), None);
    let d = &mut f.dfg.insts[set];
    d.op = op;
    d.operands[0] = Operand::Value(p);
    d.results = smallvec![p];
    p
}

/// Complements the comparison in `mods` (and the `.BoolOp`, De Morgan),
/// returning the new mods and whether `c` must be negated.
fn complement_mods(mods: &[Mod], float: bool) -> (Vec<Mod>, bool) {
    let mut negate_c = false;
    let out = mods
        .iter()
        .map(|m| match *m {
            Mod::Cmp(c) => Mod::Cmp(complement(c, float)),
            Mod::Bool(BoolOp::And) => {
                negate_c = true;
                Mod::Bool(BoolOp::Or)
            }
            Mod::Bool(BoolOp::Or) => {
                negate_c = true;
                Mod::Bool(BoolOp::And)
            }
            other => other,
        })
        .collect();
    (out, negate_c)
}

fn negate_operand(o: &Operand) -> Operand {
    match o {
        Operand::Value(v) => Operand::Not(*v),
        Operand::Not(v) => Operand::Value(*v),
        other => other.clone(),
    }
}

/// The constant result of unary/immediate arithmetic `i` on `x`, if `i` is
/// of that shape with `v` as its one register source: (result, width).
fn fold_op(f: &Function, i: Inst, v: Value, x: u64) -> Option<(u64, Type)> {
    let info = f.op(i);
    let d = f.inst(i);
    if !plain(f, i)
        || d.results.len() != 1
        || d.operands.first() != Some(&Operand::Value(d.results[0]))
    {
        return None;
    }
    let words: Vec<Mod> = info
        .mods
        .iter()
        .filter(|m| !matches!(m, Mod::Type(_)))
        .copied()
        .collect();
    let lo = |m: &Mod| matches!(m, Mod::Cmp(CmpOp::Lo)) || f.ops.is_word(*m, "lo");
    if info.opcode == Opcode::Set {
        // `set.CMP d, v, K` (or `K, v`) of a mask value: another one.
        let (dty, sty, t) = set_form(f, i)?;
        if !sty.is_integer()
            || info.bool_op().is_some()
            || d.operands.len() != 3
            || info.mods.iter().any(|m| matches!(m, Mod::Word(_)))
        {
            return None;
        }
        let c = info.cmp()?;
        let r = match (&d.operands[1], &d.operands[2]) {
            (Operand::Value(w), k) if *w == v => compare(c, x, imm(k)?, sty)?,
            (k, Operand::Value(w)) if *w == v => compare(c, imm(k)?, x, sty)?,
            _ => return None,
        };
        return Some((if r { t } else { 0 }, dty));
    }
    let ty = info.last_type()?;
    if !ty.is_integer() || ty.bits() > 64 {
        return None;
    }
    let bits = ty.bits();
    let m = mask(bits);
    let srcs = &d.operands[1..];
    match info.opcode {
        Opcode::Neg | Opcode::Not | Opcode::Abs | Opcode::Cnot => {
            if !words.is_empty() || srcs != [Operand::Value(v)] {
                return None;
            }
            let a = x & m;
            let r = match info.opcode {
                Opcode::Neg => a.wrapping_neg(),
                Opcode::Not => !a,
                Opcode::Cnot => (a == 0) as u64,
                _ if ty.is_signed() => sext(a, bits).unsigned_abs(),
                _ => return None,
            };
            Some((r & m, ty))
        }
        Opcode::Cvt => {
            let mut types = info.types();
            let (dt, st) = (types.next()?, types.next()?);
            if !words.is_empty()
                || !dt.is_integer()
                || !st.is_integer()
                || srcs != [Operand::Value(v)]
            {
                return None;
            }
            let a = x & mask(st.bits());
            let wide = if st.is_signed() {
                sext(a, st.bits()) as u64
            } else {
                a
            };
            Some((wide & mask(dt.bits()), dt))
        }
        Opcode::And
        | Opcode::Or
        | Opcode::Xor
        | Opcode::Add
        | Opcode::Sub
        | Opcode::Mul
        | Opcode::Shl
        | Opcode::Shr
        | Opcode::Min
        | Opcode::Max => {
            let ok_words = match info.opcode {
                Opcode::Mul => words.len() == 1 && lo(&words[0]),
                _ => words.is_empty(),
            };
            if !ok_words || srcs.len() != 2 {
                return None;
            }
            let (a, b) = match (&srcs[0], &srcs[1]) {
                (Operand::Value(w), k) if *w == v => (x, imm(k)?),
                (k, Operand::Value(w)) if *w == v => (imm(k)?, x),
                _ => return None,
            };
            let (a, b) = (a & m, b & m);
            let signed = ty.is_signed();
            let r = match info.opcode {
                Opcode::And => a & b,
                Opcode::Or => a | b,
                Opcode::Xor => a ^ b,
                Opcode::Add => a.wrapping_add(b),
                Opcode::Sub => a.wrapping_sub(b),
                Opcode::Mul => a.wrapping_mul(b),
                Opcode::Shl => {
                    if b >= bits as u64 {
                        0
                    } else {
                        a << b
                    }
                }
                Opcode::Shr if signed => (sext(a, bits) >> b.min(bits as u64 - 1)) as u64,
                Opcode::Shr => {
                    if b >= bits as u64 {
                        0
                    } else {
                        a >> b
                    }
                }
                Opcode::Min if signed => sext(a, bits).min(sext(b, bits)) as u64,
                Opcode::Max if signed => sext(a, bits).max(sext(b, bits)) as u64,
                Opcode::Min => a.min(b),
                _ => a.max(b),
            };
            Some((r & m, ty))
        }
        _ => None,
    }
}

/// `setp.CMP.T q, v, K` (or `K, v`) without `.BoolOp`: the predicate for
/// `v = t` and for `v = f`.
fn fold_setp(f: &Function, i: Inst, v: Value, t: u64, fv: u64) -> Option<(bool, bool)> {
    let info = f.op(i);
    let d = f.inst(i);
    if info.opcode != Opcode::Setp
        || !plain(f, i)
        || info.bool_op().is_some()
        || d.operands.len() != 3
    {
        return None;
    }
    if d.results.len() != 1 || d.operands[0] != Operand::Value(d.results[0]) {
        return None;
    }
    if info.mods.iter().any(|m| matches!(m, Mod::Word(_))) {
        return None;
    }
    let ty = info.last_type()?;
    if !ty.is_integer() {
        return None;
    }
    let c = info.cmp()?;
    let (rt, rf) = match (&d.operands[1], &d.operands[2]) {
        (Operand::Value(w), k) if *w == v => {
            (compare(c, t, imm(k)?, ty)?, compare(c, fv, imm(k)?, ty)?)
        }
        (k, Operand::Value(w)) if *w == v => {
            (compare(c, imm(k)?, t, ty)?, compare(c, imm(k)?, fv, ty)?)
        }
        _ => return None,
    };
    Some((rt, rf))
}

/// Whether every use of predicate `q` takes a negation for free.
fn negatable(f: &Function, q: Value, uses: &Uses) -> bool {
    uses[q].iter().all(|&u| {
        let d = f.inst(u);
        let info = f.op(u);
        let mut ok = true;
        let mut count = 0;
        if d.guard.is_some_and(|g| g.pred == q) {
            count += 1;
        }
        for (k, o) in d.operands.iter().enumerate() {
            let mut here = false;
            o.for_each_value(&mut |v| here |= v == q);
            if !here || d.results.contains(&q) {
                continue;
            }
            count += 1;
            let selp_cond = info.opcode == Opcode::Selp && k == 3 && *o == Operand::Value(q);
            let bool_c = matches!(info.opcode, Opcode::Setp | Opcode::Set)
                && info.bool_op().is_some()
                && k == 3
                && matches!(o, Operand::Value(_) | Operand::Not(_));
            ok &= selp_cond || bool_c;
        }
        ok && count > 0
            && d.ties.iter().all(|&t| t != q)
            && d.targets.iter().all(|t| !t.args.contains(&q))
    })
}

/// Rewrites every use of `q` to read `!p`.
fn use_negated(f: &mut Function, q: Value, p: Value, uses: &Uses) {
    for &u in &uses[q] {
        let opcode = f.op(u).opcode;
        let d = &mut f.dfg.insts[u];
        if let Some(g) = &mut d.guard {
            if g.pred == q {
                g.pred = p;
                g.negated = !g.negated;
            }
        }
        if opcode == Opcode::Selp && d.operands.get(3) == Some(&Operand::Value(q)) {
            d.operands.swap(1, 2);
            d.operands[3] = Operand::Value(p);
        } else if let Some(o) = d.operands.get_mut(3) {
            match o {
                Operand::Value(v) if *v == q => *o = Operand::Not(p),
                Operand::Not(v) if *v == q => *o = Operand::Value(p),
                _ => {}
            }
        }
    }
}

/// One mask value in a source's closure.
struct Node {
    value: Value,
    /// Defining instruction (the source for the root).
    def: Inst,
    t: u64,
    f: u64,
    ty: Type,
    /// Read by something that needs the number.
    sink: bool,
}

/// The chain from one source, and what folding it would do.
struct Closure {
    nodes: Vec<Node>,
    /// `setp`s that become `P` (false) or `!P` (true).
    preds: Vec<(Inst, bool)>,
}

fn closure(
    f: &Function,
    root: Value,
    def: Inst,
    t: u64,
    fv: u64,
    ty: Type,
    uses: &Uses,
) -> Closure {
    let mut c = Closure {
        nodes: vec![Node {
            value: root,
            def,
            t,
            f: fv,
            ty,
            sink: false,
        }],
        preds: Vec::new(),
    };
    let mut k = 0;
    while k < c.nodes.len() {
        let (v, t, fv) = (c.nodes[k].value, c.nodes[k].t, c.nodes[k].f);
        for &u in &uses[v] {
            if let (Some((rt, uty)), Some((rf, _))) = (fold_op(f, u, v, t), fold_op(f, u, v, fv)) {
                if !matches!(uty.bits(), 16 | 32 | 64) {
                    c.nodes[k].sink = true;
                    continue;
                }
                c.nodes.push(Node {
                    value: f.inst(u).results[0],
                    def: u,
                    t: rt,
                    f: rf,
                    ty: uty,
                    sink: false,
                });
                continue;
            }
            if let Some((pt, pf)) = fold_setp(f, u, v, t, fv) {
                let q = f.inst(u).results[0];
                if pt && !pf {
                    c.preds.push((u, false));
                    continue;
                }
                if !pt && pf && negatable(f, q, uses) {
                    c.preds.push((u, true));
                    continue;
                }
            }
            c.nodes[k].sink = true;
        }
        k += 1;
    }
    c
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

/// Folds the chains of every mask source; returns whether anything changed.
fn fold_chains(f: &mut Function, uses: &Uses) -> bool {
    let insts = f.layout_insts();
    let mut changed = false;
    let mut renames: FxHashMap<Value, Value> = FxHashMap::default();
    let mut dead: Vec<Inst> = Vec::new();
    let mut touched: rustc_hash::FxHashSet<Inst> = Default::default();
    for &i in &insts {
        if touched.contains(&i) || f.layout.inst_block(i).is_none() {
            continue;
        }
        // The source: a set, or a selp of two immediates.
        let (root, t, fv, ty, pred) = if let Some((d, _, t)) = set_form(f, i) {
            (f.inst(i).results[0], t, 0, d, None)
        } else {
            let info = f.op(i);
            let d = f.inst(i);
            if info.opcode != Opcode::Selp || !plain(f, i) || d.results.len() != 1 {
                continue;
            }
            let (Some(a), Some(b), Some(Operand::Value(p))) = (
                d.operands.get(1).and_then(imm),
                d.operands.get(2).and_then(imm),
                d.operands.get(3),
            ) else {
                continue;
            };
            let Some(ty) = info.last_type().filter(|t| t.bits() <= 64) else {
                continue;
            };
            (
                d.results[0],
                a & mask(ty.bits()),
                b & mask(ty.bits()),
                ty,
                Some(*p),
            )
        };
        let c = closure(f, root, i, t, fv, ty, uses);
        if c.nodes.iter().any(|n| touched.contains(&n.def))
            || c.preds.iter().any(|p| touched.contains(&p.0))
        {
            continue;
        }
        // Instructions now and after the fold. A derived value that is
        // the same either way (`set.eq` of a set result against 1, say)
        // becomes a constant and needs no predicate.
        let before = c.nodes.len() + c.preds.len();
        let derived_sinks = c.nodes[1..].iter().filter(|n| n.sink).count();
        let needs_pred = !c.preds.is_empty() || c.nodes[1..].iter().any(|n| n.sink && n.t != n.f);
        let after = derived_sinks
            + usize::from(c.nodes[0].sink)
            + usize::from(pred.is_none() && needs_pred);
        if after >= before {
            continue;
        }
        // The predicate: the selp's, or the set's comparison as a setp.
        let p = match pred {
            _ if !needs_pred => None,
            Some(p) => Some(p),
            None => Some(if c.nodes[0].sink {
                // The set stays; its setp goes right before it.
                let op = f.ops.intern(Opcode::Setp, &setp_mods(f, i));
                let srcs: SmallVec<[Operand; 3]> =
                    f.inst(i).operands[1..].iter().cloned().collect();
                f.insert_def_before(i, op, Type::Pred, srcs)
            } else {
                set_to_setp(f, i)
            }),
        };
        // The source goes unless something still reads it, or its
        // comparison became the setp.
        if !c.nodes[0].sink && (pred.is_some() || p.is_none()) {
            dead.push(i);
        }
        for n in &c.nodes[1..] {
            touched.insert(n.def);
            if !n.sink {
                dead.push(n.def);
                continue;
            }
            let m = mask(n.ty.bits());
            let (op, operands): (_, SmallVec<[Operand; 4]>) = match p {
                Some(p) if n.t != n.f => (
                    bits_op(f, Opcode::Selp, n.ty),
                    smallvec![
                        Operand::Value(n.value),
                        hex(n.t & m),
                        hex(n.f & m),
                        Operand::Value(p)
                    ],
                ),
                _ => (
                    bits_op(f, Opcode::Mov, n.ty),
                    smallvec![Operand::Value(n.value), hex(n.t & m)],
                ),
            };
            let d = &mut f.dfg.insts[n.def];
            d.op = op;
            d.operands = operands.into_iter().collect();
        }
        for &(s, negated) in &c.preds {
            touched.insert(s);
            let q = f.inst(s).results[0];
            let p = p.expect("a folded setp needs the predicate");
            if negated {
                use_negated(f, q, p, uses);
            } else {
                renames.insert(q, p);
            }
            dead.push(s);
        }
        touched.insert(i);
        changed = true;
    }
    for i in dead {
        if f.layout.inst_block(i).is_some() {
            f.layout.remove_inst(i);
        }
    }
    crate::rewrite::replace_all_uses(f, &renames);
    changed
}

/// `set.CMP d, s, K` where `s` is another `set`'s result (0 or its true
/// value): when both outcomes compare alike, `d` is a constant (`mov`);
/// when the comparison just repeats `s` with the same true value, `d` is
/// `s`. (`set.eq(set.ne(a, b), 1)` is always 0, and ptxas 13.0 compiles it
/// wrongly — as `set.ne(a, b)` — so folding it is a fix as well as a
/// saving; see docs/evaluator.md, "GPU cross-check".)
fn fold_set_of_set(f: &mut Function) -> bool {
    let mut changed = false;
    let mut renames: FxHashMap<Value, Value> = FxHashMap::default();
    for i in f.layout_insts() {
        let Some(r) = fold_op_of_set(f, i) else {
            continue;
        };
        let d = f.inst(i).results[0];
        match r {
            Err(same) => {
                renames.insert(d, same);
                f.layout.remove_inst(i);
            }
            Ok((bits, ty)) => {
                let op = bits_op(f, Opcode::Mov, ty);
                let di = &mut f.dfg.insts[i];
                di.op = op;
                di.operands = smallvec![Operand::Value(d), hex(bits)];
            }
        }
        changed = true;
    }
    crate::rewrite::replace_all_uses(f, &renames);
    changed
}

/// For [`fold_set_of_set`]: `Ok(constant)` or `Err(the set it repeats)`.
fn fold_op_of_set(f: &Function, i: Inst) -> Option<Result<(u64, Type), Value>> {
    let (dty, _, _) = set_form(f, i)?;
    let d = f.inst(i);
    let v = d.operands[1..].iter().find_map(|o| match o {
        Operand::Value(v) => Some(*v),
        _ => None,
    })?;
    let ValueDef::Result(s, _) = f.dfg.values[v].def else {
        return None;
    };
    let (sdty, _, st) = set_form(f, s)?;
    let (rt, _) = fold_op(f, i, v, st)?;
    let (rf, _) = fold_op(f, i, v, 0)?;
    if rt == rf {
        Some(Ok((rt, dty)))
    } else if rf == 0 && rt == st && sdty.bits() == dty.bits() && sdty.is_float() == dty.is_float()
    {
        Some(Err(v))
    } else {
        None
    }
}

/// `and`/`or`/`xor` of two `set` results, and `not` of an integer `set`.
fn fold_set_logic(f: &mut Function, uses: &Uses) -> bool {
    let insts = f.layout_insts();
    let mut changed = false;
    for i in insts {
        if f.layout.inst_block(i).is_none() || !plain(f, i) {
            continue;
        }
        let info = f.op(i);
        let d = f.inst(i);
        let single = |v: Value| uses[v].len() == 1 && uses[v][0] == i;
        let set_of = |o: &Operand| -> Option<(Inst, (Type, Type, u64))> {
            let Operand::Value(v) = o else { return None };
            let ValueDef::Result(s, 0) = f.dfg.values[*v].def else {
                return None;
            };
            let form = set_form(f, s)?;
            single(*v).then_some((s, form))
        };
        // The complement of a -1/0 set, spelled `not.b32 d, s` or (as
        // LLVM and nvcc write it) `xor.b32 d, s, -1` either way round.
        let ones = |o: &Operand| imm(o).is_some_and(|x| x & 0xffff_ffff == 0xffff_ffff);
        let negated = match (info.opcode, &d.operands[..]) {
            (Opcode::Not, [_, s]) => Some(s),
            (Opcode::Xor, [_, s, k]) | (Opcode::Xor, [_, k, s]) if ones(k) => Some(s),
            _ => None,
        };
        let bool_op = match info.opcode {
            _ if negated.is_some() => {
                let Some((s, (dt, st, _))) = negated.and_then(set_of) else {
                    continue;
                };
                if !matches!(dt, Type::U32 | Type::S32)
                    || info.last_type().is_none_or(|t| t.bits() != 32)
                {
                    continue;
                }
                let dest = d.operands[0].clone();
                let (mods, negate_c) = complement_mods(&f.op(s).mods, st.is_float());
                let op = f.ops.intern(Opcode::Set, &mods);
                let mut operands = f.inst(s).operands.clone();
                operands[0] = dest;
                if negate_c {
                    if let Some(c) = operands.get_mut(3) {
                        *c = negate_operand(c);
                    }
                }
                let dd = &mut f.dfg.insts[i];
                dd.op = op;
                dd.operands = operands;
                f.layout.remove_inst(s);
                changed = true;
                continue;
            }
            Opcode::And => BoolOp::And,
            Opcode::Or => BoolOp::Or,
            Opcode::Xor => BoolOp::Xor,
            _ => continue,
        };
        if d.operands.len() != 3 || info.last_type().is_none_or(|t| t.bits() != 32) {
            continue;
        }
        let (Some(a), Some(b)) = (set_of(&d.operands[1]), set_of(&d.operands[2])) else {
            continue;
        };
        if a.0 == b.0 || a.1 .0 != b.1 .0 {
            continue;
        }
        // The set without a BoolOp takes this one; the other becomes its c.
        let (inner, outer) = if f.op(b.0).bool_op().is_none() {
            (a.0, b.0)
        } else if f.op(a.0).bool_op().is_none() {
            (b.0, a.0)
        } else {
            continue;
        };
        let p = set_to_setp(f, inner);
        let mut mods = f.op(outer).mods.to_vec();
        mods.insert(1, Mod::Bool(bool_op));
        let op = f.ops.intern(Opcode::Set, &mods);
        let mut operands = f.inst(outer).operands.clone();
        operands[0] = f.inst(i).operands[0].clone();
        operands.push(Operand::Value(p));
        let dd = &mut f.dfg.insts[i];
        dd.op = op;
        dd.operands = operands;
        f.layout.remove_inst(outer);
        changed = true;
    }
    changed
}

/// `setp` + lone `selp -1, 0` / `1.0, 0.0` (either order) → `set`.
fn merge_pairs(f: &mut Function, uses: &Uses) -> bool {
    let insts = f.layout_insts();
    let mut changed = false;
    for s in insts {
        let info = f.op(s);
        let d = f.inst(s);
        if info.opcode != Opcode::Setp || !plain(f, s) || d.results.len() != 1 {
            continue;
        }
        let p = d.results[0];
        if d.operands.first() != Some(&Operand::Value(p)) || uses[p].len() != 1 {
            continue;
        }
        let Some(st) = info.last_type().filter(|t| classic_stype(*t)) else {
            continue;
        };
        if info.types().count() != 1 {
            continue;
        }
        let u = uses[p][0];
        let ud = f.inst(u);
        let uinfo = f.op(u);
        if uinfo.opcode != Opcode::Selp
            || !plain(f, u)
            || ud.operands.get(3) != Some(&Operand::Value(p))
        {
            continue;
        }
        if ud.guard.is_some_and(|g| g.pred == p) {
            continue;
        }
        let Some(sty) = uinfo.last_type().filter(|t| matches!(t.bits(), 16 | 32)) else {
            continue;
        };
        let (Some(a), Some(b)) = (
            ud.operands.get(1).and_then(imm),
            ud.operands.get(2).and_then(imm),
        ) else {
            continue;
        };
        let m = mask(sty.bits());
        let (a, b) = (a & m, b & m);
        let (truth, negated) = match (a, b) {
            (x, 0) if x != 0 => (x, false),
            (0, x) if x != 0 => (x, true),
            _ => continue,
        };
        // 16-bit set destinations exist only with f16/bf16 sources (a
        // target that compares those has them).
        let half = matches!(st, Type::F16 | Type::BF16);
        let dtype = match (truth, sty.bits(), sty) {
            (0xffff_ffff, 32, Type::S32) => Type::S32,
            (0xffff_ffff, 32, _) => Type::U32,
            // No `set` writes f32 from a half-precision source (ptxas).
            (0x3f80_0000, 32, _) if !half => Type::F32,
            (0xffff, 16, Type::S16) if half => Type::S16,
            (0xffff, 16, _) if half => Type::U16,
            (0x3c00, 16, _) if st == Type::F16 => Type::F16,
            (0x3f80, 16, _) if st == Type::BF16 => Type::BF16,
            _ => continue,
        };
        let mut mods = info.mods.to_vec();
        let mut operands = d.operands.clone();
        if negated {
            let (m, negate_c) = complement_mods(&mods, st.is_float());
            mods = m;
            if negate_c {
                if let Some(c) = operands.get_mut(3) {
                    *c = negate_operand(c);
                }
            }
        }
        let at = mods
            .iter()
            .position(|m| matches!(m, Mod::Type(_)))
            .unwrap_or(mods.len());
        mods.insert(at, Mod::Type(dtype));
        operands[0] = ud.operands[0].clone();
        let op = f.ops.intern(Opcode::Set, &mods);
        let dd = &mut f.dfg.insts[u];
        dd.op = op;
        dd.operands = operands;
        f.layout.remove_inst(s);
        changed = true;
    }
    changed
}

/// `selp` with equal arms or nested on the same predicate; `slct` with an
/// immediate selector.
fn fold_selects(f: &mut Function) -> bool {
    let insts = f.layout_insts();
    let mut renames: FxHashMap<Value, Value> = FxHashMap::default();
    let mut changed = false;
    for i in insts {
        if !plain(f, i) || f.inst(i).results.len() != 1 {
            continue;
        }
        let info = f.op(i);
        let d = f.inst(i);
        let r = d.results[0];
        if d.operands.first() != Some(&Operand::Value(r)) || d.operands.len() != 4 {
            continue;
        }
        let Some(ty) = info.types().next() else {
            continue;
        };
        // The operand the instruction reduces to.
        let pick: Option<Operand> = match info.opcode {
            Opcode::Selp => {
                let (a, b, c) = (&d.operands[1], &d.operands[2], &d.operands[3]);
                let inner = |o: &Operand| -> Option<(Operand, Operand)> {
                    let Operand::Value(v) = o else { return None };
                    let ValueDef::Result(j, 0) = f.dfg.values[*v].def else {
                        return None;
                    };
                    let dj = f.inst(j);
                    (f.op(j).opcode == Opcode::Selp
                        && plain(f, j)
                        && dj.operands.get(3) == Some(c)
                        && f.op(j).text == info.text)
                        .then(|| (dj.operands[1].clone(), dj.operands[2].clone()))
                };
                if a == b {
                    Some(a.clone())
                } else if let Some((x, _)) = inner(a) {
                    let dd = &mut f.dfg.insts[i];
                    dd.operands[1] = x;
                    changed = true;
                    None
                } else if let Some((_, y)) = inner(b) {
                    let dd = &mut f.dfg.insts[i];
                    dd.operands[2] = y;
                    changed = true;
                    None
                } else {
                    None
                }
            }
            Opcode::Slct => {
                let Some(Operand::Imm(k)) = d.operands.get(3) else {
                    continue;
                };
                let cty = info.last_type();
                let take_a = match cty {
                    Some(Type::S32) if k.is_int() => (k.bits as u32 as i32) >= 0,
                    Some(Type::F32) => {
                        let x = f32::from_bits(k.bits as u32);
                        let ftz = info.mods.iter().any(|m| f.ops.is_word(*m, "ftz"));
                        if !k.is_int() && !matches!(k.kind, ptx_ir::ImmKind::F32) {
                            continue;
                        }
                        (ftz && x.is_subnormal()) || x >= 0.0
                    }
                    _ => continue,
                };
                Some(d.operands[if take_a { 1 } else { 2 }].clone())
            }
            _ => continue,
        };
        match pick {
            Some(Operand::Value(v))
                if f.dfg.value_type(v).reg_class() == f.dfg.value_type(r).reg_class() =>
            {
                renames.insert(r, v);
                f.layout.remove_inst(i);
                changed = true;
            }
            Some(o @ Operand::Imm(_)) if ty.bits() <= 64 => {
                let mov = f.ops.intern(
                    Opcode::Mov,
                    &[Mod::Type(match ty.bits() {
                        16 => Type::B16,
                        64 => Type::B64,
                        _ => Type::B32,
                    })],
                );
                let dd = &mut f.dfg.insts[i];
                dd.op = mov;
                dd.operands = smallvec![Operand::Value(r), o];
                changed = true;
            }
            _ => {}
        }
    }
    crate::rewrite::replace_all_uses(f, &renames);
    changed
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
