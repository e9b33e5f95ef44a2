#![no_main]
//! cargo-fuzz target `pipeline`: see `ptx_fuzz::pipeline`.
libfuzzer_sys::fuzz_target!(|data: &[u8]| ptx_fuzz::pipeline(data));
