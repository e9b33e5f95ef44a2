//! Runs `ptx-eval` cases on a real NVIDIA GPU through the CUDA driver API.
//!
//! The driver (`libcuda`) is loaded at run time by `cudarc`, so this crate
//! builds and its tests run on machines without CUDA: [`Gpu::open`] then
//! reports [`GpuError::NoDriver`].
//!
//! A case is read by [`ptx_eval::case::Case`], the very parser the
//! evaluator uses: the same buffers are allocated (device memory, filled
//! from the same bytes), the same param block is built (the driver's
//! layout, computed by [`ptx_eval::param_layout`]) and passed whole through
//! `CU_LAUNCH_PARAM_BUFFER_POINTER`, and the result is the evaluator's
//! `buffers` object, so the two results compare with `==`.
//!
//! PTX is JIT-compiled for the device by `cuModuleLoadDataEx`; a refused
//! module gives the JIT's error log.
#![deny(missing_docs)]

pub mod campaign;

use cudarc::driver::sys::{self, CUjit_option, CUresult};
use ptx_eval::case::Case;
use serde_json::{json, Value as Json};
use std::ffi::{c_void, CStr, CString};
use std::fmt;

/// Why a GPU run could not happen.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GpuError {
    /// No CUDA driver library on this machine (exit status 2).
    NoDriver(String),
    /// The driver is there but has no usable device (exit status 2).
    NoDevice(String),
    /// The case, the module or the launch failed (exit status 1).
    Run(String),
    /// The launch failed on the device (an illegal address, a trap); the
    /// context is lost (exit status 1).
    Launch(String),
}

impl GpuError {
    /// The process exit status this error maps to.
    pub fn exit_status(&self) -> u8 {
        match self {
            GpuError::NoDriver(_) | GpuError::NoDevice(_) => 2,
            GpuError::Run(_) | GpuError::Launch(_) => 1,
        }
    }
}

impl fmt::Display for GpuError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GpuError::NoDriver(m) | GpuError::NoDevice(m) | GpuError::Run(m) => f.write_str(m),
            GpuError::Launch(m) => write!(f, "launch failed: {m}"),
        }
    }
}

fn error_name(r: CUresult) -> String {
    let mut p: *const std::ffi::c_char = std::ptr::null();
    // SAFETY: cuGetErrorString writes a pointer to a static string or
    // leaves it null.
    let ok = unsafe { sys::cuGetErrorString(r, &mut p) } == CUresult::CUDA_SUCCESS;
    if ok && !p.is_null() {
        // SAFETY: the driver returned a NUL-terminated static string.
        let s = unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned();
        format!("{r:?}: {s}")
    } else {
        format!("{r:?}")
    }
}

fn check(r: CUresult, what: &str) -> Result<(), GpuError> {
    if r == CUresult::CUDA_SUCCESS {
        Ok(())
    } else {
        Err(GpuError::Run(format!("{what}: {}", error_name(r))))
    }
}

/// The CUDA driver's `CU_LAUNCH_PARAM_*` markers (macros in `cuda.h`:
/// the pointer values 0, 1 and 2, never dereferenced).
const LAUNCH_PARAM_END: *mut c_void = std::ptr::null_mut();
const LAUNCH_PARAM_BUFFER_POINTER: *mut c_void = std::ptr::without_provenance_mut(1);
const LAUNCH_PARAM_BUFFER_SIZE: *mut c_void = std::ptr::without_provenance_mut(2);

/// A JIT-compiled PTX module.
pub struct Loaded {
    module: sys::CUmodule,
    /// Whatever the JIT logged while compiling (warnings), trimmed.
    pub info_log: String,
}

/// The device context: device 0's primary context.
pub struct Gpu {
    device: sys::CUdevice,
    ctx: sys::CUcontext,
    /// The device's name, as the driver reports it.
    pub name: String,
    /// The driver's CUDA version, e.g. `13000`.
    pub driver_version: i32,
    /// Dynamic shared memory for the launch in progress (the evaluator's
    /// amount, `ptx_eval::dynamic_shared_bytes`).
    dynamic_shared: u32,
}

impl Gpu {
    /// Loads the driver and retains device 0's primary context.
    pub fn open() -> Result<Gpu, GpuError> {
        // SAFETY: only tries to dlopen the library by its usual names.
        if !unsafe { sys::is_culib_present() } {
            return Err(GpuError::NoDriver(
                "no CUDA driver: libcuda.so could not be loaded (is an NVIDIA driver installed, and LD_LIBRARY_PATH set?)"
                    .into(),
            ));
        }
        // cudarc panics when the library lacks a symbol it resolves (a
        // driver older than the bindings); report that as a missing driver.
        std::panic::catch_unwind(Self::open_loaded)
            .unwrap_or_else(|_| Err(GpuError::NoDriver("the CUDA driver is too old".into())))
    }

