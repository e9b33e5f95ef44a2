//! `lower-vsub2`: the vop2 SIMD video instructions as plain 32-bit
//! arithmetic (SWAR), which current GPUs run natively while ptxas emulates
//! the video forms in 17–25 SASS instructions.
//!
//! Lowered today: `vadd2` and `vsub2` in the merge form without `.sat`
//! (any types: without `.sat` the result half is the low 16 bits of the
//! exact sum or difference whatever the types), with the default operand
//! selectors (`a.h10`, `b.h32`) and any destination mask. With `H` =
//! `0x80008000`:
//!
//! ```text
//! vadd2:  s = (a & ~H) + (b & ~H);  d = s ^ ((a ^ b) & H)
//! vsub2:  s = (a | H) - (b & ~H);   d = s ^ ((a ^ ~b) & H)
//! ```
//!
//! The `(a ^ b) & H` term is one `lop3` on sm_50+ (two or three plain
//! instructions below); a `.h0`/`.h1` mask merges the other half of `c`
//! with one more `lop3` (`and`/`or` below sm_50). The all-`u32` form over
//! both halves stays native: ptxas does it in 3 SASS instructions, one
//! fewer than this sequence (`scripts/measure-vop2.py`). Other forms (`.sat`,
//! `.add`, other selectors, `vavrg2`, `vabsdiff2`, `vmin2`, `vmax2`) are
//! left to ptxas for now. Temporaries are unguarded; the instruction
//! writing `d` keeps the guard and tied value. Preserves the CFG.
//!
//! ```text
//! before:                                   after (sm_80):
//!   vsub2.s32.s32.s32 %r3, %r1, %r2, %r4;     or.b32   %r5, %r1, -2147450880;
//!                                             and.b32  %r6, %r2, 2147450879;
//!                                             sub.s32  %r7, %r5, %r6;
//!                                             lop3.b32 %r8, %r1, %r2, -2147450880, 0x82;
//!                                             xor.b32  %r3, %r7, %r8;
//! ```

use crate::{AnalysisManager, Pass, Preserved};
use ptx_ir::{Function, Imm, Inst, Opcode, Operand, Type, Value};
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

/// `(op, a, b, c, d, mask)` of a form this pass lowers.
fn form(f: &Function, i: Inst) -> Option<(Opcode, Value, Value, Value, Value, Mask)> {
    let info = f.op(i);
    if !matches!(info.opcode, Opcode::Vadd2 | Opcode::Vsub2) {
        return None;
    }
    if info.types().count() != 3
        || info.mods.len() != 3
        || f.inst(i).operands.len() != 4
        || f.inst(i).results.len() != 1
    {
        // Any word beyond the three types (`.sat`, `.add`) is not handled.
        return None;
    }
    let d = f.inst(i);
    let sel = |o: &Operand, want: &str| -> Option<Value> {
        match o {
            Operand::Value(v) => Some(*v),
            Operand::Sel(v, s) if f.ops.word(*s).trim_start_matches('.') == want => Some(*v),
            _ => None,
        }
    };
    let (dv, mask) = match &d.operands[0] {
        Operand::Value(v) => (*v, Mask::Both),
        Operand::Sel(v, s) => match f.ops.word(*s).trim_start_matches('.') {
            "h10" => (*v, Mask::Both),
            "h0" => (*v, Mask::Low),
            "h1" => (*v, Mask::High),
            _ => return None,
        },
        _ => return None,
    };
    // Measured (scripts/measure-vop2.py, sm_75..sm_120): ptxas emulates the
    // all-u32 form over both halves in 3 SASS instructions, one fewer than
    // the SWAR sequence; every other form costs it 9 to 17.
    if mask == Mask::Both && info.types().all(|t| t == Type::U32) {
        return None;
    }
    let a = sel(&d.operands[1], "h10")?;
    let b = sel(&d.operands[2], "h32")?;
    let Operand::Value(c) = d.operands[3] else {
        return None;
    };
    Some((info.opcode, a, b, c, dv, mask))
}

struct Emit<'a> {
    f: &'a mut Function,
    at: Inst,
}

impl Emit<'_> {
    /// A new unguarded `text d, srcs` before the vop2; returns `d`.
    fn op(&mut self, text: &str, srcs: SmallVec<[Operand; 3]>) -> Operand {
        let op = self.f.ops.intern_text(text);
        Operand::Value(self.f.insert_def_before(self.at, op, Type::B32, srcs))
    }
}

fn imm(x: u64) -> Operand {
    Operand::Imm(Imm::int(x as u32 as i32 as i64))
}

impl Pass for LowerVsub2 {
    fn name(&self) -> &'static str {
        "lower-vsub2"
    }

    fn run(&mut self, f: &mut Function, am: &mut AnalysisManager) -> Preserved {
        let lop3 = am.target.is_none_or(|t| t.sm >= 50);
        let insts = f.layout_insts();
        let mut changed = false;
        for i in insts {
            let Some((op, a, b, c, d, mask)) = form(f, i) else {
                continue;
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
            let new = f.ops.intern_text(text);
            let data = &mut f.dfg.insts[i];
            data.op = new;
            data.operands = operands;
            changed = true;
        }
        Preserved::cfg_if(changed)
    }
}
