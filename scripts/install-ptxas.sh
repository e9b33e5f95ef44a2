#!/usr/bin/env bash
# Installs NVIDIA's ptxas (CUDA 13.5, from the PyPI wheel nvidia-cuda-nvcc)
# into .tools/cuda, which git ignores. Idempotent; no GPU needed.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=.tools/cuda/nvidia/cu13/bin/ptxas
if [ -x "$bin" ] && "$bin" --version >/dev/null 2>&1; then
  exit 0
fi
python3 -m pip install --quiet --disable-pip-version-check --no-warn-script-location \
  --target .tools/cuda "nvidia-cuda-nvcc==13.5.37"
"$bin" --version | tail -1
