#!/usr/bin/env bash
# Installs NVIDIA's CUDA 13.5 compiler tools from PyPI wheels into
# .tools/cuda (git ignores it), as one CUDA root
# (.tools/cuda/nvidia/cu13): ptxas (nvidia-cuda-nvcc), nvdisasm
# (nvidia-cuda-nvdisasm) for the SASS counts, and what nvcc needs to
# compile the real-code corpus again (nvidia-nvvm, nvidia-cuda-crt,
# nvidia-cuda-runtime, nvidia-cuda-cccl). Idempotent; no GPU needed.
set -euo pipefail
cd "$(dirname "$0")/.."
root=.tools/cuda/nvidia/cu13
if [ -x "$root/bin/ptxas" ] && "$root/bin/ptxas" --version >/dev/null 2>&1 \
  && [ -x "$root/bin/nvdisasm" ] && "$root/bin/nvdisasm" --version >/dev/null 2>&1 \
  && [ -x "$root/nvvm/bin/cicc" ] && [ -f "$root/include/cuda_runtime.h" ]; then
  exit 0
fi
python3 -m pip install --quiet --disable-pip-version-check --no-warn-script-location \
  --upgrade --target .tools/cuda \
  "nvidia-cuda-nvcc==13.5.37" "nvidia-cuda-nvdisasm==13.5.37" "nvidia-nvvm==13.5.37" \
  "nvidia-cuda-crt==13.5.37" "nvidia-cuda-runtime==13.5.37" "nvidia-cuda-cccl==13.3.5.0.6"
"$root/bin/ptxas" --version | tail -1
"$root/bin/nvdisasm" --version | tail -1
