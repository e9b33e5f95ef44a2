#!/bin/sh
# Regenerates the reference vectors from the independent Python model
# (../shared/tools/ptxref.py): 200 random vectors per instruction, fixed
# seeds. The forms the evaluator does not implement (f16/bf16 compares,
# .ftz compares, prmt modes) are filtered out.
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
    if any(x in t for x in ("f16", "bf16", "x2")) or (v.get("ftz") and v["op"] != "slct") or v.get("mode") not in (None, "wrap", "clamp"):
        continue
    if v["op"] == "set" and v.get("dtype") not in ("u32", "s32", "f32"):
        continue
    print(json.dumps(v, sort_keys=True))
' > ptxref.jsonl
wc -l ptxref.jsonl
