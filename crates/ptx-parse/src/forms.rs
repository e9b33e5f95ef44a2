//! Exact validation of the instruction families the passes model — `set`,
//! `setp`, `vote`, the vop2 family and `lop3` — against the PTX ISA: every
//! modifier, type pairing, selector and mask it allows is accepted and
//! nothing else, as ptxas 13.5 does (each rule was checked against it;
//! `crates/ptx-opt/tests/malformed/` holds the rejected forms). Other
//! instructions get only the operand-count and register-type checks of the
//! parser.
//!
//! [`needs`] gives the `.version` and `.target` each form needs (`bf16`
//! compares need PTX 7.8 and sm_90, say); the parser checks them against
//! the module's. Operand counts are the parser table's.

use ptx_ir::{BoolOp, CmpOp, Mod, OpId, OpTable, Opcode, Operand, Type, Value};
use smallvec::SmallVec;

/// Where a form error points: the instruction, or one of its operands.
pub(crate) enum At {
    Instruction,
    Operand(usize),
}

/// The first way `op` with `operands` is not a form the ISA defines.
pub(crate) fn check(
    ops: &OpTable,
    op: OpId,
    operands: &[Operand],
    ty_of: impl Fn(Value) -> Type,
) -> Option<(At, String)> {
    let info = ops.info(op);
    match info.opcode {
        Opcode::Set | Opcode::Setp => check_compare(ops, op, operands, ty_of),
        Opcode::Vote => check_vote(ops, op),
        Opcode::Vadd2
        | Opcode::Vsub2
        | Opcode::Vavrg2
        | Opcode::Vabsdiff2
        | Opcode::Vmin2
        | Opcode::Vmax2 => check_vop2(ops, op, operands),
        Opcode::Lop3 => check_lop3(ops, op, operands),
        _ => None,
    }
}

/// The form's modifier words (no allocation: this runs for every parsed
/// instruction of these families).
fn words(ops: &OpTable, op: OpId) -> impl Iterator<Item = &str> {
    ops.info(op).mods.iter().filter_map(|m| match m {
        Mod::Word(s) => Some(ops.syms.get(*s)),
        _ => None,
    })
}

fn err(msg: String) -> Option<(At, String)> {
    Some((At::Instruction, msg))
}

/// Comparison operators an operand type allows.
fn cmp_allowed(c: CmpOp, ty: Type) -> bool {
    use CmpOp::*;
    let ordered = matches!(c, Eq | Ne | Lt | Le | Gt | Ge);
    match ty {
        Type::B16 | Type::B32 | Type::B64 => matches!(c, Eq | Ne),
        Type::U16 | Type::U32 | Type::U64 => ordered || matches!(c, Lo | Ls | Hi | Hs),
        Type::S16 | Type::S32 | Type::S64 => ordered,
        _ => ordered || matches!(c, Equ | Neu | Ltu | Leu | Gtu | Geu | Num | Nan),
    }
}

/// The destination types `set` allows for a source type.
fn set_types_allowed(d: Type, s: Type) -> bool {
    use Type::*;
    match s {
        F16 => matches!(d, U16 | S16 | U32 | S32 | F16 | BF16),
        BF16 => matches!(d, U16 | S16 | U32 | S32 | BF16),
        F16x2 => matches!(d, F16x2 | U32 | S32),
        BF16x2 => matches!(d, BF16x2 | U32 | S32),
        B16 | B32 | B64 | U16 | U32 | U64 | S16 | S32 | S64 | F32 | F64 => {
            matches!(d, U32 | S32 | F32 | F16 | BF16)
        }
        _ => false,
    }
}

fn is_pred(o: &Operand, ty_of: &impl Fn(Value) -> Type) -> bool {
    match o {
        Operand::Value(v) => ty_of(*v) == Type::Pred,
        Operand::Pair(p, q) => [p, q]
            .iter()
            .all(|x| x.is_none_or(|v| ty_of(v) == Type::Pred)),
        Operand::Sink => true,
        _ => false,
    }
}

