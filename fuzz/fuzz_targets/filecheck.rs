#![no_main]
//! cargo-fuzz target `filecheck`: see `ptx_fuzz::filecheck`.
libfuzzer_sys::fuzz_target!(|data: &[u8]| ptx_fuzz::filecheck(data));
