//! `lower-vsub2`: the vop2 SIMD video instructions (`vadd2`, `vsub2`,
//! `vavrg2`, `vabsdiff2`, `vmin2`, `vmax2`) as plain 32-bit arithmetic,
//! which current GPUs run natively while ptxas emulates the video forms in
//! up to 25 SASS instructions.
//!
//! **Plain `vadd2`/`vsub2`** (merge form, no `.sat`, default selectors
//! `a.h10`, `b.h32`, any mask and types: the result half is the low 16 bits
//! of the exact sum or difference whatever the types) as SWAR, with
//! `H` = `0x80008000`:
//!
//! ```text
//! vadd2:  s = (a & ~H) + (b & ~H);  d = s ^ ((a ^ b) & H)
//! vsub2:  s = (a | H) - (b & ~H);   d = s ^ ((a ^ ~b) & H)
//! ```
//!
//! The `(a ^ b) & H` term is one `lop3` on sm_50+ (two or three plain
//! instructions below); a `.h0`/`.h1` mask merges the other half of `c`
//! with one more `lop3` (`and`/`or` below sm_50).
//!
//! **`.add` of `vadd2`/`vsub2`** (sm_61, PTX 5.0): `c` plus a weighted sum
//! of the source half-words, one `dp2a` per source register and
//! extension type, chained through `c`.
//!
//! **Every other form** (`.sat`, `.add`, any selectors, the other four
//! operations) one half at a time: each source half-word extended to 32
//! bits (`prmt` replicating the sign, or `and`/`shr`), the operation exact
//! in 32 bits (`vavrg2` rounds half up for non-negative sums and down
//! below, as the ISA says; `vabsdiff2` is `sad`, one `VABSDIFF` up to
//! sm_110, or `sub` + `abs`), then `.sat` as one `cvt.pack.sat` clamping
//! and packing both halves (sm_72, PTX 6.5) or a `max`/`min` clamp on the
//! bounds the result can cross, the halves packed with one `prmt` that
//! also merges `c` where the mask leaves a half, or added into `c`
//! (`.add`).
//!
//! **On sm_90+ with PTX 8.0** (the module's version: not raised for this)
//! the half-word SIMD instructions take the forms they express, with the
//! default selectors: plain `vadd2` is `add.u16x2`, plain `vsub2` is
//! `~(~a + b)` with `add.u16x2` (there is no `sub.u16x2`), and
//! `vmin2`/`vmax2` whose sources agree in signedness are one
//! `min`/`max.{s16x2,u16x2}` (`.sat` is a no-op, or `.relu`, or one more
//! `min.u16x2` against `0x7fff7fff`); with `.add` over both halves,
//! `vmin2`/`vmax2`/`vabsdiff2` are the 16x2 `min`/`max` summed into `c` by
//! `dp2a`. ptxas makes each 16x2 instruction one SASS instruction.
//!
//! Forms stay native where ptxas's own code is as short or shorter
//! (`cargo bench -p ptx-opt --bench vop2`) and no 16x2 form applies: the
//! all-u32 plain `vadd2`/`vsub2`/`vavrg2`/`vmin2`/`vmax2` over both halves
//! and the all-u32 `vmin2`/`vmax2.add` on half 0. Temporaries are unguarded; the
//! instruction writing `d` keeps the guard and tied value. Preserves the
//! CFG.
//!
//! ```text
//! before:                                   after (sm_80):
//!   vsub2.s32.s32.s32 %r3, %r1, %r2, %r4;     or.b32   %r5, %r1, -2147450880;
//!                                             and.b32  %r6, %r2, 2147450879;
//!                                             sub.s32  %r7, %r5, %r6;
//!                                             lop3.b32 %r8, %r1, %r2, -2147450880, 0x82;
//!                                             xor.b32  %r3, %r7, %r8;
//!
//!   vadd2.s32.s32.s32.sat %r3, %r1, %r2, %r4;
//!                                             prmt.b32 %r5, %r1, %r2, 0x9910;
//!                                             prmt.b32 %r6, %r1, %r2, 0xdd54;
//!                                             add.s32  %r7, %r5, %r6;
//!                                             prmt.b32 %r8, %r1, %r2, 0xbb32;
//!                                             prmt.b32 %r9, %r1, %r2, 0xff76;
//!                                             add.s32  %r10, %r8, %r9;
//!                                             cvt.pack.sat.s16.s32 %r3, %r10, %r7;
//!
//!   vsub2.s32.s32.s32.add %r3, %r1, %r2, %r4;
//!                                             dp2a.lo.s32.u32 %r5, %r1, 0xffff0101, %r4;
//!                                             dp2a.hi.s32.s32 %r3, %r2, 0xffff0101, %r5;
//! ```

