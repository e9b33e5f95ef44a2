// SIMD-within-a-word video intrinsics: packed 2x16 and 4x8 arithmetic,
// saturating ops, absolute differences, compares and averages.
#include <cstdint>

// Sum of absolute differences of 16x16 blocks for motion estimation:
// each thread evaluates one candidate offset in a +-range window.
__global__ void sad16x16_search(const uint32_t *__restrict__ cur, const uint32_t *__restrict__ ref,
                                int pitch_words, int range, uint32_t *__restrict__ best)
{
    int dx = (int)threadIdx.x - range;
    int dy = (int)threadIdx.y - range;
    if (dx > range || dy > range)
        return;
    int bx = blockIdx.x * 4 + range / 4 + 1, by = blockIdx.y * 16 + range + 1;
    unsigned sad = 0;
    for (int y = 0; y < 16; ++y) {
        const uint32_t *c = cur + (by + y) * pitch_words + bx;
        int ry = by + y + dy;
        int rx = bx * 4 + dx;
        int shift = (rx & 3) * 8;
        const uint32_t *r = ref + ry * pitch_words + (rx >> 2);
#pragma unroll
        for (int x = 0; x < 4; ++x) {
            uint32_t rw = __funnelshift_r(r[x], r[x + 1], shift);
            sad += __vsadu4(c[x], rw);
        }
    }
    unsigned key = (sad << 12) | ((threadIdx.y & 63) << 6) | (threadIdx.x & 63);
    atomicMin(&best[blockIdx.y * gridDim.x + blockIdx.x], key);
}

// Packed 16-bit audio mixing with saturation and gain: two samples per word.
__global__ void mix_s16x2(const uint32_t *__restrict__ a, const uint32_t *__restrict__ b, int n,
                          uint32_t *__restrict__ sum, uint32_t *__restrict__ diff,
                          uint32_t *__restrict__ peak, uint32_t *__restrict__ absd)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        uint32_t x = a[i], y = b[i];
        sum[i] = __vaddss2(x, y);
        diff[i] = __vsubss2(x, y);
        peak[i] = __vmaxs2(__vabsss2(x), __vabsss2(y));
        absd[i] = __vabsdiffs2(x, y) ^ __vsub2(x, y) ^ __vadd2(x, y);
    }
}

// 8-bit pixel ops on RGBA words: averaging (rounded), saturating
// add/subtract, per-byte compares turned into masks for a threshold.
__global__ void rgba_ops(const uint32_t *__restrict__ p, const uint32_t *__restrict__ q, int n, uint32_t thr,
                         uint32_t *__restrict__ avg, uint32_t *__restrict__ brighten,
                         uint32_t *__restrict__ mask, uint32_t *__restrict__ minmax)
{
    uint32_t t4 = thr * 0x01010101u;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        uint32_t x = p[i], y = q[i];
        avg[i] = __vavgu4(x, y);
        brighten[i] = __vsubus4(__vaddus4(x, y), 0x10101010u);
        uint32_t gt = __vcmpgtu4(__vabsdiffu4(x, y), t4);
        mask[i] = gt | (__vcmpeq4(x, y) & 0x000000ffu);
        minmax[i] = __byte_perm(__vminu4(x, y), __vmaxu4(x, y), 0x7362);
    }
}

// Packed 16-bit unsigned: average, compare-select and halfword SAD.
__global__ void u16x2_ops(const uint32_t *__restrict__ a, const uint32_t *__restrict__ b, int n,
                          uint32_t *__restrict__ out, unsigned long long *__restrict__ sad_total)
{
    unsigned long long sad = 0;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        uint32_t x = a[i], y = b[i];
        uint32_t av = __vavgu2(x, y);
        uint32_t sel = __vcmpgtu2(x, y);
        uint32_t mx = (x & sel) | (y & ~sel);
        out[2 * i] = av;
        out[2 * i + 1] = mx ^ __vmaxu2(x, y) ^ __vmins2(x, y) ^ __vneg2(x);
        sad += __vsadu2(x, y);
    }
    for (int o = 16; o > 0; o >>= 1)
        sad += __shfl_down_sync(0xffffffffu, sad, o);
    if ((threadIdx.x & 31) == 0)
        atomicAdd(sad_total, sad);
}

// Packed signed 8-bit: saturating add of residuals to predictions, with
// the per-byte sign mask and halving subtraction.
__global__ void s8x4_residual(const uint32_t *__restrict__ pred, const uint32_t *__restrict__ res, int n,
                              uint32_t *__restrict__ recon, uint32_t *__restrict__ neg_mask)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    uint32_t p = pred[i], r = res[i];
    recon[i] = __vaddss4(p, r) ^ __vhaddu4(p, r);
    neg_mask[i] = __vcmplts4(r, 0u) | (__vsetgtu4(p, 0x80808080u) << 4);
}