fn check_compare(
    ops: &OpTable,
    op: OpId,
    operands: &[Operand],
    ty_of: impl Fn(Value) -> Type,
) -> Option<(At, String)> {
    let info = ops.info(op);
    let name = &info.text;
    let setp = info.opcode == Opcode::Setp;
    for w in words(ops, op) {
        if w != "ftz" {
            return err(format!("unknown modifier '.{w}' for '{name}'"));
        }
    }
    let cmps: Vec<CmpOp> = info
        .mods
        .iter()
        .filter_map(|m| match m {
            Mod::Cmp(c) => Some(*c),
            _ => None,
        })
        .collect();
    let [cmp] = cmps[..] else {
        return err(format!("'{name}' needs one comparison operator"));
    };
    let types: Vec<Type> = info.types().collect();
    let stype = match (setp, &types[..]) {
        (true, [s]) => *s,
        (false, [d, s]) => {
            if !set_types_allowed(*d, *s) {
                return err(format!(
                    "'{name}': no 'set' writes {} from {} sources",
                    d.name(),
                    s.name()
                ));
            }
            *s
        }
        _ => {
            return err(format!(
                "'{name}' takes {} type{}",
                if setp {
                    "one"
                } else {
                    "a destination and a source"
                },
                if setp { "" } else { "s" }
            ))
        }
    };
    if !cmp_allowed(cmp, stype) {
        return err(format!(
            "'{name}': comparison '.{}' is not defined for {}",
            cmp.name(),
            stype.name()
        ));
    }
    if words(ops, op).any(|w| w == "ftz") && !matches!(stype, Type::F32 | Type::F16 | Type::F16x2) {
        return err(format!(
            "'{name}': '.ftz' applies only to f32 and f16 comparisons"
        ));
    }
    // (The operand count was checked before: `operand_counts`.)
    let dest = operands.first()?;
    let dest_is_pred = is_pred(dest, &ty_of);
    if setp && !dest_is_pred {
        return Some((
            At::Operand(0),
            format!("'{name}' writes a predicate: its destination must be a .pred register"),
        ));
    }
    if !setp && dest_is_pred {
        return Some((
            At::Operand(0),
            format!("'{name}' writes a number, not a predicate (use setp)"),
        ));
    }
    None
}

fn check_vote(ops: &OpTable, op: OpId) -> Option<(At, String)> {
    let info = ops.info(op);
    let name = &info.text;
    let mut mode = None;
    for w in words(ops, op) {
        match w {
            "sync" => {}
            "all" | "any" | "uni" | "ballot" if mode.is_none() => mode = Some(w),
            _ => return err(format!("unknown modifier '.{w}' for 'vote'")),
        }
    }
    let Some(mode) = mode else {
        return err(format!(
            "'{name}' needs a mode: .all, .any, .uni or .ballot"
        ));
    };
    let types: Vec<Type> = info.types().collect();
    let want = if mode == "ballot" {
        Type::B32
    } else {
        Type::Pred
    };
    if types != [want] {
        return err(format!("'vote.{mode}' takes the type .{}", want.name()));
    }
    None
}

fn check_vop2(ops: &OpTable, op: OpId, operands: &[Operand]) -> Option<(At, String)> {
    let info = ops.info(op);
    let name = &info.text;
    let (mut sat, mut add) = (false, false);
    for w in words(ops, op) {
        match w {
            "sat" => sat = true,
            "add" => add = true,
            _ => return err(format!("unknown modifier '.{w}' for '{}'", info.mnemonic)),
        }
    }
    if sat && add {
        return err(format!("'{name}': .sat and .add cannot be combined"));
    }
    let types: Vec<Type> = info.types().collect();
    if types.len() != 3 || !types.iter().all(|t| matches!(t, Type::U32 | Type::S32)) {
        return err(format!(
            "'{name}' takes three types, each .u32 or .s32 (dtype, atype, btype)"
        ));
    }
    let sel = |k: usize| match operands.get(k) {
        Some(Operand::Sel(_, s)) => Some(ops.syms.get(*s).trim_start_matches('.')),
        _ => None,
    };
    if let Some(mask) = sel(0) {
        if !matches!(mask, "h0" | "h1" | "h10") {
            return Some((
                At::Operand(0),
                format!("'.{mask}' is not a vop2 destination mask (.h0, .h1 or .h10)"),
            ));
        }
    }
    for k in [1, 2] {
        if let Some(s) = sel(k) {
            let b = s.as_bytes();
            let ok =
                b.len() == 3 && b[0] == b'h' && b[1..].iter().all(|c| (b'0'..=b'3').contains(c));
            if !ok {
                return Some((
                    At::Operand(k),
                    format!("'.{s}' is not a vop2 source selector (.hXY, X and Y from 0 to 3)"),
                ));
            }
        }
    }
    None
}

