#!/usr/bin/env bash
# The GPU cross-check (docs/evaluator.md, "GPU cross-check"): prepares the
# campaign's cases and the evaluator's results, runs every case on the GPU
# with ptx-gpu-run (one process per shard, in parallel), and compares.
#
#   scripts/gpu-campaign.sh [DIR] [GENERATED-PROGRAMS]
#
# PTX_GPU_BIN=folder uses prebuilt ptx-opt, ptx-gpu-run and gpu-campaign
# (how the binaries travel to a GPU machine); otherwise they are built.
# JOBS (default: all cores) sets the shards; GPU_TIMEOUT (s) bounds each,
# CASE_TIMEOUT (s) one case (a JIT compile can take minutes).
# Exit status: 0 when everything agrees, 1 on any difference, 2 when no
# GPU could be used.
set -uo pipefail
dir=${1:-target/gpu-campaign}
gen=${2:-2000}
bin=${PTX_GPU_BIN:-}
if [ -z "$bin" ]; then
    cargo build --release -q -p ptx-gpu-run -p ptx-opt || exit 2
    bin=target/release
fi
jobs=${JOBS:-$(nproc)}
rm -rf "$dir" && mkdir -p "$dir"
start=$(date +%s)
"$bin/gpu-campaign" prepare "$dir" --ptx-opt "$bin/ptx-opt" --gen "$gen" --jobs "$jobs" \
    | tee "$dir/prepare.txt"
echo "prepare: $(($(date +%s) - start)) s"
"$bin/ptx-gpu-run" --info || exit 2
start=$(date +%s)
for m in "$dir"/manifest.*.jsonl; do
    k=${m##*/manifest.}
    k=${k%.jsonl}
    timeout "${GPU_TIMEOUT:-400}" "$bin/ptx-gpu-run" --batch "$m" -o "$dir/gpu.$k.jsonl" \
        --repeat 2 --case-timeout "${CASE_TIMEOUT:-30}" \
        2>"$dir/gpu.$k.err" &
done
wait
echo "GPU stage: $(($(date +%s) - start)) s, $(cat "$dir"/gpu.*.jsonl | wc -l) cases run"
cat "$dir"/gpu.*.err
"$bin/gpu-campaign" compare "$dir"
status=$?
# The GPU's results for the originals, small enough to keep: `compare`
# reads them again after an evaluator fix, with no GPU.
"$bin/gpu-campaign" export "$dir"
exit $status
