#!/usr/bin/env bash
# The whole test suite: installs ptxas (used by the ptxas acceptance test)
# and runs every workspace test, then prints one closing summary line.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-ptxas.sh
log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
cargo test --workspace "$@" 2>&1 | tee "$log" || status=$?
# Sum cargo's per-binary "test result:" lines into one closing line.
awk '/^test result:/ { for (i = 1; i <= NF; i++) { if ($(i+1) ~ /^passed/) p += $i; if ($(i+1) ~ /^failed/) f += $i } }
     END { printf "%d passed, %d failed\n", p, f }' "$log"
exit "$status"
