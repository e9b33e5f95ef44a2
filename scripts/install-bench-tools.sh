#!/usr/bin/env bash
# Installs what the lop3-fuse report (`cargo bench -p ptx-opt --bench lop3`)
# compares against, beyond ptxas: nvdisasm (CUDA 13.5, PyPI wheel
# nvidia-cuda-nvdisasm, into the ignored .tools/nvdisasm) and ABC (Debian's
# berkeley-abc, when apt-get can run). Idempotent; the tests need neither.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-ptxas.sh
bin=.tools/nvdisasm/nvidia/cu13/bin/nvdisasm
if ! { [ -x "$bin" ] && "$bin" --version >/dev/null 2>&1; }; then
  python3 -m pip install --quiet --disable-pip-version-check --no-warn-script-location \
    --target .tools/nvdisasm "nvidia-cuda-nvdisasm==13.5.37"
fi
"$bin" --version | tail -1
if ! command -v berkeley-abc >/dev/null; then
  if [ "$(id -u)" = 0 ]; then
    apt-get install -y -q berkeley-abc >/dev/null
  else
    echo "berkeley-abc missing: run 'sudo apt-get install berkeley-abc'" >&2
  fi
fi
command -v berkeley-abc
