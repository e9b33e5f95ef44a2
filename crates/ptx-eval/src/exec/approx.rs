//! The `.approx` and `.full` float functions (`rcp`, `sqrt`, `rsqrt`,
//! `lg2`, `ex2`, `sin`, `cos`, `tanh`, `div.approx`, `div.full`) and the
//! error bound each may show on hardware, followed from the instruction
//! to the memory its value reaches.
//!
//! Values: the correctly rounded function (computed in f64, rounded once
//! to the type), with the rules the ISA fixes exactly (`.ftz` flushing,
//! `div.approx.f32`'s zero for `2^126 < |b| < 2^128`, canonical NaNs).
//!
//! Tags: while a module has one of these instructions, every register
//! lane and every byte stored to memory carries a [`Tag`]: exact, the
//! direct result of one [`FORMS`] entry (kept by `mov` and by stores and
//! loads of the same width), or derived (computed from an approximate
//! value by anything else, so no bound is stated). The result JSON lists
//! the tagged elements of each buffer, and [`crate::compare`] compares
//! direct results within their bound and leaves derived ones out.
//!
//! Invariant: tags never change a value; a run without these
//! instructions keeps no tags at all (`Warp::approx` is empty).

use super::minifloat::{Format, Round, BF16, F16};
use super::*;

/// A register lane's or a memory byte's provenance: [`EXACT`], a
/// [`FORMS`] index plus one, or [`DERIVED`].
pub type Tag = u8;
/// Not computed from an approximate value.
pub const EXACT: Tag = 0;
/// Computed from an approximate value by another instruction.
pub const DERIVED: Tag = u8::MAX;

/// How far a hardware result may be from the exact function's value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Bound {
    /// At most this many units in the last place of the result type.
    Ulps(u32),
    /// Relative error at most `2^x`.
    Relative(f64),
    /// Absolute error at most `2^x`.
    Absolute(f64),
    /// The documentation states no bound for these inputs.
    Unstated,
}

/// One approximate form: what the result JSON names it, the type its
/// results are read in, and its bound.
#[derive(Clone, Copy, Debug)]
pub struct ApproxForm {
    /// The instruction, as the result JSON prints it (`"ex2.approx.f32"`).
    pub name: &'static str,
    /// The bit width of one result element (16, 32, 64).
    pub bits: u32,
    /// Whether the element is bfloat16 (16 bits only).
    pub bf16: bool,
    /// The error the hardware may show.
    pub bound: Bound,
}

const fn form(name: &'static str, bits: u32, bf16: bool, bound: Bound) -> ApproxForm {
    ApproxForm {
        name,
        bits,
        bf16,
        bound,
    }
}

/// The forms and their bounds (docs/evaluator.md gives the sources). The
/// 16-bit forms are given two ulps of their type, looser than the
/// relative errors stated for them.
pub const FORMS: [ApproxForm; 22] = [
    form("rcp.approx.f32", 32, false, Bound::Ulps(1)),
    form("rcp.approx.ftz.f64", 64, false, Bound::Unstated),
    form("div.approx.f32", 32, false, Bound::Ulps(2)),
    form(
        "div.approx.f32 (|b| outside [2^-126, 2^126])",
        32,
        false,
        Bound::Unstated,
    ),
    form("div.full.f32", 32, false, Bound::Ulps(2)),
    form("sqrt.approx.f32", 32, false, Bound::Relative(-22.0)),
    form("rsqrt.approx.f32", 32, false, Bound::Relative(-22.9)),
    form("rsqrt.approx.f64", 64, false, Bound::Relative(-22.0)),
    form("ex2.approx.f32", 32, false, Bound::Ulps(2)),
    form(
        "lg2.approx.f32 (a in [0.5, 2])",
        32,
        false,
        Bound::Absolute(-22.0),
    ),
    form("lg2.approx.f32", 32, false, Bound::Ulps(2)),
    form("sin.approx.f32", 32, false, Bound::Absolute(-20.5)),
    form("sin.approx.f32 (|a| > 100 pi)", 32, false, Bound::Unstated),
    form("cos.approx.f32", 32, false, Bound::Absolute(-20.5)),
    form("cos.approx.f32 (|a| > 100 pi)", 32, false, Bound::Unstated),
    form("tanh.approx.f32", 32, false, Bound::Relative(-10.9)),
    form("ex2.approx.f16", 16, false, Bound::Ulps(2)),
    form("ex2.approx.ftz.bf16", 16, true, Bound::Ulps(2)),
    form("tanh.approx.f16", 16, false, Bound::Ulps(2)),
    form("tanh.approx.bf16", 16, true, Bound::Ulps(2)),
    form("rcp.approx.f64", 64, false, Bound::Unstated),
    form("sqrt.approx.f64", 64, false, Bound::Unstated),
];

