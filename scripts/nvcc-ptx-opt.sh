#!/usr/bin/env bash
# Compile CUDA with ptx-opt between nvcc's PTX and ptxas.
#
#   scripts/nvcc-ptx-opt.sh -arch=sm_80 [nvcc flags...] [--passes=PIPELINE]
#                           [--cubin | --fatbin] [--keep-dir=DIR] -o OUT kernel.cu
#
#   1. nvcc -ptx FLAGS -arch=sm_XX kernel.cu          -> kernel.ptx
#   2. ptx-opt -O2 kernel.ptx (or -passes=PIPELINE)   -> kernel.opt.ptx
#   3. ptxas -arch=sm_XX kernel.opt.ptx -o OUT        (--cubin, the default)
#      nvcc -fatbin -arch=sm_XX kernel.opt.ptx -o OUT (--fatbin: SASS and the optimised PTX)
#
# Any other flag goes to nvcc in step 1 (-O3, -lineinfo, -I..., -D..., -rdc=true, ...).
# --keep-dir=DIR keeps both PTX files there. Tools: $NVCC, $PTX_OPT, $PTXAS,
# else the first on PATH, else the copies scripts/install-ptxas.sh puts in
# .tools/ and the ptx-opt of this checkout (target/release, then target/debug).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
pick() { # pick VAR NAME FALLBACK...
  local var=$1 name=$2
  shift 2
  if [[ -n ${!var:-} ]]; then echo "${!var}"; return; fi
  if command -v "$name" >/dev/null 2>&1; then command -v "$name"; return; fi
  local f
  for f in "$@"; do [[ -x $f ]] && { echo "$f"; return; }; done
  echo "nvcc-ptx-opt: $name not found (set \$$var)" >&2
  exit 1
}
NVCC=$(pick NVCC nvcc "$root/.tools/cuda/nvidia/cu13/bin/nvcc")
PTXAS=$(pick PTXAS ptxas "$root/.tools/cuda/nvidia/cu13/bin/ptxas")
PTX_OPT=$(pick PTX_OPT ptx-opt "$root/target/release/ptx-opt" "$root/target/debug/ptx-opt")

arch="" out="" input="" passes="" mode=cubin keep=""
flags=()
while (($#)); do
  case $1 in
    -arch=*|--gpu-architecture=*) arch=${1#*=} ;;
    -arch|--gpu-architecture) arch=$2; shift ;;
    -o) out=$2; shift ;;
    --passes=*) passes=${1#*=} ;;
    --cubin) mode=cubin ;;
    --fatbin) mode=fatbin ;;
    --keep-dir=*) keep=${1#*=} ;;
    *.cu) input=$1 ;;
    *) flags+=("$1") ;;
  esac
  shift
done
[[ -n $arch && -n $out && -n $input ]] || {
  echo "usage: nvcc-ptx-opt.sh -arch=sm_XX [nvcc flags] [--passes=P] [--cubin|--fatbin] -o OUT kernel.cu" >&2
  exit 2
}
[[ $arch == sm_* ]] || { echo "nvcc-ptx-opt: -arch must be sm_XX, not '$arch'" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
stem=$(basename "$input" .cu)
"$NVCC" -ptx "${flags[@]}" -arch="$arch" "$input" -o "$work/$stem.ptx"
if [[ -n $passes ]]; then
  "$PTX_OPT" -passes="$passes" "$work/$stem.ptx" -o "$work/$stem.opt.ptx"
else
  "$PTX_OPT" -O2 "$work/$stem.ptx" -o "$work/$stem.opt.ptx"
fi
case $mode in
  cubin) "$PTXAS" -arch="$arch" "$work/$stem.opt.ptx" -o "$out" ;;
  fatbin) "$NVCC" -fatbin -arch="$arch" "$work/$stem.opt.ptx" -o "$out" ;;
esac
if [[ -n $keep ]]; then
  mkdir -p "$keep"
  cp "$work/$stem.ptx" "$work/$stem.opt.ptx" "$keep/"
fi
