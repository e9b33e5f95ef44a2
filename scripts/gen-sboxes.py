#!/usr/bin/env python3
"""Writes the S-box suite of the lop3-fuse large-circuit report.

Each S-box is written as its truth tables (one per output bit, ABC's
read_truth format: hexadecimal, most significant minterm first; input k is
bit k of the minterm) and turned into a netlist by ABC itself
(`read_truth -f; strash`), so that neither mapper picks its own input:
both the bench's ABC runs and ptx-opt (through netlist2ptx) start from the
same AIG. Run from the repository root:

    python3 scripts/gen-sboxes.py     # needs berkeley-abc

The tables: DES S1-S8 (FIPS 46-3: six inputs, the outer bits a1 a6 pick
the row, four outputs), AES's S-box (FIPS 197, computed here: inversion in
GF(2^8) then the affine map), and 4-bit S-boxes (PRESENT, GIFT, SKINNY-64,
PRINCE, Midori Sb0, Serpent S0-S3).
"""
import os
import subprocess
import sys
import tempfile

DES = {
    1: [14, 4, 13, 1, 2, 15, 11, 8, 3, 10, 6, 12, 5, 9, 0, 7,
        0, 15, 7, 4, 14, 2, 13, 1, 10, 6, 12, 11, 9, 5, 3, 8,
        4, 1, 14, 8, 13, 6, 2, 11, 15, 12, 9, 7, 3, 10, 5, 0,
        15, 12, 8, 2, 4, 9, 1, 7, 5, 11, 3, 14, 10, 0, 6, 13],
    2: [15, 1, 8, 14, 6, 11, 3, 4, 9, 7, 2, 13, 12, 0, 5, 10,
        3, 13, 4, 7, 15, 2, 8, 14, 12, 0, 1, 10, 6, 9, 11, 5,
        0, 14, 7, 11, 10, 4, 13, 1, 5, 8, 12, 6, 9, 3, 2, 15,
        13, 8, 10, 1, 3, 15, 4, 2, 11, 6, 7, 12, 0, 5, 14, 9],
    3: [10, 0, 9, 14, 6, 3, 15, 5, 1, 13, 12, 7, 11, 4, 2, 8,
        13, 7, 0, 9, 3, 4, 6, 10, 2, 8, 5, 14, 12, 11, 15, 1,
        13, 6, 4, 9, 8, 15, 3, 0, 11, 1, 2, 12, 5, 10, 14, 7,
        1, 10, 13, 0, 6, 9, 8, 7, 4, 15, 14, 3, 11, 5, 2, 12],
    4: [7, 13, 14, 3, 0, 6, 9, 10, 1, 2, 8, 5, 11, 12, 4, 15,
        13, 8, 11, 5, 6, 15, 0, 3, 4, 7, 2, 12, 1, 10, 14, 9,
        10, 6, 9, 0, 12, 11, 7, 13, 15, 1, 3, 14, 5, 2, 8, 4,
        3, 15, 0, 6, 10, 1, 13, 8, 9, 4, 5, 11, 12, 7, 2, 14],
    5: [2, 12, 4, 1, 7, 10, 11, 6, 8, 5, 3, 15, 13, 0, 14, 9,
        14, 11, 2, 12, 4, 7, 13, 1, 5, 0, 15, 10, 3, 9, 8, 6,
        4, 2, 1, 11, 10, 13, 7, 8, 15, 9, 12, 5, 6, 3, 0, 14,
        11, 8, 12, 7, 1, 14, 2, 13, 6, 15, 0, 9, 10, 4, 5, 3],
    6: [12, 1, 10, 15, 9, 2, 6, 8, 0, 13, 3, 4, 14, 7, 5, 11,
        10, 15, 4, 2, 7, 12, 9, 5, 6, 1, 13, 14, 0, 11, 3, 8,
        9, 14, 15, 5, 2, 8, 12, 3, 7, 0, 4, 10, 1, 13, 11, 6,
        4, 3, 2, 12, 9, 5, 15, 10, 11, 14, 1, 7, 6, 0, 8, 13],
    7: [4, 11, 2, 14, 15, 0, 8, 13, 3, 12, 9, 7, 5, 10, 6, 1,
        13, 0, 11, 7, 4, 9, 1, 10, 14, 3, 5, 12, 2, 15, 8, 6,
        1, 4, 11, 13, 12, 3, 7, 14, 10, 15, 6, 8, 0, 5, 9, 2,
        6, 11, 13, 8, 1, 4, 10, 7, 9, 5, 0, 15, 14, 2, 3, 12],
    8: [13, 2, 8, 4, 6, 15, 11, 1, 10, 9, 3, 14, 5, 0, 12, 7,
        1, 15, 13, 8, 10, 3, 7, 4, 12, 5, 6, 11, 0, 14, 9, 2,
        7, 11, 4, 1, 9, 12, 14, 2, 0, 6, 10, 13, 15, 3, 5, 8,
        2, 1, 14, 7, 4, 10, 8, 13, 15, 12, 9, 0, 3, 5, 6, 11],
}

