//! Modules: the top-level items of a PTX file, in order.

use crate::function::Function;

/// A module-scope variable (`.global`, `.shared`, `.const`, …).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GlobalVar {
    /// Declared name.
    pub name: Box<str>,
    /// The whole declaration, normalised, without the trailing `;`.
    pub text: Box<str>,
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
