#!/bin/sh
# Regenerates the reference vectors from the independent Python model
# (../shared/tools/ptxref.py): 200 random vectors per instruction, fixed
# seeds. The forms the evaluator does not implement (prmt modes) are
# filtered out.
set -e
cd "$(dirname "$0")"
REF=${PTXREF:-../../../../../shared/tools/ptxref.py}
for op in vadd2 vsub2 vavrg2 vabsdiff2 vmin2 vmax2 bfe bfi prmt shf lop3 setp set selp slct; do
  python3 "$REF" vectors "$op" 200 7
done | python3 -c '
import json, sys
for line in sys.stdin:
    v = json.loads(line)
    t = v.get("type") or v.get("stype") or ""
    if v["op"] not in ("set", "setp") and any(x in t for x in ("f16", "bf16", "x2")):
        continue
    if v.get("mode") not in (None, "wrap", "clamp"):
        continue
    print(json.dumps(v, sort_keys=True))
' > ptxref.jsonl
wc -l ptxref.jsonl
