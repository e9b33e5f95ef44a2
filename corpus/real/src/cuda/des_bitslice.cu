// Bit-sliced DES S-boxes S1-S4 in the style of Matthew Kwan's bitslice
// DES: every uint32_t carries one bit of 32 independent blocks, and each
// S-box is a network of and/or/xor/not. The S-box bodies were produced by
// scripts/gen_bitslice_sboxes.py (Shannon expansion with shared
// sub-functions, checked against the DES tables) and are plain source here.
// Outputs are XORed into the destination, as in a DES round (L ^= f(R, K)).
#include <cstdint>

// DES S1: 101 gates (Shannon order a1 a3 a4 a5 a2 a6)
__device__ __forceinline__ void s1(uint32_t a1, uint32_t a2, uint32_t a3, uint32_t a4, uint32_t a5, uint32_t a6,
    uint32_t &out1, uint32_t &out2, uint32_t &out3, uint32_t &out4)
{
    uint32_t x1, x2, x3, x4, x5, x6, x7, x8, x9, x10, x11, x12, x13, x14, x15, x16, x17, x18, x19, x20, x21, x22, x23, x24, x25, x26, x27, x28, x29, x30, x31, x32, x33, x34, x35, x36, x37, x38, x39, x40, x41, x42, x43, x44, x45, x46, x47, x48, x49, x50, x51, x52, x53, x54, x55, x56, x57, x58, x59, x60, x61, x62, x63, x64, x65, x66, x67, x68, x69, x70, x71, x72, x73, x74, x75, x76, x77, x78, x79, x80, x81, x82, x83, x84, x85, x86, x87, x88, x89, x90, x91, x92, x93, x94, x95, x96, x97, x98, x99, x100, x101;
    x1 = ~a6;
    x2 = a2 ^ x1;
    x3 = a5 ^ x2;
    x4 = a5 & a6;
    x5 = a4 & x4;
    x6 = x3 ^ x5;
    x7 = ~a2;
    x8 = a4 & x3;
    x9 = x7 ^ x8;
    x10 = a3 & x9;
    x11 = x6 ^ x10;
    x12 = a2 & a6;
    x13 = x12 | ~a5;
    x14 = x1 & ~a2;
    x15 = a5 & a2;
    x16 = x14 ^ x15;
    x17 = a4 & x16;
    x18 = x13 ^ x17;
    x19 = ~x12;
    x20 = a5 & x19;
    x21 = a2 ^ x20;
    x22 = a5 ^ x14;
    x23 = a4 & x22;
    x24 = x21 ^ x23;
    x25 = a3 & x24;
    x26 = x18 ^ x25;
    x27 = a1 & x26;
    x28 = x11 ^ x27;
    x29 = a5 & a6;
    x30 = x14 ^ x29;
    x31 = ~x14;
    x32 = a5 & x7;
    x33 = x31 ^ x32;
    x34 = a4 & x33;
    x35 = x30 ^ x34;
    x36 = a5 & x1;
    x37 = x19 ^ x36;
    x38 = a6 & ~a5;
    x39 = a4 & x38;
    x40 = x37 ^ x39;
    x41 = a3 & x40;
    x42 = x35 ^ x41;
    x43 = a4 & x20;
    x44 = x33 ^ x43;
    x45 = a6 | ~a2;
    x46 = a5 & x31;
    x47 = x45 ^ x46;
    x48 = a5 & a6;
    x49 = x45 ^ x48;
    x50 = a4 & x49;
    x51 = x47 ^ x50;
    x52 = a3 & x51;
    x53 = x44 ^ x52;
    x54 = a1 & x53;
    x55 = x42 ^ x54;
    x56 = a2 | x1;
    x57 = a5 & x7;
    x58 = x56 ^ x57;
    x59 = a5 & x56;
    x60 = x45 ^ x59;
    x61 = a4 & x60;
    x62 = x58 ^ x61;
    x63 = a4 & x14;
    x64 = x33 ^ x63;
    x65 = a3 & x64;
    x66 = x62 ^ x65;
    x67 = ~x45;
    x68 = x67 & ~a5;
    x69 = a4 & x68;
    x70 = x60 ^ x69;
    x71 = a4 & x49;
    x72 = x68 ^ x71;
    x73 = a3 & x72;
    x74 = x70 ^ x73;
    x75 = a1 & x74;
    x76 = x66 ^ x75;
    x77 = ~x2;
    x78 = a5 & x77;
    x79 = x67 ^ x78;
    x80 = a5 & a2;
    x81 = x19 ^ x80;
    x82 = a4 & x81;
    x83 = x79 ^ x82;
    x84 = a5 | x12;
    x85 = a3 & x84;
    x86 = x83 ^ x85;
    x87 = a5 & x14;
    x88 = a6 ^ x87;
    x89 = a5 & x7;
    x90 = x1 ^ x89;
    x91 = a4 & x90;
    x92 = x88 ^ x91;
    x93 = ~x21;
    x94 = a5 & x1;
    x95 = x14 ^ x94;
    x96 = a4 & x95;
    x97 = x93 ^ x96;
    x98 = a3 & x97;
    x99 = x92 ^ x98;
    x100 = a1 & x99;
    x101 = x86 ^ x100;
    out1 ^= x28;
    out2 ^= x55;
    out3 ^= x76;
    out4 ^= x101;
}

