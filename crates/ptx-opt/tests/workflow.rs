//! The nvcc workflow of `docs/workflows.md`: `scripts/nvcc-ptx-opt.sh` runs
//! `nvcc -ptx`, `ptx-opt` and `ptxas` (or `nvcc -fatbin`) on a real kernel
//! source; the cubin is an ELF whose kernels nvdisasm lists, the fatbin has
//! the fatbin magic, and the kept PTX is `ptx-opt -O2`'s output for nvcc's.
//! Needs nvcc, ptxas and nvdisasm (`scripts/install-ptxas.sh`); skipped
//! locally without them, required under CI.

use std::path::{Path, PathBuf};
use std::process::Command;

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn tool(rel: &str) -> Option<PathBuf> {
    let p = workspace().join(rel);
    Command::new(&p)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
        .then_some(p)
}

#[test]
fn nvcc_ptx_opt_ptxas_makes_a_cubin_and_a_fatbin() {
    let bin = ".tools/cuda/nvidia/cu13/bin";
    let (Some(nvcc), Some(ptxas), Some(nvdisasm)) = (
        tool(&format!("{bin}/nvcc")),
        tool(&format!("{bin}/ptxas")),
        tool(&format!("{bin}/nvdisasm")),
    ) else {
        assert!(
            std::env::var_os("CI").is_none(),
            "nvcc, ptxas and nvdisasm are required under CI: run scripts/install-ptxas.sh"
        );
        eprintln!("skipped: nvcc not found (run scripts/install-ptxas.sh)");
        return;
    };
    let tmp = std::env::temp_dir().join(format!("ptx-opt-workflow-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let source = workspace().join("corpus/real/src/cuda/reduce.cu");
    let run = |args: &[&str]| {
        let out = Command::new(workspace().join("scripts/nvcc-ptx-opt.sh"))
            .args(args)
            .arg(&source)
            .env("NVCC", &nvcc)
            .env("PTXAS", &ptxas)
            .env("PTX_OPT", env!("CARGO_BIN_EXE_ptx-opt"))
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    };
    let cubin = tmp.join("reduce.cubin");
    let keep = tmp.join("kept");
    run(&[
        "-arch=sm_80",
        "-O3",
        "-o",
        cubin.to_str().unwrap(),
        &format!("--keep-dir={}", keep.display()),
    ]);
    let bytes = std::fs::read(&cubin).unwrap();
    assert_eq!(&bytes[..4], b"\x7fELF");
    let listing = Command::new(&nvdisasm)
        .arg("-c")
        .arg(&cubin)
        .output()
        .unwrap();
    let listing = String::from_utf8_lossy(&listing.stdout);
    assert!(listing.matches(".text.").count() >= 5, "{listing}");
    // The kept PTX: nvcc's, and ptx-opt's -O2 output for it.
    let nvcc_ptx = std::fs::read_to_string(keep.join("reduce.ptx")).unwrap();
    let opt_ptx = std::fs::read_to_string(keep.join("reduce.opt.ptx")).unwrap();
    let cfg = ptx_opt::Config {
        passes: ptx_passes::pipeline::resolve(&ptx_passes::pipeline::parse("default<O2>").unwrap())
            .unwrap(),
        size_guard: true,
        ..Default::default()
    };
    let expected = ptx_opt::process_with(nvcc_ptx.as_bytes(), &cfg)
        .unwrap()
        .text;
    assert_eq!(opt_ptx, expected);
    let fatbin = tmp.join("reduce.fatbin");
    run(&["-arch=sm_90", "--fatbin", "-o", fatbin.to_str().unwrap()]);
    let bytes = std::fs::read(&fatbin).unwrap();
    assert_eq!(&bytes[..4], &0xBA55_ED50u32.to_le_bytes());
    let _ = std::fs::remove_dir_all(&tmp);
}