/// The form a tag names, if it names one.
pub fn form_of(tag: Tag) -> Option<&'static ApproxForm> {
    match tag {
        EXACT | DERIVED => None,
        t => FORMS.get(t as usize - 1),
    }
}

/// The tag of the form called `name` in [`FORMS`].
fn tag(name: &str) -> Tag {
    let i = FORMS
        .iter()
        .position(|f| f.name == name)
        .expect("every tagged form is in FORMS");
    i as Tag + 1
}

/// Whether `info` is one of this module's instructions.
pub(super) fn is_approx(info: &OpInfo, f: &Function) -> bool {
    let word = |x: &str| info.mods.iter().any(|mm| f.ops.is_word(*mm, x));
    info.opcode == Opcode::Other
        && matches!(
            &*info.mnemonic,
            "div" | "rcp" | "sqrt" | "rsqrt" | "lg2" | "ex2" | "sin" | "cos" | "tanh"
        )
        && (word("approx") || word("full"))
        && info.last_type().is_some_and(Type::is_float)
}

/// Whether `f` has an instruction whose results get tags.
pub(super) fn uses_approx(f: &Function) -> bool {
    f.layout
        .blocks()
        .flat_map(|b| f.layout.block_insts(b))
        .any(|i| is_approx(f.op(i), f))
}

/// The 16-bit format of `ty`'s elements, if it has 16-bit elements.
fn half_format(ty: Type) -> Option<Format> {
    match ty {
        Type::F16 | Type::F16x2 => Some(F16),
        Type::BF16 | Type::BF16x2 => Some(BF16),
        _ => None,
    }
}

