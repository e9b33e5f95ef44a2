#!/usr/bin/env bash
# The whole test suite: installs ptxas (used by the ptxas acceptance test)
# and runs every workspace test.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-ptxas.sh
cargo test --workspace "$@"
