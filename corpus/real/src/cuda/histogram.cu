// Histograms with shared and global atomics.
#include <cstdint>

#define NBINS 256

// Per-block shared histogram of bytes, merged into global with atomics.
__global__ void histogram256_shared(const uint8_t *__restrict__ data, size_t n,
                                    unsigned *__restrict__ hist)
{
    __shared__ unsigned sh[NBINS];
    for (int i = threadIdx.x; i < NBINS; i += blockDim.x)
        sh[i] = 0;
    __syncthreads();

    // 4 bytes at a time when aligned
    size_t n4 = n / 4;
    const uchar4 *d4 = reinterpret_cast<const uchar4 *>(data);
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n4; i += (size_t)blockDim.x * gridDim.x) {
        uchar4 v = d4[i];
        atomicAdd(&sh[v.x], 1u);
        atomicAdd(&sh[v.y], 1u);
        atomicAdd(&sh[v.z], 1u);
        atomicAdd(&sh[v.w], 1u);
    }
    if (blockIdx.x == 0)
        for (size_t i = n4 * 4 + threadIdx.x; i < n; i += blockDim.x)
            atomicAdd(&sh[data[i]], 1u);
    __syncthreads();
    for (int i = threadIdx.x; i < NBINS; i += blockDim.x) {
        unsigned c = sh[i];
        if (c)
            atomicAdd(&hist[i], c);
    }
}

// Float values into nbins uniform bins on [lo, hi); out-of-range go to
// under/overflow bins 0 and nbins+1. Global atomics only.
__global__ void histogram_float_global(const float *__restrict__ x, int n, float lo, float hi,
                                       int nbins, unsigned long long *__restrict__ hist)
{
    float scale = nbins / (hi - lo);
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        float v = x[i];
        int b;
        if (!(v >= lo))
            b = 0;
        else if (v >= hi)
            b = nbins + 1;
        else
            b = 1 + min((int)((v - lo) * scale), nbins - 1);
        atomicAdd(&hist[b], 1ull);
    }
}

// Per-warp sub-histograms in shared memory to cut contention (64 bins).
__global__ void histogram64_per_warp(const unsigned *__restrict__ keys, int n,
                                     unsigned *__restrict__ hist)
{
    extern __shared__ unsigned sub[]; // (blockDim.x/32) * 64
    int warp = threadIdx.x >> 5;
    int nwarps = blockDim.x >> 5;
    for (int i = threadIdx.x; i < nwarps * 64; i += blockDim.x)
        sub[i] = 0;
    __syncthreads();
    unsigned *mine = sub + warp * 64;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        unsigned k = keys[i];
        unsigned bin = (k * 2654435761u) >> 26;
        atomicAdd(&mine[bin], 1u);
    }
    __syncthreads();
    for (int b = threadIdx.x; b < 64; b += blockDim.x) {
        unsigned s = 0;
        for (int w = 0; w < nwarps; ++w)
            s += sub[w * 64 + b];
        atomicAdd(&hist[b], s);
    }
}

// Weighted 2D histogram (e.g. for joint intensity): float atomics.
__global__ void histogram2d_weighted(const uint8_t *__restrict__ a, const uint8_t *__restrict__ b,
                                     const float *__restrict__ w, int n, int shift,
                                     float *__restrict__ hist)
{
    int bins = 256 >> shift;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        int ia = a[i] >> shift, ib = b[i] >> shift;
        atomicAdd(&hist[ia * bins + ib], w[i]);
    }
}

// Float atomic max through atomicCAS on the bit pattern.
__device__ float atomic_max_float(float *addr, float value)
{
    int *iaddr = reinterpret_cast<int *>(addr);
    int old = *iaddr, assumed;
    do {
        assumed = old;
        if (__int_as_float(assumed) >= value)
            break;
        old = atomicCAS(iaddr, assumed, __float_as_int(value));
    } while (assumed != old);
    return __int_as_float(old);
}

// Per-bin maximum of values keyed by bin (atomicMax for ints, CAS for float).
__global__ void bin_max(const int *__restrict__ bin, const float *__restrict__ val,
                        const int *__restrict__ ival, int n, float *__restrict__ fmax_out,
                        int *__restrict__ imax_out, unsigned *__restrict__ counts)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        int b = bin[i];
        if (b < 0)
            continue;
        atomic_max_float(&fmax_out[b], val[i]);
        atomicMax(&imax_out[b], ival[i]);
        atomicInc(&counts[b], 0xffffffffu);
    }
}
