#!/usr/bin/env bash
# Re-record the `expected` file of every differential FileCheck test case
# using LLVM 14's FileCheck (override with FILECHECK=/path/to/FileCheck).
#
# For each case directory NNN-name/ this runs, from inside that directory:
#   $FILECHECK check.txt --input-file input.txt $(cat args)
# with FILECHECK_OPTS unset, and writes
#   expected         "exit N", then the whole of standard error (without the
#                    "FileCheck command line:" line; the binary's path
#                    elsewhere reads "FileCheck")
#   expected.stdout  standard output, when there is any (-dump-input=help)
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
    "$FC" check.txt --input-file input.txt $args >out.tmp 2>err.tmp
    rc=$?
    { printf 'exit %d\n' "$rc"; sed -e '/^FileCheck command line:/d' -e "s|$FC|FileCheck|g" err.tmp; } > expected
    if [ -s out.tmp ]; then mv out.tmp expected.stdout; else rm -f out.tmp expected.stdout; fi
    rm -f err.tmp
  )
  n=$((n + 1))
done
echo "recorded $n cases"