use crate::rewrite::{insert_before, reform};
use crate::{AnalysisManager, Pass, Preserved};
use ptx_ir::{Function, Imm, Inst, Opcode, Operand, Type, Value};
use ptx_target::Feature;
use smallvec::{smallvec, SmallVec};

/// The pass.
pub struct LowerVsub2;

const H: u64 = 0x8000_8000;

/// The destination mask: both halves, only half 0, only half 1.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mask {
    Both,
    Low,
    High,
}

/// The forms the SWAR sequence handles: plain `vadd2`/`vsub2` (merge
/// form, no `.sat`) with the default selectors, any types and mask.
fn swar(v: &Vop2) -> bool {
    matches!(v.op, Opcode::Vadd2 | Opcode::Vsub2)
        && !v.sat
        && !v.add
        && v.asel == [0, 1]
        && v.bsel == [2, 3]
}

struct Emit<'a> {
    f: &'a mut Function,
    at: Inst,
}

impl Emit<'_> {
    /// A new unguarded `text d, srcs` before the vop2; returns `d`.
    fn op(&mut self, text: &str, srcs: SmallVec<[Operand; 3]>) -> Operand {
        Operand::Value(insert_before(self.f, self.at, text, Type::B32, srcs, None))
    }
}

/// Whether lowering `v` beats ptxas's own emulation of it (measured:
/// `cargo bench -p ptx-opt --bench vop2`).
fn pays(v: &Vop2) -> bool {
    let default_sel = v.asel == [0, 1] && v.bsel == [2, 3];
    let all_u32 = [v.dty, v.aty, v.bty] == [Type::U32; 3];
    let minmax = matches!(v.op, Opcode::Vmin2 | Opcode::Vmax2);
    if !default_sel || !all_u32 {
        return true;
    }
    // Where ptxas's own code is as short (cargo bench -p ptx-opt --bench
    // vop2, sm_75..sm_120): plain vadd2/vsub2 over both halves (3 SASS
    // against our 4), vmin2/vmax2 over both halves (6 and 6), vavrg2 over
    // both halves (3 against 8), and vmin2/vmax2.add on half 0 (3 and 3).
    let plain = !v.sat && !v.add;
    !(plain && v.halves == 3 && v.op != Opcode::Vabsdiff2 || minmax && v.add && v.halves == 1)
}

