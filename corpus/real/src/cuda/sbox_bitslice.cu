// A bit-sliced S-box other than DES: the AES S-box computed as inversion
// in GF(2^8) followed by the affine map (x^254 by squarings, which are
// linear, and multiplications, which are AND/XOR networks). Each uint32_t
// holds one bit of 32 independent bytes.
#include <cstdint>

// c = a * b in GF(2^8) mod x^8 + x^4 + x^3 + x + 1, bit-sliced (a[0] = LSB).
__device__ __forceinline__ void gf256_mul_bs(const uint32_t a[8], const uint32_t b[8], uint32_t c[8])
{
    uint32_t p[15];
#pragma unroll
    for (int k = 0; k < 15; ++k)
        p[k] = 0;
#pragma unroll
    for (int i = 0; i < 8; ++i)
#pragma unroll
        for (int j = 0; j < 8; ++j)
            p[i + j] ^= a[i] & b[j];
    // reduce x^k for k = 14..8: x^8 = x^4 + x^3 + x + 1
#pragma unroll
    for (int k = 14; k >= 8; --k) {
        p[k - 4] ^= p[k];
        p[k - 5] ^= p[k];
        p[k - 7] ^= p[k];
        p[k - 8] ^= p[k];
    }
#pragma unroll
    for (int k = 0; k < 8; ++k)
        c[k] = p[k];
}

// a^2, linear over GF(2): spread bits to even positions then reduce.
__device__ __forceinline__ void gf256_sq_bs(const uint32_t a[8], uint32_t c[8])
{
    uint32_t p[15];
#pragma unroll
    for (int k = 0; k < 15; ++k)
        p[k] = (k & 1) ? 0u : a[k >> 1];
#pragma unroll
    for (int k = 14; k >= 8; --k) {
        p[k - 4] ^= p[k];
        p[k - 5] ^= p[k];
        p[k - 7] ^= p[k];
        p[k - 8] ^= p[k];
    }
#pragma unroll
    for (int k = 0; k < 8; ++k)
        c[k] = p[k];
}

__device__ __forceinline__ void aes_sbox_bs(uint32_t x[8])
{
    // x^254 with 4 multiplications: x^3 = x^2 x, x^12 = (x^3)^4,
    // x^15 = x^12 x^3, x^240 = (x^15)^16, x^252 = x^240 x^12, x^254 = x^252 x^2
    uint32_t x2[8], x3[8], x12[8], x15[8], t[8], acc[8];
    gf256_sq_bs(x, x2);
    gf256_mul_bs(x2, x, x3);
    gf256_sq_bs(x3, t);
    gf256_sq_bs(t, x12);
    gf256_mul_bs(x12, x3, x15);
#pragma unroll
    for (int k = 0; k < 8; ++k)
        t[k] = x15[k];
#pragma unroll
    for (int step = 0; step < 4; ++step) {
        uint32_t u[8];
        gf256_sq_bs(t, u);
#pragma unroll
        for (int k = 0; k < 8; ++k)
            t[k] = u[k];
    }
    gf256_mul_bs(t, x12, acc);
    gf256_mul_bs(acc, x2, t);
#pragma unroll
    for (int k = 0; k < 8; ++k)
        acc[k] = t[k];
    // affine: b_i = a_i ^ a_{i+4} ^ a_{i+5} ^ a_{i+6} ^ a_{i+7} ^ c_i, c = 0x63
#pragma unroll
    for (int i = 0; i < 8; ++i) {
        uint32_t v = acc[i] ^ acc[(i + 4) & 7] ^ acc[(i + 5) & 7] ^ acc[(i + 6) & 7] ^ acc[(i + 7) & 7];
        x[i] = ((0x63 >> i) & 1) ? ~v : v;
    }
}

// SubBytes on bit-sliced planes: planes[s*8 + bit] for slice s.
__global__ void aes_subbytes_bitsliced(uint32_t *__restrict__ planes, int nslices)
{
    for (int s = blockIdx.x * blockDim.x + threadIdx.x; s < nslices; s += blockDim.x * gridDim.x) {
        uint32_t x[8];
#pragma unroll
        for (int k = 0; k < 8; ++k)
            x[k] = planes[(size_t)s * 8 + k];
        aes_sbox_bs(x);
#pragma unroll
        for (int k = 0; k < 8; ++k)
            planes[(size_t)s * 8 + k] = x[k];
    }
}
