//! The global allocator of the `ptx-opt` binary, its benchmarks and
//! examples: mimalloc, called through its plain entry points.
//!
//! The IR is built from many small allocations per function; mimalloc's
//! size-class free lists serve them several times faster than glibc
//! malloc. `mimalloc::MiMalloc` sends every request through the aligned
//! entry points, which re-check the alignment on each call; nearly all of
//! ours need no more than the 8 bytes every mimalloc block has, so those
//! go straight to `mi_malloc`, `mi_zalloc` and `mi_realloc`.
//!
//! mimalloc is built without transparent huge pages (libmimalloc-sys's
//! `no_thp`): with them, each 2 MiB region a thread touches counts whole
//! in the resident set, and the round trip of 21 MB of nvcc output in
//! parts peaked at 4.3× the input instead of 2.5×, at the same speed.

use libmimalloc_sys as mi;

/// mimalloc's `arena_reserve` option (KiB), numbered as in its C header
/// (`mi_option_t` is a C enum); the Rust binding's constants stop before
/// it.
const OPTION_ARENA_RESERVE: std::ffi::c_int = 23;

extern "C" {
    /// mimalloc's `mi_option_set`, from the C library libmimalloc-sys
    /// builds (its Rust declaration needs the `extended` feature).
    fn mi_option_set(option: std::ffi::c_int, value: std::ffi::c_long);
}

/// Arenas of 64 MiB instead of mimalloc's 1 GiB. Measured on the
/// round-trip bench files (21 MB each, two threads): peak RSS 3.2-3.4x
/// the input instead of 3.5-4.2x, and wall time no worse.
const ARENA_RESERVE_KIB: std::ffi::c_long = 64 * 1024;

/// Sets mimalloc's options; must run before the first allocation, so
/// [`use_mimalloc!`](crate::use_mimalloc) registers it as a constructor.
pub extern "C" fn configure() {
    // SAFETY: sets an option value; mimalloc reads options when it
    // reserves memory, and the option exists in every mimalloc 2.x/3.x.
    unsafe { mi_option_set(OPTION_ARENA_RESERVE, ARENA_RESERVE_KIB) }
}
use std::alloc::{GlobalAlloc, Layout};
use std::ffi::c_void;

/// Alignment every mimalloc block has (its smallest size class is one
/// word, and every size class is a multiple of it).
const WORD_ALIGN: usize = 8;

/// Whether any mimalloc block suits `layout` (the plain entry points).
#[inline]
fn plain(layout: &Layout) -> bool {
    layout.align() <= WORD_ALIGN
}

/// mimalloc as the global allocator.
pub struct Mimalloc;

// SAFETY: every request is served by mimalloc with at least the alignment
// asked for (plain entry points only when that is at most a word), and
// freed or resized by the same allocator.
unsafe impl GlobalAlloc for Mimalloc {
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if plain(&layout) {
            mi::mi_malloc(layout.size()) as *mut u8
        } else {
            mi::mi_malloc_aligned(layout.size(), layout.align()) as *mut u8
        }
    }

    #[inline]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if plain(&layout) {
            mi::mi_zalloc(layout.size()) as *mut u8
        } else {
            mi::mi_zalloc_aligned(layout.size(), layout.align()) as *mut u8
        }
    }

    #[inline]
    unsafe fn dealloc(&self, ptr: *mut u8, _layout: Layout) {
        mi::mi_free(ptr as *mut c_void)
    }

    #[inline]
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if plain(&layout) {
            mi::mi_realloc(ptr as *mut c_void, new_size) as *mut u8
        } else {
            mi::mi_realloc_aligned(ptr as *mut c_void, new_size, layout.align()) as *mut u8
        }
    }
}

/// Makes [`Mimalloc`] the program's global allocator, with its options set
/// by [`configure`] before anything allocates (an `.init_array`
/// constructor on Linux). For binaries, benchmarks and examples.
#[macro_export]
macro_rules! use_mimalloc {
    () => {
        #[global_allocator]
        static GLOBAL: $crate::alloc::Mimalloc = $crate::alloc::Mimalloc;
        #[cfg(target_os = "linux")]
        #[used]
        #[link_section = ".init_array"]
        static CONFIGURE_ALLOC: extern "C" fn() = $crate::alloc::configure;
    };
}
