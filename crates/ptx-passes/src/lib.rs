//! `ptx-passes`: the pass manager, the registry of pass names, pipelines,
//! and the passes themselves (one file each).
//!
//! * [`Pass`]: what a pass implements; it returns the analyses it kept.
//! * [`analysis::AnalysisManager`]: cached CFG, dominators and liveness,
//!   dropped by what a pass did not preserve.
//! * [`registry`]: the one table of kebab-case pass names that the pipeline
//!   parser, `--print-passes` and `docs/passes.md` all read.
//! * [`pipeline`]: LLVM's new-PM pipeline text (`function(dce,copy-prop)`,
//!   `default<O2>`, `simplify-cfg<keep-loops>`) and the `-O` levels; it
//!   reads the registry, which knows nothing of it.
//! * [`Registry`] ([`custom`]): the built-in passes plus an embedder's own,
//!   built from pipeline text.
//! * [`manager`]: runs a pipeline over a function with `opt`'s
//!   instrumentation (print before/after, verify-each, timing, bisection).
#![deny(missing_docs)]

pub mod analysis;
pub mod const_fold;
pub mod copy_prop;
pub mod cse;
pub mod custom;
pub mod dce;
pub mod instcombine;
pub mod lop3_expand;
pub mod lop3_fuse;
pub mod lower_vote;
pub mod lower_vsub2;
pub mod manager;
pub mod pipeline;
pub mod registry;
pub mod rewrite;
pub mod set_fold;
pub mod simplify_cfg;
#[cfg(test)]
mod testing;

pub use analysis::{AnalysisManager, TargetInfo};
pub use custom::Registry;
pub use ptx_ir::verify::{verify_function, VerifierError};

use ptx_ir::Function;
use std::cell::Cell;

thread_local! {
    static HELPER_THREADS: Cell<bool> = const { Cell::new(true) };
}

/// Runs `f` with the passes it runs on this thread allowed, or not, to
/// start a helper thread of their own (full `lop3-fuse` maps a network of
/// 20,000+ nodes twice at once). An embedder that promised one thread
/// (`ptx-opt --threads=1`) runs its passes inside `with_helper_threads(false, …)`;
/// the output is the same either way.
pub fn with_helper_threads<R>(allowed: bool, f: impl FnOnce() -> R) -> R {
    let before = HELPER_THREADS.with(|h| h.replace(allowed));
    struct Restore(bool);
    impl Drop for Restore {
        fn drop(&mut self) {
            HELPER_THREADS.with(|h| h.set(self.0));
        }
    }
    let _restore = Restore(before);
    f()
}

/// Whether a pass on this thread may start a helper thread.
pub(crate) fn helper_threads_allowed() -> bool {
    HELPER_THREADS.with(Cell::get)
}

/// Which cached analyses survive a pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Preserved {
    /// Nothing changed.
    All,
    /// Instructions changed but no block, edge or terminator did.
    Cfg,
    /// Anything may have changed.
    None,
}

impl Preserved {
    /// Whether the function may have changed.
    pub fn changed(self) -> bool {
        self != Preserved::All
    }

    /// [`Preserved::Cfg`] if instructions changed, else [`Preserved::All`]:
    /// the answer of a pass that never touches blocks or edges.
    pub fn cfg_if(changed: bool) -> Preserved {
        if changed {
            Preserved::Cfg
        } else {
            Preserved::All
        }
    }
}

/// A transformation over one function.
pub trait Pass: Send {
    /// The registry name (`dce`, `copy-prop`, …).
    fn name(&self) -> &'static str;
    /// Runs on `f`; returns what it preserved.
    fn run(&mut self, f: &mut Function, am: &mut AnalysisManager) -> Preserved;
}

#[cfg(test)]
mod helper_thread_tests {
    use super::*;

    #[test]
    fn helper_threads_are_allowed_again_after_the_closure_even_on_a_panic() {
        assert!(helper_threads_allowed());
        with_helper_threads(false, || {
            assert!(!helper_threads_allowed());
            with_helper_threads(true, || assert!(helper_threads_allowed()));
            assert!(!helper_threads_allowed());
        });
        assert!(helper_threads_allowed());
        let r = std::panic::catch_unwind(|| with_helper_threads(false, || panic!("inside")));
        assert!(r.is_err());
        assert!(helper_threads_allowed());
    }
}
