//! Shared by the instruction tests (`dot_and_pack.rs`, `approx.rs`,
//! `minmax3.rs`, `vector_mov.rs`, `carry.rs`): runs a kernel
//! `k(.param .u64 k_in, .param .u64 k_out)` for one thread.

use serde_json::json;

/// Runs `ptx`'s kernel `k` for one thread with the words `input` in the
/// buffer `k_in` points to; returns the first `outputs` words of `k_out`'s.
/// Panics, naming `what`, if the module does not parse or the run fails.
pub fn run(what: &str, ptx: &str, input: &[u32], outputs: usize) -> Vec<u32> {
    let module = ptx_parse::parse_module(ptx).unwrap_or_else(|d| panic!("{what}: {}", d.message));
    let case = json!({"block": [1], "buffers": {"in": {"type": "u32", "data": input},
                      "out": {"type": "u32", "zeros": outputs}},
                      "params": [{"buffer": "in"}, {"buffer": "out"}]});
    let r = ptx_eval::case::run_case(&module, &case.to_string(), 1 << 20)
        .unwrap_or_else(|e| panic!("{what}: {e:?}"));
    let out = r["buffers"]["out"].as_array().unwrap();
    (0..outputs)
        .map(|k| out[k].as_u64().unwrap() as u32)
        .collect()
}
