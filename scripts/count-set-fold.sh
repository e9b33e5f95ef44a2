#!/usr/bin/env bash
# Counts set/setp/selp/slct instructions that -O2 leaves with and without
# set-fold, over the files given (default: the llc corpus), and checks
# that ptxas accepts every -O2 output. Used for docs/passes/set-fold.md.
#   scripts/count-set-fold.sh [FILES...]
set -euo pipefail
cd "$(dirname "$0")/.."
opt=target/release/ptx-opt
ptxas=.tools/cuda/nvidia/cu13/bin/ptxas
without="function(simplify-cfg,copy-prop,const-fold,cse,dce,lop3-fuse,simplify-cfg)"
files=("$@")
[ ${#files[@]} -gt 0 ] || files=(crates/ptx-parse/tests/corpus/llc/*.ptx)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
sum() { awk '$3 ~ /^(set|setp|selp|slct)$/ { b += $1; a += $2 } $3 == "total" { tb += $1; ta += $2 } END { print b, a, tb, ta }'; }
read -r b0 a0 t0 u0 < <(for f in "${files[@]}"; do "$opt" -passes="$without" --stats "$f" -o /dev/null 2>&1 || true; done | sum)
read -r b1 a1 t1 u1 < <(for f in "${files[@]}"; do "$opt" -O2 --stats "$f" -o /dev/null 2>&1 || true; done | sum)
rejected=0
checked=0
for f in "${files[@]}"; do
  "$opt" -O2 "$f" -o "$tmp/out.ptx" 2>/dev/null || continue
  # Only files ptxas accepts as input count.
  "$ptxas" -arch=sm_80 "$f" -o "$tmp/in.cubin" 2>/dev/null || continue
  checked=$((checked + 1))
  "$ptxas" -arch=sm_80 "$tmp/out.ptx" -o "$tmp/out.cubin" 2>/dev/null || { rejected=$((rejected + 1)); echo "ptxas rejects -O2 output of $f" >&2; }
done
echo "files: ${#files[@]}"
echo "set/setp/selp/slct: input $b0, -O2 without set-fold $a0, -O2 $a1"
echo "all instructions: input $t0, -O2 without set-fold $u0, -O2 $u1"
echo "ptxas (sm_80) accepted $((checked - rejected)) of $checked -O2 outputs whose input it accepts"
