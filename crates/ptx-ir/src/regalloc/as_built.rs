//! The as-built assignment: registers handed out in one walk for a
//! function exactly as SSA construction left it (or as passes that all
//! reported no change left it).
//!
//! A source register holds one value at a time, so in reachable code the
//! values sharing its hint never interfere: every value with a hint gets
//! its hint's register (the source's own number where it had one, see
//! `numbering.rs`), every other value its own, and no copies are needed, since tied values and branch arguments share a hint with what
//! they feed. Unreachable blocks (renamed with nothing defined on entry)
//! keep the source's register as written: that code never runs.

use super::numbering::{source_reg, Numbering};
use super::{counts_of, Assignment, Reg};
use crate::entity::SecondaryMap;
use crate::function::Function;
use crate::Value;

/// The as-built registers, handed out as values are met in print order:
/// every value with a hint shares its hint's register, the others get
/// their own; no copies are needed, since tied values and branch arguments
/// share a hint with what they feed. The printer names values this way
/// while it prints, meeting them in the order of
/// `for_each_in_print_order`, so that the function is walked once.
pub(crate) struct AsBuiltNamer {
    reg: SecondaryMap<Value, Option<Reg>>,
    hint_reg: Vec<Option<Reg>>,
    numbers: Numbering,
    /// Cleared when two values of one hint differ in register class.
    ok: bool,
}

impl AsBuiltNamer {
    pub(crate) fn new(func: &Function) -> Self {
        AsBuiltNamer {
            reg: SecondaryMap::with_capacity(func.dfg.values.len(), None),
            // Hints are source registers: fewer than values.
            hint_reg: Vec::with_capacity(func.dfg.values.len()),
            numbers: Numbering::new(func),
            ok: true,
        }
    }

    /// The register of `v`, given on its first meeting.
    #[inline]
    pub(crate) fn reg(&mut self, func: &Function, v: Value) -> Reg {
        match self.reg[v] {
            Some(r) => r,
            None => self.first(func, v),
        }
    }

    fn first(&mut self, func: &Function, v: Value) -> Reg {
        let d = &func.dfg.values[v];
        let class = d.ty.reg_class();
        let r = match d.hint {
            Some(h) => {
                let k = h as usize;
                if self.hint_reg.len() <= k {
                    self.hint_reg.resize(k + 1, None);
                }
                match self.hint_reg[k] {
                    Some(r) => {
                        self.ok &= r.class == class;
                        r
                    }
                    None => {
                        let r = self.numbers.next(class, source_reg(func, h));
                        *self.hint_reg[k].insert(r)
                    }
                }
            }
            None => self.numbers.next(class, None),
        };
        self.reg[v] = Some(r);
        r
    }

    /// The assignment of every value met; `None` if a hint's values
    /// differ in class.
    pub(crate) fn finish(self) -> Option<Assignment> {
        self.ok
            .then(|| Assignment::without_copies(self.reg, counts_of(self.numbers.counts())))
    }
}