/// The `.u16x2`/`.s16x2` instructions (sm_90+, PTX 8.0: `add`, `min`,
/// `max`, `.relu`) for the forms they express with the default selectors
/// and no `.add`: plain `vadd2` (`add.u16x2`: each half is the low 16 bits
/// of the exact sum whatever the types), plain `vsub2` as `~(~a + b)` per
/// half, and `vmin2`/`vmax2` whose sources agree in signedness, `.sat`
/// included (a no-op within one signedness; `.relu` clamps a signed
/// result to the unsigned range; one more `min.u16x2` clamps an unsigned
/// one to the signed range; these instructions take no immediates). A
/// partial mask merges `c` with one `prmt`.
/// Returns the final instruction's text and operands, or `None` (nothing
/// emitted) for any other form.
fn lower_simd16(
    e: &mut Emit,
    v: &Vop2,
    d: Value,
) -> Option<(&'static str, SmallVec<[Operand; 3]>)> {
    if v.asel != [0, 1] || v.bsel != [2, 3] {
        return None;
    }
    if v.add {
        return lower_simd16_add(e, v, d);
    }
    let (a, b) = (Operand::Value(v.a), Operand::Value(v.b));
    let last: (&'static str, SmallVec<[Operand; 3]>) = match v.op {
        Opcode::Vadd2 if !v.sat => ("add.u16x2", smallvec![a, b]),
        // a - b = ~(~a + b) in each half; the 16x2 forms take registers
        // only, so no `+ 1` constant.
        Opcode::Vsub2 if !v.sat => {
            let na = e.op("not.b32", smallvec![a]);
            let t = e.op("add.u16x2", smallvec![na, b]);
            ("not.b32", smallvec![t])
        }
        Opcode::Vmin2 | Opcode::Vmax2 if v.aty == v.bty => {
            let min = v.op == Opcode::Vmin2;
            let signed = v.aty == Type::S32;
            let base = match (min, signed) {
                (true, true) => "min.s16x2",
                (true, false) => "min.u16x2",
                (false, true) => "max.s16x2",
                (false, false) => "max.u16x2",
            };
            match (v.sat, signed, v.dty == Type::S32) {
                // Unsigned result, signed sources: negatives become 0.
                (true, true, false) => (
                    if min {
                        "min.relu.s16x2"
                    } else {
                        "max.relu.s16x2"
                    },
                    smallvec![a, b],
                ),
                // Signed result, unsigned sources: at most 0x7fff.
                (true, false, true) => {
                    let t = e.op(base, smallvec![a, b]);
                    let k = e.op("mov.b32", smallvec![hex(0x7fff_7fff)]);
                    ("min.u16x2", smallvec![t, k])
                }
                _ => (base, smallvec![a, b]),
            }
        }
        _ => return None,
    };
    let (dv, cv) = (Operand::Value(d), Operand::Value(v.c));
    Some(match v.halves {
        3 => {
            let mut ops: SmallVec<[Operand; 3]> = smallvec![dv];
            ops.extend(last.1);
            (last.0, ops)
        }
        // Low half of the result, high half of c.
        1 => {
            let t = e.op(last.0, last.1);
            ("prmt.b32", smallvec![dv, t, cv, hex(0x7610)])
        }
        // Low half of c, high half of the result.
        _ => {
            let t = e.op(last.0, last.1);
            ("prmt.b32", smallvec![dv, cv, t, hex(0x7610)])
        }
    })
}

/// `vmin2`/`vmax2`/`vabsdiff2` with `.add` over both halves, sources of
/// one signedness and the default selectors, on sm_90+: the per-half
/// results packed by the 16x2 instruction, then summed into `c` by `dp2a`
/// (weights 1, 1, extended by the sources' signedness). `vabsdiff2` is
/// `max - min` per half, summed as `c + Σ max - Σ min` by two `dp2a`
/// sharing one constant (bytes 1, 1 for `.lo`, -1, -1 for `.hi`). A
/// single half is no shorter this way than one half extracted (measured),
/// so it is left to the general lowering.
fn lower_simd16_add(
    e: &mut Emit,
    v: &Vop2,
    d: Value,
) -> Option<(&'static str, SmallVec<[Operand; 3]>)> {
    if v.aty != v.bty || v.halves != 3 {
        return None;
    }
    let signed = v.aty == Type::S32;
    let (min, max, sum_lo, sub_hi) = if signed {
        (
            "min.s16x2",
            "max.s16x2",
            "dp2a.lo.s32.u32",
            "dp2a.hi.s32.s32",
        )
    } else {
        (
            "min.u16x2",
            "max.u16x2",
            "dp2a.lo.u32.u32",
            "dp2a.hi.u32.s32",
        )
    };
    let (a, b, c, dv) = (
        Operand::Value(v.a),
        Operand::Value(v.b),
        Operand::Value(v.c),
        Operand::Value(d),
    );
    match v.op {
        Opcode::Vmin2 | Opcode::Vmax2 => {
            let r = e.op(
                if v.op == Opcode::Vmin2 { min } else { max },
                smallvec![a, b],
            );
            Some((sum_lo, smallvec![dv, r, hex(0x0101), c]))
        }
        Opcode::Vabsdiff2 => {
            let hi = e.op(max, smallvec![a.clone(), b.clone()]);
            let lo = e.op(min, smallvec![a, b]);
            let k = hex(0xffff_0101);
            let t = e.op(sum_lo, smallvec![hi, k.clone(), c]);
            Some((sub_hi, smallvec![dv, lo, k, t]))
        }
        _ => None,
    }
}

