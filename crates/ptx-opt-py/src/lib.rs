//! `ptx_opt._native`: the Python binding of the driver library, wrapped by
//! the `ptx_opt` package (`python/ptx_opt/__init__.py`, typed by its
//! `.pyi`). Built by maturin as one abi3 wheel for CPython 3.9+.
//!
//! The functions mean what the `ptx-opt` command means: `optimize(ptx,
//! passes, target)` is `ptx-opt -passes=PASSES --target=TARGET`, with the
//! size guard on for `default<O1..3>` as for `-O1..3`.
//!
//! Invariants: nothing panics across the boundary (the driver returns
//! errors as values; a panic inside a pass is caught and raised as
//! `RuntimeError`); bad input raises `PtxError` carrying `line`, `col`,
//! `message` and the rendered LLVM-style diagnostic; a bad pipeline or
//! target raises `ValueError`; the GIL is released while a pipeline runs.

use ptx_opt::{Config, Error};
use pyo3::create_exception;
use pyo3::exceptions::{PyException, PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::Ordering::Relaxed;
use std::sync::Arc;

create_exception!(
    ptx_opt,
    PtxError,
    PyException,
    "Malformed PTX: `line` and `col` (1-based) locate it, `message` says what is wrong, `rendered` is the diagnostic as ptx-opt prints it."
);

/// A `PtxError` for a diagnostic at `line`:`col`.
fn ptx_error(py: Python<'_>, line: usize, col: usize, message: &str, rendered: &str) -> PyErr {
    let err = PtxError::new_err(rendered.trim_end().to_string());
    let value = err.value(py);
    for (k, v) in [("line", line), ("col", col)] {
        let _ = value.setattr(k, v);
    }
    let _ = value.setattr("message", message);
    let _ = value.setattr("rendered", rendered);
    err
}

/// Checks `sm_XX` as `--target` does.
fn check_target(target: Option<&str>) -> PyResult<()> {
    target.map_or(Ok(()), |t| {
        ptx_opt::check_target_name(t).map_err(PyValueError::new_err)
    })
}

/// The driver configuration the CLI would build for these options.
fn config(
    passes: &str,
    target: Option<&str>,
    size_guard: Option<bool>,
    threads: Option<usize>,
    keep_target: bool,
) -> PyResult<Config> {
    check_target(target)?;
    let resolved = if passes.trim().is_empty() {
        Vec::new()
    } else {
        let elems = ptx_passes::pipeline::parse(passes).map_err(PyValueError::new_err)?;
        ptx_passes::pipeline::resolve(&elems).map_err(PyValueError::new_err)?
    };
    if threads == Some(0) {
        return Err(PyValueError::new_err("threads must be at least 1"));
    }
    let level = matches!(passes.trim(), "default<O1>" | "default<O2>" | "default<O3>");
    Ok(Config {
        passes: resolved,
        target: target.map(str::to_string),
        keep_target,
        size_guard: size_guard.unwrap_or(level),
        threads,
        ..Default::default()
    })
}

/// Runs the driver on `ptx` without the GIL; errors become Python
/// exceptions.
fn run(py: Python<'_>, ptx: &str, cfg: &Config) -> PyResult<ptx_opt::Output> {
    let result = py.allow_threads(|| {
        catch_unwind(AssertUnwindSafe(|| {
            ptx_opt::process_with(ptx.as_bytes(), cfg)
        }))
    });
    match result {
        Ok(Ok(out)) => Ok(out),
        Ok(Err((Error::Source(d), _))) => {
            let (line, col) = d.line_col(ptx.as_bytes());
            Err(ptx_error(
                py,
                line,
                col,
                &d.message,
                &d.render("<input>", ptx.as_bytes()),
            ))
        }
        Ok(Err((Error::Plain(m), _))) => Err(PyRuntimeError::new_err(m)),
        Err(_) => Err(PyRuntimeError::new_err(
            "ptx-opt panicked; please report this input",
        )),
    }
}

/// Optimises PTX text: parses it, runs `passes` (LLVM new-pass-manager
/// syntax; `""` only round-trips) for `target` (or the module's own
/// `.target`; given, the module is retargeted to it unless `keep_target`,
/// as with the CLI), prints PTX.
#[pyfunction]
#[pyo3(signature = (ptx, passes = "default<O2>", target = None, *, size_guard = None, threads = None, keep_target = false))]
fn optimize(
    py: Python<'_>,
    ptx: &str,
    passes: &str,
    target: Option<&str>,
    size_guard: Option<bool>,
    threads: Option<usize>,
    keep_target: bool,
) -> PyResult<String> {
    let cfg = config(passes, target, size_guard, threads, keep_target)?;
    Ok(run(py, ptx, &cfg)?.text)
}

/// Runs `passes` under the evaluator's `--check-each` (`launches` random
/// launches per function and pass) and returns its verdict as a dict:
/// `ok`, `error` (the first difference, or None), `checks`, `compared`
/// (launches compared) and `drawn` (launches drawn).
#[pyfunction]
#[pyo3(signature = (ptx, passes = "default<O2>", launches = 64, target = None))]
fn check_each<'py>(
    py: Python<'py>,
    ptx: &str,
    passes: &str,
    launches: u32,
    target: Option<&str>,
) -> PyResult<Bound<'py, PyDict>> {
    let mut cfg = config(passes, target, Some(false), Some(1), false)?;
    let tally = Arc::new(ptx_opt::CheckTally::default());
    cfg.instrumentation.check_each =
        Some(ptx_opt::check_each_counting(launches, Some(tally.clone())));
    let verdict = match run(py, ptx, &cfg) {
        Ok(_) => None,
        Err(e) if e.is_instance_of::<PyRuntimeError>(py) => Some(e.value(py).to_string()),
        Err(e) => return Err(e),
    };
    let d = PyDict::new(py);
    d.set_item("ok", verdict.is_none())?;
    d.set_item("error", verdict)?;
    d.set_item("checks", tally.checks.load(Relaxed))?;
    d.set_item("compared", tally.compared.load(Relaxed))?;
    d.set_item("drawn", tally.drawn.load(Relaxed))?;
    Ok(d)
}

