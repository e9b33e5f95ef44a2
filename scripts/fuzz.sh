#!/usr/bin/env bash
# Coverage-guided fuzzing with cargo-fuzz (libFuzzer; needs the nightly
# toolchain and `cargo install cargo-fuzz`).
#
#   scripts/fuzz.sh seeds              (re)build the seed corpora in fuzz/seeds/
#   scripts/fuzz.sh run TARGET SECS    fuzz TARGET for SECS seconds on
#                                      fuzz/work/TARGET (seeded from fuzz/seeds/
#                                      and fuzz/corpus/); crashes go to
#                                      fuzz/artifacts/TARGET/
#   scripts/fuzz.sh merge TARGET       minimise fuzz/work/TARGET into the
#                                      committed fuzz/corpus/TARGET
#
# Targets: parse roundtrip pipeline filecheck ptx-eval (crates/ptx-fuzz).
# The committed corpora and regressions are replayed on stable by
# `cargo test -p ptx-fuzz` (part of scripts/test.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

seeds() {
  rm -rf fuzz/seeds && mkdir -p fuzz/seeds/{parse,roundtrip,pipeline,filecheck,ptx-eval}
  # parse, roundtrip: the repo's PTX (compiler output, hand-written forms,
  # malformed inputs).
  local n=0
  for f in $(find crates/ptx-parse/tests/corpus crates/ptx-parse/tests/forms \
      crates/ptx-opt/tests/malformed docs/examples -name '*.ptx' | sort); do
    if [ "$(stat -c %s "$f")" -le 65536 ]; then
      n=$((n + 1))
      cp "$f" "fuzz/seeds/parse/$n.ptx"
      cp "$f" "fuzz/seeds/roundtrip/$n.ptx"
    fi
  done
  # pipeline: choice byte + generator script; fixed pseudo-random bytes.
  python3 - <<'PY'
import random
r = random.Random(11)
for i in range(32):
    data = bytes([i * 8 % 256]) + bytes(r.randrange(256) for _ in range(r.randrange(8, 200)))
    open(f"fuzz/seeds/pipeline/{i}.bin", "wb").write(data)
PY
  # filecheck: option byte, a FileCheck test (its CHECK lines) NUL the
  # output ptx-opt gives for it.
  cargo build -q --release -p ptx-opt
  cargo build -q --release -p ptx-fuzz --example gen_program
  n=0
  for f in filecheck-tests/*/*.ptx filecheck-tests/*.ptx; do
    [ -f "$f" ] || continue
    n=$((n + 1))
    { printf '\000'; cat "$f"; printf '\000'; target/release/ptx-opt "$f" 2>/dev/null || true; } \
      > "fuzz/seeds/filecheck/$n.bin"
  done
  # ptx-eval: a kernel NUL a case.
  python3 - <<'PY'
import json, glob, os
cases = {
  "docs/examples/saxpy.ptx": {"grid": [2], "block": [32], "buffers": {"x": {"type": "f32", "data": [float(i) for i in range(64)]}, "y": {"type": "f32", "zeros": 64}}, "params": [{"buffer": "x"}, {"buffer": "y"}, {"f32": 2.5}, {"u32": 60}]},
}
n = 0
for ptx, case in cases.items():
    n += 1
    open(f"fuzz/seeds/ptx-eval/{n}.bin", "wb").write(open(ptx, "rb").read() + b"\0" + json.dumps(case).encode())
# generated programs: out buffer of 32 threads x 16 words, three scalars
import subprocess
gen_case = {"block": [32], "buffers": {"out": {"type": "u32", "zeros": 512}}, "params": [{"buffer": "out"}, {"u32": 7}, {"u32": 0xfffffff0}, {"u32": 3}]}
for seed in range(8):
    src = subprocess.run(["target/release/examples/gen_program", str(seed)], capture_output=True, check=True).stdout
    n += 1
    open(f"fuzz/seeds/ptx-eval/{n}.bin", "wb").write(src + b"\0" + json.dumps(gen_case).encode())
PY
  for t in parse roundtrip pipeline filecheck ptx-eval; do
    echo "$t: $(ls fuzz/seeds/$t | wc -l) seeds"
  done
}

run() {
  local t=$1 secs=$2
  shift 2
  mkdir -p "fuzz/work/$t" "fuzz/artifacts/$t" "fuzz/corpus/$t"
  # -fork keeps going after a crash (each is saved as an artifact);
  # -rss_limit_mb bounds memory; -timeout makes a hang a finding.
  cd fuzz
  cargo +nightly fuzz run "$t" "work/$t" "../fuzz/corpus/$t" "seeds/$t" -- \
    -max_total_time="$secs" -rss_limit_mb=2048 -timeout=20 -fork=1 \
    -ignore_crashes=1 -ignore_ooms=1 -ignore_timeouts=1 \
    -artifact_prefix="$root/fuzz/artifacts/$t/" -print_final_stats=1 "$@"
}

merge() {
  local t=$1
  rm -rf "fuzz/corpus/$t.new" && mkdir -p "fuzz/corpus/$t.new"
  cd fuzz
  cargo +nightly fuzz run "$t" "corpus/$t.new" "work/$t" "corpus/$t" -- -merge=1
  rm -rf "corpus/$t" && mv "corpus/$t.new" "corpus/$t"
  echo "$t: $(ls "corpus/$t" | wc -l) inputs, $(du -sh "corpus/$t" | cut -f1)"
}

case "${1:-}" in
  seeds) seeds ;;
  run) shift; run "$@" ;;
  merge) merge "$2" ;;
  *) sed -n '2,16p' "$0"; exit 2 ;;
esac