fn check_lop3(ops: &OpTable, op: OpId, operands: &[Operand]) -> Option<(At, String)> {
    let info = ops.info(op);
    let name = &info.text;
    if let Some(w) = words(ops, op).next() {
        return err(format!("unknown modifier '.{w}' for 'lop3'"));
    }
    if info
        .mods
        .iter()
        .any(|m| matches!(m, Mod::Bool(b) if *b == BoolOp::Xor))
    {
        return err(format!("'{name}': the .BoolOp of lop3 is .and or .or"));
    }
    let types: Vec<Type> = info.types().collect();
    if types != [Type::B32] {
        return err(format!("'{name}': lop3 takes the type .b32 only"));
    }
    match operands.get(4) {
        Some(Operand::Imm(i)) if i.is_int() => None,
        Some(_) => Some((
            At::Operand(4),
            format!("'{name}': the truth table (immLut) must be an integer immediate"),
        )),
        None => None,
    }
}

/// The PTX ISA version and target a form needs, with what to call it.
pub(crate) struct Needs {
    /// Minimum `.version`.
    pub version: (u32, u32),
    /// Minimum `sm_NN`.
    pub sm: u32,
}

/// What `op` needs of the module, for the families above and the sm_100
/// forms `f32x2` arithmetic, `clusterlaunchcontrol` and `st.bulk` (the PTX ISA's
/// minimum, as `../shared/docs/ptx-semantics.md` §10 lists them; the
/// higher ones were measured against ptxas 13.5, which rejects the form
/// below them).
pub(crate) fn needs(ops: &OpTable, op: OpId) -> Option<Needs> {
    let info = ops.info(op);
    let need = |version, sm| Some(Needs { version, sm });
    match info.opcode {
        Opcode::Set | Opcode::Setp => {
            let types: SmallVec<[Type; 2]> = info.types().collect();
            if types.iter().any(|t| matches!(t, Type::BF16 | Type::BF16x2)) {
                return need((7, 8), 90);
            }
            let int_of_half = info.opcode == Opcode::Set
                && matches!(
                    types.as_slice(),
                    [Type::U16 | Type::S16 | Type::U32 | Type::S32, Type::F16]
                        | [Type::U32 | Type::S32, Type::F16x2]
                );
            if int_of_half {
                return need((6, 5), 53);
            }
            if types.iter().any(|t| matches!(t, Type::F16 | Type::F16x2)) {
                return need((4, 2), 53);
            }
            None
        }
        Opcode::Lop3 if info.mods.iter().any(|m| matches!(m, Mod::Bool(_))) => need((8, 2), 70),
        Opcode::Lop3 => need((4, 3), 50),
        Opcode::Vadd2
        | Opcode::Vsub2
        | Opcode::Vavrg2
        | Opcode::Vabsdiff2
        | Opcode::Vmin2
        | Opcode::Vmax2 => need((3, 0), 30),
        Opcode::Vote if words(ops, op).any(|w| w == "sync") => need((6, 0), 30),
        Opcode::Vote if words(ops, op).any(|w| w == "ballot") => need((2, 0), 20),
        Opcode::Vote => need((1, 2), 12),
        // sm_100 forms on any Blackwell target (measured with ptxas 13.5:
        // refused on sm_90 and sm_90a).
        Opcode::Add | Opcode::Sub | Opcode::Mul if words(ops, op).any(|w| w == "f32x2") => {
            need((8, 6), 100)
        }
        Opcode::St if words(ops, op).any(|w| w == "bulk") => need((8, 6), 100),
        Opcode::Other => match &*info.mnemonic {
            "fma" if words(ops, op).any(|w| w == "f32x2") => need((8, 6), 100),
            "clusterlaunchcontrol" => need((8, 6), 100),
            _ => None,
        },
        _ => None,
    }
}

