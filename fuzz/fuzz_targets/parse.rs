#![no_main]
//! cargo-fuzz target `parse`: see `ptx_fuzz::parse`.
libfuzzer_sys::fuzz_target!(|data: &[u8]| ptx_fuzz::parse(data));
