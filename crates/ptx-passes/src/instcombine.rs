//! `instcombine`: short instruction sequences rewritten into equivalents
//! that ptxas turns into fewer SASS instructions.
//!
//! Each rule is here because ptxas 13.5 does not find it on its own, and
//! measured in SASS (`nvdisasm -c`) on sm_80:
//!
//! * **A mask from one bit.** `-((x >> k) & 1)`, all ones where bit `k` of
//!   `x` is set, is `neg.s32` of `and.b32` of `shr` (of `x` itself when
//!   `k` is 0): nvcc writes it for constant-time selects, bit-serial CRCs
//!   and bit-sliced code. It becomes `bfe.s32 d, x, k, 1` (sign-extend the
//!   one-bit field), which ptxas makes one or two SASS instructions (`SGXT`,
//!   or `SHF` and `SGXT`) where the sequence took two or three
//!   (`LOP3`, `IMAD.MOV` negation, and a shift). `sub.s32 d, 0, b` counts as
//!   the negation. The `and` must have no other reader, or the sequence
//!   stays and the `bfe` would be one more. A shift with other readers is
//!   not looked through (`bfe.s32 d, y, 0, 1` of the shifted `y`): reading
//!   `x` would keep it alive longer, a register more on a bit-serial CRC.
//!
//! * **A select that xors on one bit.** `selp d, y ^ K, y, p` with `p`
//!   testing bit `k` of `x` (`setp.eq (x >> k) & 1, 1` and the other
//!   spellings) is `y ^ (K & -((x >> k) & 1))`: nvcc writes it for the
//!   branchy bit-serial CRC (`if (crc & 1) crc = (crc >> 1) ^ POLY`). It
//!   becomes `bfe.s32`, `and` and `xor` (a `not` too when the xor is taken
//!   on a clear bit), which ptxas makes `SGXT` and one `LOP3` where the
//!   select took a `LOP3`, an `ISETP` and a predicated `LOP3`. The bit,
//!   the predicate and the xor must have no other reader.
//!
//! A debug target (`nvcc -G`) is left alone.
//!
//! Invariants: a rewritten instruction keeps its result, guard and tied
//! values; what fed it is left for `dce`. Preserves the CFG; idempotent.
//!
//! ```text
//! before:                              after:
//!   shr.u32  %r2, %r1, 5;                bfe.s32  %r4, %r1, 5, 1;
//!   and.b32  %r3, %r2, 1;
//!   neg.s32  %r4, %r3;
//! ```

use crate::rewrite::{insert_before, plain, reform};
use crate::{AnalysisManager, Pass, Preserved};
use ptx_ir::entity::SecondaryMap;
use ptx_ir::{CmpOp, Function, Imm, Inst, Mod, Opcode, Operand, Type, Value, ValueDef};
use smallvec::{smallvec, SmallVec};

/// The pass.
pub struct InstCombine;

/// The sources of `bfe.s32 d, x, bit, 1`.
fn one_bit_field(x: Value, bit: u32) -> SmallVec<[Operand; 3]> {
    smallvec![
        Operand::Value(x),
        Operand::Imm(Imm::int(i64::from(bit))),
        Operand::Imm(Imm::int(1)),
    ]
}

/// The instructions reading each value.
type Readers = SecondaryMap<Value, SmallVec<[Inst; 2]>>;

/// The instruction defining `v` as its first result, if it may be
/// rewritten ([`plain`]).
fn def(f: &Function, v: Value) -> Option<Inst> {
    match f.dfg.values[v].def {
        ValueDef::Result(i, 0) if plain(f, i) => Some(i),
        _ => None,
    }
}

/// The integer immediate at operand `k` of `i`.
fn imm_at(f: &Function, i: Inst, k: usize) -> Option<i64> {
    match f.inst(i).operands.get(k)? {
        Operand::Imm(imm) if imm.is_int() => Some(imm.bits as i64),
        _ => None,
    }
}

/// Whether `i`'s type is a 32-bit integer one (`b32`, `u32`, `s32`).
fn is_32_bit_int(f: &Function, i: Inst) -> bool {
    f.op(i)
        .last_type()
        .is_some_and(|t| t.is_integer() && t.bits() == 32)
}

/// The value `i` negates: `neg.s32 d, b` or `sub.{s,u}32 d, 0, b`.
fn negated(f: &Function, i: Inst) -> Option<Value> {
    let info = f.op(i);
    if !is_32_bit_int(f, i) || info.mods.iter().any(|m| matches!(m, Mod::Word(_))) {
        return None;
    }
    match info.opcode {
        Opcode::Neg => f.inst(i).operands.get(1)?.as_value(),
        Opcode::Sub if imm_at(f, i, 1) == Some(0) => f.inst(i).operands.get(2)?.as_value(),
        _ => None,
    }
}

