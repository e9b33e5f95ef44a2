#!/usr/bin/env python3
"""Print bit-sliced boolean networks (and/or/xor/not on uint32) for S-boxes.

Used once to write the S-box bodies in corpus/real/src/cuda/des_bitslice.cu
(DES S1-S4). The source is committed; gen-real-corpus.sh does not run this
script. A PRESENT 4-bit S-box mode is kept for other experiments.

Each output bit is built by Shannon expansion over the inputs, sharing every
sub-function across the outputs of one S-box (memoised on its truth table,
complements reuse a node through ~). The variable order with the fewest
gates is kept.

    python3 scripts/gen_bitslice_sboxes.py des 1     # DES S1, Kwan-style s1()
    python3 scripts/gen_bitslice_sboxes.py present   # PRESENT 4-bit S-box
"""
import itertools
import sys

DES = {
    1: [[14, 4, 13, 1, 2, 15, 11, 8, 3, 10, 6, 12, 5, 9, 0, 7],
        [0, 15, 7, 4, 14, 2, 13, 1, 10, 6, 12, 11, 9, 5, 3, 8],
        [4, 1, 14, 8, 13, 6, 2, 11, 15, 12, 9, 7, 3, 10, 5, 0],
        [15, 12, 8, 2, 4, 9, 1, 7, 5, 11, 3, 14, 10, 0, 6, 13]],
    2: [[15, 1, 8, 14, 6, 11, 3, 4, 9, 7, 2, 13, 12, 0, 5, 10],
        [3, 13, 4, 7, 15, 2, 8, 14, 12, 0, 1, 10, 6, 9, 11, 5],
        [0, 14, 7, 11, 10, 4, 13, 1, 5, 8, 12, 6, 9, 3, 2, 15],
        [13, 8, 10, 1, 3, 15, 4, 2, 11, 6, 7, 12, 0, 5, 14, 9]],
    3: [[10, 0, 9, 14, 6, 3, 15, 5, 1, 13, 12, 7, 11, 4, 2, 8],
        [13, 7, 0, 9, 3, 4, 6, 10, 2, 8, 5, 14, 12, 11, 15, 1],
        [13, 6, 4, 9, 8, 15, 3, 0, 11, 1, 2, 12, 5, 10, 14, 7],
        [1, 10, 13, 0, 6, 9, 8, 7, 4, 15, 14, 3, 11, 5, 2, 12]],
    4: [[7, 13, 14, 3, 0, 6, 9, 10, 1, 2, 8, 5, 11, 12, 4, 15],
        [13, 8, 11, 5, 6, 15, 0, 3, 4, 7, 2, 12, 1, 10, 14, 9],
        [10, 6, 9, 0, 12, 11, 7, 13, 15, 1, 3, 14, 5, 2, 8, 4],
        [3, 15, 0, 6, 10, 1, 13, 8, 9, 4, 5, 11, 12, 7, 2, 14]],
}
PRESENT = [0xC, 0x5, 0x6, 0xB, 0x9, 0x0, 0xA, 0xD,
           0x3, 0xE, 0xF, 0x8, 0x4, 0x7, 0x1, 0x2]


def des_outputs(n):
    """Truth tables (bit i = input i) of the 4 outputs; a1 is input bit 5 (MSB)."""
    box = DES[n]
    outs = [0, 0, 0, 0]
    for i in range(64):
        a = [(i >> (5 - k)) & 1 for k in range(6)]  # a[0] = a1 ... a[5] = a6
        row = (a[0] << 1) | a[5]
        col = (a[1] << 3) | (a[2] << 2) | (a[3] << 1) | a[4]
        v = box[row][col]
        for o in range(4):
            if (v >> (3 - o)) & 1:
                outs[o] |= 1 << i
    return outs, ["a%d" % (k + 1) for k in range(6)]


def present_outputs():
    outs = [0, 0, 0, 0]
    for i in range(16):
        v = PRESENT[i]
        for o in range(4):
            if (v >> o) & 1:
                outs[o] |= 1 << i
    # x0 is the least significant input bit
    return outs, ["x0", "x1", "x2", "x3"]


def var_tt(k, nvars):
    t = 0
    for i in range(1 << nvars):
        if (i >> k) & 1:
            t |= 1 << i
    return t