/// This family's instructions; `Flow::NotMine` for any other.
#[allow(clippy::needless_range_loop)]
pub(super) fn step(
    c: &Ctx,
    cta: &mut Cta,
    w: &mut Warp,
    m: &mut Machine,
    out: &mut [u64; 32],
) -> Result<Flow, EvalError> {
    let Ctx {
        f, info, ty, run, ..
    } = *c;
    if !is_approx(info, f) {
        return Ok(Flow::NotMine);
    }
    let op = &*info.mnemonic;
    let ftz = c.word("ftz");
    let full = c.word("full");
    let a = c.operand(1, ty, w, cta, m)?;
    let b = if op == "div" {
        Some(c.operand(2, ty, w, cta, m)?)
    } else {
        None
    };
    let mut tags = [EXACT; 32];
    if let Some(fmt) = half_format(ty) {
        if !matches!(op, "ex2" | "tanh") {
            return Err(c.unsupported());
        }
        let halves = if matches!(ty, Type::F16x2 | Type::BF16x2) {
            2
        } else {
            1
        };
        let bf16 = matches!(ty, Type::BF16 | Type::BF16x2);
        let name = match (op, bf16) {
            ("ex2", false) => "ex2.approx.f16",
            ("ex2", true) => "ex2.approx.ftz.bf16",
            ("tanh", false) => "tanh.approx.f16",
            _ => "tanh.approx.bf16",
        };
        let form = tag(name);
        // `.ftz` (bf16 ex2): subnormal inputs and results are zeros of
        // their sign.
        let flush16 = |v: u64| {
            if ftz && bf16 && v & 0x7f80 == 0 {
                v & 0x8000
            } else {
                v
            }
        };
        for lane in 0..32 {
            let mut r = 0u64;
            for h in 0..halves {
                let x = fmt.decode(flush16((a.v[lane] >> (16 * h)) & 0xffff));
                let y = if op == "ex2" { x.exp2() } else { x.tanh() };
                r |= flush16(fmt.encode(y, Round::Nearest, false)) << (16 * h);
            }
            out[lane] = r;
            tags[lane] = form;
        }
    } else {
        let f32 = ty == Type::F32;
        let flush = |x: u64| if ftz && f32 { flush_f32(x) } else { x };
        // The form, and the one for inputs outside the range its bound
        // is stated for (the same where the bound has no range).
        let (main, outside) = match (op, f32) {
            ("div", _) if full => ("div.full.f32", "div.full.f32"),
            ("div", _) => (
                "div.approx.f32",
                "div.approx.f32 (|b| outside [2^-126, 2^126])",
            ),
            ("rcp", true) => ("rcp.approx.f32", "rcp.approx.f32"),
            ("rcp", false) if ftz => ("rcp.approx.ftz.f64", "rcp.approx.ftz.f64"),
            ("rcp", false) => ("rcp.approx.f64", "rcp.approx.f64"),
            ("sqrt", true) => ("sqrt.approx.f32", "sqrt.approx.f32"),
            ("sqrt", false) => ("sqrt.approx.f64", "sqrt.approx.f64"),
            ("rsqrt", true) => ("rsqrt.approx.f32", "rsqrt.approx.f32"),
            ("rsqrt", false) => ("rsqrt.approx.f64", "rsqrt.approx.f64"),
            ("lg2", true) => ("lg2.approx.f32 (a in [0.5, 2])", "lg2.approx.f32"),
            ("ex2", true) => ("ex2.approx.f32", "ex2.approx.f32"),
            ("sin", true) => ("sin.approx.f32", "sin.approx.f32 (|a| > 100 pi)"),
            ("cos", true) => ("cos.approx.f32", "cos.approx.f32 (|a| > 100 pi)"),
            ("tanh", true) => ("tanh.approx.f32", "tanh.approx.f32"),
            _ => return Err(c.unsupported()),
        };
        let (main, outside) = (tag(main), tag(outside));
        for lane in 0..32 {
            if run & (1 << lane) == 0 {
                continue;
            }
            let x = to_f64(flush(a.v[lane]), ty);
            let y = b.as_ref().map_or(0.0, |b| to_f64(flush(b.v[lane]), ty));
            let (r, out_of_range) = match op {
                "div" if full => (x / y, false),
                "div" if y.abs() > 2f64.powi(126) && y.abs() < 2f64.powi(128) => {
                    // The ISA's rule for a divisor past 2^126: NaN for an
                    // infinite dividend, else zero.
                    let zero = if (x < 0.0) != (y < 0.0) { -0.0 } else { 0.0 };
                    (if x.is_infinite() { f64::NAN } else { zero }, true)
                }
                "div" => (x / y, y != 0.0 && y.abs() < 2f64.powi(-126)),
                "rcp" => (1.0 / x, false),
                "sqrt" => (x.sqrt(), false),
                "rsqrt" => (1.0 / x.sqrt(), false),
                "lg2" => (x.log2(), !(0.5..=2.0).contains(&x)),
                "ex2" => (x.exp2(), false),
                "sin" => (x.sin(), x.abs() > 100.0 * std::f64::consts::PI),
                "cos" => (x.cos(), x.abs() > 100.0 * std::f64::consts::PI),
                _ => (x.tanh(), false),
            };
            out[lane] = nan_result(flush(from_f64(r, ty)), ty, &[]);
            tags[lane] = if out_of_range { outside } else { main };
        }
    }
    if !w.approx.is_empty() {
        for r in &c.d.results {
            let t = &mut w.approx[r.as_u32() as usize];
            for lane in 0..32 {
                if run & (1 << lane) != 0 {
                    t[lane] = tags[lane];
                }
            }
        }
    }
    Ok(Flow::Write)
}

