"""Vector add, as in the Triton tutorial."""
import triton
import triton.language as tl


@triton.jit
def add_kernel(x_ptr, y_ptr, output_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    block_start = pid * BLOCK_SIZE
    offsets = block_start + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    output = x + y
    tl.store(output_ptr + offsets, output, mask=mask)


# How gen_real_corpus_triton.py compiles the kernels of this file. Pointer
# arguments are assumed 16-byte aligned (as for torch tensors).
KERNELS = [
    dict(fn=add_kernel, name="add",
         signature={"x_ptr": "*fp32", "y_ptr": "*fp32", "output_ptr": "*fp32", "n_elements": "i32",
                    "BLOCK_SIZE": "constexpr"},
         constexprs={"BLOCK_SIZE": 1024}, num_warps=4),
]
