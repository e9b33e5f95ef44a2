//! Times the two pipeline stages of `ptx_opt::process` separately.
//!
//! `cargo run --release -p ptx-opt --example phases -- FILE.ptx`
use std::time::Instant;

ptx_opt::use_mimalloc!();

fn main() {
    let path = std::env::args().nth(1).expect("usage: phases FILE.ptx");
    let src = std::fs::read(&path).unwrap();
    let text = std::str::from_utf8(&src).unwrap();
    let mb = src.len() as f64 / 1e6;
    let report =
        |what: &str, s: f64| println!("{what:>24}: {:8.1} ms {:8.0} MB/s", s * 1e3, mb / s);
    for _ in 0..3 {
        let t = Instant::now();
        let mut p = ptx_parse::Parser::new(text).unwrap();
        let mut units = Vec::new();
        while let Some(u) = p.next_unit().unwrap() {
            units.push(u);
        }
        report("stage 1: lex+parse", t.elapsed().as_secs_f64());
        let t = Instant::now();
        let items: Vec<_> = units.into_iter().map(|u| u.finish()).collect();
        let ssa = t.elapsed().as_secs_f64();
        let t = Instant::now();
        for i in &items {
            if let ptx_ir::Item::Func(f) = i {
                assert!(ptx_ir::verify::verify_function(f).is_empty());
            }
        }
        let verify = t.elapsed().as_secs_f64();
        let t = Instant::now();
        let mut out = String::new();
        for i in &items {
            ptx_ir::write::write_item(&mut out, i).unwrap();
        }
        let print = t.elapsed().as_secs_f64();
        report("stage 2: ssa", ssa);
        report("stage 2: verify", verify);
        report("stage 2: regalloc+print", print);
        report("stage 2 total", ssa + verify + print);
    }
}
