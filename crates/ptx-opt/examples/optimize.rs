//! Parses PTX, runs a pipeline and prints the result:
//! `cargo run -p ptx-opt --example optimize [-- FILE [PIPELINE [sm_XX]]]`
//! (defaults: docs/examples/saxpy.ptx, `default<O2>`, the file's target).

use ptx_opt::api::{Module, Optimizer};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let file = args.first().cloned().unwrap_or_else(|| {
        concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/examples/saxpy.ptx").to_string()
    });
    let pipeline = args.get(1).map_or("default<O2>", String::as_str);
    let text = std::fs::read_to_string(&file).unwrap_or_else(|e| {
        eprintln!("{file}: {e}");
        std::process::exit(1)
    });
    let mut m = match Module::parse(&text) {
        Ok(m) => m,
        Err(errors) => {
            // Diagnostics are values; print them the way ptx-opt does.
            for e in errors {
                eprint!("{}", e.rendered.replacen("<input>", &file, 1));
            }
            std::process::exit(1);
        }
    };
    let mut opt = Optimizer::new();
    if let Some(sm) = args.get(2) {
        opt = opt.with_target(sm).unwrap_or_else(|e| {
            eprintln!("{e}");
            std::process::exit(1)
        });
    }
    if let Err(e) = opt.run(&mut m, pipeline) {
        eprintln!("{e}");
        std::process::exit(1);
    }
    m.write_to(&mut std::io::stdout()).expect("stdout");
}