/// The tags of the results of an instruction another family computed:
/// a `mov` of one register keeps its tag, anything else computed from a
/// tagged lane is [`DERIVED`]. Loads set their own (from memory).
pub(super) fn propagate(c: &Ctx, w: &mut Warp) {
    let d = c.d;
    if d.results.is_empty() || c.info.opcode == Opcode::Ld || &*c.info.mnemonic == "ldu" {
        return;
    }
    let mut sources: SmallVec<[usize; 4]> = SmallVec::new();
    for o in &d.operands {
        let mut add = |v: &ptx_ir::Value| {
            if !d.results.contains(v) {
                sources.push(v.as_u32() as usize);
            }
        };
        match o {
            Operand::Value(v) => add(v),
            Operand::Vector(vs) => vs.iter().for_each(|o| {
                if let Operand::Value(v) = o {
                    add(v)
                }
            }),
            _ => {}
        }
    }
    let keep = c.info.opcode == Opcode::Mov && sources.len() == 1 && d.results.len() == 1;
    let mut tags = [EXACT; 32];
    for &s in &sources {
        let st = &w.approx[s];
        for lane in 0..32 {
            if st[lane] != EXACT {
                tags[lane] = if keep { st[lane] } else { DERIVED };
            }
        }
    }
    for r in &d.results {
        let t = &mut w.approx[r.as_u32() as usize];
        for lane in 0..32 {
            if c.run & (1 << lane) != 0 {
                t[lane] = tags[lane];
            }
        }
    }
}

/// Tags of stored bytes, by memory and address.
#[derive(Debug, Default)]
pub struct MemoryTags {
    bytes: FxHashMap<(u8, u64, u64), Tag>,
}

/// Which copy of a state space an address is in: global and const
/// memory are one, shared memory is the CTA's, local memory the thread's.
pub(super) fn owner(space: Space, cta: &Cta, w: &Warp, lane: usize) -> Option<(u8, u64)> {
    match space {
        Space::Global => Some((0, 0)),
        Space::Shared => {
            let [x, y, z] = cta.ctaid;
            Some((1, (x as u64) | (y as u64) << 21 | (z as u64) << 42))
        }
        Space::Local => Some((2, (w.id as u64) << 16 | (w.depth as u64) << 8 | lane as u64)),
        _ => None,
    }
}

impl MemoryTags {
    /// Whether no byte is tagged.
    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    /// The tag of the `len` bytes at `addr` of global memory.
    pub fn global(&self, addr: u64, len: u64) -> Tag {
        self.read((0, 0), addr, len)
    }

    /// The tag of `len` bytes: theirs if they agree, else [`DERIVED`]
    /// when any is tagged.
    pub(super) fn read(&self, (space, who): (u8, u64), addr: u64, len: u64) -> Tag {
        if self.bytes.is_empty() {
            return EXACT;
        }
        let tag = |i: u64| {
            self.bytes
                .get(&(space, who, addr.wrapping_add(i)))
                .copied()
                .unwrap_or(EXACT)
        };
        let first = tag(0);
        if (1..len).all(|i| tag(i) == first) {
            first
        } else {
            DERIVED
        }
    }

    /// Tags `len` bytes at `addr` with `tag`.
    pub(super) fn write(&mut self, (space, who): (u8, u64), addr: u64, len: u64, tag: Tag) {
        for i in 0..len {
            let key = (space, who, addr.wrapping_add(i));
            if tag == EXACT {
                if !self.bytes.is_empty() {
                    self.bytes.remove(&key);
                }
            } else {
                self.bytes.insert(key, tag);
            }
        }
    }
}
