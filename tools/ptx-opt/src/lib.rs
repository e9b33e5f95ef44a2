//! Library side of the `ptx-opt` driver: the parse → SSA → verify → print
//! path shared by the binary, its tests and the benchmark.
#![deny(missing_docs)]

use ptx_ir::write::write_item;
use ptx_ir::Item;
use ptx_parse::{check_utf8, Diagnostic, Parser, Unit};
use std::sync::mpsc::sync_channel;

/// Inputs at least this large are processed by a two-stage pipeline.
const PIPELINE_MIN_BYTES: usize = 256 << 10;
/// Parsed functions in flight between the two stages.
const PIPELINE_DEPTH: usize = 16;

/// Parses `src`, builds SSA, verifies every function and prints the module
/// back, one item at a time (each function is dropped once printed).
///
/// Large inputs run as a pipeline: this thread parses, a second one builds
/// SSA, verifies and prints. The output and the error reported (the first
/// one in source order) are the same as with one thread.
pub fn process(src: &[u8]) -> Result<String, Diagnostic> {
    run(src, true)
}

/// [`process`] on the calling thread only.
pub fn process_sequential(src: &[u8]) -> Result<String, Diagnostic> {
    run(src, false)
}

fn run(src: &[u8], pipeline: bool) -> Result<String, Diagnostic> {
    let text = check_utf8(src)?;
    let mut parser = Parser::new(text)?;
    let mut out = String::with_capacity(text.len() + text.len() / 4);
    if !pipeline || text.len() < PIPELINE_MIN_BYTES {
        while let Some(unit) = parser.next_unit()? {
            emit(&mut out, unit)?;
        }
        return Ok(out);
    }
    std::thread::scope(|s| {
        let (tx, rx) = sync_channel::<Result<Unit, Diagnostic>>(PIPELINE_DEPTH);
        let back = s.spawn(move || -> Result<String, Diagnostic> {
            for msg in rx {
                emit(&mut out, msg?)?;
            }
            Ok(out)
        });
        loop {
            let msg = match parser.next_unit() {
                Ok(Some(u)) => Ok(u),
                Ok(None) => break,
                Err(d) => Err(d),
            };
            let stop = msg.is_err();
            // A closed channel means the second stage hit an earlier error.
            if tx.send(msg).is_err() || stop {
                break;
            }
        }
        drop(tx);
        back.join()
            .unwrap_or_else(|_| Err(Diagnostic::new(0, "internal error in the printing stage")))
    })
}

/// Finishes one unit (SSA, verification) and prints it.
fn emit(out: &mut String, unit: Unit) -> Result<(), Diagnostic> {
    let (item, dt) = unit.finish_with_domtree();
    if let Item::Func(f) = &item {
        let errors = match &dt {
            Some(dt) => ptx_ir::verify::verify_function_with(f, dt),
            None => ptx_ir::verify::verify_function(f),
        };
        report(f, errors)?;
    }
    write_item(out, &item).expect("writing to a String cannot fail");
    Ok(())
}

/// Verifies one function, turning the first finding into a diagnostic at
/// the offending instruction (or at the function when it has none).
pub fn verify(f: &ptx_ir::Function) -> Result<(), Diagnostic> {
    report(f, ptx_ir::verify::verify_function(f))
}

fn report(
    f: &ptx_ir::Function,
    errors: Vec<ptx_ir::verify::VerifierError>,
) -> Result<(), Diagnostic> {
    match errors.into_iter().next() {
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
