//! Passes registered at run time: an embedder's own passes get names
//! usable in pipeline text next to the built-in ones.
//!
//! The layers run one way: [`crate::registry`] is the table of built-in
//! passes, [`crate::pipeline`] parses pipeline text and resolves its names
//! in that table, and [`Registry`] adds the custom names on top of both.
//!
//! **Invariants.** A custom name is kebab-case and never shadows a
//! built-in pass, an adaptor (`default`, `module`, `function`) or an
//! earlier custom pass.

use crate::{pipeline, registry, Pass};

/// Builds a custom pass from its pipeline-text parameters.
pub type Factory = dyn Fn(&[String]) -> Result<Box<dyn Pass>, String> + Send + Sync;

/// The built-in passes plus passes registered at run time, for embedders:
/// a custom pass gets a name usable in pipeline text next to the built-in
/// ones.
///
/// ```
/// use ptx_passes::Registry;
/// use ptx_passes::{AnalysisManager, Pass, Preserved};
///
/// struct Nothing;
/// impl Pass for Nothing {
///     fn name(&self) -> &'static str { "nothing" }
///     fn run(&mut self, _: &mut ptx_ir::Function, _: &mut AnalysisManager) -> Preserved {
///         Preserved::All
///     }
/// }
///
/// let mut r = Registry::new();
/// r.register("nothing", "does nothing", |_| Ok(Box::new(Nothing))).unwrap();
/// let passes = r.build("dce,nothing,default<O1>").unwrap();
/// assert_eq!(passes[1].name(), "nothing");
/// let err = r.build("frob").err().unwrap();
/// assert!(err.contains("valid names are") && err.contains("nothing"));
/// ```
#[derive(Default)]
pub struct Registry {
    custom: Vec<(String, String, std::sync::Arc<Factory>)>,
}

impl Registry {
    /// The built-in passes only.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a pass under `name` (kebab-case, not a built-in or adaptor
    /// name, not registered before).
    pub fn register(
        &mut self,
        name: &str,
        summary: &str,
        create: impl Fn(&[String]) -> Result<Box<dyn Pass>, String> + Send + Sync + 'static,
    ) -> Result<(), String> {
        let kebab = !name.is_empty()
            && name
                .bytes()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == b'-');
        if !kebab {
            return Err(format!(
                "invalid pass name '{name}': use lower-case kebab-case"
            ));
        }
        if registry::lookup(name).is_some()
            || matches!(name, "default" | "module" | "function")
            || self.custom.iter().any(|c| c.0 == name)
        {
            return Err(format!("pass name '{name}' is already taken"));
        }
        self.custom.push((
            name.to_string(),
            summary.to_string(),
            std::sync::Arc::new(create),
        ));
        Ok(())
    }

    /// Every name valid in pipeline text, built-in then custom.
    pub fn names(&self) -> Vec<String> {
        let mut v: Vec<String> = registry::all_names()
            .iter()
            .map(|s| s.to_string())
            .collect();
        v.extend(self.custom.iter().map(|c| c.0.clone()));
        v
    }

    /// `(name, summary)` of every registered custom pass.
    pub fn custom(&self) -> impl Iterator<Item = (&str, &str)> {
        self.custom.iter().map(|c| (c.0.as_str(), c.1.as_str()))
    }

    /// Instantiates the passes of pipeline text (LLVM's grammar, as
    /// `-passes=` takes it). Unknown names are errors listing the valid
    /// ones.
    pub fn build(&self, text: &str) -> Result<Vec<Box<dyn Pass>>, String> {
        let mut flat = Vec::new();
        pipeline::flatten(&pipeline::parse(text)?, &mut flat)?;
        let mut out = Vec::new();
        for (name, params) in flat {
            if let Some(c) = self.custom.iter().find(|c| c.0 == name) {
                out.push((c.2)(&params)?);
                continue;
            }
            let resolved = pipeline::resolve(&[pipeline::Element::Pass {
                name: name.clone(),
                params: params.clone(),
            }])
            .map_err(|e| {
                if e.starts_with("unknown pass name") {
                    format!(
                        "unknown pass name '{name}'; valid names are: {}",
                        self.names().join(", ")
                    )
                } else {
                    e
                }
            })?;
            out.extend(resolved.into_iter().map(|(info, p)| (info.create)(&p)));
        }
        Ok(out)
    }
}
