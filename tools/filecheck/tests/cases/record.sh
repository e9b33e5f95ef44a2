#!/usr/bin/env bash
# Re-record the `expected` file of every differential FileCheck test case
# using LLVM 14's FileCheck (override with FILECHECK=/path/to/FileCheck).
#
# For each case directory NNN-name/ this runs, from inside that directory:
#   $FILECHECK check.txt --input-file input.txt $(cat args) --dump-input=never
# with FILECHECK_OPTS unset, and writes `expected` as two lines:
#   exit N
#   <first stderr line containing "error:", verbatim>   (or "-" if none)
# Usage: record.sh [CASE_DIR...]   (default: all NNN-* dirs next to this script)
set -u
set -f   # `args` is word-split but never glob-expanded (e.g. -DADDR=[%rd1+8])
unset FILECHECK_OPTS
FC=${FILECHECK:-/usr/lib/llvm-14/bin/FileCheck}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

if [ $# -gt 0 ]; then
  dirs=("$@")
else
  set +f
  dirs=("$here"/[0-9][0-9][0-9]-*/)
  set -f
fi

n=0
for d in "${dirs[@]}"; do
  (
    cd "$d" || exit 1
    args=$(cat args)
    # shellcheck disable=SC2086
    err=$("$FC" check.txt --input-file input.txt $args --dump-input=never 2>&1 >/dev/null)
    rc=$?
    line=$(printf '%s\n' "$err" | grep -m1 -a 'error:')
    printf 'exit %d\n%s\n' "$rc" "${line:--}" > expected
  )
  n=$((n + 1))
done
echo "recorded $n cases"
