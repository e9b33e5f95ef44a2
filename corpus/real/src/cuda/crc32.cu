// CRC-32 (IEEE, reflected 0xEDB88320) and CRC-32C, computed bitwise
// without tables.
#include <cstdint>

__device__ __forceinline__ uint32_t crc32_byte(uint32_t crc, uint8_t b, uint32_t poly)
{
    crc ^= b;
#pragma unroll
    for (int k = 0; k < 8; ++k)
        crc = (crc >> 1) ^ (poly & (0u - (crc & 1u)));
    return crc;
}

// One message per thread: offsets[i]..offsets[i+1].
__global__ void crc32_messages(const uint8_t *__restrict__ data, const uint32_t *__restrict__ offsets,
                               int nmsg, uint32_t *__restrict__ crc_out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= nmsg)
        return;
    uint32_t crc = 0xffffffffu;
    for (uint32_t p = offsets[i]; p < offsets[i + 1]; ++p)
        crc = crc32_byte(crc, data[p], 0xEDB88320u);
    crc_out[i] = ~crc;
}

// Word-at-a-time bitwise CRC-32C (Castagnoli) with a branchy inner loop,
// the way it is often first written.
__global__ void crc32c_words(const uint32_t *__restrict__ words, int words_per_msg, int nmsg,
                             uint32_t *__restrict__ crc_out)
{
    for (int m = blockIdx.x * blockDim.x + threadIdx.x; m < nmsg; m += blockDim.x * gridDim.x) {
        uint32_t crc = 0xffffffffu;
        const uint32_t *w = words + (size_t)m * words_per_msg;
        for (int k = 0; k < words_per_msg; ++k) {
            crc ^= w[k];
            for (int bit = 0; bit < 32; ++bit) {
                if (crc & 1)
                    crc = (crc >> 1) ^ 0x82F63B78u;
                else
                    crc >>= 1;
            }
        }
        crc_out[m] = ~crc;
    }
}
