#![no_main]
//! cargo-fuzz target `roundtrip`: see `ptx_fuzz::roundtrip`.
libfuzzer_sys::fuzz_target!(|data: &[u8]| ptx_fuzz::roundtrip(data));
