// Row-wise softmax and normalisation layers (float).
#include <cfloat>

#define FULL_MASK 0xffffffffu

__device__ __forceinline__ float warp_max(float v)
{
#pragma unroll
    for (int o = 16; o > 0; o >>= 1)
        v = fmaxf(v, __shfl_xor_sync(FULL_MASK, v, o));
    return v;
}

__device__ __forceinline__ float warp_sum(float v)
{
#pragma unroll
    for (int o = 16; o > 0; o >>= 1)
        v += __shfl_xor_sync(FULL_MASK, v, o);
    return v;
}

// Reduce across the block; every thread gets the result. sbuf has 32 slots.
__device__ float block_max(float v, float *sbuf)
{
    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    v = warp_max(v);
    __syncthreads();
    if (lane == 0)
        sbuf[warp] = v;
    __syncthreads();
    int nw = (blockDim.x + 31) >> 5;
    v = lane < nw ? sbuf[lane] : -FLT_MAX;
    return warp_max(v);
}

__device__ float block_sum(float v, float *sbuf)
{
    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    v = warp_sum(v);
    __syncthreads();
    if (lane == 0)
        sbuf[warp] = v;
    __syncthreads();
    int nw = (blockDim.x + 31) >> 5;
    v = lane < nw ? sbuf[lane] : 0.0f;
    return warp_sum(v);
}

// One block per row, three passes over the row.
__global__ void softmax_rows_block(const float *__restrict__ x, float *__restrict__ y, int cols)
{
    __shared__ float sbuf[32];
    const float *row = x + (size_t)blockIdx.x * cols;
    float *orow = y + (size_t)blockIdx.x * cols;

    float m = -FLT_MAX;
    for (int c = threadIdx.x; c < cols; c += blockDim.x)
        m = fmaxf(m, row[c]);
    m = block_max(m, sbuf);

    float s = 0.0f;
    for (int c = threadIdx.x; c < cols; c += blockDim.x)
        s += __expf(row[c] - m);
    s = block_sum(s, sbuf);
    float inv = 1.0f / s;

    for (int c = threadIdx.x; c < cols; c += blockDim.x)
        orow[c] = __expf(row[c] - m) * inv;
}

// One warp per row, online softmax (running max and rescaled sum), with
// an optional causal mask and scale as in attention.
__global__ void softmax_rows_warp_online(const float *__restrict__ x, float *__restrict__ y,
                                         int rows, int cols, float scale, int causal)
{
    int warps_per_block = blockDim.x >> 5;
    int row = blockIdx.x * warps_per_block + (threadIdx.x >> 5);
    int lane = threadIdx.x & 31;
    if (row >= rows)
        return;
    const float *xr = x + (size_t)row * cols;
    float *yr = y + (size_t)row * cols;
    int limit = causal ? min(cols, row + 1) : cols;

    float m = -FLT_MAX, d = 0.0f;
    for (int c = lane; c < limit; c += 32) {
        float v = xr[c] * scale;
        float nm = fmaxf(m, v);
        d = d * __expf(m - nm) + __expf(v - nm);
        m = nm;
    }
    // combine (m, d) pairs across the warp
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) {
        float om = __shfl_xor_sync(FULL_MASK, m, o);
        float od = __shfl_xor_sync(FULL_MASK, d, o);
        float nm = fmaxf(m, om);
        d = d * __expf(m - nm) + od * __expf(om - nm);
        m = nm;
    }
    float inv = 1.0f / d;
    for (int c = lane; c < cols; c += 32)
        yr[c] = c < limit ? __expf(xr[c] * scale - m) * inv : 0.0f;
}

// LayerNorm forward, one block per row; Welford in each thread, merged
// through shared memory. Writes mean and rstd for the backward pass.
__global__ void layernorm_fwd(const float *__restrict__ x, const float *__restrict__ gamma,
                              const float *__restrict__ beta, float *__restrict__ y,
                              float *__restrict__ mean_out, float *__restrict__ rstd_out,
                              int cols, float eps)
{
    __shared__ float s_mean[256];
    __shared__ float s_m2[256];
    __shared__ float s_cnt[256];
    const float *xr = x + (size_t)blockIdx.x * cols;
    float *yr = y + (size_t)blockIdx.x * cols;

    float mean = 0.0f, m2 = 0.0f, cnt = 0.0f;
    for (int c = threadIdx.x; c < cols; c += blockDim.x) {
        float v = xr[c];
        cnt += 1.0f;
        float delta = v - mean;
        mean += delta / cnt;
        m2 += delta * (v - mean);
    }
    int t = threadIdx.x;
    s_mean[t] = mean;
    s_m2[t] = m2;
    s_cnt[t] = cnt;
    __syncthreads();
    for (int s = blockDim.x >> 1; s > 0; s >>= 1) {
        if (t < s) {
            float na = s_cnt[t], nb = s_cnt[t + s];
            float n = na + nb;
            if (nb > 0.0f) {
                float delta = s_mean[t + s] - s_mean[t];
                float f = nb / n;
                s_mean[t] += delta * f;
                s_m2[t] += s_m2[t + s] + delta * delta * na * f;
                s_cnt[t] = n;
            }
        }
        __syncthreads();
    }
    float mu = s_mean[0];
    float var = s_m2[0] / (float)cols;
    float rstd = rsqrtf(var + eps);
    if (t == 0) {
        mean_out[blockIdx.x] = mu;
        rstd_out[blockIdx.x] = rstd;
    }
    for (int c = threadIdx.x; c < cols; c += blockDim.x)
        yr[c] = (xr[c] - mu) * rstd * gamma[c] + beta[c];
}

// RMSNorm with float4 vector loads when the row is aligned.
__global__ void rmsnorm_fwd(const float *__restrict__ x, const float *__restrict__ w,
                            float *__restrict__ y, int cols, float eps)
{
    __shared__ float sbuf[32];
    const float *xr = x + (size_t)blockIdx.x * cols;
    float *yr = y + (size_t)blockIdx.x * cols;
    float ss = 0.0f;
    if ((cols & 3) == 0) {
        const float4 *x4 = reinterpret_cast<const float4 *>(xr);
        for (int c = threadIdx.x; c < cols / 4; c += blockDim.x) {
            float4 v = x4[c];
            ss += v.x * v.x + v.y * v.y + v.z * v.z + v.w * v.w;
        }
    } else {
        for (int c = threadIdx.x; c < cols; c += blockDim.x)
            ss += xr[c] * xr[c];
    }
    ss = block_sum(ss, sbuf);
    float r = rsqrtf(ss / (float)cols + eps);
    for (int c = threadIdx.x; c < cols; c += blockDim.x)
        yr[c] = xr[c] * r * w[c];
}
