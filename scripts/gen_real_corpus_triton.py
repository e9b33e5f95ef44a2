#!/usr/bin/env python3
"""Compile the Triton kernels of corpus/real/src/triton/*.py to PTX.

    gen_real_corpus_triton.py SRC_DIR OUT_DIR CAP [CAP ...]

Every SRC_DIR/<stem>.py defines @triton.jit kernels and a module-level
list KERNELS of dicts:

    fn            the @triton.jit function
    name          short kernel name used in the file name (default fn.__name__)
    signature     {arg: type} as for triton.compiler.ASTSource ("*fp32", "i32", "constexpr", ...)
    constexprs    {arg: value} for the constexpr arguments
    num_warps, num_stages   compile options (optional)
    aligned_ints  integer arguments specialised as divisible by 16 (optional);
                  pointer arguments always are, as Triton's launcher does for
                  16-byte-aligned tensors

For each kernel and capability the PTX Triton printed is written, unchanged,
to OUT_DIR/<stem>.<name>.sm<cap>.ptx (GPUTarget("cuda", cap, 32)). No GPU is
needed. Set TRITON_CACHE_DIR to a fresh directory so nothing stale is reused.
"""
import importlib.util
import os
import sys
from pathlib import Path


def load_module(path):
    sys.dont_write_bytecode = True  # no __pycache__ in the source tree
    name = "real_corpus_triton_" + path.stem
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    src_dir, out_dir = Path(sys.argv[1]), Path(sys.argv[2])
    caps = [int(c) for c in sys.argv[3:]]
    os.environ.setdefault("TRITON_DEFAULT_FP_FUSION", "1")

    import triton
    from triton.backends.compiler import GPUTarget
    from triton.compiler import ASTSource

    out_dir.mkdir(parents=True, exist_ok=True)
    failures = 0
    count = 0
    for path in sorted(src_dir.glob("*.py")):
        mod = load_module(path)
        specs = getattr(mod, "KERNELS", None)
        if not specs:
            print(f"error: {path} has no KERNELS list", file=sys.stderr)
            failures += 1
            continue
        for spec in specs:
            fn = spec["fn"]
            name = spec.get("name", fn.__name__)
            sig = spec["signature"]
            attrs = {}
            aligned = set(spec.get("aligned_ints", ()))
            for idx, arg in enumerate(fn.arg_names):
                ty = sig.get(arg)
                if ty is None:
                    raise SystemExit(f"error: {path}: {name}: argument {arg} missing from signature")
                if ty.startswith("*") or arg in aligned:
                    attrs[(idx,)] = [["tt.divisibility", 16]]
            options = {}
            for key in ("num_warps", "num_stages", "num_ctas"):
                if key in spec:
                    options[key] = spec[key]
            for cap in caps:
                out = out_dir / f"{path.stem}.{name}.sm{cap}.ptx"
                try:
                    src = ASTSource(fn=fn, signature=sig, constexprs=spec.get("constexprs"), attrs=attrs)
                    k = triton.compile(src, target=GPUTarget("cuda", cap, 32), options=options)
                except Exception as e:  # report and go on with the others
                    print(f"error: {path.name}: {name} sm{cap}: {type(e).__name__}: {e}", file=sys.stderr)
                    failures += 1
                    continue
                out.write_text(k.asm["ptx"])
                count += 1
                print(f"  triton {out}")
    print(f"triton: {count} files, {failures} failures")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