/// `vadd2`/`vsub2` with `.add` (any types, selectors and mask) as `dp2a`
/// (sm_61, PTX 5.0): `c` plus each written half's exact sum or difference
/// is `c` plus a weighted sum of the four source half-words, and one
/// `dp2a` adds a register's two half-words, extended by one type, times
/// two byte weights. So one `dp2a` per source register and extension type
/// used, two for the usual forms, chained through `c`. With two, both
/// weight pairs share one constant (the first `dp2a.lo` reads its bytes 0
/// and 1, the second `dp2a.hi` bytes 2 and 3): from sm_90 `IDP.2A` takes
/// no immediate, and each distinct constant costs a `UMOV`. Returns the
/// final instruction's text and operands, or `None` for any other
/// operation.
fn lower_add_dp2a(
    e: &mut Emit,
    v: &Vop2,
    d: Value,
) -> Option<(&'static str, SmallVec<[Operand; 3]>)> {
    if !v.add || !matches!(v.op, Opcode::Vadd2 | Opcode::Vsub2) {
        return None;
    }
    let sign = if v.op == Opcode::Vsub2 { -1 } else { 1 };
    // Weights of (register a or b, signed extension) on its low and high
    // half-words; pool half-word p is register p / 2, half p % 2.
    let mut weights = [[[0i64; 2]; 2]; 2];
    for h in 0..2 {
        if v.halves & (1 << h) == 0 {
            continue;
        }
        for (pool, ty, w) in [(v.asel[h], v.aty, 1), (v.bsel[h], v.bty, sign)] {
            let (reg, half) = (usize::from(pool / 2), usize::from(pool % 2));
            weights[reg][usize::from(ty == Type::S32)][half] += w;
        }
    }
    // [.hi][a signed][b bytes signed]
    const DP2A: [[[&str; 2]; 2]; 2] = [
        [
            ["dp2a.lo.u32.u32", "dp2a.lo.u32.s32"],
            ["dp2a.lo.s32.u32", "dp2a.lo.s32.s32"],
        ],
        [
            ["dp2a.hi.u32.u32", "dp2a.hi.u32.s32"],
            ["dp2a.hi.s32.u32", "dp2a.hi.s32.s32"],
        ],
    ];
    // (register, a signed, bytes signed, the two weights as bytes)
    let mut terms: SmallVec<[(Value, usize, usize, u64); 4]> = SmallVec::new();
    for (reg, by_ty) in weights.iter().enumerate() {
        for (signed, w) in by_ty.iter().enumerate() {
            if *w == [0, 0] {
                continue;
            }
            let negative = usize::from(w.iter().any(|x| *x < 0));
            let bytes = (w[0] as u64 & 0xff) | (w[1] as u64 & 0xff) << 8;
            terms.push((if reg == 0 { v.a } else { v.b }, signed, negative, bytes));
        }
    }
    let shared = (terms.len() == 2).then(|| terms[0].3 | terms[1].3 << 16);
    let mut acc = Operand::Value(v.c);
    let n = terms.len();
    for (k, (src, signed, negative, bytes)) in terms.into_iter().enumerate() {
        let hi = usize::from(shared.is_some() && k == 1);
        let text = DP2A[hi][signed][negative];
        let ops: SmallVec<[Operand; 3]> =
            smallvec![Operand::Value(src), hex(shared.unwrap_or(bytes)), acc];
        if k + 1 == n {
            let mut last: SmallVec<[Operand; 3]> = smallvec![Operand::Value(d)];
            last.extend(ops);
            return Some((text, last));
        }
        acc = e.op(text, ops);
    }
    Some(("mov.b32", smallvec![Operand::Value(d), acc]))
}

