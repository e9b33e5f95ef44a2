//! `ptx-passes`: optimization and lowering passes over `ptx-ir`.
//!
//! The pass manager, the registry of pass names and the passes themselves
//! land here; today the crate only re-exports the verifier entry point that
//! passes will run between stages.
#![deny(missing_docs)]

pub use ptx_ir::verify::{verify_function, VerifierError};
