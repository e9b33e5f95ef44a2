//! `ptx-eval`: a bit-exact, warp-level interpreter of `ptx-ir` kernels.
//!
//! * Warps of 32 lanes with active masks; a branch that splits a warp runs
//!   each side in turn and reconverges at the immediate post-dominator (a
//!   SIMT stack). `vote`, `activemask` and ballots see the warp as it is.
//! * CTAs of several warps, interleaved at `bar.sync`; a grid of CTAs.
//! * Memory: global (sparse, bounds-checked), shared per CTA, local per
//!   thread, the kernel's param block, module `.global`/`.const`
//!   variables with integer initializers.
//! * Undefined behaviour policy: a register read before any write reads 0;
//!   memory outside every allocation is an error; running out of fuel (a
//!   step budget) is an error, never a hang.
//!
//! The families with semantics: mov, add, sub, mul, mad (lo/hi/wide), neg,
//! abs, min, max, and, or, xor, not, cnot, shl, shr, setp, set, selp, lop3,
//! prmt, bfe, bfi, ld, st, cvta, cvt (integers), bra, ret, exit, vote,
//! activemask, bar.sync and f32/f64 add/sub/mul/fma/setp. Anything else is
//! reported as unsupported at its source location.
#![deny(missing_docs)]

pub mod case;
pub mod check;
mod exec;
pub mod gen;
pub mod memory;
mod rng;

pub use exec::{dynamic_shared_bytes, param_layout, run, EvalError, Launch, Machine, Stats};
