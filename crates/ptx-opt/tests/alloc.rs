//! The binary configures mimalloc before anything allocates: arenas of
//! 64 MiB (`ptx_opt::alloc::configure`, an `.init_array` constructor),
//! which keeps the round trip's peak memory under four times its input.

#[cfg(target_os = "linux")]
#[test]
fn the_binary_reserves_small_arenas() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_ptx-opt"))
        .arg("--version")
        .env("MIMALLOC_VERBOSE", "1")
        .output()
        .expect("ptx-opt runs");
    assert!(out.status.success());
    let log = String::from_utf8_lossy(&out.stderr);
    assert!(
        log.contains("option 'arena_reserve': 65536 KiB"),
        "mimalloc's options as the binary ran:\n{log}"
    );
}
