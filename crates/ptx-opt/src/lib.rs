//! Library side of the `ptx-opt` driver: parse → SSA → verify → passes →
//! print, shared by the binary, its tests and the benchmark.
#![deny(missing_docs)]

pub mod alloc;
pub mod api;
mod parallel;
pub mod sass;

use ptx_ir::write::{
    write_function_as_built, write_item, write_item_as_built, write_item_counting,
};
use ptx_ir::{DominatorTree, Function, Item};
use ptx_parse::{check_utf8, Diagnostic, Parser, Unit};
use ptx_passes::manager::{Instrumentation, PassManager};
use ptx_passes::registry::PassInfo;
use ptx_passes::{AnalysisManager, TargetInfo};
use std::collections::BTreeMap;
use std::fmt::Write;
use std::sync::mpsc::sync_channel;

/// Inputs at least this large are processed by a two-stage pipeline.
const PIPELINE_MIN_BYTES: usize = 256 << 10;
/// Parsed functions in flight between the two stages.
const PIPELINE_DEPTH: usize = 16;

/// What to run between verification and printing, and how to report it.
#[derive(Default)]
pub struct Config {
    /// Passes in order, with their parameters.
    pub passes: Vec<(&'static PassInfo, Vec<String>)>,
    /// Dumps, verification, bisection.
    pub instrumentation: Instrumentation,
    /// Append the `--time-passes` report to the log.
    pub time_passes: bool,
    /// Append instruction counts by opcode, before and after the passes.
    pub stats: bool,
    /// `--target=sm_XX`: the target the passes build for; the printed
    /// `.target` becomes it and `.version` rises to its minimum (see
    /// [`retarget_version`]) unless `keep_target`.
    pub target: Option<String>,
    /// `--keep-target`: `target` informs the passes only; the module's
    /// `.target` and `.version` are printed as they were.
    pub keep_target: bool,
    /// `--ptx-version=X.Y`: the `.version` printed; a pass needing newer
    /// is an error instead of a raise.
    pub ptx_version: Option<(u32, u32)>,
    /// `--threads=N`: threads for a large input, each handling a part of
    /// the functions (default: the CPUs available; 1: one thread).
    pub threads: Option<usize>,
    /// `--size-guard`: print a function as it came when the passes made it
    /// larger by static cost (instructions, plus the `mov`s and blocks
    /// leaving SSA adds). On for `-O1`…`-O3` in the driver.
    pub size_guard: bool,
}

/// What leaving SSA and the size guard did over a module.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct OutOfSsaReport {
    /// Copies and blocks leaving SSA added, over the functions printed
    /// from their optimised form.
    pub copies: ptx_ir::regalloc::CopyStats,
    /// Functions the size guard printed as they came.
    pub kept: u32,
}

/// A failure: located in the input, or not.
#[derive(Debug)]
pub enum Error {
    /// A parse or verifier error at a source position.
    Source(Diagnostic),
    /// Any other error (a verifier failure after a pass).
    Plain(String),
}

/// The printed module and the instrumentation log (for stderr).
pub struct Output {
    /// PTX text.
    pub text: String,
    /// Dumps and reports, in order.
    pub log: String,
    /// How many parts the module was cut into, the threads taking them one
    /// at a time (1: one thread did it all, or parsing and printing as a
    /// pipeline).
    pub parts: usize,
    /// What leaving SSA added, and what the size guard kept.
    pub out_of_ssa: OutOfSsaReport,
}

/// Parses `src`, builds SSA, verifies every function and prints the module
/// back, one item at a time (each function is dropped once printed).
///
/// Large inputs are cut into parts of whole functions handled on every
/// CPU at once (or, when that cannot be done, run as a pipeline: this
/// thread parses, a second one builds SSA, verifies and prints). The
/// output and the error reported (the first one in source order) are the
/// same as with one thread.
pub fn process(src: &[u8]) -> Result<String, Diagnostic> {
    match run(src, true, &Config::default()) {
        Ok(o) => Ok(o.text),
        Err((Error::Source(d), _)) => Err(d),
        Err((Error::Plain(m), _)) => Err(Diagnostic::new(0, m)),
    }
}

/// [`process`] on the calling thread only.
pub fn process_sequential(src: &[u8]) -> Result<String, Diagnostic> {
    match run(src, false, &Config::default()) {
        Ok(o) => Ok(o.text),
        Err((Error::Source(d), _)) => Err(d),
        Err((Error::Plain(m), _)) => Err(Diagnostic::new(0, m)),
    }
}