FOUR = {
    "present": [0xC, 0x5, 0x6, 0xB, 0x9, 0x0, 0xA, 0xD, 0x3, 0xE, 0xF, 0x8, 0x4, 0x7, 0x1, 0x2],
    "gift": [0x1, 0xA, 0x4, 0xC, 0x6, 0xF, 0x3, 0x9, 0x2, 0xD, 0xB, 0x7, 0x5, 0x0, 0x8, 0xE],
    "skinny64": [0xC, 0x6, 0x9, 0x0, 0x1, 0xA, 0x2, 0xB, 0x3, 0x8, 0x5, 0xD, 0x4, 0xE, 0x7, 0xF],
    "prince": [0xB, 0xF, 0x3, 0x2, 0xA, 0xC, 0x9, 0x1, 0x6, 0x7, 0x8, 0x0, 0xE, 0x5, 0xD, 0x4],
    "midori": [0xC, 0xA, 0xD, 0x3, 0xE, 0xB, 0xF, 0x7, 0x8, 0x9, 0x1, 0x5, 0x0, 0x2, 0x4, 0x6],
    "serpent0": [3, 8, 15, 1, 10, 6, 5, 11, 14, 13, 4, 2, 7, 0, 9, 12],
    "serpent1": [15, 12, 2, 7, 9, 0, 5, 10, 1, 11, 14, 8, 6, 13, 3, 4],
    "serpent2": [8, 6, 7, 9, 3, 12, 10, 15, 13, 1, 14, 4, 0, 11, 5, 2],
    "serpent3": [0, 15, 11, 8, 12, 9, 6, 3, 13, 1, 2, 4, 10, 7, 5, 14],
}


def des_map(table):
    """Input x (bit 5 = a1 ... bit 0 = a6) to the S-box output."""
    out = []
    for x in range(64):
        row = ((x >> 5) & 1) << 1 | (x & 1)
        col = (x >> 1) & 0xF
        out.append(table[16 * row + col])
    return out


def gf_mul(a, b):
    r = 0
    while b:
        if b & 1:
            r ^= a
        a <<= 1
        if a & 0x100:
            a ^= 0x11B
        b >>= 1
    return r


def aes_map():
    inv = [0] * 256
    for a in range(1, 256):
        for b in range(1, 256):
            if gf_mul(a, b) == 1:
                inv[a] = b
                break
    out = []
    for x in range(256):
        b = inv[x]
        s = 0x63
        for i in range(8):
            bit = ((b >> i) ^ (b >> ((i + 4) % 8)) ^ (b >> ((i + 5) % 8))
                   ^ (b >> ((i + 6) % 8)) ^ (b >> ((i + 7) % 8))) & 1
            s ^= bit << i
        out.append(s)
    return out


def tables(mapping, inputs, outputs):
    """One hexadecimal truth table per output bit, MSB (last minterm) first."""
    lines = []
    for o in range(outputs):
        v = 0
        for x in range(1 << inputs):
            if (mapping[x] >> o) & 1:
                v |= 1 << x
        lines.append("%0*x" % ((1 << inputs) // 4, v))
    return lines


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    out_dir = os.path.join(root, "crates/ptx-opt/benches/sboxes")
    os.makedirs(out_dir, exist_ok=True)
    boxes = {}
    for n, t in DES.items():
        for r in range(4):
            assert sorted(t[16 * r:16 * r + 16]) == list(range(16)), n
        boxes["des_s%d" % n] = (des_map(t), 6, 4)
    aes = aes_map()
    assert aes[0] == 0x63 and aes[1] == 0x7C and aes[0x53] == 0xED
    assert sorted(aes) == list(range(256))
    boxes["aes"] = (aes, 8, 8)
    for name, t in FOUR.items():
        assert sorted(t) == list(range(16)), name
        boxes[name] = (t, 4, 4)
    abc = os.environ.get("ABC", "berkeley-abc")
    for name, (mapping, i, o) in sorted(boxes.items()):
        with tempfile.NamedTemporaryFile("w", suffix=".truth", delete=False) as f:
            f.write("\n".join(tables(mapping, i, o)) + "\n")
            path = f.name
        aig = os.path.join(out_dir, name + ".aig")
        cmd = "read_truth -f %s; strash; write_aiger %s" % (path, aig)
        subprocess.run([abc, "-c", cmd], check=True, stdout=subprocess.DEVNULL)
        os.unlink(path)
        print(name, i, "->", o, aig)


if __name__ == "__main__":
    sys.exit(main())
