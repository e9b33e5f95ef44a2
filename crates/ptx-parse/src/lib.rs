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

/// Why a form cannot be written for a `.version`/`.target`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FormNeed {
    /// The reason, in ptxas's terms.
    pub message: String,
    /// The form exists only on arch- or family-specific targets (`wgmma`
    /// on sm_90a): no pass rewrites it for another.
    pub arch_specific: bool,
}

/// Why form `op` cannot be written for PTX ISA `version` and `sm_N` (with
/// its `a`/`f` suffix), if it cannot: the same rule the parser applies to
/// the module's own `.version` and `.target` (for `set`/`setp`, `vote`,
/// the vop2 family and `lop3`, the sm_100 forms, and the arch- and
/// family-specific forms such as `wgmma` and `tcgen05`).
pub fn form_needs_error(
    ops: &ptx_ir::OpTable,
    op: ptx_ir::OpId,
    version: (u32, u32),
    sm: u32,
    suffix: Option<char>,
) -> Option<FormNeed> {
    let name = &ops.info(op).text;
    let plain = |message: String| {
        Some(FormNeed {
            message,
            arch_specific: false,
        })
    };
    if forms::is_unsynced_vote(ops, op) && version >= (6, 4) && sm >= 70 {
        return plain(format!(
            "'{name}' without '.sync' is not supported on sm_70 and later from PTX ISA 6.4"
        ));
    }
    if let Some(message) = forms::arch_error(ops, op, sm, suffix) {
        return Some(FormNeed {
            message,
            arch_specific: true,
        });
    }
    let n = forms::needs(ops, op)?;
    if version < n.version {
        return plain(format!(
            "'{name}' needs PTX ISA {}.{} or later",
            n.version.0, n.version.1
        ));
    }
    if sm < n.sm {
        return plain(format!("'{name}' needs .target sm_{} or later", n.sm));
    }
    None
}

pub use parser::{check_utf8, parse_bytes, parse_module, Parser, PendingBody, Unit};
