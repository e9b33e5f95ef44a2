//! `ptx-parse`: reads PTX text into `ptx-ir`.
//!
//! * [`lexer`]: streaming tokens borrowed from the source;
//! * [`parser`]: module items and function bodies, with located
//!   [`Diagnostic`]s;
//! * [`ssa`]: SSA construction with block parameters.
//!
//! ```
//! let m = ptx_parse::parse_module(".version 7.0\n.target sm_80\n.address_size 64\n").unwrap();
//! assert_eq!(m.version(), Some((7, 0)));
//! ```
#![deny(missing_docs)]

pub mod diag;
mod forms;
pub mod lexer;
pub mod mnemonics;
pub mod number;
pub mod parser;
pub mod ssa;
mod vars;

pub use diag::Diagnostic;
pub use parser::{check_utf8, parse_bytes, parse_module, Parser, PendingBody, Unit};
