//! The module split into parts handled on several threads at once.
//!
//! Functions are independent once parsed, so a large input is cut at
//! function boundaries into parts, several per worker; each worker takes
//! the next part not yet taken, parses it, builds SSA, verifies, runs the
//! passes and prints it, and the printed parts are joined in order as
//! they finish. Taking parts from a queue rather than one fixed share per
//! worker keeps every CPU busy to the end when the CPUs do not run at the
//! same speed (a virtual machine's CPUs seldom do), and joining as parts
//! finish leaves little to do after the last one.
//!
//! The result is exactly what one thread gives, or nothing (the caller
//! then runs the one-thread path, which reports the error):
//! - a cut is only guessed from the text (a line starting a function
//!   definition); it is accepted only if the part before it stopped
//!   exactly there, between two items;
//! - a part after the first does not know the symbols declared before it:
//!   it accepts unknown names ([`Parser::defer_unknown_symbols`]) and each
//!   one must then be declared in an earlier part;
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
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;

/// The smallest part worth a thread of its own.
const MIN_PART_BYTES: usize = 256 << 10;

/// Parts per worker: enough that a worker on a slower CPU holds up the
/// end by a small part only; few enough that the per-part set-up (a
/// parser, its table of forms) stays negligible.
const PARTS_PER_WORKER: usize = 8;

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
    let most = text.len() / MIN_PART_BYTES;
    let workers = threads.min(MAX_WORKERS).min(most);
    let cuts = cuts(text.as_bytes(), (workers * PARTS_PER_WORKER).min(most));
    if workers < 2 || cuts.len() < 3 {
        return None;
    }
    let header = header(text, cfg)?;
    let parts: Vec<(usize, usize)> = cuts.windows(2).map(|w| (w[0], w[1])).collect();
    let queue = Queue {
        text,
        cfg,
        header: &header,
        parts: &parts,
        next: AtomicUsize::new(0),
        failed: AtomicBool::new(false),
        spare: Mutex::new(Vec::new()),
        join: Mutex::new(Join {
            finished: (0..parts.len()).map(|_| None).collect(),
            joined: 0,
            out: None,
            declared: FxHashSet::default(),
            defined: FxHashSet::default(),
        }),
    };
    std::thread::scope(|s| {
        for _ in 1..workers.min(parts.len()) {
            s.spawn(|| queue.work());
        }
        queue.work();
    });
    if queue.failed.into_inner() {
        return None;
    }
    let join = queue.join.into_inner().ok()?;
    if join.joined != parts.len() {
        return None;
    }
    let mut done = join.out?.finish().ok()?;
    done.parts = parts.len();
    Some(done)
}

/// The parts to do and the joined result so far, shared by the workers.
struct Queue<'s, 'c> {
    text: &'s str,
    cfg: &'c Config,
    header: &'s [Item],
    parts: &'s [(usize, usize)],
    /// The next part no worker has taken.
    next: AtomicUsize,
    /// Set once a part failed: the workers stop, the result is unused.
    failed: AtomicBool,
    /// Output buffers of joined parts, for later parts to print into: a
    /// few buffers go round instead of one fresh one per part (fresh
    /// memory costs page faults, and freed buffers linger in the RSS).
    spare: Mutex<Vec<String>>,
    join: Mutex<Join<'s, 'c>>,
}

/// Parts finished out of order wait in `finished` until every part before
/// them is joined.
struct Join<'s, 'c> {
    finished: Vec<Option<Part<'s, 'c>>>,
    /// How many parts, from the first, are in `out`.
    joined: usize,
    out: Option<Back<'c>>,
    declared: FxHashSet<&'s str>,
    defined: FxHashSet<&'s str>,
}

impl<'s, 'c> Queue<'s, 'c> {
    /// Takes parts until none is left or one failed.
    fn work(&self) {
        loop {
            if self.failed.load(Ordering::Relaxed) {
                return;
            }
            let k = self.next.fetch_add(1, Ordering::Relaxed);
            let Some(&(start, end)) = self.parts.get(k) else {
                return;
            };
            let buf = match k {
                // The first part's output receives the others: room for
                // all of it.
                0 => String::with_capacity(self.text.len() + self.text.len() / 4),
                _ => self
                    .spare
                    .lock()
                    .ok()
                    .and_then(|mut s| s.pop())
                    .unwrap_or_else(|| String::with_capacity(end - start)),
            };
            let header = (k > 0).then_some(self.header);
            let Some(p) = part(self.text, start, end, self.cfg, header, buf) else {
                self.failed.store(true, Ordering::Relaxed);
                return;
            };
            let Ok(mut join) = self.join.lock() else {
                self.failed.store(true, Ordering::Relaxed);
                return;
            };
            join.finished[k] = Some(p);
            let mut freed = Vec::new();
            let ok = join.join_ready(self.parts, &mut freed);
            drop(join);
            if !ok {
                self.failed.store(true, Ordering::Relaxed);
                return;
            }
            if let Ok(mut spare) = self.spare.lock() {
                spare.append(&mut freed);
            }
        }
    }
}

impl Join<'_, '_> {
    /// Joins every finished part that follows the joined ones, putting
    /// their output buffers in `freed`; `false` if one cannot be joined.
    fn join_ready(&mut self, parts: &[(usize, usize)], freed: &mut Vec<String>) -> bool {
        while let Some(p) = self.finished.get_mut(self.joined).and_then(Option::take) {
            // The part must have ended exactly at the next one's cut.
            if p.stopped_at != parts[self.joined].1
                || p.deferred.iter().any(|name| !self.declared.contains(name))
                || p.defined.iter().any(|name| self.defined.contains(name))
            {
                return false;
            }
            self.declared.extend(p.declared);
            self.defined.extend(p.defined);
            match &mut self.out {
                None => self.out = Some(p.back),
                Some(o) => freed.push(o.append(p.back)),
            }
            self.joined += 1;
        }
        true
    }
}

/// One part's results and what the joining checks need.
struct Part<'s, 'c> {
    back: Back<'c>,
    stopped_at: usize,
    declared: FxHashSet<&'s str>,
    defined: FxHashSet<&'s str>,
    deferred: Vec<&'s str>,
}

/// Parses and processes `text[start..end]`, printing into `buf`; `None`
/// on any error.
fn part<'s, 'c>(
    text: &'s str,
    start: usize,
    end: usize,
    cfg: &'c Config,
    header: Option<&[Item]>,
    buf: String,
) -> Option<Part<'s, 'c>> {
    let mut back = Back::with_buffer(cfg, buf);
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
