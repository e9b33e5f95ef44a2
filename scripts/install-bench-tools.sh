#!/usr/bin/env bash
# Installs what the benchmarks compare against: ptxas and nvdisasm (CUDA
# 13.5, from PyPI wheels, by scripts/install-ptxas.sh into .tools/cuda) for
# the SASS and lop3 reports, and ABC (Debian's berkeley-abc, when apt-get
# can run) for the lop3 report. Idempotent; the tests need only the first.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-ptxas.sh
if ! command -v berkeley-abc >/dev/null; then
  if [ "$(id -u)" = 0 ]; then
    apt-get install -y -q berkeley-abc >/dev/null
  else
    echo "berkeley-abc missing: run 'sudo apt-get install berkeley-abc'" >&2
  fi
fi
command -v berkeley-abc
