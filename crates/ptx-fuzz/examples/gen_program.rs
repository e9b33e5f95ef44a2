//! Prints `ptx_eval::gen::program(SEED)`, for `scripts/fuzz.sh seeds`.
fn main() {
    let seed = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    print!("{}", ptx_eval::gen::program(seed));
}
