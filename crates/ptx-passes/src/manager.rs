//! Running a pipeline over one function, with `opt`'s instrumentation:
//! IR dumps before/after passes (`// *** IR Dump After dce on k ***`,
//! valid PTX), `--print-changed`, `--verify-each`, `--time-passes`,
//! `--debug-pass-manager` and `--opt-bisect-limit`.

use crate::registry::PassInfo;
use crate::{AnalysisManager, Pass};
use ptx_ir::Function;
use std::fmt::Write;
use std::time::{Duration, Instant};

/// Instrumentation switches.
#[derive(Clone, Debug, Default)]
pub struct Instrumentation {
    /// Pass names to dump before (`*` = all).
    pub print_before: Vec<String>,
    /// Pass names to dump after (`*` = all).
    pub print_after: Vec<String>,
    /// Dump after each pass that changed the function.
    pub print_changed: bool,
    /// Verify after each pass.
    pub verify_each: bool,
    /// Log each pass run.
    pub debug_pass_manager: bool,
    /// Run only the first N pass executions (counted over the module).
    pub bisect_limit: Option<u64>,
    /// A check run after each pass with the function before and after it
    /// (`--check-each`); an error stops the pipeline.
    pub check_each: Option<PassCheck>,
}

/// The signature of a [`PassCheck`]: pass name, function before, after.
pub type CheckFn = dyn Fn(&str, &Function, &Function) -> Result<(), String> + Send + Sync;

/// A differential check around every pass. The pass crate does not know
/// how to run PTX; the evaluator supplies this from outside.
#[derive(Clone)]
pub struct PassCheck(pub std::sync::Arc<CheckFn>);

impl std::fmt::Debug for PassCheck {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("PassCheck(..)")
    }
}

