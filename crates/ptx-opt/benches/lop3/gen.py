#!/usr/bin/env python3
"""Writes the lop3-fuse benchmark kernels as LLVM IR (plain and/or/xor/not
on i32 bit-slices) and compiles each with llc to the PTX the bench reads.

    python3 crates/ptx-opt/benches/lop3/gen.py   # rewrites *.ll and *.ptx

Each kernel loads its inputs from `in[]`, computes, and stores its outputs
to `out[]`, so nothing folds away.
"""
import os, random, subprocess, sys

HERE = os.path.dirname(os.path.abspath(__file__))
LLC = os.environ.get("LLC", "/usr/lib/llvm-14/bin/llc")


class K:
    """A kernel under construction: SSA names for i32 values."""

    def __init__(self, name, ninputs):
        self.name, self.lines, self.n, self.outs = name, [], 0, []
        self.inputs = []
        for i in range(ninputs):
            p = self.tmp()
            self.lines.append(f"  {p} = getelementptr i32, i32* %in, i32 {i}")
            v = self.tmp()
            self.lines.append(f"  {v} = load i32, i32* {p}")
            self.inputs.append(v)

    def tmp(self):
        self.n += 1
        return f"%t{self.n}"

    def op(self, op, a, b):
        v = self.tmp()
        self.lines.append(f"  {v} = {op} i32 {a}, {b}")
        return v

    def AND(self, a, b): return self.op("and", a, b)
    def OR(self, a, b): return self.op("or", a, b)
    def XOR(self, a, b): return self.op("xor", a, b)
    def NOT(self, a): return self.op("xor", a, "-1")

    def fshr(self, a, k):
        v = self.tmp()
        self.lines.append(f"  {v} = call i32 @llvm.fshr.i32(i32 {a}, i32 {a}, i32 {k})")
        return v

    def shr(self, a, k): return self.op("lshr", a, str(k))

    def out(self, v):
        self.outs.append(v)

    def ir(self):
        body = list(self.lines)
        for j, v in enumerate(self.outs):
            p = self.tmp()
            body.append(f"  {p} = getelementptr i32, i32* %out, i32 {j}")
            body.append(f"  store i32 {v}, i32* {p}")
        return (
            'target triple = "nvptx64-nvidia-cuda"\n'
            "declare i32 @llvm.fshr.i32(i32, i32, i32)\n"
            f"define void @{self.name}(i32* %in, i32* %out) {{\n"
            + "\n".join(body)
            + "\n  ret void\n}\n"
            "!nvvm.annotations = !{!0}\n"
            f'!0 = !{{void (i32*, i32*)* @{self.name}, !"kernel", i32 1}}\n'
        )


def round_fn(name, f):
    k = K(name, 3)
    x, y, z = k.inputs
    k.out(f(k, x, y, z))
    return k


ROUND = {
    # MD5
    "md5_f": lambda k, x, y, z: k.OR(k.AND(x, y), k.AND(k.NOT(x), z)),
    "md5_g": lambda k, x, y, z: k.OR(k.AND(x, z), k.AND(y, k.NOT(z))),
    "md5_h": lambda k, x, y, z: k.XOR(k.XOR(x, y), z),
    "md5_i": lambda k, x, y, z: k.XOR(y, k.OR(x, k.NOT(z))),
    # SHA-1
    "sha1_ch": lambda k, x, y, z: k.XOR(k.AND(x, y), k.AND(k.NOT(x), z)),
    "sha1_parity": lambda k, x, y, z: k.XOR(k.XOR(x, y), z),
    "sha1_maj": lambda k, x, y, z: k.XOR(k.XOR(k.AND(x, y), k.AND(x, z)), k.AND(y, z)),
    # SHA-256 (Ch and Maj as in FIPS 180-4)
    "sha256_ch": lambda k, x, y, z: k.XOR(k.AND(x, y), k.AND(k.NOT(x), z)),
    "sha256_maj": lambda k, x, y, z: k.XOR(k.XOR(k.AND(x, y), k.AND(x, z)), k.AND(y, z)),
    # RIPEMD-160
    "ripemd_f1": lambda k, x, y, z: k.XOR(k.XOR(x, y), z),
    "ripemd_f2": lambda k, x, y, z: k.OR(k.AND(x, y), k.AND(k.NOT(x), z)),
    "ripemd_f3": lambda k, x, y, z: k.XOR(k.OR(x, k.NOT(y)), z),
    "ripemd_f4": lambda k, x, y, z: k.OR(k.AND(x, z), k.AND(y, k.NOT(z))),
    "ripemd_f5": lambda k, x, y, z: k.XOR(x, k.OR(y, k.NOT(z))),
}


def sigma(name, rots, shift=None):
    k = K(name, 1)
    (x,) = k.inputs
    parts = [k.fshr(x, r) for r in rots] + ([k.shr(x, shift)] if shift else [])
    k.out(k.XOR(k.XOR(parts[0], parts[1]), parts[2]))
    return k


