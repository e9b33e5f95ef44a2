// Half and bfloat16 arithmetic: packed __half2 / __nv_bfloat162 math,
// mixed-precision accumulation and activation functions.
#include <cuda_fp16.h>
#include <cuda_bf16.h>

// y = a*x + y on __half2 pairs (n counts halves, n even).
__global__ void haxpy_half2(int n, __half a, const __half2 *__restrict__ x, __half2 *__restrict__ y)
{
    __half2 a2 = __half2half2(a);
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n / 2; i += blockDim.x * gridDim.x)
        y[i] = __hfma2(a2, x[i], y[i]);
}

// Dot product of half vectors: pairwise products in half2, accumulation in
// float (two accumulators), then a warp reduction.
__global__ void hdot_float_acc(int n, const __half2 *__restrict__ x, const __half2 *__restrict__ y,
                               float *__restrict__ result)
{
    float acc_lo = 0.0f, acc_hi = 0.0f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n / 2; i += blockDim.x * gridDim.x) {
        __half2 p = __hmul2(x[i], y[i]);
        float2 f = __half22float2(p);
        acc_lo += f.x;
        acc_hi += f.y;
    }
    float acc = acc_lo + acc_hi;
    for (int o = 16; o > 0; o >>= 1)
        acc += __shfl_down_sync(0xffffffffu, acc, o);
    if ((threadIdx.x & 31) == 0)
        atomicAdd(result, acc);
}

// Bias + ReLU + clamp on half2, with a NaN check via __hisnan2.
__global__ void bias_relu_half2(__half2 *__restrict__ x, const __half2 *__restrict__ bias, int cols2, int rows,
                                __half cap, int *__restrict__ nan_count)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= rows * cols2)
        return;
    __half2 v = __hadd2(x[i], bias[i % cols2]);
    __half2 zero = __float2half2_rn(0.0f);
    __half2 c2 = __half2half2(cap);
    __half2 nanm = __hisnan2(v);
    if (__hbne2(nanm, zero))
        atomicAdd(nan_count, 1);
    v = __hmax2(v, zero);
    v = __hmin2(v, c2);
    x[i] = v;
}

// GELU (tanh approximation) in bf16 storage, float math.
__global__ void gelu_bf16(const __nv_bfloat16 *__restrict__ x, __nv_bfloat16 *__restrict__ y, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        float v = __bfloat162float(x[i]);
        float u = 0.7978845608f * (v + 0.044715f * v * v * v);
        y[i] = __float2bfloat16(0.5f * v * (1.0f + tanhf(u)));
    }
}

// bf16x2 fused multiply-add, residual add, and SiLU gate on pairs (packed
// bf16 FMA needs sm_80; older targets go through float).
__global__ void swiglu_bf16x2(const __nv_bfloat162 *__restrict__ gate, const __nv_bfloat162 *__restrict__ up,
                              const __nv_bfloat162 *__restrict__ residual, __nv_bfloat162 *__restrict__ out,
                              __nv_bfloat16 alpha, int n2)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    __nv_bfloat162 alpha2 = __bfloat162bfloat162(alpha);
#endif
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n2; i += blockDim.x * gridDim.x) {
        float2 g = __bfloat1622float2(gate[i]);
        float2 silu = make_float2(g.x / (1.0f + __expf(-g.x)), g.y / (1.0f + __expf(-g.y)));
        __nv_bfloat162 s = __floats2bfloat162_rn(silu.x, silu.y);
        __nv_bfloat162 h = __hmul2(s, up[i]);
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
        out[i] = __hfma2(alpha2, h, residual[i]);
#else
        float2 hf = __bfloat1622float2(h), rf = __bfloat1622float2(residual[i]);
        float af = __bfloat162float(alpha);
        out[i] = __floats2bfloat162_rn(fmaf(af, hf.x, rf.x), fmaf(af, hf.y, rf.y));
#endif
    }
}

// Convert float to half and bf16 with per-block absmax scaling, and
// report the absmax.
__global__ void quantize_f32_to_f16_bf16(const float *__restrict__ x, int n, __half *__restrict__ h,
                                         __nv_bfloat16 *__restrict__ b, float *__restrict__ absmax)
{
    __shared__ float smax[32];
    float m = 0.0f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        float v = x[i];
        m = fmaxf(m, fabsf(v));
        h[i] = __float2half_rn(v);
        b[i] = __float2bfloat16_rn(v);
    }
    for (int o = 16; o > 0; o >>= 1)
        m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, o));
    if ((threadIdx.x & 31) == 0)
        smax[threadIdx.x >> 5] = m;
    __syncthreads();
    if (threadIdx.x == 0) {
        float bm = 0.0f;
        for (int w = 0; w < (int)(blockDim.x >> 5); ++w)
            bm = fmaxf(bm, smax[w]);
        absmax[blockIdx.x] = bm;
    }
}
