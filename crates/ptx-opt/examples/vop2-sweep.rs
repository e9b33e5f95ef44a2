//! Every vop2 form through `lower-vsub2`, checked in the evaluator on all
//! pairs of edge half-word pairs (12⁴ = 20,736) and 100,000 random
//! triples: the six operations × eight type triples × plain/`.sat`/`.add`
//! × four destination masks × four selector pairs (the default and three
//! others), lowered for each of sm_75 (PTX 7.0), sm_80 (7.0), sm_90 (8.0),
//! sm_100 (8.6) and sm_120 (8.7). A lowering identical to one already run
//! for the same form on another target is not run again. Prints one line
//! per operation and exits 1 on any difference.
//! (The test suite runs a shorter version: `tests/lower_vsub2.rs`.)
//!
//! ```text
//! cargo run --release -p ptx-opt --example vop2-sweep [RANDOM]
//! ```

use ptx_opt::process_with;

#[path = "../tests/vop2_harness/mod.rs"]
mod vop2_harness;

use vop2_harness::{inputs_from, kernel, kernel_for, lower_config, padded, run, HALVES};

/// The targets, each with the lowest `.version` ptxas takes for it.
const TARGETS: [(&str, &str); 5] = [
    ("sm_75", "7.0"),
    ("sm_80", "7.0"),
    ("sm_90", "8.0"),
    ("sm_100", "8.6"),
    ("sm_120", "8.7"),
];

fn main() {
    let random = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(100_000);
    let data = padded(inputs_from(&HALVES, random, 0x2545_F491_4F6C_DD1D));
    let cfg = lower_config();
    let sels = [
        ("", ""),
        (".h01", ".h23"),
        (".h32", ".h10"),
        (".h13", ".h02"),
    ];
    let start = std::time::Instant::now();
    let (mut forms, mut bad) = (0, 0);
    for group in vop2_harness::forms().chunk_by(|x, y| x.op == y.op) {
        let op = group[0].op;
        let mut here = 0;
        for form in group {
            for mask in ["", ".h0", ".h1", ".h10"] {
                for (asel, bsel) in sels {
                    let inst = format!("{} %r3{mask}, %r1{asel}, %r2{bsel}, %r3;", form.spelling());
                    let expected = run(&kernel(&inst), &data);
                    let mut seen: Vec<String> = Vec::new();
                    for (target, version) in TARGETS {
                        let src = kernel_for(&inst, version, target);
                        let out = process_with(src.as_bytes(), &cfg).unwrap().text;
                        let body = out.split_once(".address_size").map_or("", |x| x.1);
                        if seen.iter().any(|b| b == body) {
                            continue;
                        }
                        seen.push(body.to_string());
                        if run(&out, &data) != expected {
                            eprintln!("DIFFERS on {target}: {inst}");
                            bad += 1;
                        }
                        here += 1;
                    }
                }
            }
        }
        forms += here;
        println!(
            "{op}: {here} lowerings, {} inputs each, {:.0} s so far",
            data.len() / 3,
            start.elapsed().as_secs_f64()
        );
    }
    println!("{forms} lowerings, {bad} differ");
    std::process::exit(i32::from(bad > 0));
}
