"""Reductions: column sums of a 2D tensor with a K loop, and a global
sum/max with atomics (one program per block of elements)."""
import triton
import triton.language as tl


@triton.jit
def col_sum_kernel(x_ptr, out_ptr, M, N, stride_m, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    pid_n = tl.program_id(0)
    cols = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    acc = tl.zeros((BLOCK_N,), dtype=tl.float32)
    for m0 in range(0, M, BLOCK_M):
        rows = m0 + tl.arange(0, BLOCK_M)
        ptrs = x_ptr + rows[:, None] * stride_m + cols[None, :]
        mask = (rows[:, None] < M) & (cols[None, :] < N)
        x = tl.load(ptrs, mask=mask, other=0.0)
        acc += tl.sum(x, axis=0)
    tl.store(out_ptr + cols, acc, mask=cols < N)


@triton.jit
def sum_max_atomic_kernel(x_ptr, sum_ptr, max_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    s = tl.sum(x, axis=0)
    m = tl.max(tl.where(mask, x, -float("inf")), axis=0)
    tl.atomic_add(sum_ptr, s)
    tl.atomic_max(max_ptr, m)


KERNELS = [
    dict(fn=col_sum_kernel, name="col_sum",
         signature={"x_ptr": "*fp32", "out_ptr": "*fp32", "M": "i32", "N": "i32", "stride_m": "i32",
                    "BLOCK_M": "constexpr", "BLOCK_N": "constexpr"},
         constexprs={"BLOCK_M": 16, "BLOCK_N": 128}, num_warps=4, aligned_ints=["stride_m"]),
    dict(fn=sum_max_atomic_kernel, name="sum_max_atomic",
         signature={"x_ptr": "*fp32", "sum_ptr": "*fp32", "max_ptr": "*fp32", "n": "i32", "BLOCK": "constexpr"},
         constexprs={"BLOCK": 1024}, num_warps=4),
]
