//! The comparison algebra `set-fold` relies on: complements (the
//! unordered complement for floats, so NaN behaves as before), constant
//! comparisons, the forms of `set`, and rewriting a `set` as the `setp` of
//! the same comparison.

use super::*;

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
pub(super) fn compare(c: CmpOp, a: u64, b: u64, ty: Type) -> Option<bool> {
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
pub(super) fn classic_stype(t: Type) -> bool {
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
pub(super) fn set_form(f: &Function, i: Inst) -> Option<(Type, Type, u64)> {
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
pub(super) fn setp_mods(f: &Function, set: Inst) -> Vec<Mod> {
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
pub(super) fn set_to_setp(f: &mut Function, set: Inst) -> Value {
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
pub(super) fn complement_mods(mods: &[Mod], float: bool) -> (Vec<Mod>, bool) {
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

pub(super) fn negate_operand(o: &Operand) -> Operand {
    match o {
        Operand::Value(v) => Operand::Not(*v),
        Operand::Not(v) => Operand::Value(*v),
        other => other.clone(),
    }
}
