// SHA-256 with the full 64-round compression, in two forms (16-round
// unrolled passes over a ring schedule, and the rolled textbook loop kept
// out of line), used in a Bitcoin-style double SHA-256 nonce search.
#include <cstdint>

__constant__ uint32_t K256[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

__device__ __forceinline__ uint32_t rotr(uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }
__device__ __forceinline__ uint32_t Ch(uint32_t x, uint32_t y, uint32_t z) { return (x & y) ^ (~x & z); }
__device__ __forceinline__ uint32_t Maj(uint32_t x, uint32_t y, uint32_t z) { return (x & y) ^ (x & z) ^ (y & z); }
__device__ __forceinline__ uint32_t Sigma0(uint32_t x) { return rotr(x, 2) ^ rotr(x, 13) ^ rotr(x, 22); }
__device__ __forceinline__ uint32_t Sigma1(uint32_t x) { return rotr(x, 6) ^ rotr(x, 11) ^ rotr(x, 25); }
__device__ __forceinline__ uint32_t sigma0(uint32_t x) { return rotr(x, 7) ^ rotr(x, 18) ^ (x >> 3); }
__device__ __forceinline__ uint32_t sigma1(uint32_t x) { return rotr(x, 17) ^ rotr(x, 19) ^ (x >> 10); }

// 64 rounds as four passes of 16 unrolled rounds over a 16-word ring of the
// message schedule, which is advanced between passes.
__device__ __forceinline__ void sha256_compress(uint32_t H[8], const uint32_t in[16])
{
    uint32_t W[16];
#pragma unroll
    for (int i = 0; i < 16; ++i)
        W[i] = in[i];
    uint32_t a = H[0], b = H[1], c = H[2], d = H[3], e = H[4], f = H[5], g = H[6], h = H[7];
#pragma unroll 1
    for (int r = 0; r < 64; r += 16) {
#pragma unroll
        for (int j = 0; j < 16; ++j) {
            uint32_t t1 = h + Sigma1(e) + Ch(e, f, g) + K256[r + j] + W[j];
            uint32_t t2 = Sigma0(a) + Maj(a, b, c);
            h = g;
            g = f;
            f = e;
            e = d + t1;
            d = c;
            c = b;
            b = a;
            a = t1 + t2;
        }
        if (r == 48)
            break;
#pragma unroll
        for (int j = 0; j < 16; ++j)
            W[j] += sigma1(W[(j + 14) & 15]) + W[(j + 9) & 15] + sigma0(W[(j + 1) & 15]);
    }
    H[0] += a; H[1] += b; H[2] += c; H[3] += d;
    H[4] += e; H[5] += f; H[6] += g; H[7] += h;
}

// The textbook form: expand the whole 64-word schedule first, then one
// rolled loop of rounds. Kept out of line (a .func taking pointers).
__device__ __noinline__ void sha256_compress_rolled(uint32_t H[8], const uint32_t in[16])
{
    uint32_t W[64];
    for (int i = 0; i < 16; ++i)
        W[i] = in[i];
#pragma unroll 1
    for (int i = 16; i < 64; ++i)
        W[i] = sigma1(W[i - 2]) + W[i - 7] + sigma0(W[i - 15]) + W[i - 16];
    uint32_t a = H[0], b = H[1], c = H[2], d = H[3], e = H[4], f = H[5], g = H[6], h = H[7];
#pragma unroll 1
    for (int i = 0; i < 64; ++i) {
        uint32_t t1 = h + Sigma1(e) + Ch(e, f, g) + K256[i] + W[i];
        uint32_t t2 = Sigma0(a) + Maj(a, b, c);
        h = g;
        g = f;
        f = e;
        e = d + t1;
        d = c;
        c = b;
        b = a;
        a = t1 + t2;
    }
    H[0] += a; H[1] += b; H[2] += c; H[3] += d;
    H[4] += e; H[5] += f; H[6] += g; H[7] += h;
}

__device__ __forceinline__ void sha256_init(uint32_t H[8])
{
    H[0] = 0x6a09e667; H[1] = 0xbb67ae85; H[2] = 0x3c6ef372; H[3] = 0xa54ff53a;
    H[4] = 0x510e527f; H[5] = 0x9b05688c; H[6] = 0x1f83d9ab; H[7] = 0x5be0cd19;
}

// 80-byte block header: the first 64 bytes are pre-hashed into `mid`;
// the tail (3 words + nonce) is hashed per thread, then SHA-256 again.
// A thread reports its nonce if the top `zero_words` words are zero.
__global__ void sha256d_nonce_search(const uint32_t *__restrict__ mid, const uint32_t *__restrict__ tail,
                                     uint32_t nonce_base, int zero_words, uint32_t *__restrict__ result)
{
    uint32_t nonce = nonce_base + blockIdx.x * blockDim.x + threadIdx.x;
    uint32_t H[8];
#pragma unroll
    for (int i = 0; i < 8; ++i)
        H[i] = mid[i];
    uint32_t blk[16];
    blk[0] = tail[0];
    blk[1] = tail[1];
    blk[2] = tail[2];
    blk[3] = nonce;
    blk[4] = 0x80000000u;
#pragma unroll
    for (int i = 5; i < 15; ++i)
        blk[i] = 0;
    blk[15] = 640;
    sha256_compress(H, blk);

    uint32_t H2[8];
    sha256_init(H2);
#pragma unroll
    for (int i = 0; i < 8; ++i)
        blk[i] = H[i];
    blk[8] = 0x80000000u;
#pragma unroll
    for (int i = 9; i < 15; ++i)
        blk[i] = 0;
    blk[15] = 256;
    sha256_compress_rolled(H2, blk);

    bool ok = true;
    for (int i = 0; i < zero_words; ++i)
        ok = ok && H2[7 - i] == 0;
    if (ok)
        atomicExch(result, nonce);
}
