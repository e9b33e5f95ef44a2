// Warp votes and shuffles: compaction, early exit, leader election,
// warp-aggregated atomics, match counting.
#include <cstdint>

#define FULL_MASK 0xffffffffu

// Stream compaction of positive values; output order within a warp is
// preserved, warps reserve space with one atomic each.
__global__ void compact_positive(const float *__restrict__ in, int n, float *__restrict__ out,
                                 int *__restrict__ out_count)
{
    int lane = threadIdx.x & 31;
    for (int base = blockIdx.x * blockDim.x; base < n; base += blockDim.x * gridDim.x) {
        int i = base + threadIdx.x;
        float v = i < n ? in[i] : 0.0f;
        bool keep = i < n && v > 0.0f;
        unsigned mask = __ballot_sync(FULL_MASK, keep);
        int total = __popc(mask);
        int pos = 0;
        if (lane == 0 && total)
            pos = atomicAdd(out_count, total);
        pos = __shfl_sync(FULL_MASK, pos, 0);
        if (keep)
            out[pos + __popc(mask & ((1u << lane) - 1))] = v;
    }
}

// Warp-aggregated atomic increment: only the leader of the active lanes
// touches memory (as in the CUDA programming guide).
__device__ __forceinline__ int atomic_agg_inc(int *ctr)
{
    unsigned active = __activemask();
    int leader = __ffs(active) - 1;
    int lane = threadIdx.x & 31;
    int change = __popc(active);
    unsigned rank = __popc(active & ((1u << lane) - 1));
    int warp_res = 0;
    if (lane == leader)
        warp_res = atomicAdd(ctr, change);
    warp_res = __shfl_sync(active, warp_res, leader);
    return warp_res + rank;
}

__global__ void filter_indices_agg(const int *__restrict__ key, int n, int wanted,
                                   int *__restrict__ idx_out, int *__restrict__ ctr)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && key[i] == wanted)
        idx_out[atomic_agg_inc(ctr)] = i;
}

// Iterative search where a warp stops as soon as all lanes converged;
// per-element Newton iterations for cube roots with __all_sync/__any_sync.
__global__ void cbrt_newton_vote(const float *__restrict__ a, float *__restrict__ x_out,
                                 int *__restrict__ iters_out, int n, float tol, int max_iter)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    bool valid = i < n;
    float v = valid ? a[i] : 1.0f;
    float x = v > 1.0f ? v / 3.0f : 1.0f;
    int it = 0;
    bool done = !valid;
    while (!__all_sync(FULL_MASK, done) && it < max_iter) {
        if (!done) {
            float nx = x - (x * x * x - v) / (3.0f * x * x);
            done = fabsf(nx - x) <= tol * fabsf(nx);
            x = nx;
        }
        ++it;
    }
    bool any_fail = __any_sync(FULL_MASK, !done);
    if (valid) {
        x_out[i] = x;
        iters_out[i] = any_fail ? -it : it;
    }
}

// For each lane, the first lane (lowest) with the same key; count of equal
// keys within the warp, using ballots per distinct key (no __match_any).
__global__ void warp_key_groups(const int *__restrict__ keys, int n, int *__restrict__ first_lane,
                                int *__restrict__ group_size)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int k = i < n ? keys[i] : -1;
    unsigned pending = __ballot_sync(FULL_MASK, i < n);
    unsigned my_group = 0;
    while (pending) {
        int src = __ffs(pending) - 1;
        int kk = __shfl_sync(FULL_MASK, k, src);
        unsigned same = __ballot_sync(FULL_MASK, k == kk && i < n);
        if (k == kk)
            my_group = same;
        pending &= ~same;
    }
    if (i < n) {
        first_lane[i] = __ffs(my_group) - 1;
        group_size[i] = __popc(my_group);
    }
}

// Bitmap of a predicate per warp, written as one word per warp, plus
// block-level counts of set bits via __syncthreads_count.
__global__ void predicate_bitmap(const float *__restrict__ x, int n, float lo, float hi,
                                 unsigned *__restrict__ bitmap, int *__restrict__ block_counts)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    bool p = i < n && x[i] >= lo && x[i] < hi;
    unsigned bits = __ballot_sync(FULL_MASK, p);
    if ((threadIdx.x & 31) == 0 && (i < n))
        bitmap[i >> 5] = bits;
    int c = __syncthreads_count(p);
    if (threadIdx.x == 0)
        block_counts[blockIdx.x] = c;
}

// Warp-wide butterfly transpose of 32 words (each lane holds one row of a
// 32x32 bit matrix) using shuffles and masks (Hacker's Delight transpose32
// across lanes), rows written bit-reversed.
__global__ void bitmatrix_transpose32(const uint32_t *__restrict__ in, uint32_t *__restrict__ out, int nmat)
{
    int gw = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    int lane = threadIdx.x & 31;
    if (gw >= nmat)
        return;
    uint32_t v = in[gw * 32 + lane];
    uint32_t m = 0x0000ffffu;
#pragma unroll
    for (int j = 16; j > 0; j >>= 1, m ^= m << j) {
        uint32_t other = __shfl_xor_sync(FULL_MASK, v, j);
        if (lane & j) {
            uint32_t t = (other ^ (v >> j)) & m;
            v ^= t << j;
        } else {
            uint32_t t = (v ^ (other >> j)) & m;
            v ^= t;
        }
    }
    out[gw * 32 + lane] = __brev(v);
}
