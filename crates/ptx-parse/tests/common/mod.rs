//! What the integration tests of `ptx-parse` share: the PTX files they
//! run on.

use std::path::{Path, PathBuf};

/// The `.ptx` files under `dirs` (relative to this crate), recursively,
/// in path order.
pub fn ptx_files_under(dirs: &[&str]) -> Vec<PathBuf> {
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    let mut stack: Vec<PathBuf> = dirs.iter().map(|d| here.join(d)).collect();
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap_or_else(|e| panic!("{}: {e}", d.display())) {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "ptx") {
                files.push(p);
            }
        }
    }
    files.sort();
    files
}
