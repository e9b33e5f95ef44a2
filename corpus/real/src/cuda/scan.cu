// Prefix sums: Blelloch work-efficient exclusive scan, Kogge-Stone
// inclusive scan (double buffered), warp-shuffle scan, block-sum fix-up.

#define FULL_MASK 0xffffffffu
#define LOG_NUM_BANKS 5
#define CONFLICT_FREE_OFFSET(n) ((n) >> LOG_NUM_BANKS)

// One block scans 2*blockDim.x elements; block totals go to sums[] for a
// second pass.
__global__ void scan_blelloch(const float *__restrict__ in, float *__restrict__ out,
                              float *__restrict__ sums, int n)
{
    extern __shared__ float temp[];
    int tid = threadIdx.x;
    int m = 2 * blockDim.x;
    int base = blockIdx.x * m;

    int ai = tid;
    int bi = tid + blockDim.x;
    int bankOffsetA = CONFLICT_FREE_OFFSET(ai);
    int bankOffsetB = CONFLICT_FREE_OFFSET(bi);
    temp[ai + bankOffsetA] = (base + ai < n) ? in[base + ai] : 0.0f;
    temp[bi + bankOffsetB] = (base + bi < n) ? in[base + bi] : 0.0f;

    int offset = 1;
    // up-sweep
    for (int d = m >> 1; d > 0; d >>= 1) {
        __syncthreads();
        if (tid < d) {
            int a = offset * (2 * tid + 1) - 1;
            int b = offset * (2 * tid + 2) - 1;
            a += CONFLICT_FREE_OFFSET(a);
            b += CONFLICT_FREE_OFFSET(b);
            temp[b] += temp[a];
        }
        offset *= 2;
    }
    if (tid == 0) {
        int last = m - 1 + CONFLICT_FREE_OFFSET(m - 1);
        if (sums)
            sums[blockIdx.x] = temp[last];
        temp[last] = 0.0f;
    }
    // down-sweep
    for (int d = 1; d < m; d *= 2) {
        offset >>= 1;
        __syncthreads();
        if (tid < d) {
            int a = offset * (2 * tid + 1) - 1;
            int b = offset * (2 * tid + 2) - 1;
            a += CONFLICT_FREE_OFFSET(a);
            b += CONFLICT_FREE_OFFSET(b);
            float t = temp[a];
            temp[a] = temp[b];
            temp[b] += t;
        }
    }
    __syncthreads();
    if (base + ai < n)
        out[base + ai] = temp[ai + bankOffsetA];
    if (base + bi < n)
        out[base + bi] = temp[bi + bankOffsetB];
}

// Hillis-Steele / Kogge-Stone inclusive scan with two shared buffers.
__global__ void scan_kogge_stone(const int *__restrict__ in, int *__restrict__ out, int n)
{
    extern __shared__ int buf[];
    int *src = buf;
    int *dst = buf + blockDim.x;
    int tid = threadIdx.x;
    int g = blockIdx.x * blockDim.x + tid;
    src[tid] = g < n ? in[g] : 0;
    __syncthreads();
    for (int offset = 1; offset < blockDim.x; offset <<= 1) {
        int v = src[tid];
        if (tid >= offset)
            v += src[tid - offset];
        dst[tid] = v;
        __syncthreads();
        int *t = src;
        src = dst;
        dst = t;
    }
    if (g < n)
        out[g] = src[tid];
}

__device__ __forceinline__ unsigned warp_inclusive_scan(unsigned v, int lane)
{
#pragma unroll
    for (int d = 1; d < 32; d <<= 1) {
        unsigned t = __shfl_up_sync(FULL_MASK, v, d);
        if (lane >= d)
            v += t;
    }
    return v;
}

// Block-wide exclusive scan from warp scans; returns the block total too.
__global__ void scan_warp_shfl(const unsigned *__restrict__ in, unsigned *__restrict__ out,
                               unsigned *__restrict__ block_totals, int n)
{
    __shared__ unsigned warp_tot[32];
    int g = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 31;
    int warp = threadIdx.x >> 5;
    unsigned v = g < n ? in[g] : 0u;
    unsigned inc = warp_inclusive_scan(v, lane);
    if (lane == 31)
        warp_tot[warp] = inc;
    __syncthreads();
    if (warp == 0) {
        int nw = blockDim.x >> 5;
        unsigned w = lane < nw ? warp_tot[lane] : 0u;
        w = warp_inclusive_scan(w, lane);
        if (lane < nw)
            warp_tot[lane] = w;
    }
    __syncthreads();
    unsigned prefix = warp > 0 ? warp_tot[warp - 1] : 0u;
    if (g < n)
        out[g] = prefix + inc - v;
    if (threadIdx.x == blockDim.x - 1 && block_totals)
        block_totals[blockIdx.x] = prefix + inc;
}

// Second pass: add the scanned block totals to every element of a block.
__global__ void scan_add_block_offsets(float *__restrict__ data, const float *__restrict__ offsets,
                                       int n, int per_block)
{
    __shared__ float off;
    if (threadIdx.x == 0)
        off = offsets[blockIdx.x];
    __syncthreads();
    int base = blockIdx.x * per_block;
    for (int i = threadIdx.x; i < per_block; i += blockDim.x) {
        int g = base + i;
        if (g < n)
            data[g] += off;
    }
}

// Segmented inclusive scan over flags with warp shuffles (head flags).
__global__ void scan_segmented_warp(const float *__restrict__ in, const int *__restrict__ head,
                                    float *__restrict__ out, int n)
{
    int g = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 31;
    float v = g < n ? in[g] : 0.0f;
    int f = g < n ? head[g] : 1;
    unsigned heads = __ballot_sync(FULL_MASK, f);
    // distance to the segment head at or below this lane
    unsigned below = heads & (0xffffffffu >> (31 - lane));
    int seg_start = below ? 31 - __clz(below) : 0;
#pragma unroll
    for (int d = 1; d < 32; d <<= 1) {
        float t = __shfl_up_sync(FULL_MASK, v, d);
        if (lane - d >= seg_start)
            v += t;
    }
    if (g < n)
        out[g] = v;
}