/// The registered passes as `(name, summary)` pairs, sorted by name, then
/// the `default<O0..3>` pipelines.
#[pyfunction]
fn passes() -> Vec<(String, String)> {
    let mut v: Vec<(String, String)> = ptx_passes::registry::PASSES
        .iter()
        .map(|p| (p.name.to_string(), p.summary.to_string()))
        .collect();
    for l in 0..4 {
        v.push((format!("default<O{l}>"), format!("the -O{l} pipeline")));
    }
    v
}

/// A parsed, verified PTX module.
#[pyclass(module = "ptx_opt")]
struct Module {
    inner: ptx_opt::api::Module,
}

#[pymethods]
impl Module {
    /// Parses and verifies `text`; raises `PtxError` at the first error.
    #[staticmethod]
    fn parse(py: Python<'_>, text: &str) -> PyResult<Module> {
        let parsed = py
            .allow_threads(|| catch_unwind(AssertUnwindSafe(|| ptx_opt::api::Module::parse(text))));
        match parsed {
            Ok(Ok(inner)) => Ok(Module { inner }),
            Ok(Err(errors)) => {
                let e = &errors[0];
                Err(ptx_error(py, e.line, e.col, &e.message, &e.rendered))
            }
            Err(_) => Err(PyRuntimeError::new_err(
                "ptx-opt panicked; please report this input",
            )),
        }
    }

    /// The names of the module's functions and kernels, in order.
    #[getter]
    fn functions(&self) -> Vec<String> {
        self.inner
            .ir()
            .functions()
            .map(|f| f.name.to_string())
            .collect()
    }

    /// Runs `passes` on every function, in place, for `target` (or the
    /// module's own `.target`).
    #[pyo3(signature = (passes, target = None))]
    fn run(&mut self, py: Python<'_>, passes: &str, target: Option<&str>) -> PyResult<()> {
        config(passes, target, None, None, false)?;
        let mut opt = ptx_opt::api::Optimizer::new();
        if let Some(t) = target {
            opt = opt.with_target(t).map_err(PyValueError::new_err)?;
        }
        let inner = &mut self.inner;
        let result = py.allow_threads(|| catch_unwind(AssertUnwindSafe(|| opt.run(inner, passes))));
        match result {
            Ok(r) => r.map_err(PyRuntimeError::new_err),
            Err(_) => Err(PyRuntimeError::new_err(
                "ptx-opt panicked; please report this input",
            )),
        }
    }

    /// The module as PTX text.
    fn __str__(&self) -> String {
        self.inner.to_ptx()
    }

    fn __repr__(&self) -> String {
        format!(
            "<ptx_opt.Module: {} functions>",
            self.inner.ir().functions().count()
        )
    }
}

#[pymodule]
#[pyo3(name = "_native")]
fn native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("PtxError", m.py().get_type::<PtxError>())?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_function(wrap_pyfunction!(optimize, m)?)?;
    m.add_function(wrap_pyfunction!(check_each, m)?)?;
    m.add_function(wrap_pyfunction!(passes, m)?)?;
    m.add_class::<Module>()?;
    Ok(())
}
