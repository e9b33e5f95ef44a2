// Loops with several float accumulators that all start from 0.0f:
// moments, multi-dot products, unrolled partial sums and particle force
// sums.

// Mean, variance, skewness, kurtosis pieces of each column.
__global__ void column_moments(const float *__restrict__ x, int rows, int cols, float *__restrict__ out)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c >= cols)
        return;
    float s1 = 0.0f, s2 = 0.0f, s3 = 0.0f, s4 = 0.0f;
    float mn = 0.0f, mx = 0.0f;
    for (int r = 0; r < rows; ++r) {
        float v = x[(size_t)r * cols + c];
        float v2 = v * v;
        s1 += v;
        s2 += v2;
        s3 += v2 * v;
        s4 += v2 * v2;
        if (r == 0 || v < mn) mn = v;
        if (r == 0 || v > mx) mx = v;
    }
    float n = (float)rows;
    float mean = s1 / n;
    float var = s2 / n - mean * mean;
    out[c * 6 + 0] = mean;
    out[c * 6 + 1] = var;
    out[c * 6 + 2] = s3 / n - 3.0f * mean * s2 / n + 2.0f * mean * mean * mean;
    out[c * 6 + 3] = s4 / n;
    out[c * 6 + 4] = mn;
    out[c * 6 + 5] = mx;
}

// Four dot products against a shared vector in one pass.
__global__ void multi_dot4(const float *__restrict__ a, const float *__restrict__ b, const float *__restrict__ c,
                           const float *__restrict__ d, const float *__restrict__ v, int n, float *__restrict__ out)
{
    float da = 0.0f, db = 0.0f, dc = 0.0f, dd = 0.0f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        float vi = v[i];
        da += a[i] * vi;
        db += b[i] * vi;
        dc += c[i] * vi;
        dd += d[i] * vi;
    }
    for (int o = 16; o > 0; o >>= 1) {
        da += __shfl_down_sync(0xffffffffu, da, o);
        db += __shfl_down_sync(0xffffffffu, db, o);
        dc += __shfl_down_sync(0xffffffffu, dc, o);
        dd += __shfl_down_sync(0xffffffffu, dd, o);
    }
    if ((threadIdx.x & 31) == 0) {
        atomicAdd(&out[0], da);
        atomicAdd(&out[1], db);
        atomicAdd(&out[2], dc);
        atomicAdd(&out[3], dd);
    }
}

// Sum of a row unrolled by 8 with 8 independent accumulators.
__global__ void row_sum_unroll8(const float *__restrict__ x, int rows, int cols, float *__restrict__ out)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows)
        return;
    const float *p = x + (size_t)r * cols;
    float a0 = 0.0f, a1 = 0.0f, a2 = 0.0f, a3 = 0.0f, a4 = 0.0f, a5 = 0.0f, a6 = 0.0f, a7 = 0.0f;
    int k = 0;
    for (; k + 8 <= cols; k += 8) {
        a0 += p[k + 0];
        a1 += p[k + 1];
        a2 += p[k + 2];
        a3 += p[k + 3];
        a4 += p[k + 4];
        a5 += p[k + 5];
        a6 += p[k + 6];
        a7 += p[k + 7];
    }
    for (; k < cols; ++k)
        a0 += p[k];
    out[r] = ((a0 + a1) + (a2 + a3)) + ((a4 + a5) + (a6 + a7));
}

// Softened gravitational forces with shared-memory tiles (n-body style);
// three force accumulators plus potential energy, all from 0.0f.
__global__ void nbody_forces(const float4 *__restrict__ pos, float4 *__restrict__ acc, int n, float eps2)
{
    extern __shared__ float4 sh[];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float4 pi = i < n ? pos[i] : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    float ax = 0.0f, ay = 0.0f, az = 0.0f, pot = 0.0f;
    for (int tile = 0; tile < n; tile += blockDim.x) {
        int j = tile + threadIdx.x;
        sh[threadIdx.x] = j < n ? pos[j] : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
        __syncthreads();
#pragma unroll 4
        for (int k = 0; k < blockDim.x; ++k) {
            float4 pj = sh[k];
            float dx = pj.x - pi.x, dy = pj.y - pi.y, dz = pj.z - pi.z;
            float r2 = dx * dx + dy * dy + dz * dz + eps2;
            float inv = rsqrtf(r2);
            float inv3 = inv * inv * inv * pj.w;
            ax += dx * inv3;
            ay += dy * inv3;
            az += dz * inv3;
            pot -= pj.w * inv;
        }
        __syncthreads();
    }
    if (i < n)
        acc[i] = make_float4(ax, ay, az, pot);
}
