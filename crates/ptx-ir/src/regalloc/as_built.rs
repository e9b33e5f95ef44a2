//! The as-built assignment: registers handed out in one walk for a
//! function exactly as SSA construction left it (or as passes that all
//! reported no change left it).
//!
//! A source register holds one value at a time, so in reachable code the
//! values sharing its hint never interfere: every value with a hint gets
//! its hint's register, every other value its own, and no copies are
//! needed, since tied values and branch arguments share a hint with what
//! they feed. Unreachable blocks (renamed with nothing defined on entry)
//! keep the source's register as written: that code never runs.

use super::{counts_of, Assignment, Reg};
use crate::entity::SecondaryMap;
use crate::function::Function;
use crate::types::Type;
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
    count: [u32; Type::ALL.len()],
    /// Cleared when two values of one hint differ in register class.
    ok: bool,
}

impl AsBuiltNamer {
    pub(crate) fn new(func: &Function) -> Self {
        AsBuiltNamer {
            reg: SecondaryMap::with_capacity(func.dfg.values.len(), None),
            // Hints are source registers: fewer than values.
            hint_reg: Vec::with_capacity(func.dfg.values.len()),
            count: [0; Type::ALL.len()],
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
        let count = &mut self.count;
        let mut fresh = || {
            count[class as usize] += 1;
            Reg {
                class,
                num: count[class as usize],
            }
        };
        let r = match d.hint {
            Some(h) => {
                let h = h as usize;
                if self.hint_reg.len() <= h {
                    self.hint_reg.resize(h + 1, None);
                }
                match self.hint_reg[h] {
                    Some(r) => {
                        self.ok &= r.class == class;
                        r
                    }
                    None => *self.hint_reg[h].insert(fresh()),
                }
            }
            None => fresh(),
        };
        self.reg[v] = Some(r);
        r
    }

    /// The assignment of every value met; `None` if a hint's values
    /// differ in class.
    pub(crate) fn finish(self) -> Option<Assignment> {
        self.ok
            .then(|| Assignment::without_copies(self.reg, counts_of(&self.count)))
    }
}
