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
//!   header, both for checking the forms they parse and for the passes;
//! - instrumentation that counts or looks across functions
//!   (`--opt-bisect-limit`, `--check-each`) keeps to one thread.

use crate::{Back, Config, Output};
use ptx_ir::Item;
use ptx_parse::{Parser, Unit};
use rustc_hash::FxHashSet;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;

/// The least input per thread: below it a thread does not pay.
const MIN_PART_BYTES: usize = 256 << 10;

/// The smallest part cut off (the last one may be up to twice this): set
/// up in a fraction of a millisecond, done in a few.
const SMALLEST_PART: usize = 64 << 10;

/// Each part takes this fraction, per worker, of what is left (at least
/// `SMALLEST_PART`, at most `LARGEST_PART`): large parts first, where the
/// per-part set-up (a parser, its table of forms) is spread thin, and
/// small ones at the end, so that the last one to finish leaves the other
/// workers idle briefly.
const PART_SHARE: usize = 2;

/// The largest part: parts that finish before an earlier one keep their
/// output until it is joined, so large parts would hold much memory.
const LARGEST_PART: usize = 1 << 20;

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
    if workers < 2 || cuts.len() < 3 {
        return None;
    }
    let header = header(text)?;
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
                0 => Back::buffer_for(self.text.len()),
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
                back.configure(item.clone()).ok()?;
            }
            let mut p = Parser::new_at(text, start).ok()?;
            p.assume_header(items);
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

/// The module's `.version` and `.target` items as written, for parts that
/// start after them: their parser checks forms against these, and their
/// printer takes them as configured (`--ptx-version`, `--target`), as the
/// one-thread path does.
fn header(text: &str) -> Option<Vec<Item>> {
    let mut p = Parser::new(text).ok()?;
    let version = match p.next_unit().ok()?? {
        Unit::Item(v @ Item::Version(..)) => v,
        _ => return None,
    };
    let target = match p.next_unit().ok()?? {
        Unit::Item(t @ Item::Target(_)) => t,
        _ => return None,
    };
    Some(vec![version, target])
}

/// Byte offsets `0 = c0 < c1 < … < cn = len` cutting `text` into parts
/// for `workers` workers, each cut at the start of a line that starts a
/// function definition: each part about `1 / (PART_SHARE × workers)` of
/// the text after the part before it, between `SMALLEST_PART` and
/// `LARGEST_PART`.
fn cuts(text: &[u8], workers: usize) -> Vec<usize> {
    let mut cuts = vec![0];
    let share = PART_SHARE * workers.max(1);
    loop {
        let at = cuts[cuts.len() - 1];
        let rest = text.len() - at;
        let size = (rest / share).clamp(SMALLEST_PART, LARGEST_PART);
        // The rest is the last part unless two parts fit in it.
        if rest < size + SMALLEST_PART {
            break;
        }
        match function_start_after(text, at + size) {
            Some(c) if c < text.len() => cuts.push(c),
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
    fn cuts_fall_on_function_starts_and_shrink_to_the_end() {
        let mut text = String::from(".version 7.0\n.target sm_80\n");
        let mut k = 0;
        while text.len() < 3 << 20 {
            text.push_str(&format!(".visible .entry k{k}()\n{{\n\tret;\n}}\n"));
            k += 1;
        }
        let c = cuts(text.as_bytes(), 2);
        assert_eq!(c[0], 0);
        assert_eq!(*c.last().unwrap(), text.len());
        let sizes: Vec<usize> = c.windows(2).map(|w| w[1] - w[0]).collect();
        assert!(sizes.len() > 4, "{sizes:?}");
        // The first part takes a quarter of the text (two workers), later
        // ones less and less, down to the smallest part; the last one is
        // the rest, less than two smallest parts.
        let (last, cut) = sizes.split_last().unwrap();
        assert!(sizes[0] >= text.len() / 4 && sizes[0] < text.len() / 4 + 64);
        // On a larger text the first parts are as large as parts get.
        let big = text.repeat(3);
        let cb = cuts(big.as_bytes(), 2);
        assert!(cb[1] >= LARGEST_PART && cb[1] < LARGEST_PART + 64, "{cb:?}");
        assert!(cb[2] - cb[1] >= LARGEST_PART && cb[2] - cb[1] < LARGEST_PART + 64);
        assert!(cut.iter().all(|&s| s >= SMALLEST_PART), "{sizes:?}");
        assert!(cut.windows(2).all(|w| w[1] <= w[0] + 64), "{sizes:?}");
        assert!(*last < 2 * SMALLEST_PART + 64, "{sizes:?}");
        for &at in &c[1..c.len() - 1] {
            assert!(text[at..].starts_with(".visible .entry"));
        }
        // Too short for two parts, or nothing to cut at: one part.
        assert_eq!(cuts(b".version 7.0\n", 4), vec![0, 13]);
        let one = format!(".version 7.0\n{}", "// x\n".repeat(200_000));
        assert_eq!(cuts(one.as_bytes(), 2), vec![0, one.len()]);
    }
}