/// [`process`] with passes and instrumentation. On failure the log
/// written so far comes back with the error.
pub fn process_with(src: &[u8], cfg: &Config) -> Result<Output, (Error, String)> {
    run(src, true, cfg)
}

/// The second stage's state: passes, log and statistics.
struct Back<'c> {
    cfg: &'c Config,
    pm: PassManager,
    out: String,
    log: String,
    before: BTreeMap<String, u64>,
    after: BTreeMap<String, u64>,
    /// The module's `.version` and first `.target` word, as seen so far.
    version: (u32, u32),
    sm: Option<String>,
    /// The module's `.target` has `debug`.
    debug: bool,
    /// The newest PTX version a pass asked for.
    required: Option<(u32, u32)>,
    out_of_ssa: OutOfSsaReport,
    /// Under `--check-each`, the module's `.version`, `.target` and
    /// `.address_size` as printed (printed functions are parsed again under
    /// them).
    header: String,
}

impl Back<'_> {
    /// Takes the module's `.version` and target from their items.
    fn note_header(&mut self, item: &Item) {
        match item {
            Item::Version(a, b) => self.version = (*a, *b),
            Item::Target(words) => {
                self.sm = words
                    .iter()
                    .find(|w| w.starts_with("sm_"))
                    .map(|w| w.to_string());
                self.debug = TargetInfo::is_debug(words);
            }
            _ => {}
        }
    }

    fn emit(&mut self, unit: Unit) -> Result<(), Error> {
        let (item, dt) = unit.finish_with_domtree();
        let item = self.configure(item)?;
        self.emit_item(item, dt)
    }

    /// `item` as printed (`.version` pinned by `--ptx-version`, `.version`
    /// and `.target` moved to `--target`'s), its header noted.
    fn configure(&mut self, mut item: Item) -> Result<Item, Error> {
        if let (Item::Version(..), Some((a, b))) = (&item, self.cfg.ptx_version) {
            item = Item::Version(a, b);
        }
        if let (Some(sm), false) = (self.cfg.target.as_deref(), self.cfg.keep_target) {
            match &mut item {
                Item::Version(a, b) => {
                    let need = retarget_version((*a, *b), sm);
                    if need > (*a, *b) {
                        if let Some((pa, pb)) = self.cfg.ptx_version {
                            return Err(Error::Plain(format!(
                                "--ptx-version={pa}.{pb} is older than --target={sm} needs ({}.{}); \
                                 add --keep-target to keep the module's target",
                                need.0, need.1
                            )));
                        }
                        (*a, *b) = need;
                    }
                }
                Item::Target(words) => retarget_words(words, sm),
                _ => {}
            }
        }
        self.note_header(&item);
        Ok(item)
    }

    /// Verifies `item`, runs the passes on it and prints it.
    fn emit_item(&mut self, mut item: Item, dt: Option<DominatorTree>) -> Result<(), Error> {
        if self.cfg.instrumentation.check_each.is_some() && matches!(item, Item::Var(_)) {
            CHECK_CONTEXT.with(|c| c.borrow_mut().push(item.clone()));
        }
        // Whether the item is still as SSA construction built it.
        let mut as_built = true;
        // The function before the passes, for the check of leaving SSA.
        let mut original: Option<Box<Function>> = None;
        // For the size guard: the function printed before the passes (what
        // it prints if they change nothing, the common case, or make it
        // larger), and its static cost.
        let mut before_passes: Option<(String, u64)> = None;
        if let Item::Func(f) = &mut item {
            let errors = match &dt {
                Some(dt) => ptx_ir::verify::verify_function_with(f, dt),
                None => ptx_ir::verify::verify_function(f),
            };
            report(f, errors).map_err(Error::Source)?;
            if f.has_body && !self.pm.is_empty() {
                if self.cfg.stats {
                    count(f, &mut self.before);
                }
                let mut am = match dt {
                    Some(dt) => AnalysisManager::with_domtree(f, dt),
                    None => AnalysisManager::new(),
                };
                am.target = self
                    .cfg
                    .target
                    .as_deref()
                    .or(self.sm.as_deref())
                    .and_then(|sm| TargetInfo::parse(sm, self.version))
                    .map(|t| TargetInfo {
                        debug: self.debug,
                        ..t
                    });
                if self.cfg.instrumentation.check_each.is_some() {
                    original = Some(f.clone());
                }
                if self.cfg.size_guard {
                    let mut text = String::new();
                    write_function_as_built(&mut text, f).expect("writing to a String cannot fail");
                    before_passes = Some((text, static_cost(f, Default::default())));
                }
                as_built = !self
                    .pm
                    .run(f, &mut am, &mut self.log)
                    .map_err(Error::Plain)?;
                if let Some(v) = am.min_ptx {
                    self.required = Some(self.required.map_or(v, |r| r.max(v)));
                }
                if self.cfg.stats {
                    count(f, &mut self.after);
                }
            }
            // Kernels checked later may call it: as it will be printed
            // (a prototype too: the printed form of a caller, parsed again,
            // needs it declared).
            if self.cfg.instrumentation.check_each.is_some() && f.kind == ptx_ir::FuncKind::Func {
                CHECK_CONTEXT.with(|c| c.borrow_mut().push(Item::Func(f.clone())));
            }
        }
        // What prints must be valid for the `.version` and `.target` it
        // prints with: after a retarget, or a legacy `vote` without `.sync`
        // that `legalize` was not asked to rewrite.
        if let Item::Func(f) = &item {
            let retarget = self.cfg.target.as_deref().filter(|_| !self.cfg.keep_target);
            let sm = retarget.or(self.sm.as_deref());
            if let Some(t) = sm.and_then(|sm| TargetInfo::parse(sm, self.version)) {
                let suffix = sm
                    .and_then(|s| s.parse::<ptx_target::Sm>().ok())
                    .and_then(|s| s.suffix);
                // Each form once: the answer depends on nothing else.
                let mut valid = vec![false; f.ops.len()];
                for b in f.layout.blocks() {
                    for i in f.layout.block_insts(b) {
                        let d = f.inst(i);
                        if valid.get(d.op.index()) == Some(&true) {
                            continue;
                        }
                        if let Some(need) =
                            ptx_parse::form_needs_error(&f.ops, d.op, t.ptx, t.sm, suffix)
                        {
                            let why = need.message;
                            let hint = match retarget {
                                // An arch-specific form has no lowering.
                                Some(sm) if need.arch_specific => {
                                    format!("; --target={sm} does not have it (keep the target with --keep-target)")
                                }
                                Some(sm) => format!("; --target={sm} is lower (run -passes=legalize, or keep the target with --keep-target)"),
                                None => " (run -passes=legalize)".to_string(),
                            };
                            return Err(Error::Source(Diagnostic::new(
                                d.pos as usize,
                                format!("{why}{hint}"),
                            )));
                        }
                        if let Some(ok) = valid.get_mut(d.op.index()) {
                            *ok = true;
                        }
                    }
                }
            }
        }
        if let (true, Some((text, _))) = (as_built, &before_passes) {
            self.out.push_str(text);
            return Ok(());
        }
        if as_built {
            write_item_as_built(&mut self.out, &item).expect("writing to a String cannot fail");
            if self.cfg.instrumentation.check_each.is_some()
                && matches!(
                    item,
                    Item::Version(..) | Item::Target(_) | Item::AddressSize(_)
                )
            {
                write_item(&mut self.header, &item).expect("writing to a String cannot fail");
            }
            return Ok(());
        }
        let mark = self.out.len();
        let copies =
            write_item_counting(&mut self.out, &item).expect("writing to a String cannot fail");
        if let (Item::Func(f), Some((text, cost))) = (&item, &before_passes) {
            if static_cost(f, copies) > *cost {
                self.out.truncate(mark);
                self.out.push_str(text);
                self.out_of_ssa.kept += 1;
                return Ok(());
            }
        }
        self.out_of_ssa.copies += copies;
        let Some(original) = original else {
            return Ok(());
        };
        if let Some(check) = &self.cfg.instrumentation.check_each {
            self.check_printed(check, &original, mark)
                .map_err(Error::Plain)?;
        }
        Ok(())
    }

    /// `--check-each` for leaving SSA: the function printed at `mark` in
    /// the output, parsed again, must behave as it did before the passes.
    fn check_printed(
        &self,
        check: &ptx_passes::manager::PassCheck,
        original: &Function,
        mark: usize,
    ) -> Result<(), String> {
        let mut text = self.header.clone();
        CHECK_CONTEXT.with(|c| {
            for item in c.borrow().iter() {
                if !matches!(item, Item::Func(g) if g.name == original.name && g.has_body) {
                    write_item(&mut text, item).expect("writing to a String cannot fail");
                }
            }
        });
        text.push_str(&self.out[mark..]);
        let m = ptx_parse::parse_module(&text).map_err(|d| {
            format!(
                "check-each: the printed form of '{}' does not parse: {}",
                original.name,
                d.render("printed", text.as_bytes())
            )
        })?;
        let printed = m
            .functions()
            .filter(|g| g.name == original.name && g.has_body)
            .last()
            .ok_or_else(|| {
                format!(
                    "check-each: '{}' is missing from its printed form",
                    original.name
                )
            })?;
        (check.0)("out-of-ssa", original, printed)
    }

    /// Raises the printed `.version` to what the passes need, or fails
    /// when `--ptx-version` pinned an older one.
    fn finish(mut self) -> Result<Output, (Error, String)> {
        if let Some(req) = self.required.filter(|&r| r > self.version) {
            if let Some((a, b)) = self.cfg.ptx_version {
                let msg = format!(
                    "--ptx-version={a}.{b} cannot be met: the passes need PTX ISA {}.{} or newer",
                    req.0, req.1
                );
                return Err((Error::Plain(msg), self.log));
            }
            let old = format!(".version {}.{}\n", self.version.0, self.version.1);
            if self.out.starts_with(&old) || self.out.contains(&format!("\n{old}")) {
                let at = if self.out.starts_with(&old) {
                    0
                } else {
                    self.out.find(&format!("\n{old}")).expect("checked") + 1
                };
                self.out.replace_range(
                    at..at + old.len(),
                    &format!(".version {}.{}\n", req.0, req.1),
                );
            }
        }
        Ok(self.finish_output())
    }

    fn finish_output(mut self) -> Output {
        if self.cfg.time_passes {
            self.log.push_str(&self.pm.timing_report());
        }
        if self.cfg.stats {
            let _ = writeln!(
                self.log,
                "===-------------------------------------------------------------------------==="
            );
            let _ = writeln!(
                self.log,
                "                          ... Statistics Collected ..."
            );
            let _ = writeln!(
                self.log,
                "===-------------------------------------------------------------------------==="
            );
            let _ = writeln!(self.log, "{:>9} {:>9}  opcode", "before", "after");
            let mut names: Vec<&String> = self.before.keys().chain(self.after.keys()).collect();
            names.sort();
            names.dedup();
            let (mut tb, mut ta) = (0, 0);
            for n in names {
                let (b, a) = (
                    self.before.get(n).copied().unwrap_or(0),
                    self.after.get(n).copied().unwrap_or(0),
                );
                tb += b;
                ta += a;
                let _ = writeln!(self.log, "{b:>9} {a:>9}  {n}");
            }
            let _ = writeln!(self.log, "{tb:>9} {ta:>9}  total");
            let r = self.out_of_ssa;
            let _ = writeln!(
                self.log,
                "{:>9}  movs leaving SSA added\n{:>9}  blocks leaving SSA added\n{:>9}  functions the size guard kept as they came",
                r.copies.movs, r.copies.blocks, r.kept
            );
        }
        Output {
            text: self.out,
            log: self.log,
            parts: 1,
            out_of_ssa: self.out_of_ssa,
        }
    }
}

