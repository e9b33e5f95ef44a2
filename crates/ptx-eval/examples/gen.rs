//! Writes generated programs: `cargo run -p ptx-eval --example gen -- DIR FIRST COUNT`.

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (dir, first, count) = match &args[..] {
        [d, f, c] => (
            d.clone(),
            f.parse::<u64>().expect("FIRST"),
            c.parse::<u64>().expect("COUNT"),
        ),
        _ => {
            eprintln!("usage: gen DIR FIRST COUNT");
            std::process::exit(2);
        }
    };
    std::fs::create_dir_all(&dir).unwrap();
    for seed in first..first + count {
        std::fs::write(format!("{dir}/gen{seed}.ptx"), ptx_eval::gen::program(seed)).unwrap();
    }
}
