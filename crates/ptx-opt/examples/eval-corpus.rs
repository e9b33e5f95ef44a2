//! How much of the real-code corpus the evaluator runs: every kernel of
//! every `.ptx` file under a folder (default `corpus/real/ptx`) on random
//! launches as `--check-each` draws them. Prints per kernel that ran no
//! launch the reason (the evaluator's error on the first launch), then the
//! reasons counted, and the totals, over all kernels and over those whose
//! parameters are all pointers and scalars (no by-value structs, which
//! random parameter bytes rarely make sense of). A kernel counts as run
//! when at least one launch completes.
//!
//! ```sh
//! cargo run --release -p ptx-opt --example eval-corpus -- [DIR] [LAUNCHES] [--quiet]
//! ```

use ptx_ir::{FuncKind, Item};
use std::collections::BTreeMap;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let quiet = args.iter().any(|a| a == "--quiet");
    let args: Vec<&String> = args.iter().filter(|a| !a.starts_with("--")).collect();
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let dir = args
        .first()
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| root.join("corpus/real/ptx"));
    let launches: u32 = args.get(1).map_or(8, |n| n.parse().expect("LAUNCHES"));
    let (mut kernels, mut ran, mut launched, mut completed) = (0u32, 0u32, 0u64, 0u64);
    let (mut plain, mut plain_ran) = (0u32, 0u32);
    let mut reasons: BTreeMap<String, u32> = BTreeMap::new();
    for path in ptx_opt::sass::ptx_files(&dir) {
        let text = std::fs::read_to_string(&path).unwrap();
        let name = path
            .strip_prefix(&dir)
            .unwrap_or(&path)
            .display()
            .to_string();
        let module = match ptx_parse::parse_module(&text) {
            Ok(m) => m,
            Err(d) => {
                println!("{name}: parse error: {}", d.message);
                continue;
            }
        };
        for item in &module.items {
            let Item::Func(f) = item else { continue };
            if f.kind != FuncKind::Entry || !f.has_body {
                continue;
            }
            kernels += 1;
            // A parameter declared as an array (`.b8 s[16]`) is a struct
            // passed by value.
            let scalar_params = f
                .params
                .as_ref()
                .is_none_or(|ps| ps.iter().all(|p| !p.text.contains('[')));
            plain += u32::from(scalar_params);
            let n = ptx_eval::check::check_function(&module.items, f, f, launches).unwrap_or(0);
            launched += u64::from(launches);
            completed += u64::from(n);
            if n > 0 {
                ran += 1;
                plain_ran += u32::from(scalar_params);
                continue;
            }
            let why = ptx_eval::check::probe(&module.items, f)
                .err()
                .unwrap_or_else(|| "no launch completed".into());
            if !quiet {
                println!("{name}: {}: {why}", f.name);
            }
            *reasons.entry(reason_key(&why)).or_default() += 1;
        }
    }
    println!("\nkernels that ran no launch, by reason:");
    let mut by_count: Vec<_> = reasons.into_iter().collect();
    by_count.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    for (why, n) in by_count {
        println!("{n:5}  {why}");
    }
    println!(
        "\n{ran} of {kernels} kernels ran at least one launch ({:.1}%); {completed} of {launched} launches completed",
        100.0 * f64::from(ran) / f64::from(kernels.max(1))
    );
    println!(
        "kernels taking only pointers and scalars: {plain_ran} of {plain} ran ({:.1}%)",
        100.0 * f64::from(plain_ran) / f64::from(plain.max(1))
    );
}

/// The error with numbers and names dropped, so alike errors count together.
fn reason_key(why: &str) -> String {
    if let Some(start) = why.find('\'') {
        if let Some(len) = why[start + 1..].find('\'') {
            let inst = &why[start + 1..start + 1 + len];
            let rest = &why[start + 2 + len..];
            return format!("'{inst}'{rest}");
        }
    }
    why.split(|c: char| c.is_ascii_digit())
        .next()
        .unwrap_or(why)
        .trim()
        .to_string()
}