fn hex(x: u64) -> Operand {
    Operand::Imm(Imm::hex(x))
}

fn imm(x: u64) -> Operand {
    Operand::Imm(Imm::int(x as u32 as i32 as i64))
}

/// Any vop2 form, decoded: operation, types, `.sat`/`.add`, the halves
/// written (or accumulated), and for each result half the pool half-word
/// (0, 1 = `a` low, high; 2, 3 = `b` low, high) each source takes.
struct Vop2 {
    op: Opcode,
    dty: Type,
    aty: Type,
    bty: Type,
    sat: bool,
    add: bool,
    halves: u32,
    asel: [u8; 2],
    bsel: [u8; 2],
    a: Value,
    b: Value,
    c: Value,
}

fn decode(f: &Function, i: Inst) -> Option<Vop2> {
    let info = f.op(i);
    if !matches!(
        info.opcode,
        Opcode::Vadd2
            | Opcode::Vsub2
            | Opcode::Vavrg2
            | Opcode::Vabsdiff2
            | Opcode::Vmin2
            | Opcode::Vmax2
    ) {
        return None;
    }
    let d = f.inst(i);
    if d.operands.len() != 4 || d.results.len() != 1 {
        return None;
    }
    let tys: Vec<Type> = info.types().collect();
    let [dty, aty, bty] = tys[..] else {
        return None;
    };
    let (mut sat, mut add) = (false, false);
    for m in info
        .mods
        .iter()
        .filter(|m| matches!(m, ptx_ir::Mod::Word(_)))
    {
        if f.ops.is_word(*m, "sat") {
            sat = true;
        } else if f.ops.is_word(*m, "add") {
            add = true;
        } else {
            return None;
        }
    }
    if sat && add {
        return None;
    }
    // `.hXY`: half 1 takes X, half 0 takes Y.
    let digits = |o: &Operand, default: [u8; 2]| -> Option<(Value, [u8; 2])> {
        match o {
            Operand::Value(v) => Some((*v, default)),
            Operand::Sel(v, s) => {
                let t = f.ops.word(*s).trim_start_matches('.').strip_prefix('h')?;
                let ds: Vec<u8> = t.bytes().map(|c| c.wrapping_sub(b'0')).collect();
                match ds[..] {
                    [x, y] if x < 4 && y < 4 => Some((*v, [y, x])),
                    [x] if x < 2 => Some((*v, [x, x])),
                    _ => None,
                }
            }
            _ => None,
        }
    };
    let (_, dsel) = digits(&d.operands[0], [0, 1])?;
    let halves = match &d.operands[0] {
        Operand::Sel(..) if dsel[0] < 2 && dsel[1] < 2 => (1 << dsel[0]) | (1 << dsel[1]),
        Operand::Sel(..) => return None,
        _ => 3,
    };
    let (a, asel) = digits(&d.operands[1], [0, 1])?;
    let (b, bsel) = digits(&d.operands[2], [2, 3])?;
    let Operand::Value(c) = d.operands[3] else {
        return None;
    };
    Some(Vop2 {
        op: info.opcode,
        dty,
        aty,
        bty,
        sat,
        add,
        halves,
        asel,
        bsel,
        a,
        b,
        c,
    })
}

