// Reductions: shared-memory tree, warp shuffles, grid-stride accumulation,
// min/max with index, double precision.
#include <cstdint>
#include <cfloat>

#define FULL_MASK 0xffffffffu

__device__ __forceinline__ float warp_reduce_sum(float v)
{
#pragma unroll
    for (int offset = 16; offset > 0; offset >>= 1)
        v += __shfl_down_sync(FULL_MASK, v, offset);
    return v;
}

__device__ __forceinline__ double warp_reduce_sum(double v)
{
#pragma unroll
    for (int offset = 16; offset > 0; offset >>= 1)
        v += __shfl_down_sync(FULL_MASK, v, offset);
    return v;
}

// Classic "reduce6": each thread sums two elements per grid step, then a
// shared-memory tree down to one warp, then an unrolled warp stage.
template <unsigned BLOCK>
__global__ void reduce_sum_shared(const float *__restrict__ in, float *__restrict__ partial, unsigned n)
{
    __shared__ float sdata[BLOCK];
    unsigned tid = threadIdx.x;
    unsigned i = blockIdx.x * (BLOCK * 2) + tid;
    unsigned gridSize = BLOCK * 2 * gridDim.x;

    float sum = 0.0f;
    while (i < n) {
        sum += in[i];
        if (i + BLOCK < n)
            sum += in[i + BLOCK];
        i += gridSize;
    }
    sdata[tid] = sum;
    __syncthreads();

    if (BLOCK >= 512) { if (tid < 256) sdata[tid] = sum = sum + sdata[tid + 256]; __syncthreads(); }
    if (BLOCK >= 256) { if (tid < 128) sdata[tid] = sum = sum + sdata[tid + 128]; __syncthreads(); }
    if (BLOCK >= 128) { if (tid < 64) sdata[tid] = sum = sum + sdata[tid + 64]; __syncthreads(); }

    if (tid < 32) {
        if (BLOCK >= 64) sum += sdata[tid + 32];
        sum = warp_reduce_sum(sum);
    }
    if (tid == 0)
        partial[blockIdx.x] = sum;
}

template __global__ void reduce_sum_shared<256>(const float *, float *, unsigned);

// Block reduction built only from warp shuffles; the block total is added
// to a global accumulator with one atomic per block.
__global__ void reduce_sum_shfl_atomic(const float *__restrict__ in, float *__restrict__ total, int n)
{
    __shared__ float warp_sums[32];
    float sum = 0.0f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        sum += in[i];

    int lane = threadIdx.x & 31;
    int warp = threadIdx.x >> 5;
    sum = warp_reduce_sum(sum);
    if (lane == 0)
        warp_sums[warp] = sum;
    __syncthreads();

    int nwarps = (blockDim.x + 31) >> 5;
    if (warp == 0) {
        sum = lane < nwarps ? warp_sums[lane] : 0.0f;
        sum = warp_reduce_sum(sum);
        if (lane == 0)
            atomicAdd(total, sum);
    }
}

// Min and max with the index of the maximum, one pass.
__global__ void reduce_minmax_argmax(const float *__restrict__ in, int n,
                                     float *__restrict__ out_min, float *__restrict__ out_max,
                                     int *__restrict__ out_argmax)
{
    __shared__ float smin[256];
    __shared__ float smax[256];
    __shared__ int sidx[256];

    float vmin = FLT_MAX, vmax = -FLT_MAX;
    int imax = -1;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        float v = in[i];
        vmin = fminf(vmin, v);
        if (v > vmax) {
            vmax = v;
            imax = i;
        }
    }
    int t = threadIdx.x;
    smin[t] = vmin;
    smax[t] = vmax;
    sidx[t] = imax;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (t < s) {
            smin[t] = fminf(smin[t], smin[t + s]);
            float other = smax[t + s];
            int oi = sidx[t + s];
            if (other > smax[t] || (other == smax[t] && oi >= 0 && oi < sidx[t])) {
                smax[t] = other;
                sidx[t] = oi;
            }
        }
        __syncthreads();
    }
    if (t == 0) {
        out_min[blockIdx.x] = smin[0];
        out_max[blockIdx.x] = smax[0];
        out_argmax[blockIdx.x] = sidx[0];
    }
}

// Double-precision dot product: grid-stride, two accumulators, warp + block.
__global__ void reduce_ddot(const double *__restrict__ x, const double *__restrict__ y,
                            double *__restrict__ partial, long n)
{
    __shared__ double warp_sums[32];
    double acc0 = 0.0, acc1 = 0.0;
    long stride = (long)blockDim.x * gridDim.x;
    long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    for (; i + stride < n; i += 2 * stride) {
        acc0 = fma(x[i], y[i], acc0);
        acc1 = fma(x[i + stride], y[i + stride], acc1);
    }
    if (i < n)
        acc0 = fma(x[i], y[i], acc0);
    double sum = warp_reduce_sum(acc0 + acc1);
    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    if (lane == 0)
        warp_sums[warp] = sum;
    __syncthreads();
    if (warp == 0) {
        sum = lane < (int)(blockDim.x >> 5) ? warp_sums[lane] : 0.0;
        sum = warp_reduce_sum(sum);
        if (lane == 0)
            partial[blockIdx.x] = sum;
    }
}

// Integer reduction of a predicate count plus sum of squares, both per block.
__global__ void reduce_count_sumsq(const int *__restrict__ in, int n, int threshold,
                                   unsigned long long *__restrict__ count,
                                   unsigned long long *__restrict__ sumsq)
{
    unsigned c = 0;
    unsigned long long s = 0;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        int v = in[i];
        c += v > threshold;
        s += (unsigned long long)((long long)v * v);
    }
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) {
        c += __shfl_xor_sync(FULL_MASK, c, o);
        s += __shfl_xor_sync(FULL_MASK, s, o);
    }
    if ((threadIdx.x & 31) == 0) {
        atomicAdd(count, (unsigned long long)c);
        atomicAdd(sumsq, s);
    }
}
