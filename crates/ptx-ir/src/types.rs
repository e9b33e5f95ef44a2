//! PTX fundamental types and the register classes values live in.

/// A PTX fundamental type, as written in `.reg` declarations and instruction
/// modifiers (`.s32`, `.f16x2`, `.pred`, …).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[allow(missing_docs)]
pub enum Type {
    Pred,
    B8,
    B16,
    B32,
    B64,
    B128,
    U8,
    U16,
    U32,
    U64,
    S8,
    S16,
    S32,
    S64,
    F16,
    F16x2,
    BF16,
    BF16x2,
    F32,
    F64,
}

impl Type {
    /// Every type, for table-driven code and tests.
    pub const ALL: [Type; 20] = [
        Type::Pred,
        Type::B8,
        Type::B16,
        Type::B32,
        Type::B64,
        Type::B128,
        Type::U8,
        Type::U16,
        Type::U32,
        Type::U64,
        Type::S8,
        Type::S16,
        Type::S32,
        Type::S64,
        Type::F16,
        Type::F16x2,
        Type::BF16,
        Type::BF16x2,
        Type::F32,
        Type::F64,
    ];

    /// Parses the text after the dot (`"s32"` → `S32`).
    pub fn from_name(s: &str) -> Option<Type> {
        Some(match s {
            "pred" => Type::Pred,
            "b8" => Type::B8,
            "b16" => Type::B16,
            "b32" => Type::B32,
            "b64" => Type::B64,
            "b128" => Type::B128,
            "u8" => Type::U8,
            "u16" => Type::U16,
            "u32" => Type::U32,
            "u64" => Type::U64,
            "s8" => Type::S8,
            "s16" => Type::S16,
            "s32" => Type::S32,
            "s64" => Type::S64,
            "f16" => Type::F16,
            "f16x2" => Type::F16x2,
            "bf16" => Type::BF16,
            "bf16x2" => Type::BF16x2,
            "f32" => Type::F32,
            "f64" => Type::F64,
            _ => return None,
        })
    }

    /// The name without the dot.
    pub fn name(self) -> &'static str {
        match self {
            Type::Pred => "pred",
            Type::B8 => "b8",
            Type::B16 => "b16",
            Type::B32 => "b32",
            Type::B64 => "b64",
            Type::B128 => "b128",
            Type::U8 => "u8",
            Type::U16 => "u16",
            Type::U32 => "u32",
            Type::U64 => "u64",
            Type::S8 => "s8",
            Type::S16 => "s16",
            Type::S32 => "s32",
            Type::S64 => "s64",
            Type::F16 => "f16",
            Type::F16x2 => "f16x2",
            Type::BF16 => "bf16",
            Type::BF16x2 => "bf16x2",
            Type::F32 => "f32",
            Type::F64 => "f64",
        }
    }

    /// Width in bits (a predicate counts as 1).
    pub const fn bits(self) -> u32 {
        match self {
            Type::Pred => 1,
            Type::B8 | Type::U8 | Type::S8 => 8,
            Type::B16 | Type::U16 | Type::S16 | Type::F16 | Type::BF16 => 16,
            Type::B32 | Type::U32 | Type::S32 | Type::F32 | Type::F16x2 | Type::BF16x2 => 32,
            Type::B64 | Type::U64 | Type::S64 | Type::F64 => 64,
            Type::B128 => 128,
        }
    }

    /// Whether this is a signed integer type.
    pub fn is_signed(self) -> bool {
        matches!(self, Type::S8 | Type::S16 | Type::S32 | Type::S64)
    }

    /// Whether this is an integer type (bit, signed or unsigned).
    pub fn is_integer(self) -> bool {
        !self.is_float() && self != Type::Pred
    }

    /// Whether this is a floating-point type (scalar or packed).
    pub const fn is_float(self) -> bool {
        matches!(
            self,
            Type::F16 | Type::F16x2 | Type::BF16 | Type::BF16x2 | Type::F32 | Type::F64
        )
    }

    /// The register class a register declared with this type is kept in.
    ///
    /// Integer registers lose their signedness (`.u32` and `.s32` registers
    /// become `.b32`): PTX makes bit-size registers compatible with every
    /// instruction type of the same size, so this never invalidates a use.
    /// Floating-point classes stay apart so printed code reads like LLVM's.
    pub const fn reg_class(self) -> Type {
        match self {
            Type::U8 | Type::S8 => Type::B8,
            Type::U16 | Type::S16 => Type::B16,
            Type::U32 | Type::S32 => Type::B32,
            Type::U64 | Type::S64 => Type::B64,
            t => t,
        }
    }

    /// Prefix of printed register names for a register class (`%r`, `%rd`, …).
    pub const fn reg_prefix(self) -> &'static str {
        match self.reg_class() {
            Type::Pred => "%p",
            Type::B8 => "%rc",
            Type::B16 => "%rs",
            Type::B32 => "%r",
            Type::B64 => "%rd",
            Type::B128 => "%rq",
            Type::F16 => "%h",
            Type::F16x2 => "%hh",
            Type::BF16 => "%hb",
            Type::BF16x2 => "%hhb",
            Type::F32 => "%f",
            Type::F64 => "%fd",
            _ => "%r",
        }
    }

    /// Whether a register of class `self` may be an operand of an
    /// instruction of type `ty`: the same size, with bit-size registers
    /// matching any type and float registers matching their own type or a
    /// bit type.
    #[inline]
    pub fn reg_compatible_with(self, ty: Type) -> bool {
        COMPATIBLE[self as usize] >> (ty as usize) & 1 != 0
    }

    /// [`Type::reg_compatible_with`], worked out (once, at compile time).
    const fn compatible(self, ty: Type) -> bool {
        let reg = self.reg_class();
        if matches!(reg, Type::Pred) || matches!(ty, Type::Pred) {
            return reg as u8 == ty as u8;
        }
        if reg.bits() != ty.bits() {
            return false;
        }
        match reg {
            Type::F32 | Type::F64 | Type::F16 | Type::F16x2 | Type::BF16 | Type::BF16x2 => {
                reg as u8 == ty as u8
                    || matches!(ty, Type::B16 | Type::B32 | Type::B64)
                    || ty.is_float()
            }
            _ => true,
        }
    }
}

