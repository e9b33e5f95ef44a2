#!/usr/bin/env bash
# Regenerate the PTX parser test corpus in crates/ptx-parse/tests/corpus/.
#
#   scripts/gen-corpus.sh            # run from the repository root
#
# Inputs : crates/ptx-parse/tests/corpus/ll/*.ll   (hand-written LLVM IR)
#          a fixed list of llvm-stress seeds (below)
# Outputs: crates/ptx-parse/tests/corpus/llc/*.ptx
#          crates/ptx-parse/tests/corpus/stress/*.ptx
#          crates/ptx-parse/tests/corpus/ptxas-rejects.txt (only if ptxas is found)
#
# Idempotent: output directories are wiped and rebuilt; llc output is
# deterministic for a given LLVM version, so reruns give identical files.
# Requires LLVM 14 (llc, llvm-stress). Other LLVM versions produce different
# PTX (and llvm-stress produces different IR for the same seed).
#
# Environment overrides:
#   LLVM_BIN  directory holding llc / llvm-stress   (default /usr/lib/llvm-14/bin)
#   PTXAS     ptxas binary used for the validity check
#             (default .tools/cuda/nvidia/cu13/bin/ptxas; check skipped if absent)
set -euo pipefail

LLVM_BIN=${LLVM_BIN:-/usr/lib/llvm-14/bin}
LLC="$LLVM_BIN/llc"
STRESS="$LLVM_BIN/llvm-stress"
PTXAS=${PTXAS:-.tools/cuda/nvidia/cu13/bin/ptxas}

CORPUS=crates/ptx-parse/tests/corpus
LLDIR=$CORPUS/ll
OUT_LLC=$CORPUS/llc
OUT_STRESS=$CORPUS/stress

if [[ ! -d $LLDIR ]]; then
  echo "error: run from the repository root ($LLDIR not found)" >&2
  exit 1
fi
for tool in "$LLC" "$STRESS"; do
  [[ -x $tool ]] || { echo "error: $tool not found (set LLVM_BIN)" >&2; exit 1; }
done
llvm_major=$("$LLC" --version | sed -n 's/.*LLVM version \([0-9]*\).*/\1/p' | head -n1)
if [[ $llvm_major != 14 ]]; then
  echo "warning: llc is LLVM $llvm_major, corpus was made with LLVM 14; output will differ" >&2
fi

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

rm -rf "$OUT_LLC" "$OUT_STRESS"
mkdir -p "$OUT_LLC" "$OUT_STRESS"

