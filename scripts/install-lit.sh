#!/usr/bin/env bash
# Installs LLVM's lit (PyPI) into .tools/lit and makes sure LLVM 14's
# FileCheck and not are present (Debian package llvm-14-tools).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -f .tools/lit/bin/lit ]; then
  python3 -m pip install --quiet --disable-pip-version-check --no-warn-script-location \
    --target .tools/lit "lit==23.1.5"
fi
if [ ! -x /usr/lib/llvm-14/bin/FileCheck ] || [ ! -x /usr/lib/llvm-14/bin/not ]; then
  if [ "$(id -u)" = 0 ]; then
    (apt-get update -qq && apt-get install -y -qq llvm-14-tools) >/dev/null
  else
    echo "install-lit.sh: LLVM 14's FileCheck is missing (apt-get install llvm-14-tools)" >&2
    exit 1
  fi
fi
