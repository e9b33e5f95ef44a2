//! The module split into parts handled on several threads at once.
//!
//! Functions are independent once parsed, so a large input is cut at
//! function boundaries into one part per worker; each worker parses,
//! builds SSA, verifies, runs the passes and prints its part, and the
//! printed parts are joined in order.
//!
//! The result is exactly what one thread gives, or nothing (the caller
//! then runs the one-thread path, which reports the error):
//! - a cut is only guessed from the text (a line starting a function
//!   definition); it is accepted only if the worker before it stopped
//!   exactly there, between two items;
//! - a worker after the first does not know the symbols declared before
//!   its part: it accepts unknown names ([`Parser::defer_unknown_symbols`])
//!   and each one must then be declared in an earlier part;
//! - a function must not be defined in two parts;
//! - any error in any part sends the whole input down the one-thread path,
//!   so the error reported and the log are the first ones in source order;
//! - parts after the first take `.version` and `.target` from the module
//!   header;
//! - instrumentation that counts or looks across functions
//!   (`--opt-bisect-limit`, `--check-each`) keeps to one thread.

use crate::{Back, Config, Output};
use ptx_ir::Item;
use ptx_parse::{Parser, Unit};
use rustc_hash::FxHashSet;

/// The smallest part worth a thread of its own.
const MIN_PART_BYTES: usize = 256 << 10;

/// Most workers used, whatever the machine has.
const MAX_WORKERS: usize = 64;

/// Lines that begin a function definition as compilers write them.
const FUNCTION_STARTS: &[&[u8]] = &[
    b".visible .entry",
    b".visible .func",
    b".weak .entry",
    b".weak .func",
    b".entry ",
    b".func ",
];

/// Runs `text` in parts on `cfg.threads` (default: every available CPU)
/// threads; `None` when it should run on one thread instead.
pub(crate) fn run(text: &str, cfg: &Config) -> Option<Output> {
    if cfg.instrumentation.bisect_limit.is_some() || cfg.instrumentation.check_each.is_some() {
        return None;
    }
    let threads = cfg.threads.unwrap_or_else(|| {
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1)
    });
    let workers = threads.min(MAX_WORKERS).min(text.len() / MIN_PART_BYTES);
    let cuts = cuts(text.as_bytes(), workers);
    if cuts.len() < 3 {
        return None;
    }
    let header = header(text, cfg)?;
    let parts: Vec<(usize, usize)> = cuts.windows(2).map(|w| (w[0], w[1])).collect();
    let header = &header;
    let results: Vec<Option<Part>> = std::thread::scope(|s| {
        let handles: Vec<_> = parts[1..]
            .iter()
            .map(|&(start, end)| s.spawn(move || part(text, start, end, cfg, Some(header))))
            .collect();
        let first = part(text, parts[0].0, parts[0].1, cfg, None);
        std::iter::once(first)
            .chain(handles.into_iter().map(|h| h.join().ok().flatten()))
            .collect()
    });
    let mut declared: FxHashSet<&str> = FxHashSet::default();
    let mut defined: FxHashSet<&str> = FxHashSet::default();
    let mut out: Option<Back> = None;
    for (k, r) in results.into_iter().enumerate() {
        let p = r?;
        // The part before must have ended exactly at this cut.
        if p.stopped_at != parts[k].1 {
            return None;
        }
        if p.deferred.iter().any(|name| !declared.contains(name)) {
            return None;
        }
        if p.defined.iter().any(|name| defined.contains(name)) {
            return None;
        }
        declared.extend(p.declared);
        defined.extend(p.defined);
        match &mut out {
            None => out = Some(p.back),
            Some(o) => o.append(p.back),
        }
    }
    let mut done = out?.finish().ok()?;
    done.parts = parts.len();
    Some(done)
}

/// One part's results and what the joining checks need.
struct Part<'s, 'c> {
    back: Back<'c>,
    stopped_at: usize,
    declared: FxHashSet<&'s str>,
    defined: FxHashSet<&'s str>,
    deferred: Vec<&'s str>,
}

/// Parses and processes `text[start..end]`; `None` on any error.
fn part<'s, 'c>(
    text: &'s str,
    start: usize,
    end: usize,
    cfg: &'c Config,
    header: Option<&[Item]>,
) -> Option<Part<'s, 'c>> {
    // The first part's output receives the others: room for all of it.
    let room = if header.is_none() {
        text.len()
    } else {
        end - start
    };
    let mut back = Back::new(cfg, room);
    let mut parser = match header {
        None => Parser::new(text).ok()?,
        Some(items) => {
            for item in items {
                back.note_header(item);
            }
            let mut p = Parser::new_at(text, start).ok()?;
            p.defer_unknown_symbols();
            p
        }
    };
    while parser.offset() < end {
        match parser.next_unit() {
            Ok(Some(unit)) => back.emit(unit).ok()?,
            Ok(None) => break,
            Err(_) => return None,
        }
    }
    Some(Part {
        back,
        stopped_at: parser.offset(),
        declared: parser.declared_symbols().clone(),
        defined: parser.defined_functions().clone(),
        deferred: parser.deferred_symbols().to_vec(),
    })
}

/// The module's `.version` and `.target` items (the version as pinned by
/// `--ptx-version`), for parts that start after them.
fn header(text: &str, cfg: &Config) -> Option<Vec<Item>> {
    let mut p = Parser::new(text).ok()?;
    let version = match p.next_unit().ok()?? {
        Unit::Item(Item::Version(a, b)) => {
            let (a, b) = cfg.ptx_version.unwrap_or((a, b));
            Item::Version(a, b)
        }
        _ => return None,
    };
    let target = match p.next_unit().ok()?? {
        Unit::Item(t @ Item::Target(_)) => t,
        _ => return None,
    };
    Some(vec![version, target])
}

/// Byte offsets `0 = c0 < c1 < … < cn = len` cutting `text` into about
/// `workers` equal parts, each cut at the start of a line that starts a
/// function definition.
fn cuts(text: &[u8], workers: usize) -> Vec<usize> {
    let mut cuts = vec![0];
    for k in 1..workers {
        let from = (text.len() / workers * k).max(cuts[cuts.len() - 1] + 1);
        match function_start_after(text, from) {
            Some(at) if at < text.len() => cuts.push(at),
            _ => break,
        }
    }
    cuts.push(text.len());
    cuts.dedup();
    cuts
}

/// The first line at or after `from` that starts a function definition.
fn function_start_after(text: &[u8], from: usize) -> Option<usize> {
    let mut at = from.min(text.len());
    loop {
        at += text[at..].iter().position(|&c| c == b'\n')? + 1;
        let line = &text[at..];
        if FUNCTION_STARTS.iter().any(|s| line.starts_with(s)) {
            return Some(at);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cuts_fall_on_function_starts_in_order() {
        let mut text = String::from(".version 7.0\n.target sm_80\n");
        for k in 0..100 {
            text.push_str(&format!(".visible .entry k{k}()\n{{\n\tret;\n}}\n"));
        }
        let c = cuts(text.as_bytes(), 4);
        assert_eq!(c.len(), 5);
        assert_eq!(c[0], 0);
        assert_eq!(*c.last().unwrap(), text.len());
        for w in c.windows(2) {
            assert!(w[0] < w[1]);
        }
        for &at in &c[1..4] {
            assert!(text[at..].starts_with(".visible .entry"));
        }
        // Nothing to cut at: one part.
        assert_eq!(cuts(b".version 7.0\n", 4), vec![0, 13]);
    }
}