/// Targets as `(sm number, the suffixes accepted)`.
type Targets = &'static [(u32, &'static str)];

const SM90A: Targets = &[(90, "a")];
const TENSOR_GEN5: Targets = &[(100, "af"), (103, "af"), (110, "af")];
const BLACKWELL_AF: Targets = &[
    (100, "af"),
    (103, "af"),
    (110, "af"),
    (120, "af"),
    (121, "af"),
];
const SETMAXNREG: Targets = &[
    (90, "a"),
    (100, "af"),
    (103, "af"),
    (110, "af"),
    (120, "af"),
    (121, "af"),
];
const REDUX_F32: Targets = &[(100, "af"), (103, "af")];
const CVT_RS: Targets = &[(100, "a"), (103, "a")];

/// The arch- or family-specific targets (`sm_90a`, `sm_100f`, …) a form
/// assembles for, for the families that have them. Measured with ptxas
/// 13.5 over sm_90 to sm_121 with and without the `a`/`f` suffixes: a
/// target outside the list gets "not supported on .target".
pub(crate) fn arch_targets(ops: &OpTable, op: OpId) -> Option<Targets> {
    let info = ops.info(op);
    let m = &*info.mnemonic;
    let word = |x: &str| words(ops, op).any(|w| w == x);
    let narrow_float =
        || words(ops, op).any(|w| matches!(w, "e2m1x2" | "e3m2x2" | "e2m3x2" | "ue8m0x2"));
    match m {
        "wgmma" => Some(SM90A),
        "setmaxnreg" => Some(SETMAXNREG),
        _ if m.starts_with("tcgen05") => Some(TENSOR_GEN5),
        "mma" if word("kind::f8f6f4") => Some(BLACKWELL_AF),
        "cvt" if word("rs") => Some(CVT_RS),
        "cvt" if narrow_float() => Some(BLACKWELL_AF),
        "redux" if info.types().any(|t| t == Type::F32) => Some(REDUX_F32),
        _ => None,
    }
}

/// Why `op` cannot be written for `sm_N` with `suffix`, for an arch- or
/// family-specific form ([`arch_targets`]), in ptxas's words.
pub(crate) fn arch_error(ops: &OpTable, op: OpId, sm: u32, suffix: Option<char>) -> Option<String> {
    let allowed = arch_targets(ops, op)?;
    let ok = allowed
        .iter()
        .any(|&(n, sfx)| n == sm && suffix.is_some_and(|c| sfx.contains(c)));
    if ok {
        return None;
    }
    let list: Vec<String> = allowed
        .iter()
        .flat_map(|&(n, sfx)| sfx.chars().map(move |c| format!("sm_{n}{c}")))
        .collect();
    let this = format!("sm_{sm}{}", suffix.map(String::from).unwrap_or_default());
    Some(format!(
        "'{}' is not supported on .target {this}; it needs one of {}",
        ops.info(op).text,
        list.join(", ")
    ))
}

/// Whether `op` is a `vote` without `.sync`, which sm_70 and later refuse
/// from PTX ISA 6.4 on (ptxas 13.5: "not supported on .target sm_70 and
/// higher from PTX ISA version 6.4").
pub(crate) fn is_unsynced_vote(ops: &OpTable, op: OpId) -> bool {
    ops.info(op).opcode == Opcode::Vote && !words(ops, op).any(|w| w == "sync")
}
