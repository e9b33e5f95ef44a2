// Bit manipulation: popcount, reversal, Morton codes, clz, byte permutes,
// funnel shifts, software pext/pdep.
#include <cstdint>

__global__ void popcount_words(const uint32_t *__restrict__ in, int n, int *__restrict__ out,
                               unsigned long long *__restrict__ total)
{
    unsigned long long acc = 0;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        int c = __popc(in[i]);
        out[i] = c;
        acc += c;
    }
    atomicAdd(total, acc);
}

// Hamming distance between 256-bit fingerprints; also the index of the
// nearest one in a small query set.
__global__ void hamming_nearest(const ulonglong4_16a *__restrict__ db, int n,
                                const ulonglong4_16a *__restrict__ queries, int nq,
                                int *__restrict__ best_q, int *__restrict__ best_d)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    ulonglong4_16a a = db[i];
    int bd = 257, bq = -1;
    for (int q = 0; q < nq; ++q) {
        ulonglong4_16a b = queries[q];
        int d = __popcll(a.x ^ b.x) + __popcll(a.y ^ b.y) + __popcll(a.z ^ b.z) + __popcll(a.w ^ b.w);
        if (d < bd) {
            bd = d;
            bq = q;
        }
    }
    best_q[i] = bq;
    best_d[i] = bd;
}

// Bit reversal: intrinsic versus the classic swap ladder (both kept).
__device__ __forceinline__ uint32_t reverse_bits_swap(uint32_t v)
{
    v = ((v >> 1) & 0x55555555u) | ((v & 0x55555555u) << 1);
    v = ((v >> 2) & 0x33333333u) | ((v & 0x33333333u) << 2);
    v = ((v >> 4) & 0x0F0F0F0Fu) | ((v & 0x0F0F0F0Fu) << 4);
    v = ((v >> 8) & 0x00FF00FFu) | ((v & 0x00FF00FFu) << 8);
    return (v >> 16) | (v << 16);
}

__global__ void bit_reverse_permute(const float2 *__restrict__ in, float2 *__restrict__ out,
                                    int log2n, uint32_t *__restrict__ check)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int n = 1 << log2n;
    if (i >= n)
        return;
    uint32_t r = __brev((uint32_t)i) >> (32 - log2n);
    out[r] = in[i];
    if (check)
        check[i] = reverse_bits_swap((uint32_t)i) ^ __brev((uint32_t)i);
}

__device__ __forceinline__ uint32_t part1by1(uint32_t x)
{
    x &= 0x0000ffffu;
    x = (x ^ (x << 8)) & 0x00ff00ffu;
    x = (x ^ (x << 4)) & 0x0f0f0f0fu;
    x = (x ^ (x << 2)) & 0x33333333u;
    x = (x ^ (x << 1)) & 0x55555555u;
    return x;
}

__device__ __forceinline__ uint32_t compact1by1(uint32_t x)
{
    x &= 0x55555555u;
    x = (x ^ (x >> 1)) & 0x33333333u;
    x = (x ^ (x >> 2)) & 0x0f0f0f0fu;
    x = (x ^ (x >> 4)) & 0x00ff00ffu;
    x = (x ^ (x >> 8)) & 0x0000ffffu;
    return x;
}

__device__ __forceinline__ uint64_t part1by2_64(uint64_t x)
{
    x &= 0x1fffffull;
    x = (x | x << 32) & 0x1f00000000ffffull;
    x = (x | x << 16) & 0x1f0000ff0000ffull;
    x = (x | x << 8) & 0x100f00f00f00f00full;
    x = (x | x << 4) & 0x10c30c30c30c30c3ull;
    x = (x | x << 2) & 0x1249249249249249ull;
    return x;
}

// 3D Morton codes of points in the unit cube (LBVH construction style).
__global__ void morton3d_points(const float3 *__restrict__ p, int n, uint64_t *__restrict__ codes)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        float3 v = p[i];
        uint32_t x = (uint32_t)fminf(fmaxf(v.x * 2097152.0f, 0.0f), 2097151.0f);
        uint32_t y = (uint32_t)fminf(fmaxf(v.y * 2097152.0f, 0.0f), 2097151.0f);
        uint32_t z = (uint32_t)fminf(fmaxf(v.z * 2097152.0f, 0.0f), 2097151.0f);
        codes[i] = part1by2_64(x) | (part1by2_64(y) << 1) | (part1by2_64(z) << 2);
    }
}

