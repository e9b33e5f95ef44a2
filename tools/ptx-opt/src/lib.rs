//! Library side of the `ptx-opt` driver: the parse → verify → print path
//! shared by the binary, its tests and the benchmark.
#![deny(missing_docs)]

use ptx_ir::write::write_item;
use ptx_ir::Item;
use ptx_parse::{check_utf8, Diagnostic, Parser};

/// Parses `src`, builds SSA, verifies every function and prints the module
/// back, one item at a time (each function is dropped once printed).
pub fn process(src: &[u8]) -> Result<String, Diagnostic> {
    let text = check_utf8(src)?;
    let mut p = Parser::new(text)?;
    let mut out = String::with_capacity(text.len() + text.len() / 4);
    while let Some(item) = p.next_item()? {
        if let Item::Func(f) = &item {
            verify(f)?;
        }
        write_item(&mut out, &item).expect("writing to a String cannot fail");
    }
    Ok(out)
}

/// Verifies one function, turning the first finding into a diagnostic at
/// the offending instruction (or at the function when it has none).
pub fn verify(f: &ptx_ir::Function) -> Result<(), Diagnostic> {
    match ptx_ir::verify::verify_function(f).into_iter().next() {
        None => Ok(()),
        Some(e) => {
            let pos = if e.pos == u32::MAX { 0 } else { e.pos as usize };
            Err(Diagnostic::new(
                pos,
                format!("verifier: in function '{}': {}", f.name, e.message),
            ))
        }
    }
}