# ---------------------------------------------------------------------------
# 1. Hand-written IR: every file at -O0 and -O2 for sm_80 / nvptx64.
# ---------------------------------------------------------------------------
for ll in "$LLDIR"/*.ll; do
  name=$(basename "$ll" .ll)
  for opt in O0 O2; do
    "$LLC" -march=nvptx64 -mcpu=sm_80 "-$opt" "$ll" -o "$OUT_LLC/$name.$opt.ptx"
  done
done

# Extra target variants: "name|suffix|llc flags".
#   sm_70 / sm_75 / sm_86 (LLVM 14 knows no sm_90; its newest is sm_86/ptx75),
#   and 32-bit -march=nvptx (.address_size 32).
VARIANTS=(
  "atomics|sm70.O2|-march=nvptx64 -mcpu=sm_70 -O2"
  "fp_math|sm70.O0|-march=nvptx64 -mcpu=sm_70 -O0"
  "shared_static|sm75.O2|-march=nvptx64 -mcpu=sm_75 -O2"
  "vector_ldst|sm86.O2|-march=nvptx64 -mcpu=sm_86 -mattr=+ptx75 -O2"
  "nbody|sm86.O2|-march=nvptx64 -mcpu=sm_86 -mattr=+ptx75 -O2"
  "calls_device|nvptx32.O2|-march=nvptx -mcpu=sm_80 -O2"
  "globals_init|nvptx32.O0|-march=nvptx -mcpu=sm_80 -O0"
)
for v in "${VARIANTS[@]}"; do
  IFS='|' read -r name suffix flags <<<"$v"
  # shellcheck disable=SC2086  # flags are intentionally word-split
  "$LLC" $flags "$LLDIR/$name.ll" -o "$OUT_LLC/$name.$suffix.ptx"
done

# ---------------------------------------------------------------------------
# 2. llvm-stress. Fixed list, one entry per line:
#      SEED SIZE OPTS KIND MCPU
#    OPTS: comma list of O2/O0 (O2 -> stress_SEED_SIZE.ptx,
#          O0 -> stress_SEED_SIZE.O0.ptx)
#    KIND: func (plain .func) or kernel (an !nvvm.annotations "kernel" entry is
#          appended so the function becomes an .entry)
#    Every entry here was checked to compile with LLVM 14 llc; many other
#    seeds/sizes hit "Cannot select: i1 = setcc" at -O0 in the NVPTX backend.
# ---------------------------------------------------------------------------
STRESS_LIST="
3     50  O2,O0 kernel sm_80
7     50  O2,O0 func   sm_80
1234  50  O2    func   sm_80
11    75  O2    kernel sm_80
42    75  O2,O0 func   sm_80
777   75  O2,O0 kernel sm_80
2     100 O2    kernel sm_80
13    100 O2,O0 func   sm_80
2024  100 O2,O0 kernel sm_80
19    150 O2,O0 kernel sm_80
58    150 O2    func   sm_75
31337 150 O2,O0 func   sm_80
12    200 O2,O0 kernel sm_80
45    200 O2    func   sm_80
4096  200 O2    kernel sm_86
25    250 O2,O0 kernel sm_80
54    250 O2    func   sm_80
8191  250 O2    kernel sm_80
5     300 O2    kernel sm_80
34    300 O2    func   sm_70
65537 300 O2,O0 func   sm_80
6     400 O2    kernel sm_80
27    400 O2,O0 func   sm_80
99991 400 O2    kernel sm_80
"
while read -r seed size opts kind mcpu; do
  [[ -z ${seed:-} ]] && continue
  ir="$TMP/stress_${seed}_${size}.ll"
  "$STRESS" -seed="$seed" -size="$size" -o "$ir"
  if [[ $kind == kernel ]]; then
    printf '\n!nvvm.annotations = !{!0}\n!0 = !{void (i8*, i32*, i64*, i32, i64, i8)* @autogen_SD%s, !"kernel", i32 1}\n' \
      "$seed" >>"$ir"
  fi
  IFS=',' read -r -a optlist <<<"$opts"
  for opt in "${optlist[@]}"; do
    if [[ $opt == O2 ]]; then out="$OUT_STRESS/stress_${seed}_${size}.ptx"
    else out="$OUT_STRESS/stress_${seed}_${size}.$opt.ptx"; fi
    "$LLC" -mtriple=nvptx64-nvidia-cuda -mcpu="$mcpu" "-$opt" "$ir" -o "$out"
  done
done <<<"$STRESS_LIST"

# ---------------------------------------------------------------------------
# 3. Validate every generated file with ptxas (if available) and record the
#    files ptxas rejects. Arch = max(sm_80, the file's own .target).
# ---------------------------------------------------------------------------
if [[ -x $PTXAS ]]; then
  rejects=$CORPUS/ptxas-rejects.txt
  {
    echo "# Corpus files that ptxas rejects as input (relative to this directory)."
    echo "# Generated by scripts/gen-corpus.sh; checked with: ptxas -arch=sm_XX FILE -o /dev/null"
    echo "# where sm_XX = max(sm_80, the file's .target). Reason = first ptxas diagnostic."
  } >"$rejects.tmp"
  nfiles=0 nrej=0
  while IFS= read -r f; do
    nfiles=$((nfiles + 1))
    tgt=$(sed -n 's/^\.target[[:space:]]*sm_\([0-9]*\).*/\1/p' "$f" | head -n1)
    arch=80
    [[ -n $tgt && $tgt -gt 80 ]] && arch=$tgt
    if ! "$PTXAS" -arch="sm_$arch" "$f" -o /dev/null 2>"$TMP/ptxas.err"; then
      nrej=$((nrej + 1))
      reason=$(grep -m1 -i 'fatal\|error' "$TMP/ptxas.err" | tr -s ' ' || true)
      echo "${f#"$CORPUS"/}  # ${reason:-ptxas failed}" >>"$rejects.tmp"
    fi
  done < <(find "$OUT_LLC" "$OUT_STRESS" -name '*.ptx' | LC_ALL=C sort)
  mv "$rejects.tmp" "$rejects"
  echo "ptxas: checked $nfiles files, $nrej rejected (see $rejects)"
else
  echo "note: $PTXAS not found; skipped ptxas validation" >&2
fi

echo "corpus: $(find "$OUT_LLC" "$OUT_STRESS" -name '*.ptx' | wc -l) ptx files," \
  "$(du -sh "$CORPUS" | cut -f1) total"