def synth(outs, names, order, prefix="x"):
    nvars = len(names)
    full = (1 << (1 << nvars)) - 1
    # input bit index of each name: names[j] is bit (nvars-1-j) for DES, j for PRESENT
    bit_of = {n: (nvars - 1 - j if names[0] == "a1" else j) for j, n in enumerate(names)}
    vt = {n: var_tt(bit_of[n], nvars) for n in names}
    memo = {}
    for n in names:
        memo[vt[n]] = n
    lines = []

    def new(expr, tt):
        name = "%s%d" % (prefix, len(lines) + 1)
        lines.append("%s = %s;" % (name, expr))
        memo[tt] = name
        return name

    def cof(f, n):
        b = bit_of[n]
        f0 = f1 = 0
        for i in range(1 << nvars):
            j0 = i & ~(1 << b)
            j1 = i | (1 << b)
            if (f >> j0) & 1:
                f0 |= 1 << i
            if (f >> j1) & 1:
                f1 |= 1 << i
        return f0, f1

    def build(f):
        if f in memo:
            return memo[f]
        if f == 0 or f == full:
            raise ValueError("constant output")
        if (full ^ f) in memo:
            return new("~%s" % memo[full ^ f], f)
        for n in order:
            f0, f1 = cof(f, n)
            if f0 != f1:
                break
        x = memo[vt[n]]
        if f0 == 0:
            return new("%s & %s" % (x, build(f1)), f)
        if f1 == 0:
            return new("%s & ~%s" % (build(f0), x), f)
        if f0 == full:
            return new("%s | ~%s" % (build(f1), x), f)
        if f1 == full:
            return new("%s | %s" % (x, build(f0)), f)
        if f1 == full ^ f0:
            return new("%s ^ %s" % (x, build(f0)), f)
        g0 = build(f0)
        d = build(f0 ^ f1)
        t = new("%s & %s" % (x, d), vt[n] & (f0 ^ f1))
        return new("%s ^ %s" % (g0, t), f)

    res = [build(o) for o in outs]
    return lines, res


def check(lines, res, outs, names):
    """Evaluate the network on truth tables and compare with the S-box."""
    nvars = len(names)
    full = (1 << (1 << nvars)) - 1
    bit_of = {n: (nvars - 1 - j if names[0] == "a1" else j) for j, n in enumerate(names)}
    env = {n: var_tt(bit_of[n], nvars) for n in names}
    for l in lines:
        dst, expr = l.rstrip(";").split(" = ")
        env[dst] = eval(expr, {}, env) & full
    assert [env[r] for r in res] == outs, "network does not match the S-box"


def best(outs, names, prefix="x"):
    bestv = None
    for order in itertools.permutations(names):
        lines, res = synth(outs, names, order, prefix)
        if bestv is None or len(lines) < len(bestv[0]):
            bestv = (lines, res, order)
    check(bestv[0], bestv[1], outs, names)
    return bestv


def main():
    if sys.argv[1] == "des":
        n = int(sys.argv[2])
        outs, names = des_outputs(n)
        lines, res, order = best(outs, names)
        print("// DES S%d: %d gates (Shannon order %s)" % (n, len(lines), " ".join(order)))
        print("__device__ __forceinline__ void s%d(uint32_t a1, uint32_t a2, uint32_t a3, "
              "uint32_t a4, uint32_t a5, uint32_t a6," % n)
        print("    uint32_t &out1, uint32_t &out2, uint32_t &out3, uint32_t &out4)\n{")
        print("    uint32_t " + ", ".join("x%d" % (i + 1) for i in range(len(lines))) + ";")
        for l in lines:
            print("    " + l)
        for o, r in enumerate(res):
            print("    out%d ^= %s;" % (o + 1, r))
        print("}")
    else:
        outs, names = present_outputs()
        lines, res, order = best(outs, names, "t")
        print("// PRESENT S-box: %d gates (Shannon order %s)" % (len(lines), " ".join(order)))
        print("__device__ __forceinline__ void present_sbox(uint32_t &x0, uint32_t &x1, "
              "uint32_t &x2, uint32_t &x3)\n{")
        print("    uint32_t " + ", ".join("t%d" % (i + 1) for i in range(len(lines))) + ";")
        for l in lines:
            print("    " + l)
        for o, r in enumerate(res):
            print("    uint32_t y%d = %s;" % (o, r))
        print("    x0 = y0; x1 = y1; x2 = y2; x3 = y3;\n}")


if __name__ == "__main__":
    main()
