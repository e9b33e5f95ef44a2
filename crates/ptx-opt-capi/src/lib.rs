//! The C ABI of ptx-opt: `include/ptx_opt.h` declares it (a test keeps the
//! two in sync). C, C++, Python (ctypes) and Julia (ccall) can run PTX text
//! through a pipeline for a target and read back the text or a located
//! error.
//!
//! Contract:
//! * a context is opaque; one thread at a time may use it, and separate
//!   contexts may be used from separate threads at once;
//! * strings passed in are NUL-terminated UTF-8 and only read during the
//!   call;
//! * strings returned belong to the context and stay valid until the next
//!   `ptx_opt_run` on it or `ptx_opt_context_free`;
//! * no panic crosses the boundary: one is caught and reported as an error
//!   (status 2).
#![deny(missing_docs)]

use std::ffi::{c_char, c_int, CStr, CString};
use std::panic::{catch_unwind, AssertUnwindSafe};

/// Status: the run succeeded; `ptx_opt_output` holds the PTX.
pub const PTX_OPT_OK: c_int = 0;
/// Status: the input, pipeline or target is wrong; `ptx_opt_error` says
/// where and why.
pub const PTX_OPT_ERROR: c_int = 1;
/// Status: an internal error (a caught panic); `ptx_opt_error` says more.
pub const PTX_OPT_INTERNAL: c_int = 2;
/// Status: a null context or input pointer, or input that is not UTF-8.
pub const PTX_OPT_BAD_ARGUMENT: c_int = 3;

/// The opaque context.
pub struct PtxOptContext {
    output: CString,
    error: CString,
}

fn cstring(s: String) -> CString {
    // Interior NULs cannot come from valid UTF-8 PTX output, but be safe.
    CString::new(s.replace('\0', "\\0")).expect("NULs replaced")
}

/// A new context; free it with [`ptx_opt_context_free`].
#[no_mangle]
pub extern "C" fn ptx_opt_context_new() -> *mut PtxOptContext {
    Box::into_raw(Box::new(PtxOptContext {
        output: CString::default(),
        error: CString::default(),
    }))
}

/// Frees a context (null is ignored).
///
/// # Safety
/// `ctx` is null or came from [`ptx_opt_context_new`] and is not used
/// afterwards.
#[no_mangle]
pub unsafe extern "C" fn ptx_opt_context_free(ctx: *mut PtxOptContext) {
    if !ctx.is_null() {
        drop(Box::from_raw(ctx));
    }
}

unsafe fn text<'a>(p: *const c_char) -> Option<&'a str> {
    if p.is_null() {
        return None;
    }
    CStr::from_ptr(p).to_str().ok()
}

/// Runs `pipeline` (LLVM pipeline text, e.g. `"default<O2>"` or
/// `"dce,lop3-fuse"`) on the PTX module `ptx` for `target` (`"sm_90"`, or
/// null for the module's own `.target`). Returns a `PTX_OPT_*` status.
///
/// # Safety
/// `ctx` came from [`ptx_opt_context_new`]; `ptx` and `pipeline` are
/// NUL-terminated strings; `target` is one or null.
#[no_mangle]
pub unsafe extern "C" fn ptx_opt_run(
    ctx: *mut PtxOptContext,
    ptx: *const c_char,
    pipeline: *const c_char,
    target: *const c_char,
) -> c_int {
    let Some(ctx) = ctx.as_mut() else {
        return PTX_OPT_BAD_ARGUMENT;
    };
    ctx.output = CString::default();
    ctx.error = CString::default();
    let (Some(ptx), Some(pipeline)) = (text(ptx), text(pipeline)) else {
        ctx.error =
            cstring("ptx_opt_run: input and pipeline must be non-null UTF-8 strings".into());
        return PTX_OPT_BAD_ARGUMENT;
    };
    let target = if target.is_null() {
        None
    } else {
        match text(target) {
            Some(t) => Some(t),
            None => {
                ctx.error = cstring("ptx_opt_run: target is not UTF-8".into());
                return PTX_OPT_BAD_ARGUMENT;
            }
        }
    };
    match catch_unwind(AssertUnwindSafe(|| {
        ptx_opt::api::optimize(ptx, pipeline, target)
    })) {
        Ok(Ok(out)) => {
            ctx.output = cstring(out);
            PTX_OPT_OK
        }
        Ok(Err(e)) => {
            ctx.error = cstring(e);
            PTX_OPT_ERROR
        }
        Err(panic) => {
            let what = panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_else(|| "unknown panic".into());
            ctx.error = cstring(format!("internal error: {what}"));
            PTX_OPT_INTERNAL
        }
    }
}

/// The PTX text of the last successful run ("" otherwise).
///
/// # Safety
/// `ctx` came from [`ptx_opt_context_new`] (null gives null).
#[no_mangle]
pub unsafe extern "C" fn ptx_opt_output(ctx: *const PtxOptContext) -> *const c_char {
    ctx.as_ref().map_or(std::ptr::null(), |c| c.output.as_ptr())
}

/// The error text of the last failed run ("" otherwise), located as
/// `<input>:LINE:COL: error: …` when it comes from the input.
///
/// # Safety
/// `ctx` came from [`ptx_opt_context_new`] (null gives null).
#[no_mangle]
pub unsafe extern "C" fn ptx_opt_error(ctx: *const PtxOptContext) -> *const c_char {
    ctx.as_ref().map_or(std::ptr::null(), |c| c.error.as_ptr())
}

/// The library version, e.g. `"0.1.0"` (static storage).
#[no_mangle]
pub extern "C" fn ptx_opt_version() -> *const c_char {
    concat!(env!("CARGO_PKG_VERSION"), "\0").as_ptr() as *const c_char
}