/// The range of one half's exact result, from the source types.
fn result_range(v: &Vop2) -> (i64, i64) {
    let range = |t: Type| {
        if t == Type::S32 {
            (-32768i64, 32767i64)
        } else {
            (0, 65535)
        }
    };
    let ((xl, xh), (yl, yh)) = (range(v.aty), range(v.bty));
    match v.op {
        Opcode::Vadd2 => (xl + yl, xh + yh),
        Opcode::Vsub2 => (xl - yh, xh - yl),
        Opcode::Vavrg2 => ((xl + yl) >> 1, (xh + yh + 1) >> 1),
        Opcode::Vabsdiff2 => (0, (xh - yl).abs().max((xl - yh).abs())),
        Opcode::Vmin2 => (xl.min(yl), xh.min(yh)),
        _ => (xl.max(yl), xh.max(yh)),
    }
}

/// The general lowering, one half at a time in 32-bit arithmetic: each
/// half-word extended (`prmt` with sign replication, or `and`/`shr`), the
/// operation exact in 32 bits, `.sat` as a clamp, then the halves packed
/// with one `prmt` (merging `c` where the mask leaves a half) or summed
/// into `c` (`.add`). Returns the final instruction's text and operands.
fn lower_general(
    e: &mut Emit,
    v: &Vop2,
    d: Value,
    cvt_pack: bool,
    sad: bool,
) -> (&'static str, SmallVec<[Operand; 3]>) {
    let (av, bv, cv) = (
        Operand::Value(v.a),
        Operand::Value(v.b),
        Operand::Value(v.c),
    );
    let extract = |e: &mut Emit, pool: u8, ty: Type| -> Operand {
        let src = if pool < 2 { av.clone() } else { bv.clone() };
        let hi = pool % 2 == 1;
        if ty == Type::S32 {
            // Bytes 2p, 2p+1 of b:a, then the sign of byte 2p+1 twice.
            let lo = 2 * pool as u64;
            let sel = lo | (lo + 1) << 4 | (8 | (lo + 1)) << 8 | (8 | (lo + 1)) << 12;
            e.op("prmt.b32", smallvec![av.clone(), bv.clone(), hex(sel)])
        } else if hi {
            e.op("shr.u32", smallvec![src, imm(16)])
        } else {
            e.op("and.b32", smallvec![src, imm(0xffff)])
        }
    };
    let dv = Operand::Value(d);
    if sad && v.add && v.op == Opcode::Vabsdiff2 {
        // c + |x0 - y0| + |x1 - y1| as a chain of `sad` through c.
        let written: SmallVec<[usize; 2]> = (0..2).filter(|h| v.halves & (1 << h) != 0).collect();
        let mut acc = cv.clone();
        for (k, &h) in written.iter().enumerate() {
            let x = extract(e, v.asel[h], v.aty);
            let y = extract(e, v.bsel[h], v.bty);
            if k + 1 == written.len() {
                return ("sad.s32", smallvec![dv, x, y, acc]);
            }
            acc = e.op("sad.s32", smallvec![x, y, acc]);
        }
        return ("mov.b32", smallvec![dv, cv]);
    }
    let (lo, hi) = if v.dty == Type::S32 {
        (-32768i64, 32767i64)
    } else {
        (0, 65535)
    };
    let (rlo, rhi) = result_range(v);
    // `cvt.pack.sat` (sm_72, PTX 6.5) clamps and packs: one instruction
    // for both halves in place of a clamp per crossed bound and the
    // `prmt`, and one more than the `prmt` merge for a single half, so it
    // pays there only when both bounds need a clamp.
    let clamps = u32::from(rlo < lo) + u32::from(rhi > hi);
    let pack = cvt_pack && v.sat && clamps > 0 && (v.halves == 3 || clamps == 2);
    let mut r: [Option<Operand>; 2] = [None, None];
    for (h, slot) in r.iter_mut().enumerate() {
        if v.halves & (1 << h) == 0 {
            continue;
        }
        let x = extract(e, v.asel[h], v.aty);
        let y = extract(e, v.bsel[h], v.bty);
        let mut t = match v.op {
            Opcode::Vadd2 => e.op("add.s32", smallvec![x, y]),
            Opcode::Vsub2 => e.op("sub.s32", smallvec![x, y]),
            Opcode::Vabsdiff2 if sad => e.op("sad.s32", smallvec![x, y, imm(0)]),
            Opcode::Vabsdiff2 => {
                let s = e.op("sub.s32", smallvec![x, y]);
                e.op("abs.s32", smallvec![s])
            }
            Opcode::Vmin2 => e.op("min.s32", smallvec![x, y]),
            Opcode::Vmax2 => e.op("max.s32", smallvec![x, y]),
            _ => {
                // avrg: (s + 1) >> 1 rounding up for s >= 0, s >> 1 below.
                let s = e.op("add.s32", smallvec![x, y]);
                if v.aty == Type::U32 && v.bty == Type::U32 {
                    let u = e.op("add.s32", smallvec![s, imm(1)]);
                    e.op("shr.u32", smallvec![u, imm(1)])
                } else {
                    let neg = e.op("shr.s32", smallvec![s.clone(), imm(31)]);
                    let u = e.op("add.s32", smallvec![s, neg]);
                    let u = e.op("add.s32", smallvec![u, imm(1)]);
                    e.op("shr.s32", smallvec![u, imm(1)])
                }
            }
        };
        if v.sat && !pack {
            // Only the bounds the result can cross need a clamp.
            if rlo < lo {
                t = e.op("max.s32", smallvec![t, Operand::Imm(Imm::int(lo))]);
            }
            if rhi > hi {
                t = e.op("min.s32", smallvec![t, Operand::Imm(Imm::int(hi))]);
            }
        }
        *slot = Some(t);
    }
    if pack {
        // Both halves clamped and packed in one instruction; a single
        // half is packed twice (the clamped value in both halves) so that
        // the merge below takes the right bytes either way.
        let text = if v.dty == Type::S32 {
            "cvt.pack.sat.s16.s32"
        } else {
            "cvt.pack.sat.u16.s32"
        };
        return match (r[0].take(), r[1].take()) {
            (Some(x), Some(y)) => (text, smallvec![dv, y, x]),
            (Some(x), None) => {
                let p = e.op(text, smallvec![x.clone(), x]);
                ("prmt.b32", smallvec![dv, p, cv, hex(0x7610)])
            }
            (None, Some(y)) => {
                let p = e.op(text, smallvec![y.clone(), y]);
                ("prmt.b32", smallvec![dv, cv, p, hex(0x5410)])
            }
            (None, None) => ("mov.b32", smallvec![dv, cv]),
        };
    }
    if v.add {
        return match (r[0].take(), r[1].take()) {
            (Some(x), Some(y)) => {
                let s = e.op("add.s32", smallvec![cv, x]);
                ("add.s32", smallvec![dv, s, y])
            }
            (Some(x), None) | (None, Some(x)) => ("add.s32", smallvec![dv, cv, x]),
            (None, None) => ("mov.b32", smallvec![dv, cv]),
        };
    }
    match (r[0].take(), r[1].take()) {
        // Low half of each.
        (Some(x), Some(y)) => ("prmt.b32", smallvec![dv, x, y, hex(0x5410)]),
        // Low half of x, high half of c.
        (Some(x), None) => ("prmt.b32", smallvec![dv, x, cv, hex(0x7610)]),
        // Low half of c, low half of y.
        (None, Some(y)) => ("prmt.b32", smallvec![dv, cv, y, hex(0x5410)]),
        (None, None) => ("mov.b32", smallvec![dv, cv]),
    }
}

