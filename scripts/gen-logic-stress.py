#!/usr/bin/env python3
"""Large single-block logic kernels for timing lop3-fuse.

    python3 scripts/gen-logic-stress.py OUTDIR

writes rand10k.ptx / rand100k.ptx (random and/or/xor/not networks over four
loaded words, 5% of the nodes stored) and chain50k.ptx (a 50,000-step
and/xor chain, each step with a fresh leaf: the worst case for exact-area
recovery), and pieces30k.ptx (30,000 independent copies of MD5's F in one
block: many small pieces)."""
import os, random, sys

HEAD = ".version 7.0\n.target sm_80\n.address_size 64\n"


def random_net(n, seed=1):
    rng = random.Random(seed)
    out = [".visible .entry k(.param .u64 p)\n{", f".reg .b32 %r<{n + 20}>;",
           ".reg .b64 %rd<2>;", "ld.param.u64 %rd1, [p];",
           "ld.global.v4.u32 {%r1, %r2, %r3, %r4}, [%rd1];"]
    pool, r = [1, 2, 3, 4], 5
    for _ in range(n):
        op = rng.choice(["and", "or", "xor", "not"])
        a, b = rng.choice(pool[-30:]), rng.choice(pool)
        out.append(f"not.b32 %r{r}, %r{a};" if op == "not" else f"{op}.b32 %r{r}, %r{a}, %r{b};")
        pool.append(r)
        r += 1
        if rng.random() < 0.05:
            out.append(f"st.global.u32 [%rd1], %r{r - 1};")
    out += [f"st.global.u32 [%rd1], %r{r - 1};", "ret;", "}"]
    return HEAD + "\n".join(out) + "\n"


def fresh_chain(n):
    out = [".visible .entry k(.param .u64 p)\n{", f".reg .b32 %r<{2 * n + 10}>;",
           ".reg .b64 %rd<2>;", "ld.param.u64 %rd1, [p];", "ld.global.u32 %r1, [%rd1];"]
    prev, r = 1, 2
    for i in range(n):
        out.append(f"add.s32 %r{r}, %r1, {i + 1};")
        op = "xor" if i % 2 else "and"
        out.append(f"{op}.b32 %r{r + 1}, %r{prev}, %r{r};")
        prev, r = r + 1, r + 2
    out += [f"st.global.u32 [%rd1], %r{prev};", "ret;", "}"]
    return HEAD + "\n".join(out) + "\n"


def pieces(n):
    out = [".visible .entry k(.param .u64 p)\n{", f".reg .b32 %r<{5 * n + 10}>;",
           ".reg .b64 %rd<2>;", "ld.param.u64 %rd1, [p];",
           "ld.global.v4.u32 {%r1, %r2, %r3, %r4}, [%rd1];"]
    r = 5
    for i in range(n):
        out += [f"add.s32 %r{r}, %r1, {i};", f"not.b32 %r{r + 1}, %r{r};",
                f"and.b32 %r{r + 2}, %r{r}, %r2;", f"and.b32 %r{r + 3}, %r{r + 1}, %r3;",
                f"or.b32 %r{r + 4}, %r{r + 2}, %r{r + 3};", f"st.global.u32 [%rd1], %r{r + 4};"]
        r += 5
    out += ["ret;", "}"]
    return HEAD + "\n".join(out) + "\n"


def main():
    d = sys.argv[1] if len(sys.argv) > 1 else "."
    os.makedirs(d, exist_ok=True)
    for name, text in [("rand10k", random_net(10000)), ("rand100k", random_net(100000)),
                       ("chain50k", fresh_chain(50000)), ("pieces30k", pieces(30000))]:
        with open(os.path.join(d, name + ".ptx"), "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
