// MD5: one single-block message (<= 55 bytes) per thread, as in password
// hash searches.
#include <cstdint>

#define ROTL(x, c) (((x) << (c)) | ((x) >> (32 - (c))))

#define F(x, y, z) (((x) & (y)) | (~(x) & (z)))
#define G(x, y, z) (((x) & (z)) | ((y) & ~(z)))
#define H(x, y, z) ((x) ^ (y) ^ (z))
#define I(x, y, z) ((y) ^ ((x) | ~(z)))

#define STEP(f, a, b, c, d, x, t, s) \
    (a) += f((b), (c), (d)) + (x) + (t); \
    (a) = ROTL((a), (s)); \
    (a) += (b);

__device__ __forceinline__ void md5_compress(uint32_t st[4], const uint32_t M[16])
{
    uint32_t a = st[0], b = st[1], c = st[2], d = st[3];

    STEP(F, a, b, c, d, M[0], 0xd76aa478, 7)
    STEP(F, d, a, b, c, M[1], 0xe8c7b756, 12)
    STEP(F, c, d, a, b, M[2], 0x242070db, 17)
    STEP(F, b, c, d, a, M[3], 0xc1bdceee, 22)
    STEP(F, a, b, c, d, M[4], 0xf57c0faf, 7)
    STEP(F, d, a, b, c, M[5], 0x4787c62a, 12)
    STEP(F, c, d, a, b, M[6], 0xa8304613, 17)
    STEP(F, b, c, d, a, M[7], 0xfd469501, 22)
    STEP(F, a, b, c, d, M[8], 0x698098d8, 7)
    STEP(F, d, a, b, c, M[9], 0x8b44f7af, 12)
    STEP(F, c, d, a, b, M[10], 0xffff5bb1, 17)
    STEP(F, b, c, d, a, M[11], 0x895cd7be, 22)
    STEP(F, a, b, c, d, M[12], 0x6b901122, 7)
    STEP(F, d, a, b, c, M[13], 0xfd987193, 12)
    STEP(F, c, d, a, b, M[14], 0xa679438e, 17)
    STEP(F, b, c, d, a, M[15], 0x49b40821, 22)

    STEP(G, a, b, c, d, M[1], 0xf61e2562, 5)
    STEP(G, d, a, b, c, M[6], 0xc040b340, 9)
    STEP(G, c, d, a, b, M[11], 0x265e5a51, 14)
    STEP(G, b, c, d, a, M[0], 0xe9b6c7aa, 20)
    STEP(G, a, b, c, d, M[5], 0xd62f105d, 5)
    STEP(G, d, a, b, c, M[10], 0x02441453, 9)
    STEP(G, c, d, a, b, M[15], 0xd8a1e681, 14)
    STEP(G, b, c, d, a, M[4], 0xe7d3fbc8, 20)
    STEP(G, a, b, c, d, M[9], 0x21e1cde6, 5)
    STEP(G, d, a, b, c, M[14], 0xc33707d6, 9)
    STEP(G, c, d, a, b, M[3], 0xf4d50d87, 14)
    STEP(G, b, c, d, a, M[8], 0x455a14ed, 20)
    STEP(G, a, b, c, d, M[13], 0xa9e3e905, 5)
    STEP(G, d, a, b, c, M[2], 0xfcefa3f8, 9)
    STEP(G, c, d, a, b, M[7], 0x676f02d9, 14)
    STEP(G, b, c, d, a, M[12], 0x8d2a4c8a, 20)

    STEP(H, a, b, c, d, M[5], 0xfffa3942, 4)
    STEP(H, d, a, b, c, M[8], 0x8771f681, 11)
    STEP(H, c, d, a, b, M[11], 0x6d9d6122, 16)
    STEP(H, b, c, d, a, M[14], 0xfde5380c, 23)
    STEP(H, a, b, c, d, M[1], 0xa4beea44, 4)
    STEP(H, d, a, b, c, M[4], 0x4bdecfa9, 11)
    STEP(H, c, d, a, b, M[7], 0xf6bb4b60, 16)
    STEP(H, b, c, d, a, M[10], 0xbebfbc70, 23)
    STEP(H, a, b, c, d, M[13], 0x289b7ec6, 4)
    STEP(H, d, a, b, c, M[0], 0xeaa127fa, 11)
    STEP(H, c, d, a, b, M[3], 0xd4ef3085, 16)
    STEP(H, b, c, d, a, M[6], 0x04881d05, 23)
    STEP(H, a, b, c, d, M[9], 0xd9d4d039, 4)
    STEP(H, d, a, b, c, M[12], 0xe6db99e5, 11)
    STEP(H, c, d, a, b, M[15], 0x1fa27cf8, 16)
    STEP(H, b, c, d, a, M[2], 0xc4ac5665, 23)

    STEP(I, a, b, c, d, M[0], 0xf4292244, 6)
    STEP(I, d, a, b, c, M[7], 0x432aff97, 10)
    STEP(I, c, d, a, b, M[14], 0xab9423a7, 15)
    STEP(I, b, c, d, a, M[5], 0xfc93a039, 21)
    STEP(I, a, b, c, d, M[12], 0x655b59c3, 6)
    STEP(I, d, a, b, c, M[3], 0x8f0ccc92, 10)
    STEP(I, c, d, a, b, M[10], 0xffeff47d, 15)
    STEP(I, b, c, d, a, M[1], 0x85845dd1, 21)
    STEP(I, a, b, c, d, M[8], 0x6fa87e4f, 6)
    STEP(I, d, a, b, c, M[15], 0xfe2ce6e0, 10)
    STEP(I, c, d, a, b, M[6], 0xa3014314, 15)
    STEP(I, b, c, d, a, M[13], 0x4e0811a1, 21)
    STEP(I, a, b, c, d, M[4], 0xf7537e82, 6)
    STEP(I, d, a, b, c, M[11], 0xbd3af235, 10)
    STEP(I, c, d, a, b, M[2], 0x2ad7d2bb, 15)
    STEP(I, b, c, d, a, M[9], 0xeb86d391, 21)

    st[0] += a;
    st[1] += b;
    st[2] += c;
    st[3] += d;
}

// Candidates are fixed-stride, NUL-padded strings of up to 55 bytes. The
// thread pads its message and reports a match against the target digest.
__global__ void md5_search(const uint8_t *__restrict__ candidates, int stride, int count,
                           uint4 target, int *__restrict__ found, uint4 *__restrict__ digests)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= count)
        return;
    const uint8_t *msg = candidates + (size_t)i * stride;
    uint32_t M[16];
#pragma unroll
    for (int w = 0; w < 16; ++w)
        M[w] = 0;
    int len = 0;
    while (len < 55 && len < stride && msg[len])
        ++len;
    for (int k = 0; k < len; ++k)
        M[k >> 2] |= (uint32_t)msg[k] << ((k & 3) * 8);
    M[len >> 2] |= 0x80u << ((len & 3) * 8);
    M[14] = (uint32_t)len * 8;

    uint32_t st[4] = {0x67452301u, 0xefcdab89u, 0x98badcfeu, 0x10325476u};
    md5_compress(st, M);
    if (digests)
        digests[i] = make_uint4(st[0], st[1], st[2], st[3]);
    if (st[0] == target.x && st[1] == target.y && st[2] == target.z && st[3] == target.w)
        atomicMin(found, i);
}