/// The size guard's measure of a function: its instructions (IR-only
/// jumps aside) plus the `mov`s and blocks (one branch each) leaving SSA
/// adds.
fn static_cost(f: &Function, copies: ptx_ir::regalloc::CopyStats) -> u64 {
    let insts: usize = f
        .layout
        .blocks()
        .map(|b| {
            f.layout
                .block_insts(b)
                .filter(|&i| f.op(i).opcode != ptx_ir::Opcode::Jump)
                .count()
        })
        .sum();
    insts as u64 + u64::from(copies.movs) + u64::from(copies.blocks)
}

/// Counts a function's instructions by mnemonic.
fn count(f: &Function, into: &mut BTreeMap<String, u64>) {
    for b in f.layout.blocks() {
        for i in f.layout.block_insts(b) {
            let info = f.op(i);
            if info.opcode == ptx_ir::Opcode::Jump {
                continue;
            }
            *into.entry(info.mnemonic.to_string()).or_insert(0) += 1;
        }
    }
}

impl<'c> Back<'c> {
    /// A stage whose output buffer has room for the printed form of
    /// `input_len` bytes of source.
    fn new(cfg: &'c Config, input_len: usize) -> Self {
        Self::with_buffer(cfg, Self::buffer_for(input_len))
    }

    /// An output buffer for `input_len` bytes of source: printing rarely
    /// makes text longer by a quarter, so it seldom grows.
    fn buffer_for(input_len: usize) -> String {
        String::with_capacity(input_len + input_len / 4)
    }