// DES S2: 80 gates (Shannon order a4 a2 a3 a1 a5 a6)
__device__ __forceinline__ void s2(uint32_t a1, uint32_t a2, uint32_t a3, uint32_t a4, uint32_t a5, uint32_t a6,
    uint32_t &out1, uint32_t &out2, uint32_t &out3, uint32_t &out4)
{
    uint32_t x1, x2, x3, x4, x5, x6, x7, x8, x9, x10, x11, x12, x13, x14, x15, x16, x17, x18, x19, x20, x21, x22, x23, x24, x25, x26, x27, x28, x29, x30, x31, x32, x33, x34, x35, x36, x37, x38, x39, x40, x41, x42, x43, x44, x45, x46, x47, x48, x49, x50, x51, x52, x53, x54, x55, x56, x57, x58, x59, x60, x61, x62, x63, x64, x65, x66, x67, x68, x69, x70, x71, x72, x73, x74, x75, x76, x77, x78, x79, x80;
    x1 = ~a6;
    x2 = a5 ^ x1;
    x3 = x1 | ~a5;
    x4 = a1 & x3;
    x5 = x2 ^ x4;
    x6 = x3 | ~a1;
    x7 = a3 & x6;
    x8 = x5 ^ x7;
    x9 = a6 & ~a5;
    x10 = a1 & x9;
    x11 = a6 ^ x10;
    x12 = x1 & ~a1;
    x13 = a3 & x12;
    x14 = x11 ^ x13;
    x15 = a2 & x14;
    x16 = x8 ^ x15;
    x17 = a5 & x1;
    x18 = a1 & x17;
    x19 = a5 ^ x18;
    x20 = a2 | x19;
    x21 = a4 & x20;
    x22 = x16 ^ x21;
    x23 = a1 ^ x2;
    x24 = a3 & a6;
    x25 = x23 ^ x24;
    x26 = x18 | ~a3;
    x27 = a2 & x26;
    x28 = x25 ^ x27;
    x29 = a3 | x3;
    x30 = a1 & x17;
    x31 = x1 ^ x30;
    x32 = a2 & x31;
    x33 = x29 ^ x32;
    x34 = a4 & x33;
    x35 = x28 ^ x34;
    x36 = ~a5;
    x37 = a1 & x3;
    x38 = x36 ^ x37;
    x39 = a1 | a5;
    x40 = a3 & x39;
    x41 = x38 ^ x40;
    x42 = a1 & x2;
    x43 = x3 ^ x42;
    x44 = ~x17;
    x45 = a1 & x44;
    x46 = a6 ^ x45;
    x47 = a3 & x46;
    x48 = x43 ^ x47;
    x49 = a2 & x48;
    x50 = x41 ^ x49;
    x51 = x36 | ~a1;
    x52 = x2 & ~a1;
    x53 = a3 & x52;
    x54 = x51 ^ x53;
    x55 = a1 | x9;
    x56 = a3 & a1;
    x57 = x55 ^ x56;
    x58 = a2 & x57;
    x59 = x54 ^ x58;
    x60 = a4 & x59;
    x61 = x50 ^ x60;
    x62 = x9 | ~a1;
    x63 = x1 & ~a5;
    x64 = a1 & x63;
    x65 = x2 ^ x64;
    x66 = a3 & x65;
    x67 = x62 ^ x66;
    x68 = a1 & x9;
    x69 = x17 ^ x68;
    x70 = a3 & x69;
    x71 = x46 ^ x70;
    x72 = a2 & x71;
    x73 = x67 ^ x72;
    x74 = a1 | x3;
    x75 = a1 & a6;
    x76 = x17 ^ x75;
    x77 = a2 & x76;
    x78 = x74 ^ x77;
    x79 = a4 & x78;
    x80 = x73 ^ x79;
    out1 ^= x22;
    out2 ^= x35;
    out3 ^= x61;
    out4 ^= x80;
}

