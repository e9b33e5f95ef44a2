#!/usr/bin/env bash
# Sets up .tools/venv (git-ignored) for the Python tests: Triton, pytest
# and maturin from PyPI (pinned; downloaded once, then reused), and the
# ptx_opt package of this checkout built into it (maturin develop, the dev
# profile unless PROFILE=release).
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=${VENV:-.tools/venv}
PINS=(triton==3.9.0 pytest==9.2.0 maturin==1.16.0)
if [[ ! -x $VENV/bin/python ]]; then
  python3 -m venv "$VENV"
fi
installed=$("$VENV/bin/python" -m pip freeze --disable-pip-version-check 2>/dev/null || true)
missing=()
for pin in "${PINS[@]}"; do
  grep -qixF "$pin" <<<"$installed" || missing+=("$pin")
done
if ((${#missing[@]})); then
  "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check "${missing[@]}"
fi
(cd python && VIRTUAL_ENV=$PWD/../$VENV PATH=$PWD/../$VENV/bin:$PATH \
  maturin develop --quiet --profile "${PROFILE:-dev}")