    /// A stage that prints into `out` (emptied first), reusing its room.
    fn with_buffer(cfg: &'c Config, mut out: String) -> Self {
        out.clear();
        Back {
            cfg,
            pm: PassManager::new(&cfg.passes, cfg.instrumentation.clone()),
            out,
            log: String::new(),
            before: BTreeMap::new(),
            after: BTreeMap::new(),
            version: (0, 0),
            sm: None,
            debug: false,
            required: None,
            out_of_ssa: OutOfSsaReport::default(),
            header: String::new(),
        }
    }

    /// Appends the results of the stage that handled the next part of the
    /// module; gives back its output buffer, for another part to reuse.
    fn append(&mut self, next: Back) -> String {
        self.out.push_str(&next.out);
        self.log.push_str(&next.log);
        for (from, into) in [
            (next.before, &mut self.before),
            (next.after, &mut self.after),
        ] {
            for (k, v) in from {
                *into.entry(k).or_insert(0) += v;
            }
        }
        for (name, dt) in next.pm.timings {
            if let Some(slot) = self.pm.timings.iter_mut().find(|t| t.0 == name) {
                slot.1 += dt;
            }
        }
        self.required = self.required.max(next.required);
        self.out_of_ssa.copies += next.out_of_ssa.copies;
        self.out_of_ssa.kept += next.out_of_ssa.kept;
        if self.header.is_empty() {
            self.header = next.header.clone();
        }
        next.out
    }
}