// DES S3: 88 gates (Shannon order a1 a3 a4 a5 a2 a6)
__device__ __forceinline__ void s3(uint32_t a1, uint32_t a2, uint32_t a3, uint32_t a4, uint32_t a5, uint32_t a6,
    uint32_t &out1, uint32_t &out2, uint32_t &out3, uint32_t &out4)
{
    uint32_t x1, x2, x3, x4, x5, x6, x7, x8, x9, x10, x11, x12, x13, x14, x15, x16, x17, x18, x19, x20, x21, x22, x23, x24, x25, x26, x27, x28, x29, x30, x31, x32, x33, x34, x35, x36, x37, x38, x39, x40, x41, x42, x43, x44, x45, x46, x47, x48, x49, x50, x51, x52, x53, x54, x55, x56, x57, x58, x59, x60, x61, x62, x63, x64, x65, x66, x67, x68, x69, x70, x71, x72, x73, x74, x75, x76, x77, x78, x79, x80, x81, x82, x83, x84, x85, x86, x87, x88;
    x1 = ~a2;
    x2 = a5 ^ x1;
    x3 = a2 ^ a6;
    x4 = ~a6;
    x5 = x4 & ~a2;
    x6 = a5 & x5;
    x7 = x3 ^ x6;
    x8 = a4 & x7;
    x9 = x2 ^ x8;
    x10 = a2 & x4;
    x11 = x10 | ~a5;
    x12 = a5 & a6;
    x13 = x1 ^ x12;
    x14 = a4 & x13;
    x15 = x11 ^ x14;
    x16 = a3 & x15;
    x17 = x9 ^ x16;
    x18 = ~x7;
    x19 = a4 & x18;
    x20 = x3 ^ x19;
    x21 = x13 & ~a4;
    x22 = a3 & x21;
    x23 = x20 ^ x22;
    x24 = a1 & x23;
    x25 = x17 ^ x24;
    x26 = a6 & ~a2;
    x27 = a5 & x10;
    x28 = x26 ^ x27;
    x29 = ~x5;
    x30 = a5 & x4;
    x31 = x29 ^ x30;
    x32 = a4 & x31;
    x33 = x28 ^ x32;
    x34 = ~x10;
    x35 = x34 & ~a5;
    x36 = a4 & a2;
    x37 = x35 ^ x36;
    x38 = a3 & x37;
    x39 = x33 ^ x38;
    x40 = a5 | x34;
    x41 = ~x13;
    x42 = a4 & x41;
    x43 = x40 ^ x42;
    x44 = a3 | x43;
    x45 = a1 & x44;
    x46 = x39 ^ x45;
    x47 = ~x3;
    x48 = a5 & x34;
    x49 = x47 ^ x48;
    x50 = a5 | x47;
    x51 = a4 & x50;
    x52 = x49 ^ x51;
    x53 = a4 | x31;
    x54 = a3 & x53;
    x55 = x52 ^ x54;
    x56 = ~x28;
    x57 = ~x26;
    x58 = a5 & x57;
    x59 = x5 ^ x58;
    x60 = a4 & x59;
    x61 = x56 ^ x60;
    x62 = a5 & a6;
    x63 = x29 ^ x62;
    x64 = a4 & x63;
    x65 = x30 ^ x64;
    x66 = a3 & x65;
    x67 = x61 ^ x66;
    x68 = a1 & x67;
    x69 = x55 ^ x68;
    x70 = ~a5;
    x71 = a4 & x70;
    x72 = x3 ^ x71;
    x73 = a3 & a5;
    x74 = x72 ^ x73;
    x75 = a5 & x34;
    x76 = x5 ^ x75;
    x77 = a5 ^ a6;
    x78 = a4 & x77;
    x79 = x76 ^ x78;
    x80 = a5 & x1;
    x81 = x34 ^ x80;
    x82 = a2 & a6;
    x83 = a4 & x82;
    x84 = x81 ^ x83;
    x85 = a3 & x84;
    x86 = x79 ^ x85;
    x87 = a1 & x86;
    x88 = x74 ^ x87;
    out1 ^= x25;
    out2 ^= x46;
    out3 ^= x69;
    out4 ^= x88;
}

