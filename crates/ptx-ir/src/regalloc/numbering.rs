//! Printed register numbers: the source's own where it had them.
//!
//! A source register named with its class's prefix and a number (`%r15`
//! for a `.b32`, `%rd3`, `%f7`, `%p2`; what nvcc and LLVM write) keeps
//! that number when printed ([`Function::source_regs`]). Every other
//! register (a name like `sum`, a value a pass made, the second of two
//! registers a pass's change split apart, a temporary) gets a fresh number
//! above every number the source uses in its class, taken in print order.
//! So a function no pass changed prints with its own register names, and
//! ptxas sees the numbering it was given: for a debug target (`-G`), which
//! ptxas compiles without optimising, the numbers decide the registers it
//! uses.
//!
//! Invariant: no two registers handed out are equal; the count of a class
//! is the highest number in use (the `.reg` declaration is `%r<count+1>`).

use super::Reg;
use crate::function::Function;
use crate::types::Type;

/// Hands out register numbers, preferring the source's.
pub(crate) struct Numbering {
    /// Per class, one more than the highest number handed out (0: none;
    /// sources may use number 0).
    count: [u32; Type::ALL.len()],
    /// Next fresh number per class, minus one: fresh numbers start above
    /// every source number of the class.
    fresh: [u32; Type::ALL.len()],
    /// Source numbers already handed out, per class (bit sets).
    taken: Vec<Vec<u64>>,
}

impl Numbering {
    pub(crate) fn new(func: &Function) -> Self {
        let mut fresh = [0u32; Type::ALL.len()];
        for r in func.source_regs.iter().flatten() {
            let f = &mut fresh[r.class as usize];
            *f = (*f).max(r.num);
        }
        Numbering {
            count: [0; Type::ALL.len()],
            fresh,
            taken: if func.source_regs.is_empty() {
                Vec::new()
            } else {
                vec![Vec::new(); Type::ALL.len()]
            },
        }
    }

    /// A register of `class`: `preferred` (the source's) if it is of that
    /// class and not handed out yet, else a fresh one.
    #[inline]
    pub(crate) fn next(&mut self, class: Type, preferred: Option<Reg>) -> Reg {
        let c = class as usize;
        let num = match preferred.filter(|p| p.class == class) {
            Some(p) if self.take(c, p.num) => p.num,
            _ => {
                self.fresh[c] += 1;
                self.fresh[c]
            }
        };
        self.count[c] = self.count[c].max(num + 1);
        Reg { class, num }
    }

    /// Marks source number `n` of class `c` taken; false if it was.
    fn take(&mut self, c: usize, n: u32) -> bool {
        let set = &mut self.taken[c];
        let (w, bit) = ((n / 64) as usize, 1u64 << (n % 64));
        if set.len() <= w {
            set.resize(w + 1, 0);
        }
        let free = set[w] & bit == 0;
        set[w] |= bit;
        free
    }

    /// Per class, one more than the highest number in use (0: none).
    pub(crate) fn counts(&self) -> &[u32; Type::ALL.len()] {
        &self.count
    }

    /// A fresh register of `class` after everything handed out (a
    /// temporary for parallel copies).
    pub(crate) fn temporary(&mut self, class: Type) -> Reg {
        self.next(class, None)
    }
}

/// The source register of hint `h`, if the source named it by number.
#[inline]
pub(crate) fn source_reg(func: &Function, h: u32) -> Option<Reg> {
    func.source_regs.get(h as usize).copied().flatten()
}
