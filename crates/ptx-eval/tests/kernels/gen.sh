#!/bin/sh
# Regenerates the evaluator's llc kernels: each .ll becomes .ptx (llc 14, sm_75).
set -e
cd "$(dirname "$0")"
LLC=${LLC:-/usr/lib/llvm-14/bin/llc}
for f in *.ll; do
  "$LLC" -march=nvptx64 -mcpu=sm_75 -O2 "$f" -o "${f%.ll}.ptx"
done
