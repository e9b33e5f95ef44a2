// Packed 16-bit video and audio code that reaches the vop2 instructions
// through inline PTX, as hand-tuned codecs and older libraries do (nvcc
// expands the __v*2 intrinsics into plain arithmetic itself, so inline asm
// is how vop2 reaches real PTX).
#include <cstdint>

__device__ __forceinline__ uint32_t add_sat_s16x2(uint32_t a, uint32_t b)
{
    uint32_t d;
    asm("vadd2.s32.s32.s32.sat %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(0u));
    return d;
}

__device__ __forceinline__ uint32_t sub_sat_s16x2(uint32_t a, uint32_t b)
{
    uint32_t d;
    asm("vsub2.s32.s32.s32.sat %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(0u));
    return d;
}

// Sum of |a - b| over both halves, accumulated into acc.
__device__ __forceinline__ uint32_t sad_u16x2(uint32_t a, uint32_t b, uint32_t acc)
{
    uint32_t d;
    asm("vabsdiff2.u32.u32.u32.add %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(acc));
    return d;
}

// Packed s16 audio: mix two streams with gain applied by saturating
// doubling, and write the side channel (a - b) saturated.
__global__ void mix_stereo_s16(const uint32_t *__restrict__ left, const uint32_t *__restrict__ right,
                               int n, uint32_t *__restrict__ mid, uint32_t *__restrict__ side)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        uint32_t l = left[i], r = right[i];
        uint32_t m = add_sat_s16x2(l, r);
        mid[i] = add_sat_s16x2(m, m);
        side[i] = sub_sat_s16x2(l, r);
    }
}

// Block matching on 16-bit luma (two pixels per word): each thread scores
// one candidate row offset of an 8x8 block.
__global__ void sad8x8_u16(const uint32_t *__restrict__ cur, const uint32_t *__restrict__ ref,
                           int pitch_words, uint32_t *__restrict__ score)
{
    int dy = threadIdx.x;
    const uint32_t *c = cur + blockIdx.x * 4;
    const uint32_t *r = ref + dy * pitch_words + blockIdx.x * 4;
    uint32_t acc = 0;
#pragma unroll
    for (int y = 0; y < 8; ++y) {
#pragma unroll
        for (int x = 0; x < 4; ++x)
            acc = sad_u16x2(c[y * pitch_words + x], r[y * pitch_words + x], acc);
    }
    score[blockIdx.x * blockDim.x + dy] = acc;
}

// Residual of a prediction, clamped to the signed 16-bit range, and the
// clamp of a packed pixel pair into [lo, hi] per half.
__global__ void residual_clamp(const uint32_t *__restrict__ pix, const uint32_t *__restrict__ pred,
                               uint32_t lohi, int n, uint32_t *__restrict__ res,
                               uint32_t *__restrict__ clamped)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    uint32_t p = pix[i], q = pred[i], d, lo, hi, t;
    asm("vsub2.s32.u32.u32.sat %0, %1, %2, %3;" : "=r"(d) : "r"(p), "r"(q), "r"(0u));
    res[i] = d;
    // lo in both halves from lohi's low half, hi from its high half.
    asm("vmax2.u32.u32.u32 %0, %1.h00, %2.h00, %3;" : "=r"(lo) : "r"(lohi), "r"(lohi), "r"(0u));
    asm("vmax2.u32.u32.u32 %0, %1.h11, %2.h11, %3;" : "=r"(hi) : "r"(lohi), "r"(lohi), "r"(0u));
    asm("vmax2.u32.u32.u32 %0, %1, %2, %3;" : "=r"(t) : "r"(p), "r"(lo), "r"(0u));
    asm("vmin2.u32.u32.u32 %0, %1, %2, %3;" : "=r"(t) : "r"(t), "r"(hi), "r"(0u));
    clamped[i] = t;
}

// 2:1 horizontal downsample with rounding, and the energy of the
// difference between neighbouring pairs, accumulated per thread.
__global__ void downsample_energy(const uint32_t *__restrict__ src, int n, uint32_t *__restrict__ half,
                                  uint32_t *__restrict__ energy)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (2 * i + 1 >= n)
        return;
    uint32_t a = src[2 * i], b = src[2 * i + 1], avg, e = 0;
    asm("vavrg2.u32.u32.u32 %0, %1, %2, %3;" : "=r"(avg) : "r"(a), "r"(b), "r"(0u));
    half[i] = avg;
    asm("vsub2.s32.u32.u32.add %0, %1, %2, %3;" : "=r"(e) : "r"(a), "r"(b), "r"(e));
    asm("vadd2.u32.u32.u32.add %0, %1.h10, %2.h32, %3;" : "=r"(e) : "r"(a), "r"(b), "r"(e));
    energy[i] = e;
}

// Legacy packed s16 arithmetic with partial masks: update only the high
// (left) or low (right) sample of a pair.
__global__ void update_channel(uint32_t *__restrict__ buf, const uint32_t *__restrict__ delta, int n,
                               int left)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    uint32_t v = buf[i], d = delta[i];
    if (left)
        asm("vadd2.s32.s32.s32.sat %0.h1, %1, %2, %0;" : "+r"(v) : "r"(v), "r"(d));
    else
        asm("vadd2.s32.s32.s32.sat %0.h0, %1, %2, %0;" : "+r"(v) : "r"(v), "r"(d));
    buf[i] = v;
}
