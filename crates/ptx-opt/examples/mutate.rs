//! A small mutation fuzzer: mutates corpus files (byte flips, deletions,
//! duplications, splices, truncations) and runs the whole round trip on
//! each, reporting any panic with the input that caused it. Accepted inputs
//! must also print idempotently and go through `-O2` with the verifier on
//! after every pass.
//!
//! `cargo run --release -p ptx-opt --example mutate -- ITERATIONS [SEED]`

use std::path::Path;

fn main() {
    let mut args = std::env::args().skip(1);
    let iters: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(10_000);
    let mut seed: u64 = args
        .next()
        .and_then(|a| a.parse().ok())
        .unwrap_or(0x9e37_79b9_7f4a_7c15);
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../crates/ptx-parse/tests");
    let mut inputs = Vec::new();
    for dir in ["corpus/llc", "corpus/stress", "forms"] {
        for e in std::fs::read_dir(root.join(dir)).unwrap() {
            let p = e.unwrap().path();
            if p.extension().is_some_and(|x| x == "ptx") {
                inputs.push(std::fs::read(&p).unwrap());
            }
        }
    }
    inputs.sort();
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    std::panic::set_hook(Box::new(|_| {}));
    let mut o2 = ptx_opt::Config {
        passes: ptx_passes::pipeline::resolve(&ptx_passes::pipeline::parse("default<O2>").unwrap())
            .unwrap(),
        ..Default::default()
    };
    o2.instrumentation.verify_each = true;
    let (mut ok, mut errs, mut panics) = (0u64, 0u64, 0u64);
    for _ in 0..iters {
        let mut v = inputs[(next() as usize) % inputs.len()].clone();
        for _ in 0..1 + next() % 4 {
            if v.is_empty() {
                break;
            }
            let at = (next() as usize) % v.len();
            match next() % 6 {
                0 => v[at] = next() as u8,
                1 => {
                    let n = ((next() % 16) as usize).min(v.len() - at);
                    v.drain(at..at + n);
                }
                2 => {
                    let n = ((next() % 32) as usize).min(v.len() - at);
                    let chunk: Vec<u8> = v[at..at + n].to_vec();
                    let to = (next() as usize) % v.len();
                    v.splice(to..to, chunk);
                }
                3 => v.truncate(at),
                4 => {
                    let other = &inputs[(next() as usize) % inputs.len()];
                    let from = (next() as usize) % other.len();
                    let n = ((next() % 64) as usize).min(other.len() - from);
                    v.splice(at..at, other[from..from + n].iter().copied());
                }
                _ => {
                    const TOKENS: &[&[u8]] = &[
                        b"{",
                        b"}",
                        b";",
                        b",",
                        b"@%p1 ",
                        b"%r1",
                        b"[",
                        b"]",
                        b"|",
                        b"!",
                        b"bra L;",
                        b"L:",
                        b".reg .b32 %r<2>;",
                        b"-",
                        b"0x",
                        b"_",
                    ];
                    let t = TOKENS[(next() as usize) % TOKENS.len()];
                    v.splice(at..at, t.iter().copied());
                }
            }
        }
        let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let out = ptx_opt::process(&v)?;
            // Whatever is accepted prints idempotently.
            let again = ptx_opt::process(out.as_bytes()).expect("printed output must parse");
            assert_eq!(out, again, "printing is not idempotent");
            // -O2 with the verifier after every pass, and its output parses.
            let o2 = ptx_opt::process_with(&v, &o2)
                .map_err(|_| ())
                .expect("-O2 must succeed where parsing did");
            ptx_opt::process(o2.text.as_bytes()).expect("-O2 output must parse");
            Ok::<_, ptx_parse::Diagnostic>(())
        }));
        match run {
            Ok(Ok(())) => ok += 1,
            Ok(Err(_)) => errs += 1,
            Err(_) => {
                panics += 1;
                let path = format!("/tmp/ptx-opt-crash-{panics}.ptx");
                std::fs::write(&path, &v).unwrap();
                eprintln!("panic: input saved to {path}");
            }
        }
    }
    println!("{iters} inputs: {ok} accepted, {errs} rejected with a diagnostic, {panics} panics");
    if panics > 0 {
        std::process::exit(1);
    }
}
