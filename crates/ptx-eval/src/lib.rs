//! `ptx-eval`: a bit-exact, warp-level interpreter of `ptx-ir` kernels.
//!
//! * Warps of 32 lanes with active masks; a branch that splits a warp runs
//!   each side in turn and reconverges at the immediate post-dominator (a
//!   SIMT stack). `vote`, `activemask` and ballots see the warp as it is.
//! * CTAs of several warps, interleaved at `bar.sync`; a grid of CTAs.
//! * Device-function calls: a frame per call (registers, `.local`,
//!   per-thread parameters), recursion to a depth of 64.
//! * Memory: global (sparse, bounds-checked, a gap after every
//!   allocation), shared per CTA (sized exactly), local per thread, the
//!   kernel's param block, module `.global`/`.const` variables with their
//!   initializers.
//! * Undefined behaviour policy: a register read before any write reads 0;
//!   memory outside every allocation is an error; running out of fuel (a
//!   step budget) is an error, never a hang; a result that depends on the
//!   order lanes are served in is reported (`"unordered"`).
//! * Float results follow the hardware where the ISA leaves them open
//!   (NaN payloads), as measured on a GPU (`docs/evaluator.md`).
//!
//! The families with semantics are listed in `docs/evaluator.md`; anything
//! else is reported as unsupported at its source location.
#![deny(missing_docs)]

pub mod case;
pub mod check;
pub mod compare;
mod exec;
pub mod gen;
pub mod memory;
pub mod rng;

pub use exec::{
    dynamic_shared_bytes, form_of, param_layout, run, ApproxForm, Bound, EvalError, Launch, Limits,
    Machine, MemoryTags, Stats, Tag, DERIVED, EXACT, FORMS,
};
