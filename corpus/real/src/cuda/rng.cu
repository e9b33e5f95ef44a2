// Random number generators: xorshift32/xorshift128+, a Philox-4x32-10
// counter RNG, Box-Muller normals, and a Monte Carlo estimate of pi.
#include <cstdint>

__device__ __forceinline__ uint32_t xorshift32(uint32_t &s)
{
    s ^= s << 13;
    s ^= s >> 17;
    s ^= s << 5;
    return s;
}

__device__ __forceinline__ uint64_t xorshift128plus(uint64_t &s0, uint64_t &s1)
{
    uint64_t x = s0;
    uint64_t const y = s1;
    s0 = y;
    x ^= x << 23;
    s1 = x ^ y ^ (x >> 17) ^ (y >> 26);
    return s1 + y;
}

__device__ __forceinline__ uint32_t wang_hash(uint32_t seed)
{
    seed = (seed ^ 61) ^ (seed >> 16);
    seed *= 9;
    seed = seed ^ (seed >> 4);
    seed *= 0x27d4eb2d;
    seed = seed ^ (seed >> 15);
    return seed;
}

__global__ void xorshift_fill(uint32_t *__restrict__ out, int per_thread, uint32_t seed)
{
    uint32_t tid = blockIdx.x * blockDim.x + threadIdx.x;
    uint32_t s = wang_hash(seed ^ tid) | 1u;
    for (int k = 0; k < per_thread; ++k)
        out[(size_t)k * gridDim.x * blockDim.x + tid] = xorshift32(s);
}

// Philox-4x32 with 10 rounds (Salmon et al.), one 128-bit output per counter.
__device__ __forceinline__ uint4 philox4x32_10(uint4 ctr, uint2 key)
{
    const uint32_t M0 = 0xD2511F53u, M1 = 0xCD9E8D57u;
    const uint32_t W0 = 0x9E3779B9u, W1 = 0xBB67AE85u;
#pragma unroll
    for (int r = 0; r < 10; ++r) {
        uint32_t hi0 = __umulhi(M0, ctr.x), lo0 = M0 * ctr.x;
        uint32_t hi1 = __umulhi(M1, ctr.z), lo1 = M1 * ctr.z;
        ctr = make_uint4(hi1 ^ ctr.y ^ key.x, lo1, hi0 ^ ctr.w ^ key.y, lo0);
        key.x += W0;
        key.y += W1;
    }
    return ctr;
}

__device__ __forceinline__ float u01(uint32_t x) { return (x >> 8) * (1.0f / 16777216.0f) + (0.5f / 16777216.0f); }

// Box-Muller normal variates from Philox, four per counter.
__global__ void philox_normal(float *__restrict__ out, size_t n, uint2 key, uint32_t offset, float mean, float stddev)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; 4 * i < n; i += (size_t)gridDim.x * blockDim.x) {
        uint4 r = philox4x32_10(make_uint4((uint32_t)i, (uint32_t)(i >> 32), offset, 0), key);
        float rad0 = sqrtf(-2.0f * __logf(u01(r.x)));
        float rad1 = sqrtf(-2.0f * __logf(u01(r.z)));
        float s0, c0, s1, c1;
        __sincosf(6.2831853f * u01(r.y), &s0, &c0);
        __sincosf(6.2831853f * u01(r.w), &s1, &c1);
        float v[4] = {rad0 * c0, rad0 * s0, rad1 * c1, rad1 * s1};
#pragma unroll
        for (int k = 0; k < 4; ++k)
            if (4 * i + k < n)
                out[4 * i + k] = mean + stddev * v[k];
    }
}

// Monte Carlo pi with xorshift128+; block-level count reduction in shared memory.
__global__ void monte_carlo_pi(unsigned long long *__restrict__ hits, int samples_per_thread, uint64_t seed)
{
    __shared__ unsigned counts[256];
    uint64_t tid = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x;
    uint64_t s0 = seed ^ (tid * 0x9E3779B97F4A7C15ull), s1 = ~seed + tid;
    for (int k = 0; k < 8; ++k)
        xorshift128plus(s0, s1);
    unsigned inside = 0;
    for (int k = 0; k < samples_per_thread; ++k) {
        uint64_t r = xorshift128plus(s0, s1);
        float x = (uint32_t)r * 2.3283064e-10f;
        float y = (uint32_t)(r >> 32) * 2.3283064e-10f;
        inside += (x * x + y * y <= 1.0f) ? 1u : 0u;
    }
    counts[threadIdx.x] = inside;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s)
            counts[threadIdx.x] += counts[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        atomicAdd(hits, (unsigned long long)counts[0]);
}