// DES S4: 81 gates (Shannon order a6 a2 a4 a1 a3 a5)
__device__ __forceinline__ void s4(uint32_t a1, uint32_t a2, uint32_t a3, uint32_t a4, uint32_t a5, uint32_t a6,
    uint32_t &out1, uint32_t &out2, uint32_t &out3, uint32_t &out4)
{
    uint32_t x1, x2, x3, x4, x5, x6, x7, x8, x9, x10, x11, x12, x13, x14, x15, x16, x17, x18, x19, x20, x21, x22, x23, x24, x25, x26, x27, x28, x29, x30, x31, x32, x33, x34, x35, x36, x37, x38, x39, x40, x41, x42, x43, x44, x45, x46, x47, x48, x49, x50, x51, x52, x53, x54, x55, x56, x57, x58, x59, x60, x61, x62, x63, x64, x65, x66, x67, x68, x69, x70, x71, x72, x73, x74, x75, x76, x77, x78, x79, x80, x81;
    x1 = a5 & ~a3;
    x2 = a1 ^ x1;
    x3 = ~a5;
    x4 = a3 & x3;
    x5 = x4 | ~a1;
    x6 = a4 & x5;
    x7 = x2 ^ x6;
    x8 = a3 | a5;
    x9 = a1 & x1;
    x10 = x8 ^ x9;
    x11 = a3 ^ x3;
    x12 = a1 & x11;
    x13 = a5 ^ x12;
    x14 = a4 & x13;
    x15 = x10 ^ x14;
    x16 = a2 & x15;
    x17 = x7 ^ x16;
    x18 = a1 & x1;
    x19 = x11 ^ x18;
    x20 = ~x4;
    x21 = a1 & x20;
    x22 = x3 ^ x21;
    x23 = a4 & x22;
    x24 = x19 ^ x23;
    x25 = ~x1;
    x26 = a1 | x25;
    x27 = ~x11;
    x28 = a4 & x27;
    x29 = x26 ^ x28;
    x30 = a2 & x29;
    x31 = x24 ^ x30;
    x32 = a6 & x31;
    x33 = x17 ^ x32;
    x34 = a1 & x25;
    x35 = x20 ^ x34;
    x36 = a4 & a5;
    x37 = x35 ^ x36;
    x38 = ~a3;
    x39 = a1 & x11;
    x40 = a3 ^ x39;
    x41 = a4 & x40;
    x42 = x38 ^ x41;
    x43 = a2 & x42;
    x44 = x37 ^ x43;
    x45 = ~x31;
    x46 = a6 & x45;
    x47 = x44 ^ x46;
    x48 = a1 | x1;
    x49 = a4 & x48;
    x50 = x19 ^ x49;
    x51 = ~x34;
    x52 = a4 & x40;
    x53 = x51 ^ x52;
    x54 = a2 & x53;
    x55 = x50 ^ x54;
    x56 = ~x13;
    x57 = x3 | ~a3;
    x58 = a1 & x25;
    x59 = x57 ^ x58;
    x60 = a4 & x59;
    x61 = x56 ^ x60;
    x62 = a1 & x4;
    x63 = x11 ^ x62;
    x64 = a4 & x27;
    x65 = x63 ^ x64;
    x66 = a2 & x65;
    x67 = x61 ^ x66;
    x68 = a6 & x67;
    x69 = x55 ^ x68;
    x70 = a1 & x20;
    x71 = x38 ^ x70;
    x72 = a4 & x3;
    x73 = x71 ^ x72;
    x74 = a1 | x27;
    x75 = a4 & x13;
    x76 = x74 ^ x75;
    x77 = a2 & x76;
    x78 = x73 ^ x77;
    x79 = ~x67;
    x80 = a6 & x79;
    x81 = x78 ^ x80;
    out1 ^= x33;
    out2 ^= x47;
    out3 ^= x69;
    out4 ^= x81;
}

