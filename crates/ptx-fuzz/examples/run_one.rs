//! `run_one TARGET FILE...`: runs fuzz inputs through a target's body
//! (reproducing a crash on stable, outside libFuzzer).
fn main() {
    let mut args = std::env::args().skip(1);
    let target = args.next().expect("usage: run_one TARGET FILE...");
    let body = ptx_fuzz::TARGETS
        .iter()
        .find(|(n, _)| *n == target)
        .unwrap_or_else(|| panic!("unknown target '{target}'"))
        .1;
    for file in args {
        let data = std::fs::read(&file).unwrap();
        body(&data);
        println!("{file}: ok");
    }
}