def keccak_chi():
    k = K("keccak_chi", 5)
    a = k.inputs
    for i in range(5):
        k.out(k.XOR(a[i], k.AND(k.NOT(a[(i + 1) % 5]), a[(i + 2) % 5])))
    return k


SBOXES = {
    "present": [0xC, 0x5, 0x6, 0xB, 0x9, 0x0, 0xA, 0xD, 0x3, 0xE, 0xF, 0x8, 0x4, 0x7, 0x1, 0x2],
    "gift": [0x1, 0xA, 0x4, 0xC, 0x6, 0xF, 0x3, 0x9, 0x2, 0xD, 0xB, 0x7, 0x5, 0x0, 0x8, 0xE],
    "skinny64": [0xC, 0x6, 0x9, 0x0, 0x1, 0xA, 0x2, 0xB, 0x3, 0x8, 0x5, 0xD, 0x4, 0xE, 0x7, 0xF],
    "prince": [0xB, 0xF, 0x3, 0x2, 0xA, 0xC, 0x9, 0x1, 0x6, 0x7, 0x8, 0x0, 0xE, 0x5, 0xD, 0x4],
}


def sbox(name, table):
    """Bit-sliced 4-bit S-box: each output bit as its algebraic normal form
    (XOR of AND monomials), monomials shared between outputs."""
    k = K(f"sbox_{name}", 4)
    x = k.inputs
    mono = {}

    def monomial(m):
        if m not in mono:
            bits = [i for i in range(4) if m >> i & 1]
            v = x[bits[0]]
            for b in bits[1:]:
                v = k.AND(v, x[b])
            mono[m] = v
        return mono[m]

    for o in range(4):
        f = [(table[i] >> o) & 1 for i in range(16)]
        # Moebius transform: truth table -> ANF coefficients.
        a = list(f)
        for i in range(4):
            for m in range(16):
                if m >> i & 1:
                    a[m] ^= a[m ^ (1 << i)]
        terms = [m for m in range(1, 16) if a[m]]
        v = None
        for m in terms:
            v = monomial(m) if v is None else k.XOR(v, monomial(m))
        if a[0]:
            v = k.NOT(v)
        k.out(v)
    return k


def adder(bits):
    k = K(f"adder{bits}", 2 * bits)
    a, b = k.inputs[:bits], k.inputs[bits:]
    c = None
    for i in range(bits):
        p = k.XOR(a[i], b[i])
        if c is None:
            k.out(p)
            c = k.AND(a[i], b[i])
        else:
            k.out(k.XOR(p, c))
            c = k.OR(k.AND(a[i], b[i]), k.AND(c, p))
    k.out(c)
    return k


def comparator(bits):
    """Bit-sliced unsigned a < b, LSB first."""
    k = K(f"less{bits}", 2 * bits)
    a, b = k.inputs[:bits], k.inputs[bits:]
    lt = k.AND(k.NOT(a[0]), b[0])
    for i in range(1, bits):
        here = k.AND(k.NOT(a[i]), b[i])
        same = k.NOT(k.XOR(a[i], b[i]))
        lt = k.OR(here, k.AND(same, lt))
    k.out(lt)
    return k


def random_dag(seed, ninputs=6, nodes=40):
    rng = random.Random(seed)
    k = K(f"random{seed}", ninputs)
    pool = list(k.inputs)
    used = set()
    for _ in range(nodes):
        kind = rng.choice(["and", "or", "xor", "and", "or", "not"])
        a = rng.choice(pool[-12:])
        used.add(a)
        if kind == "not":
            v = k.NOT(a)
        else:
            b = rng.choice(pool)
            used.add(b)
            v = k.op(kind, a, b)
        pool.append(v)
    for v in pool[ninputs:]:
        if v not in used:
            k.out(v)
    return k


def kernels():
    ks = [round_fn(n, f) for n, f in ROUND.items()]
    ks.append(sigma("sha256_bsig0", [2, 13, 22]))
    ks.append(sigma("sha256_bsig1", [6, 11, 25]))
    ks.append(sigma("sha256_ssig0", [7, 18], 3))
    ks.append(keccak_chi())
    ks += [sbox(n, t) for n, t in SBOXES.items()]
    ks += [adder(8), comparator(8)]
    ks += [random_dag(s) for s in (1, 2, 3, 4)]
    return ks


def main():
    for k in kernels():
        ll = os.path.join(HERE, k.name + ".ll")
        with open(ll, "w") as fh:
            fh.write(k.ir())
        subprocess.run([LLC, "-march=nvptx64", "-mcpu=sm_80", ll, "-o",
                        os.path.join(HERE, k.name + ".ptx")], check=True)
    print(f"wrote {len(kernels())} kernels", file=sys.stderr)


if __name__ == "__main__":
    main()
