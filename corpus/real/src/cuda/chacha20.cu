// ChaCha20 (RFC 8439): block function and counter-mode keystream XOR.
#include <cstdint>

#define QR(a, b, c, d)                      \
    a += b; d ^= a; d = __funnelshift_l(d, d, 16); \
    c += d; b ^= c; b = __funnelshift_l(b, b, 12); \
    a += b; d ^= a; d = __funnelshift_l(d, d, 8);  \
    c += d; b ^= c; b = __funnelshift_l(b, b, 7);

__device__ __forceinline__ void chacha20_block(uint32_t out[16], const uint32_t key[8],
                                               uint32_t counter, const uint32_t nonce[3])
{
    uint32_t x[16];
    x[0] = 0x61707865u; x[1] = 0x3320646eu; x[2] = 0x79622d32u; x[3] = 0x6b206574u;
#pragma unroll
    for (int i = 0; i < 8; ++i)
        x[4 + i] = key[i];
    x[12] = counter;
    x[13] = nonce[0];
    x[14] = nonce[1];
    x[15] = nonce[2];
    uint32_t s[16];
#pragma unroll
    for (int i = 0; i < 16; ++i)
        s[i] = x[i];
#pragma unroll 1
    for (int round = 0; round < 10; ++round) {
        QR(x[0], x[4], x[8], x[12])
        QR(x[1], x[5], x[9], x[13])
        QR(x[2], x[6], x[10], x[14])
        QR(x[3], x[7], x[11], x[15])
        QR(x[0], x[5], x[10], x[15])
        QR(x[1], x[6], x[11], x[12])
        QR(x[2], x[7], x[8], x[13])
        QR(x[3], x[4], x[9], x[14])
    }
#pragma unroll
    for (int i = 0; i < 16; ++i)
        out[i] = x[i] + s[i];
}

// Each thread produces one 64-byte keystream block and XORs it into the
// buffer (uint4 vector accesses). The key and nonce are kernel arguments.
__global__ void chacha20_xor(uint4 *__restrict__ data, size_t nblocks, uint4 key_lo, uint4 key_hi,
                             uint32_t nonce0, uint32_t nonce1, uint32_t nonce2, uint32_t counter0)
{
    uint32_t key[8] = {key_lo.x, key_lo.y, key_lo.z, key_lo.w, key_hi.x, key_hi.y, key_hi.z, key_hi.w};
    uint32_t nonce[3] = {nonce0, nonce1, nonce2};
    for (size_t b = blockIdx.x * (size_t)blockDim.x + threadIdx.x; b < nblocks;
         b += (size_t)blockDim.x * gridDim.x) {
        uint32_t ks[16];
        chacha20_block(ks, key, counter0 + (uint32_t)b, nonce);
#pragma unroll
        for (int q = 0; q < 4; ++q) {
            uint4 v = data[b * 4 + q];
            v.x ^= ks[4 * q + 0];
            v.y ^= ks[4 * q + 1];
            v.z ^= ks[4 * q + 2];
            v.w ^= ks[4 * q + 3];
            data[b * 4 + q] = v;
        }
    }
}
