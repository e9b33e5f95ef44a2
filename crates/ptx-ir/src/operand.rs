//! Instruction operands.

use crate::op::Sym;
use crate::Value;

/// How an immediate was written, so that it prints back the same way.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ImmKind {
    /// Decimal integer.
    Dec,
    /// `0x…` integer.
    Hex,
    /// `0…` octal integer.
    Oct,
    /// `0b…` integer.
    Bin,
    /// `0f…`: the bits of an `f32`.
    F32,
    /// `0d…`: the bits of an `f64`.
    F64,
    /// A decimal floating-point literal; `bits` holds the `f64` bits and the
    /// symbol the text as written.
    Float(Sym),
}

/// An immediate operand. Integer `bits` are the two's complement of the
/// value (a 64-bit PTX integer literal).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Imm {
    /// Value bits.
    pub bits: u64,
    /// Notation.
    pub kind: ImmKind,
    /// Whether a minus sign was written (integers only).
    pub neg: bool,
    /// Whether the `U` suffix was written (integers only).
    pub unsigned: bool,
}

impl Imm {
    /// A decimal integer immediate.
    pub fn int(v: i64) -> Imm {
        Imm {
            bits: v as u64,
            kind: ImmKind::Dec,
            neg: v < 0,
            unsigned: false,
        }
    }
    /// A hexadecimal integer immediate (`0x…`).
    pub fn hex(v: u64) -> Imm {
        Imm {
            bits: v,
            kind: ImmKind::Hex,
            neg: false,
            unsigned: false,
        }
    }
    /// Whether this is an integer immediate.
    pub fn is_int(&self) -> bool {
        matches!(
            self.kind,
            ImmKind::Dec | ImmKind::Hex | ImmKind::Oct | ImmKind::Bin
        )
    }
}

/// A memory address `[base+offset]`; texture and surface forms add further
/// comma-separated elements (`[tex, {%f1, %f2}]`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Address {
    /// Register, symbol or absolute immediate.
    pub base: Operand,
    /// Byte offset added to the base.
    pub offset: i64,
    /// The source wrote a zero offset after a register base (`[%SP+0]`,
    /// nvcc `-G` and LLVM at `-O0`); it is printed back as written, since
    /// ptxas compiles a debug target's `[%SP+0]` and `[%SP]` differently
    /// (three SASS instructions apart on the corpus's `-G` MD5).
    pub zero_offset_written: bool,
    /// Further elements after the first, for texture/surface forms.
    pub rest: Vec<Operand>,
}

/// One operand of an instruction. Register operands that the instruction
/// writes hold one of its result values; those it reads hold the value read.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Operand {
    /// A register.
    Value(Value),
    /// A negated predicate source `!p`.
    Not(Value),
    /// A register with a component or byte/half selector: `%r1.h0`, `%r2.b3`.
    Sel(Value, Sym),
    /// A negated source register, optionally with a selector (`-a.b0` in
    /// video instructions).
    Neg(Value, Option<Sym>),
    /// A dual destination `d|p`; `None` is the sink `_`.
    Pair(Option<Value>, Option<Value>),
    /// The sink `_`.
    Sink,
    /// An immediate.
    Imm(Imm),
    /// A symbol (variable, function, parameter) with a byte offset.
    Symbol(Sym, i64),
    /// A special register such as `%tid.x`.
    Special(Sym),
    /// A memory address.
    Addr(Box<Address>),
    /// A vector `{a, b, …}`.
    Vector(Box<[Operand]>),
    /// A parenthesised list, as in `call (r), f, (a, b)`.
    List(Box<[Operand]>),
    /// A register that is not in SSA form (vector registers, `.reg`
    /// parameters), printed by name, with an optional selector.
    Pinned(Sym, Option<Sym>),
}

impl Operand {
    /// Calls `f` on every value this operand mentions, in print order.
    ///
    /// Inlined for the flat forms, which are nearly all operands; nested
    /// ones (addresses, vectors, lists) go through one shared function.
    #[inline]
    pub fn for_each_value(&self, f: &mut impl FnMut(Value)) {
        match self {
            Operand::Value(v) | Operand::Not(v) | Operand::Sel(v, _) | Operand::Neg(v, _) => f(*v),
            Operand::Pair(a, b) => {
                if let Some(a) = a {
                    f(*a)
                }
                if let Some(b) = b {
                    f(*b)
                }
            }
            Operand::Addr(_) | Operand::Vector(_) | Operand::List(_) => self.nested_values(f),
            _ => {}
        }
    }

    /// The values of a nested form (address, vector, list); other forms
    /// never come here.
    fn nested_values(&self, f: &mut dyn FnMut(Value)) {
        match self {
            Operand::Addr(a) => {
                a.base.for_each_value(&mut |v| f(v));
                for o in &a.rest {
                    o.for_each_value(&mut |v| f(v));
                }
            }
            Operand::Vector(v) | Operand::List(v) => {
                for o in v.iter() {
                    o.for_each_value(&mut |v| f(v));
                }
            }
            _ => {}
        }
    }

    /// Calls `f` on every value slot, mutably (flat forms inlined, as in
    /// [`Operand::for_each_value`]).
    #[inline]
    pub fn for_each_value_mut(&mut self, f: &mut impl FnMut(&mut Value)) {
        match self {
            Operand::Value(v) | Operand::Not(v) | Operand::Sel(v, _) | Operand::Neg(v, _) => f(v),
            Operand::Pair(a, b) => {
                if let Some(a) = a {
                    f(a)
                }
                if let Some(b) = b {
                    f(b)
                }
            }
            Operand::Addr(_) | Operand::Vector(_) | Operand::List(_) => self.nested_values_mut(f),
            _ => {}
        }
    }

    /// The values of a nested form (address, vector, list); other forms
    /// never come here.
    fn nested_values_mut(&mut self, f: &mut dyn FnMut(&mut Value)) {
        match self {
            Operand::Addr(a) => {
                a.base.for_each_value_mut(&mut |v| f(v));
                for o in &mut a.rest {
                    o.for_each_value_mut(&mut |v| f(v));
                }
            }
            Operand::Vector(v) | Operand::List(v) => {
                for o in v.iter_mut() {
                    o.for_each_value_mut(&mut |v| f(v));
                }
            }
            _ => {}
        }
    }

    /// The value of a plain register operand.
    pub fn as_value(&self) -> Option<Value> {
        match self {
            Operand::Value(v) => Some(*v),
            _ => None,
        }
    }

    /// The immediate of an immediate operand.
    pub fn as_imm(&self) -> Option<Imm> {
        match self {
            Operand::Imm(i) => Some(*i),
            _ => None,
        }
    }
}
