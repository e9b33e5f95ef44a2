#!/usr/bin/env bash
# Compile LLVM 14's own NVPTX code-generation tests (llvm/test/CodeGen/NVPTX
# of llvm-toolchain-14 14.0.6) with llc, as their RUN lines say, into
# crates/ptx-parse/tests/corpus/llvm-nvptx/NAME.K.ptx (K: the K-th llc RUN
# line of NAME.ll, at most three per test).
#
#   scripts/gen-llvm-nvptx-corpus.sh     # from the repository root
#
# The tests come from Debian's source tarball (downloaded once into the
# ignored .tools/llvm-src/). RUN lines that expect llc to fail (`not llc`),
# stop the pipeline early (-stop-before/-stop-after, -print-*, -debug*) or
# emit something other than PTX are skipped. Deterministic: llc 14 gives the
# same PTX for the same input.
#
# With ptxas (PTXAS, default .tools/cuda/nvidia/cu13/bin/ptxas), files whose
# syntax ptxas refuses even retargeted to sm_80 (LLVM 14 prints IR names
# such as `shfl.down1` unchanged, and a dot is not allowed in a PTX
# identifier) go to crates/ptx-parse/tests/invalid/llvm-nvptx/ instead: inputs we must reject.
set -euo pipefail
LLC=${LLVM_BIN:-/usr/lib/llvm-14/bin}/llc
OUT=crates/ptx-parse/tests/corpus/llvm-nvptx
BAD=crates/ptx-parse/tests/invalid/llvm-nvptx
PTXAS=${PTXAS:-.tools/cuda/nvidia/cu13/bin/ptxas}
SRC=.tools/llvm-src
TESTS=$SRC/llvm-toolchain-14_14.0.6/llvm/test/CodeGen/NVPTX
URL=http://deb.debian.org/debian/pool/main/l/llvm-toolchain-14/llvm-toolchain-14_14.0.6.orig.tar.xz
[[ -d crates/ptx-parse ]] || { echo "error: run from the repository root" >&2; exit 1; }
if [[ ! -d $TESTS ]]; then
  mkdir -p "$SRC"
  curl -sSfL -o "$SRC/orig.tar.xz" "$URL"
  tar -xJf "$SRC/orig.tar.xz" -C "$SRC" --wildcards '*/llvm/test/CodeGen/NVPTX/*'
  rm -f "$SRC/orig.tar.xz"
fi
rm -rf "$OUT" "$BAD"
mkdir -p "$OUT" "$BAD"
python3 - "$LLC" "$TESTS" "$OUT" "$BAD" "$PTXAS" <<'PY'
import os, re, shlex, subprocess, sys, tempfile
llc, tests, out, bad, ptxas = sys.argv[1:6]
skip = re.compile(r'-(stop-before|stop-after|print|debug|filetype|view|run-pass|pass-remarks|o)\b')
made = 0
for name in sorted(os.listdir(tests)):
    if not name.endswith('.ll'):
        continue
    path = os.path.join(tests, name)
    text = open(path, encoding='utf-8', errors='replace').read()
    runs, cur = [], ''
    for line in text.splitlines():
        m = re.search(r'RUN:(.*)$', line)
        if not m:
            continue
        part = m.group(1).rstrip()
        if part.endswith('\\'):
            cur += part[:-1] + ' '
            continue
        runs.append(cur + part)
        cur = ''
    seen, k = set(), 0
    for run in runs:
        first = run.split('|')[0].strip()
        if not first.startswith('llc') or skip.search(first):
            continue
        args = [a for a in shlex.split(first.replace('%s', ''))[1:] if a not in ('<', '2>&1')]
        if '-march=nvptx' not in args and '-march=nvptx64' not in args and not any(a.startswith('-mtriple=nvptx') for a in args):
            continue
        key = tuple(args)
        if key in seen:
            continue
        seen.add(key)
        r = subprocess.run([llc, *args, path, '-o', '-'], capture_output=True, timeout=120)
        if r.returncode != 0 or b'.version' not in r.stdout:
            continue
        k += 1
        with open(os.path.join(out, f'{name[:-3]}.{k}.ptx'), 'wb') as f:
            f.write(f'// llc {" ".join(args)} {name}\n'.encode() + r.stdout)
        made += 1
        if k == 3:
            break
moved = 0
if os.access(ptxas, os.X_OK):
    for name in sorted(os.listdir(out)):
        path = os.path.join(out, name)
        text = open(path).read()
        text = re.sub(r'\.target sm_\w+', '.target sm_80', text)
        text = re.sub(r'(?m)^\.version [0-9.]+', '.version 7.0', text)
        with tempfile.NamedTemporaryFile('w', suffix='.ptx', delete=False) as t:
            t.write(text)
        r = subprocess.run([ptxas, '-arch=sm_80', t.name, '-o', os.devnull], capture_output=True, text=True)
        os.unlink(t.name)
        if 'Parsing error' in r.stderr or 'syntax error' in r.stderr:
            os.rename(path, os.path.join(bad, name))
            moved += 1
print(f'{made - moved} PTX files in {out}, {moved} with invalid syntax in {bad}')
PY