/// For `b = (x >> k) & 1` (or `x & 1`, `k` = 0) with `b` read only once:
/// `x` and `k`. A shift with other readers stays the field's source, so
/// that `x` is not kept alive longer for it.
fn one_bit(f: &Function, b: Value, readers: &Readers) -> Option<(Value, u32)> {
    let and = def(f, b)?;
    if readers[b].len() != 1 || f.op(and).opcode != Opcode::And || !is_32_bit_int(f, and) {
        return None;
    }
    let d = f.inst(and);
    let shifted = match (d.operands.get(1)?, d.operands.get(2)?) {
        (Operand::Value(v), Operand::Imm(one)) | (Operand::Imm(one), Operand::Value(v))
            if one.is_int() && one.bits == 1 =>
        {
            *v
        }
        _ => return None,
    };
    let shift = def(f, shifted).filter(|&s| {
        readers[shifted].len() == 1
            && f.op(s).opcode == Opcode::Shr
            && is_32_bit_int(f, s)
            && imm_at(f, s, 2).is_some_and(|k| (0..32).contains(&k))
    });
    let (x, k) = match shift {
        Some(s) => (
            f.inst(s).operands.get(1)?.as_value()?,
            imm_at(f, s, 2)? as u32,
        ),
        None => (shifted, 0),
    };
    (f.dfg.value_type(x).reg_class() == Type::B32).then_some((x, k))
}

/// A select that xors on one bit, to be rewritten `y ^ (K & mask)`.
struct BitXor {
    select: Inst,
    y: Value,
    k: Operand,
    x: Value,
    bit: u32,
    /// The xor is taken where the bit is clear: the mask is complemented.
    on_clear: bool,
}

/// `p` as a test of one bit: `x`, the bit, and whether `p` is true where
/// it is set (`setp.eq b, 1` or `setp.ne b, 0` of `b = (x >> k) & 1`).
fn bit_test(f: &Function, p: Value, readers: &Readers) -> Option<(Value, u32, bool)> {
    let setp = def(f, p)?;
    let info = f.op(setp);
    if readers[p].len() != 1
        || info.opcode != Opcode::Setp
        || !is_32_bit_int(f, setp)
        || info.mods.iter().any(|m| matches!(m, Mod::Bool(_)))
        || f.inst(setp).results.as_slice() != [p]
    {
        return None;
    }
    let eq = match info.mods.iter().find_map(|m| match m {
        Mod::Cmp(c) => Some(*c),
        _ => None,
    })? {
        CmpOp::Eq => true,
        CmpOp::Ne => false,
        _ => return None,
    };
    let d = f.inst(setp);
    let (b, c) = match (d.operands.get(1)?, d.operands.get(2)?) {
        (Operand::Value(b), Operand::Imm(c)) | (Operand::Imm(c), Operand::Value(b))
            if c.is_int() && c.bits <= 1 =>
        {
            (*b, c.bits == 1)
        }
        _ => return None,
    };
    let (x, bit) = one_bit(f, b, readers)?;
    Some((x, bit, eq == c))
}

/// `selp d, a, b, p` with one of `a`, `b` the other xored with `K`, and
/// `p` a one-bit test.
fn bit_xor(f: &Function, select: Inst, readers: &Readers) -> Option<BitXor> {
    if f.op(select).opcode != Opcode::Selp || !is_32_bit_int(f, select) {
        return None;
    }
    let d = f.inst(select);
    let (Operand::Value(a), Operand::Value(b), Operand::Value(p)) =
        (d.operands.get(1)?, d.operands.get(2)?, d.operands.get(3)?)
    else {
        return None;
    };
    // `xored` is `other ^ K`, read only here.
    let xor_of = |xored: Value, other: Value| -> Option<Operand> {
        let x = def(f, xored)?;
        if readers[xored].len() != 1 || f.op(x).opcode != Opcode::Xor || !is_32_bit_int(f, x) {
            return None;
        }
        match (f.inst(x).operands.get(1)?, f.inst(x).operands.get(2)?) {
            (Operand::Value(y), k) | (k, Operand::Value(y)) if *y == other => Some(k.clone()),
            _ => None,
        }
    };
    let (y, k, xor_when_p) = match (xor_of(*a, *b), xor_of(*b, *a)) {
        (Some(k), _) => (*b, k, true),
        (None, Some(k)) => (*a, k, false),
        _ => return None,
    };
    let (x, bit, p_when_set) = bit_test(f, *p, readers)?;
    Some(BitXor {
        select,
        y,
        k,
        x,
        bit,
        on_clear: xor_when_p != p_when_set,
    })
}

