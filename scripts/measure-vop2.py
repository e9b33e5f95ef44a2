#!/usr/bin/env python3
"""SASS instructions one vop2 instruction adds, ptxas's own emulation
against lower-vsub2's output, over a kernel with a plain sub.s32 (operands
loaded from memory, result stored), for each target. Needs ptxas, nvdisasm
(scripts/install-bench-tools.sh) and a built ptx-opt.

    python3 scripts/measure-vop2.py
"""
import os, re, subprocess, sys, tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PTXAS = os.environ.get("PTXAS", f"{ROOT}/.tools/cuda/nvidia/cu13/bin/ptxas")
NVDISASM = os.environ.get("NVDISASM", f"{ROOT}/.tools/cuda/nvidia/cu13/bin/nvdisasm")
OPT = os.environ.get("PTX_OPT", f"{ROOT}/target/release/ptx-opt")
TARGETS = ["sm_75", "sm_80", "sm_90", "sm_100", "sm_120"]
FORMS = [
    "vsub2.s32.s32.s32 %r5, %r1, %r2, %r3;",
    "vsub2.u32.u32.u32 %r5, %r1, %r2, %r3;",
    "vadd2.u32.u32.u32 %r5, %r1, %r2, %r3;",
    "vadd2.s32.s32.s32 %r5, %r1, %r2, %r3;",
    "vsub2.u32.s32.u32 %r5, %r1, %r2, %r3;",
    "vadd2.s32.u32.u32 %r5, %r1, %r2, %r3;",
    "vsub2.u32.u32.s32 %r5, %r1, %r2, %r3;",
    "vsub2.s32.s32.s32 %r5.h0, %r1, %r2, %r3;",
    "vsub2.u32.u32.u32 %r5.h0, %r1, %r2, %r3;",
    "vadd2.u32.u32.u32 %r5.h1, %r1, %r2, %r3;",
]


def kernel(inst, target):
    return (f".version 8.7\n.target {target}\n.address_size 64\n"
            ".visible .entry k(.param .u64 p)\n{\n.reg .b32 %r<8>;\n.reg .b64 %rd<2>;\n"
            "ld.param.u64 %rd1, [p];\nld.global.v4.u32 {%r1, %r2, %r3, %r4}, [%rd1];\n"
            f"{inst}\nst.global.u32 [%rd1], %r5;\nret;\n}}\n")


def sass(text, target, d):
    src, cubin = os.path.join(d, "k.ptx"), os.path.join(d, "k.cubin")
    open(src, "w").write(text)
    subprocess.run([PTXAS, f"-arch={target}", src, "-o", cubin], check=True)
    out = subprocess.run([NVDISASM, "-c", cubin], check=True, capture_output=True, text=True).stdout
    lines = [l for l in out.splitlines() if re.match(r"\s+/\*[0-9a-f]{4}\*/", l)]
    return sum(1 for l in lines if "NOP" not in l and not re.search(r"\bBRA\b", l))


def lowered(text, d):
    src = os.path.join(d, "in.ptx")
    open(src, "w").write(text)
    return subprocess.run([OPT, "-passes=lower-vsub2", src], check=True, capture_output=True, text=True).stdout


def main():
    with tempfile.TemporaryDirectory() as d:
        print("| form | " + " | ".join(TARGETS) + " |")
        print("|---|" + "---|" * len(TARGETS))
        for form in FORMS:
            cells = []
            for t in TARGETS:
                base = sass(kernel("sub.s32 %r5, %r1, %r2;", t), t, d)
                native = sass(kernel(form, t), t, d) - base
                ours = sass(lowered(kernel(form, t), d), t, d) - base
                cells.append(f"+{native} / +{ours}")
            name = form.split(" ")[0] + ("." + form.split(" ")[1].split(".")[1].rstrip(",") if ".h" in form else "")
            print(f"| `{name}` | " + " | ".join(cells) + " |")
        print("\ncells: SASS instructions added by ptxas's emulation / by our lowering")


if __name__ == "__main__":
    sys.exit(main())
