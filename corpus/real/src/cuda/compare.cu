// Comparisons that produce values: lane masks, match counts, set
// predicates on sorted arrays, min/max/clamp, NaN-aware selection.
#include <cstdint>

// out[i] = a[i] < b[i] ? all-ones : 0, for signed, unsigned and float.
__global__ void compare_masks(const int *__restrict__ a, const int *__restrict__ b,
                              const unsigned *__restrict__ ua, const unsigned *__restrict__ ub,
                              const float *__restrict__ fa, const float *__restrict__ fb, int n,
                              uint32_t *__restrict__ lt_s, uint32_t *__restrict__ ge_u,
                              uint32_t *__restrict__ eq_f, uint32_t *__restrict__ unord)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        lt_s[i] = (a[i] < b[i]) ? 0xffffffffu : 0u;
        ge_u[i] = (ua[i] >= ub[i]) ? 0xffffffffu : 0u;
        eq_f[i] = (fa[i] == fb[i]) ? 0xffffffffu : 0u;
        unord[i] = (fa[i] != fa[i] || fb[i] != fb[i]) ? 1u : 0u;
    }
}

// Count positions where two sequences agree, where they agree within a
// tolerance, and the first mismatch (as min over mismatching indices).
__global__ void count_matches(const int8_t *__restrict__ s, const int8_t *__restrict__ t,
                              const float *__restrict__ x, const float *__restrict__ y, float tol, int n,
                              unsigned *__restrict__ exact, unsigned *__restrict__ close,
                              int *__restrict__ first_mismatch)
{
    unsigned e = 0, c = 0;
    int first = n;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        bool same = s[i] == t[i];
        e += same;
        if (!same && i < first)
            first = i;
        c += fabsf(x[i] - y[i]) <= tol * fmaxf(fabsf(x[i]), fabsf(y[i]));
    }
    for (int o = 16; o > 0; o >>= 1) {
        e += __shfl_xor_sync(0xffffffffu, e, o);
        c += __shfl_xor_sync(0xffffffffu, c, o);
        first = min(first, __shfl_xor_sync(0xffffffffu, first, o));
    }
    if ((threadIdx.x & 31) == 0) {
        atomicAdd(exact, e);
        atomicAdd(close, c);
        atomicMin(first_mismatch, first);
    }
}

__device__ __forceinline__ int lower_bound(const int *__restrict__ v, int n, int key)
{
    int lo = 0, hi = n;
    while (lo < hi) {
        int mid = (lo + hi) >> 1;
        if (v[mid] < key)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

// Set predicates of a against sorted b: membership flag, rank, and whether
// a[i] falls in any of the half-open intervals [lo[j], hi[j]).
__global__ void set_predicates(const int *__restrict__ a, int na, const int *__restrict__ b, int nb,
                               const int *__restrict__ lo, const int *__restrict__ hi, int nint,
                               uint8_t *__restrict__ member, int *__restrict__ rank,
                               uint8_t *__restrict__ in_interval)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= na)
        return;
    int key = a[i];
    int p = lower_bound(b, nb, key);
    member[i] = (p < nb && b[p] == key) ? 1 : 0;
    rank[i] = p;
    bool inside = false;
    for (int j = 0; j < nint && !inside; ++j)
        inside = key >= lo[j] && key < hi[j];
    in_interval[i] = inside;
}

// Clamp, min/max and select in several types.
__global__ void clamp_minmax(const float *__restrict__ x, const int *__restrict__ k, const double *__restrict__ d,
                             int n, float lo, float hi, int ilo, int ihi,
                             float *__restrict__ xc, int *__restrict__ kc, double *__restrict__ dc,
                             uint8_t *__restrict__ sat)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        float v = x[i];
        float c = fminf(fmaxf(v, lo), hi);
        xc[i] = c;
        int kv = k[i];
        kc[i] = kv < ilo ? ilo : (kv > ihi ? ihi : kv);
        double dv = d[i];
        dc[i] = fmax(fmin(dv, (double)hi), (double)lo);
        uint8_t flags = 0;
        if (v < lo) flags |= 1;
        if (v > hi) flags |= 2;
        if (kv < ilo || kv > ihi) flags |= 4;
        if (isnan(v)) flags |= 8;
        sat[i] = flags;
    }
}

// Lexicographic compare of fixed-length keys (memcmp semantics) plus the
// sign as -1/0/1, and a stable argmin over triples.
__global__ void lexicographic_compare(const uint8_t *__restrict__ ka, const uint8_t *__restrict__ kb,
                                      int keylen, int n, int *__restrict__ cmp)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    const uint8_t *p = ka + (size_t)i * keylen, *q = kb + (size_t)i * keylen;
    int r = 0;
    for (int j = 0; j < keylen; ++j) {
        int d = (int)p[j] - (int)q[j];
        if (d != 0) {
            r = d;
            break;
        }
    }
    cmp[i] = (r > 0) - (r < 0);
}

__global__ void argmin3_select(const float *__restrict__ a, const float *__restrict__ b,
                               const float *__restrict__ c, int n, int *__restrict__ which,
                               float *__restrict__ val, float *__restrict__ median)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float x = a[i], y = b[i], z = c[i];
    int w = 0;
    float m = x;
    if (y < m) { m = y; w = 1; }
    if (z < m) { m = z; w = 2; }
    which[i] = w;
    val[i] = m;
    median[i] = fmaxf(fminf(x, y), fminf(fmaxf(x, y), z));
}
