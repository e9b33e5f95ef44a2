//! SplitMix64, the one generator the crate uses (launches, hashed memory,
//! generated programs): tiny, fast and reproducible from a seed.

/// The SplitMix64 output function: a well-mixed 64-bit hash of `z`.
pub fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Advances `state` and returns the next number.
pub fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    mix(*state)
}