// 2D Morton encode / decode round trip for a tiled image layout.
__global__ void morton2d_swizzle(const float *__restrict__ linear, float *__restrict__ z_order,
                                 int width, int height, uint32_t *__restrict__ decoded)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= width || y >= height)
        return;
    uint32_t code = part1by1(x) | (part1by1(y) << 1);
    z_order[code] = linear[y * width + x];
    if (decoded)
        decoded[code] = (compact1by1(code >> 1) << 16) | compact1by1(code);
}

// Leading zeros: integer log2, normalisation shift and next power of two.
__global__ void clz_ops(const uint32_t *__restrict__ in, int n, int *__restrict__ ilog2,
                        uint32_t *__restrict__ normalized, uint32_t *__restrict__ next_pow2,
                        int *__restrict__ ctz)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    uint32_t v = in[i];
    int lz = __clz(v);
    ilog2[i] = v ? 31 - lz : -1;
    normalized[i] = v ? v << lz : 0u;
    next_pow2[i] = v <= 1 ? 1u : 1u << (32 - __clz(v - 1));
    ctz[i] = v ? __ffs(v) - 1 : 32;
}

// Byte permutes: endian swap, byte rotate, nibble extract via __byte_perm.
__global__ void byte_perm_ops(const uint32_t *__restrict__ a, const uint32_t *__restrict__ b,
                              int n, uint32_t *__restrict__ out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    uint32_t x = a[i], y = b[i];
    uint32_t bswap = __byte_perm(x, 0, 0x0123);
    uint32_t interleave = __byte_perm(x, y, 0x5140);
    uint32_t hi_bytes = __byte_perm(x, y, 0x7531);
    uint32_t sign_ext = __byte_perm(x, 0, 0x8880 | (i & 3));  // replicate-sign mode
    out[4 * i + 0] = bswap;
    out[4 * i + 1] = interleave;
    out[4 * i + 2] = hi_bytes;
    out[4 * i + 3] = sign_ext;
}

// Funnel shifts: 32-bit rotations and a 64-bit shift of a multi-word
// bit stream (extract `bits` bits at an arbitrary bit offset).
__global__ void funnel_shift_extract(const uint32_t *__restrict__ stream, int nwords,
                                     const uint32_t *__restrict__ bitpos, int nfields, int bits,
                                     uint32_t *__restrict__ fields, uint32_t *__restrict__ rot)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= nfields)
        return;
    uint32_t p = bitpos[i];
    uint32_t w = p >> 5, s = p & 31;
    uint32_t lo = w < (uint32_t)nwords ? stream[w] : 0u;
    uint32_t hi = w + 1 < (uint32_t)nwords ? stream[w + 1] : 0u;
    uint32_t v = __funnelshift_r(lo, hi, s);
    fields[i] = bits >= 32 ? v : v & ((1u << bits) - 1);
    uint32_t r = __funnelshift_l(lo, lo, s) ^ __funnelshift_rc(hi, hi, 40 - s);
    rot[i] = r;
}

// Software parallel bit extract / deposit (pext/pdep) loops.
__device__ uint32_t pext32(uint32_t x, uint32_t mask)
{
    uint32_t r = 0;
    for (uint32_t bb = 1; mask; bb += bb) {
        if (x & mask & -mask)
            r |= bb;
        mask &= mask - 1;
    }
    return r;
}

__device__ uint32_t pdep32(uint32_t x, uint32_t mask)
{
    uint32_t r = 0;
    for (uint32_t bb = 1; mask; bb += bb) {
        if (x & bb)
            r |= mask & -mask;
        mask &= mask - 1;
    }
    return r;
}

__global__ void pext_pdep(const uint32_t *__restrict__ x, const uint32_t *__restrict__ m, int n,
                          uint32_t *__restrict__ ext, uint32_t *__restrict__ dep)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        ext[i] = pext32(x[i], m[i]);
        dep[i] = pdep32(x[i], m[i]);
    }
}