// A reduced DES-like Feistel network on 16-bit halves: the 24 expanded
// bits of R go through S1-S4 with the round key, P-permuted into f. Round
// keys come from shared memory. A bit-sliced key search: each thread tests
// 32 keys at once against a known ciphertext and reports matching lanes.
__global__ void des_like_bitslice_search(const uint32_t *__restrict__ plain_l, const uint32_t *__restrict__ plain_r,
                                         const uint32_t *__restrict__ round_keys, int rounds,
                                         const uint32_t *__restrict__ target, uint32_t *__restrict__ match_out)
{
    __shared__ uint32_t rk[16 * 24];
    for (int i = threadIdx.x; i < rounds * 24; i += blockDim.x)
        rk[i] = round_keys[i];
    __syncthreads();

    int t = blockIdx.x * blockDim.x + threadIdx.x;
    uint32_t L[16], R[16];
#pragma unroll
    for (int k = 0; k < 16; ++k) {
        L[k] = plain_l[k] ^ (uint32_t)(t * (k + 1));
        R[k] = plain_r[k];
    }
#pragma unroll 1
    for (int r = 0; r < rounds; ++r) {
        const uint32_t *K = rk + r * 24;
        uint32_t f[16];
#pragma unroll
        for (int k = 0; k < 16; ++k)
            f[k] = 0;
        s1(R[15] ^ K[0], R[0] ^ K[1], R[1] ^ K[2], R[2] ^ K[3], R[3] ^ K[4], R[4] ^ K[5], f[8], f[0], f[6], f[14]);
        s2(R[3] ^ K[6], R[4] ^ K[7], R[5] ^ K[8], R[6] ^ K[9], R[7] ^ K[10], R[8] ^ K[11], f[12], f[11], f[1], f[9]);
        s3(R[7] ^ K[12], R[8] ^ K[13], R[9] ^ K[14], R[10] ^ K[15], R[11] ^ K[16], R[12] ^ K[17], f[7], f[15], f[13], f[5]);
        s4(R[11] ^ K[18], R[12] ^ K[19], R[13] ^ K[20], R[14] ^ K[21], R[15] ^ K[22], R[0] ^ K[23], f[10], f[3], f[2], f[4]);
#pragma unroll
        for (int k = 0; k < 16; ++k) {
            uint32_t nl = R[k];
            R[k] = L[k] ^ f[k];
            L[k] = nl;
        }
    }
    // lanes whose every ciphertext bit matches
    uint32_t ok = 0xffffffffu;
#pragma unroll
    for (int k = 0; k < 16; ++k) {
        ok &= ~(L[k] ^ (0u - ((target[0] >> k) & 1u)));
        ok &= ~(R[k] ^ (0u - ((target[0] >> (k + 16)) & 1u)));
    }
    match_out[t] = ok;
}
