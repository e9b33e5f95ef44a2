#!/usr/bin/env bash
# The whole test suite:
#  1. cargo test --workspace (unit, integration, differential FileCheck,
#     ptxas acceptance, and filecheck-tests/ through our own runner);
#  2. filecheck-tests/ again under LLVM's lit with LLVM 14's FileCheck;
#  3. the embedding examples (cargo run -p ptx-opt --example ...);
#  4. the Python package's tests (pytest python/tests: the API, and the
#     Triton hook compiling kernels to cubin with no GPU).
# Installs ptxas, lit, Triton and the ptx_opt package first (into the
# ignored .tools/), then prints one closing summary line.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-ptxas.sh
scripts/install-lit.sh
log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
cargo test --workspace "$@" 2>&1 | tee "$log" || status=$?
if [ "$#" -eq 0 ]; then
  cargo build -q -p ptx-opt
  PYTHONPATH=.tools/lit python3 .tools/lit/bin/lit -sv filecheck-tests 2>&1 | tee -a "$log" || status=$?
  # The Python package (docs/embedding.md, docs/workflows.md), built into
  # .tools/venv with Triton.
  scripts/install-python.sh
  .tools/venv/bin/python -m pytest -q -p no:cacheprovider python/tests 2>&1 | tee -a "$log" || status=$?
  # The embedding examples (docs/embedding.md) must run.
  for ex in build_kernel optimize custom_pass evaluate; do
    if cargo run -q -p ptx-opt --example "$ex" >/dev/null; then
      echo "example $ex: ok" | tee -a "$log"
    else
      echo "example $ex: FAILED" | tee -a "$log"
      status=1
    fi
  done
fi
# One closing line: cargo's "test result:" lines plus lit's and pytest's totals.
awk '/^test result:/ { for (i = 1; i <= NF; i++) { if ($(i+1) ~ /^passed/) p += $i; if ($(i+1) ~ /^failed/) f += $i } }
     /^lit: [0-9]+ passed, [0-9]+ failed/ { p += $2; f += $4 }
     /^example .*: ok$/ { p += 1 }
     /^example .*: FAILED$/ { f += 1 }
     /^ *Passed *: / { p += $2 }
     /^[0-9]+ (passed|failed)/ && / in [0-9.]+s/ { for (i = 1; i < NF; i++) { w = $(i+1); sub(/,$/, "", w); if (w == "passed") p += $i; if (w == "failed") f += $i } }
     /^ *(Failed|Unresolved) *: / { f += $2 }
     END { printf "%d passed, %d failed\n", p, f }' "$log"
exit "$status"