impl Pass for InstCombine {
    fn name(&self) -> &'static str {
        "instcombine"
    }

    fn run(&mut self, f: &mut Function, am: &mut AnalysisManager) -> Preserved {
        // ptxas compiles a debug target (`nvcc -G`) without optimising:
        // there the `bfe` is its generic expansion, longer than the
        // sequence (+4 SASS instructions on the bit-serial CRC).
        if am.target.is_some_and(|t| t.debug) {
            return Preserved::All;
        }
        let uses = f.uses();
        let mut rewrites: Vec<(Inst, Value, u32)> = Vec::new();
        let mut selects: Vec<BitXor> = Vec::new();
        for b in f.layout.blocks() {
            for i in f.layout.block_insts(b) {
                if let Some(s) = bit_xor(f, i, &uses) {
                    selects.push(s);
                    continue;
                }
                let Some(bit) = negated(f, i) else { continue };
                if let Some((x, k)) = one_bit(f, bit, &uses) {
                    rewrites.push((i, x, k));
                }
            }
        }
        tracing::debug!(target: "instcombine", function = %f.name, masks = rewrites.len(), selects = selects.len(), "bit masks");
        if rewrites.is_empty() && selects.is_empty() {
            return Preserved::All;
        }
        for s in selects {
            let at = s.select;
            let mut mask =
                insert_before(f, at, "bfe.s32", Type::B32, one_bit_field(s.x, s.bit), None);
            if s.on_clear {
                mask = insert_before(
                    f,
                    at,
                    "not.b32",
                    Type::B32,
                    smallvec![Operand::Value(mask)],
                    None,
                );
            }
            let term = insert_before(
                f,
                at,
                "and.b32",
                Type::B32,
                smallvec![Operand::Value(mask), s.k],
                None,
            );
            let result = f.inst(at).results[0];
            let xor = smallvec![
                Operand::Value(result),
                Operand::Value(s.y),
                Operand::Value(term)
            ];
            reform(f, at, "xor.b32", xor);
        }
        for (i, x, k) in rewrites {
            let mut operands = one_bit_field(x, k);
            operands.insert(0, Operand::Value(f.inst(i).results[0]));
            reform(f, i, "bfe.s32", operands);
        }
        Preserved::Cfg
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(body: &str) -> String {
        crate::testing::run_in_kernel(body, None, &mut [&mut InstCombine, &mut crate::dce::Dce])
    }

    const HEAD: &str = ".reg .b32 %r<9>;\n.reg .b64 %rd<2>;\nld.param.u64 %rd1, [p];\nld.global.u32 %r1, [%rd1];\n";

    #[test]
    fn a_negated_bit_becomes_a_one_bit_field() {
        let out = run(&format!(
            "{HEAD}shr.u32 %r2, %r1, 5;\nand.b32 %r3, %r2, 1;\nneg.s32 %r4, %r3;\n\
             and.b32 %r5, 1, %r1;\nsub.s32 %r6, 0, %r5;\nxor.b32 %r7, %r4, %r6;\n\
             st.global.u32 [%rd1], %r7;\nret;"
        ));
        assert!(out.contains("bfe.s32 \t%r4, %r1, 5, 1;"), "{out}");
        assert!(out.contains("bfe.s32 \t%r6, %r1, 0, 1;"), "{out}");
        assert!(
            !out.contains("neg") && !out.contains("shr") && !out.contains("sub"),
            "{out}"
        );
    }

    #[test]
    fn a_bit_read_elsewhere_stays_and_a_wide_shift_is_kept() {
        let body = format!(
            "{HEAD}shr.u32 %r2, %r1, 5;\nand.b32 %r3, %r2, 1;\nneg.s32 %r4, %r3;\n\
             add.s32 %r5, %r4, %r3;\nshr.u32 %r6, %r1, 32;\nand.b32 %r7, %r6, 1;\n\
             neg.s32 %r8, %r7;\nadd.s32 %r5, %r5, %r8;\nst.global.u32 [%rd1], %r5;\nret;"
        );
        let out = run(&body);
        // `%r3` has a second reader: the sequence stays.
        assert!(out.contains("neg.s32 \t%r4, %r3;"), "{out}");
        // A shift by 32 (zero, for shr.u32) is not a bit position: its
        // result is the field's source.
        assert!(out.contains("shr.u32 \t%r6, %r1, 32;"), "{out}");
        assert!(out.contains("bfe.s32 \t%r8, %r6, 0, 1;"), "{out}");
    }
}
