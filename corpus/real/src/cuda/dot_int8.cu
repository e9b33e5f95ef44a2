// Integer dot products with __dp4a / __dp2a (int8 GEMV and a quantised
// correlation). Note: cicc 13.5 fails on these intrinsics under -G.
#include <cstdint>

// y[r] = scale[r] * sum_k A[r][k] * x[k], int8 packed 4 per word, one warp per row.
__global__ void gemv_int8_dp4a(const int *__restrict__ A, const int *__restrict__ x, int rows, int kwords,
                               const float *__restrict__ scale, float *__restrict__ y)
{
    int row = blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5);
    int lane = threadIdx.x & 31;
    if (row >= rows)
        return;
    int acc0 = 0, acc1 = 0;
    const int *a = A + (size_t)row * kwords;
    int k = lane;
    for (; k + 32 < kwords; k += 64) {
        acc0 = __dp4a(a[k], x[k], acc0);
        acc1 = __dp4a(a[k + 32], x[k + 32], acc1);
    }
    if (k < kwords)
        acc0 = __dp4a(a[k], x[k], acc0);
    int acc = acc0 + acc1;
    for (int o = 16; o > 0; o >>= 1)
        acc += __shfl_xor_sync(0xffffffffu, acc, o);
    if (lane == 0)
        y[row] = scale[row] * (float)acc;
}

// Signed 8-bit samples against signed 16-bit taps with __dp2a_lo/__dp2a_hi.
__global__ void corr_s8_s16_dp2a(const int *__restrict__ sig, const int *__restrict__ taps, int ntapwords,
                                 int n, int *__restrict__ out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int acc = 0;
    for (int t = 0; t < ntapwords; ++t) {
        int s = sig[i + t];
        acc = __dp2a_lo(taps[2 * t], s, acc);
        acc = __dp2a_hi(taps[2 * t + 1], s, acc);
    }
    out[i] = acc;
}