    fn open_loaded() -> Result<Gpu, GpuError> {
        // SAFETY: plain driver API calls with valid out-pointers.
        unsafe {
            let r = sys::cuInit(0);
            if r != CUresult::CUDA_SUCCESS {
                return Err(GpuError::NoDevice(format!(
                    "CUDA driver found, but cuInit failed: {}",
                    error_name(r)
                )));
            }
            let mut driver_version = 0;
            check(
                sys::cuDriverGetVersion(&mut driver_version),
                "cuDriverGetVersion",
            )?;
            let mut count = 0;
            check(sys::cuDeviceGetCount(&mut count), "cuDeviceGetCount")?;
            if count == 0 {
                return Err(GpuError::NoDevice(
                    "CUDA driver found, but no CUDA device".into(),
                ));
            }
            let mut device = 0;
            check(sys::cuDeviceGet(&mut device, 0), "cuDeviceGet")?;
            let mut buf = [0 as std::ffi::c_char; 256];
            check(
                sys::cuDeviceGetName(buf.as_mut_ptr(), buf.len() as i32, device),
                "cuDeviceGetName",
            )?;
            let name = CStr::from_ptr(buf.as_ptr()).to_string_lossy().into_owned();
            let mut gpu = Gpu {
                device,
                ctx: std::ptr::null_mut(),
                name,
                driver_version,
                dynamic_shared: 0,
            };
            gpu.retain()?;
            Ok(gpu)
        }
    }

    fn retain(&mut self) -> Result<(), GpuError> {
        // Called once, by `open`.
        // SAFETY: valid device handle and out-pointer.
        unsafe {
            check(
                sys::cuDevicePrimaryCtxRetain(&mut self.ctx, self.device),
                "cuDevicePrimaryCtxRetain",
            )?;
            check(sys::cuCtxSetCurrent(self.ctx), "cuCtxSetCurrent")
        }
    }

    /// The device's compute capability as `sm_XY`.
    pub fn sm(&self) -> String {
        let attr = |a| {
            let mut v = 0;
            // SAFETY: valid device handle and out-pointer.
            unsafe { sys::cuDeviceGetAttribute(&mut v, a, self.device) };
            v
        };
        use sys::CUdevice_attribute::*;
        format!(
            "sm_{}{}",
            attr(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR),
            attr(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR)
        )
    }

    /// JIT-compiles PTX text for this device.
    pub fn load(&self, ptx: &str) -> Result<Loaded, GpuError> {
        let text = CString::new(ptx)
            .map_err(|_| GpuError::Run("the PTX text contains a NUL byte".into()))?;
        const LOG: usize = 1 << 16;
        let mut err_log = vec![0u8; LOG];
        let mut info_log = vec![0u8; LOG];
        let mut opts = [
            CUjit_option::CU_JIT_ERROR_LOG_BUFFER,
            CUjit_option::CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
            CUjit_option::CU_JIT_INFO_LOG_BUFFER,
            CUjit_option::CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES,
        ];
        let mut vals = [
            err_log.as_mut_ptr() as *mut c_void,
            LOG as *mut c_void,
            info_log.as_mut_ptr() as *mut c_void,
            LOG as *mut c_void,
        ];
        let mut module = std::ptr::null_mut();
        // SAFETY: the option arrays match, the buffers outlive the call,
        // and the image is NUL-terminated PTX.
        let r = unsafe {
            sys::cuModuleLoadDataEx(
                &mut module,
                text.as_ptr() as *const c_void,
                opts.len() as u32,
                opts.as_mut_ptr(),
                vals.as_mut_ptr(),
            )
        };
        let log = |b: &[u8]| {
            let end = b.iter().position(|&c| c == 0).unwrap_or(b.len());
            String::from_utf8_lossy(&b[..end]).trim().to_string()
        };
        if r != CUresult::CUDA_SUCCESS {
            let el = log(&err_log);
            return Err(GpuError::Run(format!(
                "the CUDA JIT refused the module ({}){}{}",
                error_name(r),
                if el.is_empty() { "" } else { ":\n" },
                el
            )));
        }
        Ok(Loaded {
            module,
            info_log: log(&info_log),
        })
    }

    /// Unloads a module.
    pub fn unload(&self, m: Loaded) {
        // SAFETY: the module came from `load` on this context.
        unsafe { sys::cuModuleUnload(m.module) };
    }

