//! Times each stage of the round trip separately on one file.
//!
//! `cargo run --release -p ptx-opt --example phases -- FILE.ptx`
use std::time::Instant;

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    let path = std::env::args().nth(1).expect("usage: phases FILE.ptx");
    let src = std::fs::read(&path).unwrap();
    let text = std::str::from_utf8(&src).unwrap();
    let mb = src.len() as f64 / 1e6;
    let report = |what: &str, t: Instant| {
        let s = t.elapsed().as_secs_f64();
        println!("{what:>10}: {:8.1} ms {:8.0} MB/s", s * 1e3, mb / s);
    };
    let t = Instant::now();
    let mut lx = ptx_parse::lexer::Lexer::new(text);
    while lx.next_token().unwrap().kind != ptx_parse::lexer::Tok::Eof {}
    report("lex", t);
    let t = Instant::now();
    let m = ptx_parse::parse_module(text).unwrap();
    report("parse+ssa", t);
    let t = Instant::now();
    for f in m.functions() {
        assert!(ptx_ir::verify::verify_function(f).is_empty());
    }
    report("verify", t);
    let t = Instant::now();
    for f in m.functions().filter(|f| f.has_body) {
        std::hint::black_box(ptx_ir::regalloc::assign(f));
    }
    report("regalloc", t);
    let t = Instant::now();
    let s = ptx_ir::write::module_to_string(&m);
    report("print", t);
    std::hint::black_box(s);
}