/// A pipeline ready to run.
pub struct PassManager {
    passes: Vec<Box<dyn Pass>>,
    inst: Instrumentation,
    /// Time spent per pass name, in pipeline order.
    pub timings: Vec<(&'static str, Duration)>,
    bisect_count: u64,
}

fn wants(list: &[String], name: &str) -> bool {
    list.iter().any(|n| n == "*" || n == name)
}

fn dump(log: &mut String, when: &str, pass: &str, f: &Function) {
    let _ = writeln!(log, "// *** IR Dump {when} {pass} on {} ***", f.name);
    let _ = ptx_ir::write::write_function(log, f);
}

impl PassManager {
    /// Instantiates `passes`.
    pub fn new(passes: &[(&'static PassInfo, Vec<String>)], inst: Instrumentation) -> Self {
        let mut timings: Vec<(&'static str, Duration)> = Vec::new();
        for (p, _) in passes {
            if !timings.iter().any(|t| t.0 == p.name) {
                timings.push((p.name, Duration::ZERO));
            }
        }
        PassManager {
            passes: passes
                .iter()
                .map(|(p, params)| (p.create)(params))
                .collect(),
            inst,
            timings,
            bisect_count: 0,
        }
    }

    /// A pipeline of pass objects built elsewhere (custom passes, or a
    /// [`crate::Registry`]'s pipeline).
    pub fn from_passes(passes: Vec<Box<dyn Pass>>, inst: Instrumentation) -> Self {
        let mut timings: Vec<(&'static str, Duration)> = Vec::new();
        for p in &passes {
            if !timings.iter().any(|t| t.0 == p.name()) {
                timings.push((p.name(), Duration::ZERO));
            }
        }
        PassManager {
            passes,
            inst,
            timings,
            bisect_count: 0,
        }
    }

    /// Whether the pipeline is empty.
    pub fn is_empty(&self) -> bool {
        self.passes.is_empty()
    }

    /// Runs every pass on `f`, writing instrumentation to `log`; returns
    /// whether any pass reported a change. An error is a verifier failure
    /// after a pass (`--verify-each`) or a failed `--check-each`.
    pub fn run(
        &mut self,
        f: &mut Function,
        am: &mut AnalysisManager,
        log: &mut String,
    ) -> Result<bool, String> {
        let mut changed = false;
        for k in 0..self.passes.len() {
            let name = self.passes[k].name();
            self.bisect_count += 1;
            if let Some(limit) = self.inst.bisect_limit {
                let run = self.bisect_count <= limit;
                let _ = writeln!(
                    log,
                    "BISECT: {}running pass ({}) {name} on {}",
                    if run { "" } else { "NOT " },
                    self.bisect_count,
                    f.name
                );
                if !run {
                    continue;
                }
            }
            if self.inst.debug_pass_manager {
                let _ = writeln!(log, "Running pass: {name} on {}", f.name);
            }
            if wants(&self.inst.print_before, name) {
                dump(log, "Before", name, f);
            }
            let snapshot = self.inst.check_each.as_ref().map(|_| f.clone());
            let t = Instant::now();
            let preserved = self.passes[k].run(f, am);
            let dt = t.elapsed();
            if let Some(slot) = self.timings.iter_mut().find(|x| x.0 == name) {
                slot.1 += dt;
            }
            am.invalidate(preserved);
            changed |= preserved.changed();
            if wants(&self.inst.print_after, name) {
                dump(log, "After", name, f);
            } else if self.inst.print_changed {
                if preserved.changed() {
                    dump(log, "After", name, f);
                } else {
                    let _ = writeln!(
                        log,
                        "// *** IR Dump After {name} on {} omitted because no change ***",
                        f.name
                    );
                }
            }
            if self.inst.verify_each {
                if let Some(e) = ptx_ir::verify::verify_function(f).into_iter().next() {
                    return Err(format!(
                        "verifier failed after pass '{name}' on '{}': {}",
                        f.name, e.message
                    ));
                }
            }
            if let (Some(check), Some(before)) = (&self.inst.check_each, &snapshot) {
                (check.0)(name, before, f)?;
            }
        }
        Ok(changed)
    }

    /// The `--time-passes` report.
    pub fn timing_report(&self) -> String {
        let total: Duration = self.timings.iter().map(|t| t.1).sum();
        let mut s = String::new();
        let _ = writeln!(
            s,
            "===-------------------------------------------------------------------------==="
        );
        let _ = writeln!(s, "                          Pass execution timing report");
        let _ = writeln!(
            s,
            "===-------------------------------------------------------------------------==="
        );
        let _ = writeln!(
            s,
            "  Total Execution Time: {:.4} seconds\n",
            total.as_secs_f64()
        );
        let _ = writeln!(s, "   ---Wall Time---  --- Name ---");
        let mut rows: Vec<_> = self.timings.clone();
        rows.sort_by_key(|r| std::cmp::Reverse(r.1));
        for (n, d) in rows {
            let pct = if total.is_zero() {
                0.0
            } else {
                d.as_secs_f64() / total.as_secs_f64() * 100.0
            };
            let _ = writeln!(s, "   {:.4} ({pct:5.1}%)  {n}", d.as_secs_f64());
        }
        let _ = writeln!(s, "   {:.4} (100.0%)  Total", total.as_secs_f64());
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry::lookup;

    fn kernel(body: &str) -> Function {
        let src = format!(
            ".version 7.0\n.target sm_80\n.address_size 64\n\
             .visible .entry k(.param .u64 p)\n{{\n.reg .b32 %r<4>;\n.reg .b64 %rd<2>;\n\
             ld.param.u64 %rd1, [p];\n{body}\nret;\n}}\n"
        );
        ptx_parse::parse_module(&src)
            .unwrap()
            .functions()
            .next()
            .unwrap()
            .clone()
    }

    /// `run` reports whether any pass changed the function: the printer
    /// relies on it to print an unchanged function as built.
    #[test]
    fn run_says_whether_a_pass_changed_the_function() {
        let passes = [
            (lookup("copy-prop").unwrap(), vec![]),
            (lookup("dce").unwrap(), vec![]),
        ];
        let mut pm = PassManager::new(&passes, Instrumentation::default());
        let mut log = String::new();
        let mut copy =
            kernel("ld.global.u32 %r1, [%rd1];\nmov.u32 %r2, %r1;\nst.global.u32 [%rd1], %r2;");
        assert!(pm
            .run(&mut copy, &mut AnalysisManager::new(), &mut log)
            .unwrap());
        let mut tidy = kernel("ld.global.u32 %r1, [%rd1];\nst.global.u32 [%rd1], %r1;");
        assert!(!pm
            .run(&mut tidy, &mut AnalysisManager::new(), &mut log)
            .unwrap());
        // Passes left out by --opt-bisect-limit change nothing either.
        let mut pm = PassManager::new(
            &passes,
            Instrumentation {
                bisect_limit: Some(0),
                ..Default::default()
            },
        );
        let mut copy =
            kernel("ld.global.u32 %r1, [%rd1];\nmov.u32 %r2, %r1;\nst.global.u32 [%rd1], %r2;");
        assert!(!pm
            .run(&mut copy, &mut AnalysisManager::new(), &mut log)
            .unwrap());
    }
}
