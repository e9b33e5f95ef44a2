#![no_main]
//! cargo-fuzz target `ptx-eval`: see `ptx_fuzz::eval`.
libfuzzer_sys::fuzz_target!(|data: &[u8]| ptx_fuzz::eval(data));
