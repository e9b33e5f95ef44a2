//! The embedding API: parse or build a module, run a pipeline (text or pass
//! objects) for a target, print PTX. `docs/embedding.md` walks through it.
//!
//! ```
//! use ptx_opt::api::{Module, Optimizer};
//!
//! let src = ".version 7.0\n.target sm_80\n.address_size 64\n\
//!            .visible .entry k(.param .u64 p)\n{\n.reg .b32 %r<4>;\n.reg .b64 %rd<2>;\n\
//!            ld.param.u64 %rd1, [p];\nmov.u32 %r1, 6;\nmul.lo.s32 %r2, %r1, 7;\n\
//!            st.global.u32 [%rd1], %r2;\nret;\n}\n";
//! let mut m = Module::parse(src).unwrap();
//! Optimizer::new().run(&mut m, "default<O2>").unwrap();
//! assert!(m.to_ptx().contains("42"));
//!
//! let err = Module::parse(".version 7.0\n.target sm_80\nfrob;\n").err().unwrap();
//! assert_eq!((err[0].line, err[0].col), (3, 1));
//! ```

use ptx_ir::{Function, Item};
use ptx_passes::manager::{Instrumentation, PassManager};
use ptx_passes::Registry;
use ptx_passes::{AnalysisManager, Pass, TargetInfo};
use std::fmt;

/// An error at a place in the input text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SourceError {
    /// 1-based line.
    pub line: usize,
    /// 1-based column.
    pub col: usize,
    /// What is wrong.
    pub message: String,
    /// The full diagnostic as `ptx-opt` prints it (`<input>:L:C: error:
    /// …`, the source line and a caret).
    pub rendered: String,
}

impl fmt::Display for SourceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: error: {}", self.line, self.col, self.message)
    }
}

/// A PTX module: parsed from text or assembled from built functions.
#[derive(Clone, Debug)]
pub struct Module {
    ir: ptx_ir::Module,
}

impl Module {
    /// Parses and verifies `text`. Errors are values with their location;
    /// parsing stops at the first one.
    pub fn parse(text: &str) -> Result<Module, Vec<SourceError>> {
        let located = |d: ptx_parse::Diagnostic| {
            let (line, col) = d.line_col(text.as_bytes());
            SourceError {
                line,
                col,
                message: d.message.clone(),
                rendered: d.render("<input>", text.as_bytes()),
            }
        };
        let ir = ptx_parse::parse_module(text).map_err(|d| vec![located(d)])?;
        for f in ir.functions() {
            crate::verify(f).map_err(|d| vec![located(d)])?;
        }
        Ok(Module { ir })
    }

    /// An empty module with `.version`, `.target` and `.address_size 64`.
    pub fn new(version: (u32, u32), target: &str) -> Module {
        Module {
            ir: ptx_ir::Module {
                items: vec![
                    Item::Version(version.0, version.1),
                    Item::Target(vec![target.into()]),
                    Item::AddressSize(64),
                ],
            },
        }
    }

    /// Appends a function (from [`ptx_ir::builder::FunctionBuilder`]).
    pub fn add_function(&mut self, f: Function) {
        self.ir.items.push(Item::Func(Box::new(f)));
    }

    /// The IR.
    pub fn ir(&self) -> &ptx_ir::Module {
        &self.ir
    }

    /// The IR, mutably.
    pub fn ir_mut(&mut self) -> &mut ptx_ir::Module {
        &mut self.ir
    }

    /// PTX text.
    pub fn to_ptx(&self) -> String {
        ptx_ir::write::module_to_string(&self.ir)
    }

    /// Writes PTX text to `w`.
    pub fn write_to(&self, w: &mut dyn std::io::Write) -> std::io::Result<()> {
        w.write_all(self.to_ptx().as_bytes())
    }

    /// The target passes see: `sm` if given, else the module's `.target`.
    fn target_info(&self, sm: Option<&str>) -> Option<TargetInfo> {
        let version = self.ir.version().unwrap_or((0, 0));
        let own = self.ir.target().and_then(|t| {
            t.iter()
                .find(|w| w.starts_with("sm_"))
                .map(|w| w.to_string())
        });
        let debug = self.ir.target().is_some_and(TargetInfo::is_debug);
        sm.map(str::to_string)
            .or(own)
            .and_then(|s| TargetInfo::parse(&s, version))
            .map(|t| TargetInfo { debug, ..t })
    }
}

/// Runs pipelines: the built-in passes plus any registered here.
#[derive(Default)]
pub struct Optimizer {
    registry: Registry,
    target: Option<String>,
}

impl Optimizer {
    /// The built-in passes, the module's own target.
    pub fn new() -> Self {
        Self::default()
    }

    /// Builds for `sm` (`"sm_90"`) as the CLI's `--target` does: the passes
    /// see it, the module's `.target` becomes it and its `.version` rises to
    /// the least one that has it.
    pub fn with_target(mut self, sm: &str) -> Result<Self, String> {
        if TargetInfo::parse(sm, (0, 0)).is_none() {
            return Err(format!("invalid target '{sm}': expected sm_XX"));
        }
        self.target = Some(sm.to_string());
        Ok(self)
    }

    /// Registers a custom pass under `name`, usable in pipeline text.
    pub fn register(
        &mut self,
        name: &str,
        summary: &str,
        create: impl Fn(&[String]) -> Result<Box<dyn Pass>, String> + Send + Sync + 'static,
    ) -> Result<(), String> {
        self.registry.register(name, summary, create)
    }

    /// Runs pipeline text (`"dce,cse"`, `"default<O2>"`) on every function.
    pub fn run(&self, m: &mut Module, pipeline: &str) -> Result<(), String> {
        let passes = self.registry.build(pipeline)?;
        self.run_passes(m, passes)
    }

    /// Runs pass objects, in order, on every function, verifying after
    /// each pass.
    pub fn run_passes(&self, m: &mut Module, passes: Vec<Box<dyn Pass>>) -> Result<(), String> {
        // The same as the CLI's --target: the module is retargeted.
        if let Some(sm) = &self.target {
            for item in &mut m.ir.items {
                match item {
                    Item::Version(a, b) => (*a, *b) = crate::retarget_version((*a, *b), sm),
                    Item::Target(words) => crate::retarget_words(words, sm),
                    _ => {}
                }
            }
        }
        let target = m.target_info(self.target.as_deref());
        let mut pm = PassManager::from_passes(
            passes,
            Instrumentation {
                verify_each: true,
                ..Default::default()
            },
        );
        let mut log = String::new();
        for f in m.ir.functions_mut() {
            if !f.has_body {
                continue;
            }
            let mut am = AnalysisManager::new();
            am.target = target;
            pm.run(f, &mut am, &mut log)?;
        }
        Ok(())
    }
}

/// Text in, text out: parses `ptx`, runs `pipeline` for `target` (or the
/// module's own) and prints the result. Errors are located (`<input>:L:C:
/// error: …` with the source line) when they come from the input.
pub fn optimize(ptx: &str, pipeline: &str, target: Option<&str>) -> Result<String, String> {
    let mut m = Module::parse(ptx).map_err(|e| e[0].rendered.clone())?;
    let mut opt = Optimizer::new();
    if let Some(t) = target {
        opt = opt.with_target(t)?;
    }
    opt.run(&mut m, pipeline)?;
    Ok(m.to_ptx())
}