impl Pass for LowerVsub2 {
    fn name(&self) -> &'static str {
        "lower-vsub2"
    }

    fn run(&mut self, f: &mut Function, am: &mut AnalysisManager) -> Preserved {
        let lop3 = am.target.is_none_or(|t| t.sm >= 50);
        // Only where the module's version already has them: no raise.
        let simd16 = am.target.is_some_and(|t| t.allows(Feature::Simd16x2));
        let dp2a = am.target.is_some_and(|t| t.allows(Feature::Dp2a));
        let cvt_pack = am.target.is_some_and(|t| t.allows(Feature::CvtPack16));
        // `sad.s32` is one SASS instruction (`VABSDIFF`, accumulating) up to
        // sm_110 and emulated in three from sm_120 (measured, ptxas 13.5).
        let sad = am.target.is_some_and(|t| t.sm < 120);
        let insts = f.layout_insts();
        let mut changed = false;
        for i in insts {
            let Some(v) = decode(f, i) else {
                continue;
            };
            let d = f.inst(i).results[0];
            if simd16 {
                let mut e = Emit { f, at: i };
                if let Some((text, operands)) = lower_simd16(&mut e, &v, d) {
                    reform(f, i, text, operands);
                    changed = true;
                    continue;
                }
            }
            if !pays(&v) {
                continue;
            }
            if dp2a {
                let mut e = Emit { f, at: i };
                if let Some((text, operands)) = lower_add_dp2a(&mut e, &v, d) {
                    reform(f, i, text, operands);
                    changed = true;
                    continue;
                }
            }
            if !swar(&v) {
                let mut e = Emit { f, at: i };
                let (text, operands) = lower_general(&mut e, &v, d, cvt_pack, sad);
                reform(f, i, text, operands);
                changed = true;
                continue;
            }
            let (op, a, b, c) = (v.op, v.a, v.b, v.c);
            let mask = match v.halves {
                3 => Mask::Both,
                1 => Mask::Low,
                _ => Mask::High,
            };
            let (av, bv, cv) = (Operand::Value(a), Operand::Value(b), Operand::Value(c));
            let mut e = Emit { f, at: i };
            let (s, u) = if op == Opcode::Vadd2 {
                let x = e.op("and.b32", smallvec![av.clone(), imm(!H & 0xffff_ffff)]);
                let y = e.op("and.b32", smallvec![bv.clone(), imm(!H & 0xffff_ffff)]);
                let s = e.op("add.s32", smallvec![x, y]);
                let u = if lop3 {
                    // (a ^ b) & H
                    e.op("lop3.b32", smallvec![av, bv, imm(H), imm(0x28)])
                } else {
                    let t = e.op("xor.b32", smallvec![av, bv]);
                    e.op("and.b32", smallvec![t, imm(H)])
                };
                (s, u)
            } else {
                let x = e.op("or.b32", smallvec![av.clone(), imm(H)]);
                let y = e.op("and.b32", smallvec![bv.clone(), imm(!H & 0xffff_ffff)]);
                let s = e.op("sub.s32", smallvec![x, y]);
                let u = if lop3 {
                    // (a ^ ~b) & H
                    e.op("lop3.b32", smallvec![av, bv, imm(H), imm(0x82)])
                } else {
                    let t = e.op("xor.b32", smallvec![av, bv]);
                    let n = e.op("not.b32", smallvec![t]);
                    e.op("and.b32", smallvec![n, imm(H)])
                };
                (s, u)
            };
            // The final instruction takes over the vop2 (result, guard, tie).
            let (text, operands): (&str, SmallVec<[Operand; 3]>) = match mask {
                Mask::Both => ("xor.b32", smallvec![Operand::Value(d), s, u]),
                _ => {
                    let r = e.op("xor.b32", smallvec![s, u]);
                    let keep = if mask == Mask::Low {
                        0x0000_ffff
                    } else {
                        0xffff_0000
                    };
                    if lop3 {
                        // (r & keep) | (c & ~keep)
                        (
                            "lop3.b32",
                            smallvec![Operand::Value(d), r, cv, imm(keep), imm(0xE4)],
                        )
                    } else {
                        let lo = e.op("and.b32", smallvec![r, imm(keep)]);
                        let hi = e.op("and.b32", smallvec![cv, imm(!keep & 0xffff_ffff)]);
                        ("or.b32", smallvec![Operand::Value(d), lo, hi])
                    }
                }
            };
            reform(f, i, text, operands);
            changed = true;
        }
        Preserved::cfg_if(changed)
    }
}