    /// Runs `case` on kernel of `loaded` (JIT of `module`'s text); returns
    /// the result JSON `{"buffers": ..., "device": ...}`.
    ///
    /// A failure on the device is reported as [`GpuError::Launch`]; the
    /// context is then unusable, and the process must end (CUDA has no
    /// way back from a sticky error).
    pub fn run_case(
        &mut self,
        module: &ptx_ir::Module,
        loaded: &Loaded,
        case: &Case,
    ) -> Result<Json, GpuError> {
        let f = case.kernel(module).map_err(GpuError::Run)?;
        self.dynamic_shared = ptx_eval::dynamic_shared_bytes(module, f);
        let name = CString::new(&*f.name).map_err(|_| GpuError::Run("bad kernel name".into()))?;
        let mut func = std::ptr::null_mut();
        // SAFETY: module handle from `load`, NUL-terminated name.
        check(
            unsafe { sys::cuModuleGetFunction(&mut func, loaded.module, name.as_ptr()) },
            "cuModuleGetFunction",
        )?;
        let mut ptrs: Vec<sys::CUdeviceptr> = Vec::with_capacity(case.buffers.len());
        let result = self.launch(f, func, case, &mut ptrs);
        let free = |ptrs: &[sys::CUdeviceptr]| {
            for &p in ptrs {
                // SAFETY: allocated by cuMemAlloc in `launch`.
                unsafe { sys::cuMemFree_v2(p) };
            }
        };
        match result {
            Ok(v) => {
                free(&ptrs);
                Ok(v)
            }
            // The context is poisoned (a sticky error): nothing more can run
            // in this process, freeing included.
            Err(e @ GpuError::Launch(_)) => Err(e),
            Err(e) => {
                free(&ptrs);
                Err(e)
            }
        }
    }

    fn launch(
        &mut self,
        f: &ptx_ir::Function,
        func: sys::CUfunction,
        case: &Case,
        ptrs: &mut Vec<sys::CUdeviceptr>,
    ) -> Result<Json, GpuError> {
        for b in &case.buffers {
            let bytes = b.bytes();
            let mut p = 0;
            // SAFETY: out-pointer valid; at least one byte so every buffer
            // has a distinct address.
            unsafe {
                check(sys::cuMemAlloc_v2(&mut p, bytes.len().max(1)), "cuMemAlloc")?;
                ptrs.push(p);
                if !bytes.is_empty() {
                    check(
                        sys::cuMemcpyHtoD_v2(p, bytes.as_ptr() as *const c_void, bytes.len()),
                        "cuMemcpyHtoD",
                    )?;
                }
            }
        }
        let mut block = case.param_block(f, |k| ptrs[k]).map_err(GpuError::Run)?;
        let mut size = block.len();
        let mut extra = [
            LAUNCH_PARAM_BUFFER_POINTER,
            block.as_mut_ptr() as *mut c_void,
            LAUNCH_PARAM_BUFFER_SIZE,
            &mut size as *mut usize as *mut c_void,
            LAUNCH_PARAM_END,
        ];
        let (g, t) = (case.launch.grid, case.launch.block);
        let shared = self.dynamic_shared;
        // SAFETY: `extra` follows the driver's protocol and outlives the
        // call; the function handle is valid in this context.
        let r = unsafe {
            sys::cuLaunchKernel(
                func,
                g[0],
                g[1],
                g[2],
                t[0],
                t[1],
                t[2],
                shared,
                std::ptr::null_mut(),
                std::ptr::null_mut(),
                extra.as_mut_ptr(),
            )
        };
        if r != CUresult::CUDA_SUCCESS {
            return Err(GpuError::Run(format!("cuLaunchKernel: {}", error_name(r))));
        }
        // SAFETY: plain synchronisation.
        let r = unsafe { sys::cuCtxSynchronize() };
        if r != CUresult::CUDA_SUCCESS {
            return Err(GpuError::Launch(error_name(r)));
        }
        let mut contents = Vec::with_capacity(case.buffers.len());
        for (b, &p) in case.buffers.iter().zip(ptrs.iter()) {
            let mut bytes = vec![0u8; b.byte_len() as usize];
            if !bytes.is_empty() {
                // SAFETY: the buffer holds exactly this many bytes.
                check(
                    unsafe {
                        sys::cuMemcpyDtoH_v2(bytes.as_mut_ptr() as *mut c_void, p, bytes.len())
                    },
                    "cuMemcpyDtoH",
                )?;
            }
            contents.push(bytes);
        }
        let buffers = case.result_buffers(|k| std::mem::take(&mut contents[k]));
        Ok(json!({"buffers": buffers, "device": self.name}))
    }
}

/// Parses a case and its PTX module for a GPU run, with errors as the
/// evaluator gives them.
pub fn prepare(ptx: &str, case: &str) -> Result<(ptx_ir::Module, Case), String> {
    let module = ptx_parse::parse_module(ptx).map_err(|d| d.render("<ptx>", ptx.as_bytes()))?;
    let case = Case::parse(case)?;
    case.kernel(&module)?;
    Ok((module, case))
}