fn run(src: &[u8], pipeline: bool, cfg: &Config) -> Result<Output, (Error, String)> {
    if cfg.threads == Some(1) {
        // One thread means no pass starts a helper thread either.
        return ptx_passes::with_helper_threads(false, || run_on(src, false, cfg));
    }
    run_on(src, pipeline, cfg)
}

fn run_on(src: &[u8], pipeline: bool, cfg: &Config) -> Result<Output, (Error, String)> {
    let text = check_utf8(src).map_err(|d| (Error::Source(d), String::new()))?;
    let pipeline = pipeline && cfg.threads != Some(1);
    if pipeline && text.len() >= PIPELINE_MIN_BYTES {
        if let Some(out) = parallel::run(text, cfg) {
            return Ok(out);
        }
    }
    let mut parser = Parser::new(text).map_err(|d| (Error::Source(d), String::new()))?;
    CHECK_CONTEXT.with(|c| c.borrow_mut().clear());
    let mut back = Back::new(cfg, text.len());
    if !pipeline || text.len() < PIPELINE_MIN_BYTES {
        loop {
            let unit = match parser.next_unit() {
                Ok(Some(u)) => u,
                Ok(None) => break,
                Err(d) => return Err((Error::Source(d), back.log)),
            };
            if let Err(e) = back.emit(unit) {
                return Err((e, back.log));
            }
        }
        return back.finish();
    }
    std::thread::scope(|s| {
        let (tx, rx) = sync_channel::<Result<Unit, Diagnostic>>(PIPELINE_DEPTH);
        let stage = s.spawn(move || -> Result<Output, (Error, String)> {
            for msg in rx {
                let unit = match msg {
                    Ok(u) => u,
                    Err(d) => return Err((Error::Source(d), back.log)),
                };
                if let Err(e) = back.emit(unit) {
                    return Err((e, back.log));
                }
            }
            back.finish()
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
        stage.join().unwrap_or_else(|_| {
            Err((
                Error::Plain("internal error in the printing stage".into()),
                String::new(),
            ))
        })
    })
}

/// Verifies one function, turning the first finding into a diagnostic at
/// the offending instruction (or at the function when it has none).
pub fn verify(f: &Function) -> Result<(), Diagnostic> {
    report(f, ptx_ir::verify::verify_function(f))
}

fn report(f: &Function, errors: Vec<ptx_ir::verify::VerifierError>) -> Result<(), Diagnostic> {
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

thread_local! {
    /// Module variables seen so far in this thread's run, for
    /// `--check-each` (passes run on the thread that emits items, in
    /// source order, so a kernel's variables are already here).
    static CHECK_CONTEXT: std::cell::RefCell<Vec<Item>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Checks a `--target` value (`sm_XX`, an `a`/`f` suffix allowed), as the
/// CLI and the bindings take it.
pub fn check_target_name(t: &str) -> Result<(), String> {
    let ok = t.strip_prefix("sm_").is_some_and(|n| {
        let digits = n.trim_end_matches(['a', 'f']);
        !digits.is_empty() && digits.bytes().all(|c| c.is_ascii_digit())
    });
    if ok {
        Ok(())
    } else {
        Err(format!("invalid target '{t}': expected sm_XX"))
    }
}

/// The `.version` to print when retargeting to `sm` (`sm_XX` with an
/// optional `a`/`f`): the module's own, raised to the least PTX ISA version
/// that has `sm` (`ptx_target::min_ptx_for`); unchanged for a target the
/// table does not know.
pub fn retarget_version(version: (u32, u32), sm: &str) -> (u32, u32) {
    let min = sm
        .parse::<ptx_target::Sm>()
        .ok()
        .and_then(ptx_target::min_ptx_for);
    match min {
        Some(m) if (m.0, m.1) > version => (m.0, m.1),
        _ => version,
    }
}

/// `.target` words retargeted to `sm`: the first `sm_XX`/`compute_XX`
/// replaced (or `sm` put first if there is none), the options (`debug`,
/// `texmode_*`, `map_f64_to_f32`) kept.
pub fn retarget_words(words: &mut Vec<Box<str>>, sm: &str) {
    match words
        .iter()
        .position(|w| w.starts_with("sm_") || w.starts_with("compute_"))
    {
        Some(k) => words[k] = sm.into(),
        None => words.insert(0, sm.into()),
    }
}

/// The `--check-each=N` hook: runs each kernel before and after a pass on
/// `launches` random launches with the evaluator and reports the first
/// differing global store.
pub fn check_each(launches: u32) -> ptx_passes::manager::PassCheck {
    check_each_counting(launches, None)
}

/// How many launches `--check-each` compared, over all checks (a launch the
/// original cannot run, for an instruction the evaluator lacks or a symbol
/// it cannot see, proves nothing and is not compared).
#[derive(Debug, Default)]
pub struct CheckTally {
    /// Checks run (a pass, or leaving SSA, on one function).
    pub checks: std::sync::atomic::AtomicU64,
    /// Launches compared.
    pub compared: std::sync::atomic::AtomicU64,
    /// Launches drawn.
    pub drawn: std::sync::atomic::AtomicU64,
    /// The same per function, by name, with why its launches could not
    /// run when none did.
    pub functions: std::sync::Mutex<std::collections::BTreeMap<String, FunctionCheck>>,
}

/// What `--check-each` did for one function, over all its checks.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FunctionCheck {
    /// Checks run (one per pass that ran on it, and leaving SSA).
    pub checks: u64,
    /// Launches compared.
    pub compared: u64,
    /// Launches drawn.
    pub drawn: u64,
    /// The evaluator's error on the first launch of the first check that
    /// compared none (the reason they were skipped).
    pub skipped_because: Option<String>,
}

/// [`check_each`], adding what each check compared to `tally`.
pub fn check_each_counting(
    launches: u32,
    tally: Option<std::sync::Arc<CheckTally>>,
) -> ptx_passes::manager::PassCheck {
    use std::sync::atomic::Ordering::Relaxed;
    ptx_passes::manager::PassCheck(std::sync::Arc::new(
        move |pass: &str, before: &ptx_ir::Function, after: &ptx_ir::Function| {
            CHECK_CONTEXT
                .with(|c| {
                    let context = c.borrow();
                    let n = ptx_eval::check::check_function(&context, before, after, launches)?;
                    if let Some(t) = &tally {
                        t.checks.fetch_add(1, Relaxed);
                        t.compared.fetch_add(u64::from(n), Relaxed);
                        t.drawn.fetch_add(u64::from(launches), Relaxed);
                        let mut map = t.functions.lock().unwrap_or_else(|e| e.into_inner());
                        let e = map.entry(before.name.to_string()).or_default();
                        e.checks += 1;
                        e.compared += u64::from(n);
                        e.drawn += u64::from(launches);
                        if n == 0 && e.skipped_because.is_none() && before.has_body {
                            e.skipped_because = Some(
                                ptx_eval::check::probe(&context, before)
                                    .err()
                                    .unwrap_or_else(|| "no launch completed".into()),
                            );
                        }
                    }
                    Ok(())
                })
                .map_err(|m: ptx_eval::check::Mismatch| {
                    format!(
                    "check-each: pass '{pass}' changed the behaviour of '{}'\n  launch: {}\n  {}",
                    before.name, m.launch, m.detail
                )
                })
        },
    ))
}
