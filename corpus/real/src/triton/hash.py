"""Integer and bitwise kernels: a murmur3-style 32-bit hash (multiplies,
rotates, xor-shifts) with a bucket histogram by atomics, and xorshift
mixing in a loop with a runtime trip count."""
import triton
import triton.language as tl


@triton.jit
def rotl32(x, r: tl.constexpr):
    return (x << r) | (x >> (32 - r))


@triton.jit
def murmur_hash_kernel(keys_ptr, hash_ptr, hist_ptr, n, seed, NBUCKETS: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    k = tl.load(keys_ptr + offs, mask=mask, other=0).to(tl.uint32)
    k = k * 0xcc9e2d51
    k = rotl32(k, 15)
    k = k * 0x1b873593
    h = seed.to(tl.uint32) ^ k
    h = rotl32(h, 13)
    h = h * 5 + 0xe6546b64
    h = h ^ 4
    h = h ^ (h >> 16)
    h = h * 0x85ebca6b
    h = h ^ (h >> 13)
    h = h * 0xc2b2ae35
    h = h ^ (h >> 16)
    tl.store(hash_ptr + offs, h, mask=mask)
    bucket = (h & (NBUCKETS - 1)).to(tl.int32)
    tl.atomic_add(hist_ptr + bucket, 1, mask=mask)


@triton.jit
def xorshift_mix_kernel(x_ptr, out_ptr, n, rounds, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=1).to(tl.uint32)
    for _ in range(rounds):
        x ^= x << 13
        x ^= x >> 17
        x ^= x << 5
    parity = x ^ (x >> 16)
    parity ^= parity >> 8
    parity ^= parity >> 4
    parity = (0x6996 >> (parity & 0xF)) & 1
    out = tl.where(parity == 1, ~x, x & 0x7fffffff)
    tl.store(out_ptr + offs, out, mask=mask)


KERNELS = [
    dict(fn=murmur_hash_kernel, name="murmur_hash",
         signature={"keys_ptr": "*i32", "hash_ptr": "*u32", "hist_ptr": "*i32", "n": "i32", "seed": "i32",
                    "NBUCKETS": "constexpr", "BLOCK": "constexpr"},
         constexprs={"NBUCKETS": 1024, "BLOCK": 512}, num_warps=4),
    dict(fn=xorshift_mix_kernel, name="xorshift_mix",
         signature={"x_ptr": "*u32", "out_ptr": "*u32", "n": "i32", "rounds": "i32", "BLOCK": "constexpr"},
         constexprs={"BLOCK": 512}, num_warps=4),
]
