#!/usr/bin/env bash
# Same-output check between two builds of ptx-opt: every committed .ptx
# (malformed ones included, so errors are compared too) and every fuzz
# input of the parse, roundtrip and pipeline targets, through each
# pipeline given (default: the round trip, default<O2>, lop3-fuse).
# Stdout, stderr and the exit status must be identical.
#
#   scripts/same-output.sh OLD/ptx-opt NEW/ptx-opt ['' 'default<O2>' ...]
#
# Prints each input that differs, then "N runs, M differ"; exit status 1
# when any differs.
set -uo pipefail
cd "$(dirname "$0")/.."
if [[ $# -lt 2 ]]; then
  echo "usage: $0 OLD-BINARY NEW-BINARY [PIPELINE ...]" >&2
  exit 2
fi
old=$1 new=$2
shift 2
if [[ $# -eq 0 ]]; then set -- '' 'default<O2>' 'lop3-fuse'; fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
digest() {
  "$@" >"$tmp/out" 2>&1
  echo "rc=$?" >>"$tmp/out"
  md5sum <"$tmp/out"
}
runs=0 differ=0
while IFS= read -r f; do
  for p in "$@"; do
    args=()
    [[ -n $p ]] && args=(-passes="$p")
    a=$(digest "$old" "${args[@]}" "$f")
    b=$(digest "$new" "${args[@]}" "$f")
    runs=$((runs + 1))
    if [[ $a != "$b" ]]; then
      differ=$((differ + 1))
      echo "DIFF ${p:-round-trip} $f"
    fi
  done
done < <(git ls-files '*.ptx'; find fuzz/corpus/parse fuzz/corpus/roundtrip fuzz/corpus/pipeline -type f 2>/dev/null | sort)
echo "$runs runs, $differ differ"
[[ $differ -eq 0 ]]
