//! Modules: the top-level items of a PTX file, in order.

use crate::function::Function;
use crate::op::Space;
use crate::types::Type;

/// A module-scope variable (`.global`, `.shared`, `.const`, …).
///
/// Invariant: `text` is what prints (the declaration as written, tokens
/// normalised); `decl` is its meaning, built from the same tokens by the
/// parser, or `None` for a form it does not model. Nothing rewrites one
/// without the other.
#[derive(Clone, Debug, PartialEq)]
pub struct GlobalVar {
    /// Declared name.
    pub name: Box<str>,
    /// The whole declaration, normalised, without the trailing `;`.
    pub text: Box<str>,
    /// The declaration's structure.
    pub decl: Option<VarDecl>,
}

/// What a variable's elements are.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VarType {
    /// A fundamental type (`.u32`, `.b8`, `.f64`, …).
    Scalar(Type),
    /// `.texref`, `.surfref`, `.samplerref`: handles with no bytes of ours.
    Opaque(Box<str>),
}

/// One initializer element.
#[derive(Clone, Debug, PartialEq)]
pub enum InitElem {
    /// An integer (negative ones in two's complement).
    Int(u64),
    /// An f32 literal (`0f3F800000`), by its bits.
    F32(u32),
    /// A double literal (`0d…`, `1.5`).
    F64(f64),
    /// A variable's address plus a byte offset; `generic(v)` when
    /// `generic`.
    Address {
        /// The variable.
        symbol: Box<str>,
        /// Byte offset.
        offset: i64,
        /// Written `generic(symbol)`.
        generic: bool,
    },
    /// A braced list.
    List(Vec<InitElem>),
    /// Anything else (a sampler's `filter_mode = nearest`), as written.
    Other(Box<str>),
}

/// A module variable's declaration.
#[derive(Clone, Debug, PartialEq)]
pub struct VarDecl {
    /// `.visible`, `.extern`, `.weak`, `.common`, if given.
    pub linkage: Option<Box<str>>,
    /// The state space.
    pub space: Space,
    /// `.attribute(…)` contents (`.managed`), as written.
    pub attributes: Vec<Box<str>>,
    /// `.align N`.
    pub align: Option<u64>,
    /// `.v2`/`.v4`/`.v8`: elements per vector (1 for scalars).
    pub vector: u32,
    /// Element type.
    pub ty: VarType,
    /// Array dimensions, outermost first; `None` for `[]`.
    pub dims: Vec<Option<u64>>,
    /// The initializer: its elements, one for a scalar.
    pub init: Option<Vec<InitElem>>,
}

impl VarDecl {
    /// Bytes of one element (0 for opaque handles).
    pub fn element_bytes(&self) -> u64 {
        match &self.ty {
            VarType::Scalar(t) => (t.bits() as u64).div_ceil(8).max(1) * self.vector as u64,
            VarType::Opaque(_) => 0,
        }
    }

    /// Elements (saturating; an unsized dimension counts 0).
    pub fn count(&self) -> u64 {
        self.dims
            .iter()
            .fold(1u64, |n, d| n.saturating_mul(d.unwrap_or(0)))
    }

    /// Total size in bytes.
    pub fn size(&self) -> u64 {
        self.element_bytes().saturating_mul(self.count())
    }

    /// Alignment: `.align`, else the size of the element type (of one
    /// vector component).
    pub fn alignment(&self) -> u64 {
        let natural = match &self.ty {
            VarType::Scalar(t) => (t.bits() as u64).div_ceil(8).max(1),
            VarType::Opaque(_) => 1,
        };
        self.align.unwrap_or(natural).max(1)
    }

    /// The initializer's elements in memory order (nested lists
    /// flattened).
    pub fn init_elements(&self) -> Vec<&InitElem> {
        fn flat<'a>(e: &'a InitElem, out: &mut Vec<&'a InitElem>) {
            match e {
                InitElem::List(v) => v.iter().for_each(|x| flat(x, out)),
                e => out.push(e),
            }
        }
        let mut out = Vec::new();
        for e in self.init.iter().flatten() {
            flat(e, &mut out);
        }
        out
    }
}

/// One top-level item.
#[derive(Clone, Debug)]
pub enum Item {
    /// `.version major.minor`.
    Version(u32, u32),
    /// `.target` with its comma-separated words.
    Target(Vec<Box<str>>),
    /// `.address_size N`.
    AddressSize(u32),
    /// A directive kept as text (`.file`, `.section`, `.pragma`, `.alias`, …).
    Directive(Box<str>),
    /// A module-scope variable.
    Var(GlobalVar),
    /// A function definition or declaration.
    Func(Box<Function>),
}

/// A PTX module.
#[derive(Clone, Debug, Default)]
pub struct Module {
    /// Items in source order.
    pub items: Vec<Item>,
}

impl Module {
    /// The `.version`, if present.
    pub fn version(&self) -> Option<(u32, u32)> {
        self.items.iter().find_map(|i| match i {
            Item::Version(a, b) => Some((*a, *b)),
            _ => None,
        })
    }

    /// The `.target` words, if present.
    pub fn target(&self) -> Option<&[Box<str>]> {
        self.items.iter().find_map(|i| match i {
            Item::Target(t) => Some(t.as_slice()),
            _ => None,
        })
    }

    /// All functions.
    pub fn functions(&self) -> impl Iterator<Item = &Function> {
        self.items.iter().filter_map(|i| match i {
            Item::Func(f) => Some(&**f),
            _ => None,
        })
    }

    /// All functions, mutably.
    pub fn functions_mut(&mut self) -> impl Iterator<Item = &mut Function> {
        self.items.iter_mut().filter_map(|i| match i {
            Item::Func(f) => Some(&mut **f),
            _ => None,
        })
    }
}