// One bit per type in a `u32`.
const _: () = assert!(Type::ALL.len() <= 32);

/// For each register type, the instruction types it may be used with, one
/// bit per type (`Type as usize`).
static COMPATIBLE: [u32; Type::ALL.len()] = {
    let mut t = [0u32; Type::ALL.len()];
    let mut a = 0;
    while a < Type::ALL.len() {
        let mut b = 0;
        while b < Type::ALL.len() {
            let (reg, ty) = (Type::ALL[a], Type::ALL[b]);
            if reg.compatible(ty) {
                t[reg as usize] |= 1 << (ty as usize);
            }
            b += 1;
        }
        a += 1;
    }
    t
};

impl std::fmt::Display for Type {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, ".{}", self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_compatibility_table_is_the_rule() {
        for a in Type::ALL {
            for b in Type::ALL {
                assert_eq!(a.reg_compatible_with(b), a.compatible(b), "{a:?} {b:?}");
            }
        }
        assert!(Type::B32.reg_compatible_with(Type::F32));
        assert!(Type::S32.reg_compatible_with(Type::U32));
        assert!(!Type::F32.reg_compatible_with(Type::U32));
        assert!(Type::F32.reg_compatible_with(Type::B32));
        assert!(!Type::B64.reg_compatible_with(Type::B32));
        assert!(!Type::Pred.reg_compatible_with(Type::B8));
    }

    #[test]
    fn names_round_trip() {
        for t in Type::ALL {
            assert_eq!(Type::from_name(t.name()), Some(t));
        }
        assert_eq!(Type::from_name("s33"), None);
    }

    #[test]
    fn classes_drop_signedness_only() {
        assert_eq!(Type::S32.reg_class(), Type::B32);
        assert_eq!(Type::U64.reg_class(), Type::B64);
        assert_eq!(Type::F32.reg_class(), Type::F32);
        assert!(Type::B32.reg_compatible_with(Type::F32));
        assert!(!Type::Pred.reg_compatible_with(Type::B32));
        assert!(!Type::B64.reg_compatible_with(Type::U32));
    }
}
