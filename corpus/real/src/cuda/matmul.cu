// Tiled shared-memory matrix multiply (row-major), transpose.

#define TILE16 16
#define TILE32 32

// C = alpha * A(MxK) * B(KxN) + beta * C, 16x16 tiles, one output per thread.
__global__ void sgemm_tiled16(int M, int N, int K, float alpha, const float *__restrict__ A,
                              const float *__restrict__ B, float beta, float *__restrict__ C)
{
    __shared__ float As[TILE16][TILE16];
    __shared__ float Bs[TILE16][TILE16];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE16 + ty;
    int col = blockIdx.x * TILE16 + tx;
    float acc = 0.0f;
    for (int t = 0; t < K; t += TILE16) {
        As[ty][tx] = (row < M && t + tx < K) ? A[row * K + t + tx] : 0.0f;
        Bs[ty][tx] = (col < N && t + ty < K) ? B[(t + ty) * N + col] : 0.0f;
        __syncthreads();
#pragma unroll
        for (int k = 0; k < TILE16; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    if (row < M && col < N)
        C[row * N + col] = alpha * acc + beta * C[row * N + col];
}

// 32x32 tile, blockDim = (32, 8): every thread computes 4 rows of the tile,
// four loop-carried accumulators.
__global__ void sgemm_tiled32_4x1(int M, int N, int K, const float *__restrict__ A,
                                  const float *__restrict__ B, float *__restrict__ C)
{
    __shared__ float As[TILE32][TILE32 + 1];
    __shared__ float Bs[TILE32][TILE32];
    int tx = threadIdx.x, ty = threadIdx.y;
    int col = blockIdx.x * TILE32 + tx;
    int row0 = blockIdx.y * TILE32 + ty;
    float c0 = 0.0f, c1 = 0.0f, c2 = 0.0f, c3 = 0.0f;
    for (int t = 0; t < K; t += TILE32) {
#pragma unroll
        for (int r = 0; r < 4; ++r) {
            int row = row0 + r * 8;
            As[ty + r * 8][tx] = (row < M && t + tx < K) ? A[(size_t)row * K + t + tx] : 0.0f;
            Bs[ty + r * 8][tx] = (col < N && t + ty + r * 8 < K) ? B[(size_t)(t + ty + r * 8) * N + col] : 0.0f;
        }
        __syncthreads();
#pragma unroll 8
        for (int k = 0; k < TILE32; ++k) {
            float b = Bs[k][tx];
            c0 += As[ty][k] * b;
            c1 += As[ty + 8][k] * b;
            c2 += As[ty + 16][k] * b;
            c3 += As[ty + 24][k] * b;
        }
        __syncthreads();
    }
    if (col < N) {
        if (row0 < M) C[(size_t)row0 * N + col] = c0;
        if (row0 + 8 < M) C[(size_t)(row0 + 8) * N + col] = c1;
        if (row0 + 16 < M) C[(size_t)(row0 + 16) * N + col] = c2;
        if (row0 + 24 < M) C[(size_t)(row0 + 24) * N + col] = c3;
    }
}

// 64x64 block tile, 4x4 per-thread register tile (blockDim 16x16 = 256
// threads), K step of 8. Requires M, N multiples of 64 and K of 8.
__global__ void sgemm_regtile_4x4(int M, int N, int K, const float *__restrict__ A,
                                  const float *__restrict__ B, float *__restrict__ C)
{
    const int BM = 64, BN = 64, BK = 8, TM = 4, TN = 4;
    __shared__ float As[BK][BM];
    __shared__ float Bs[BK][BN];
    int tid = threadIdx.y * blockDim.x + threadIdx.x;
    int brow = blockIdx.y * BM, bcol = blockIdx.x * BN;
    float acc[TM][TN];
#pragma unroll
    for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j)
            acc[i][j] = 0.0f;
    (void)M;
    for (int k0 = 0; k0 < K; k0 += BK) {
        // 256 threads load 64x8 of A (transposed into As) and 8x64 of B
#pragma unroll
        for (int l = 0; l < 2; ++l) {
            int e = tid + l * 256;
            int ar = e / BK, ac = e % BK;
            As[ac][ar] = A[(size_t)(brow + ar) * K + k0 + ac];
            int br = e / BN, bc = e % BN;
            Bs[br][bc] = B[(size_t)(k0 + br) * N + bcol + bc];
        }
        __syncthreads();
#pragma unroll
        for (int k = 0; k < BK; ++k) {
            float ra[TM], rb[TN];
#pragma unroll
            for (int i = 0; i < TM; ++i)
                ra[i] = As[k][threadIdx.y * TM + i];
#pragma unroll
            for (int j = 0; j < TN; ++j)
                rb[j] = Bs[k][threadIdx.x * TN + j];
#pragma unroll
            for (int i = 0; i < TM; ++i)
#pragma unroll
                for (int j = 0; j < TN; ++j)
                    acc[i][j] = fmaf(ra[i], rb[j], acc[i][j]);
        }
        __syncthreads();
    }
#pragma unroll
    for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j)
            C[(size_t)(brow + threadIdx.y * TM + i) * N + bcol + threadIdx.x * TN + j] = acc[i][j];
}

// Double precision, 16x16 tiles.
__global__ void dgemm_tiled16(int M, int N, int K, const double *__restrict__ A,
                              const double *__restrict__ B, double *__restrict__ C)
{
    __shared__ double As[TILE16][TILE16];
    __shared__ double Bs[TILE16][TILE16 + 1];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE16 + ty;
    int col = blockIdx.x * TILE16 + tx;
    double acc = 0.0;
    int tiles = (K + TILE16 - 1) / TILE16;
    for (int t = 0; t < tiles; ++t) {
        int ka = t * TILE16 + tx, kb = t * TILE16 + ty;
        As[ty][tx] = (row < M && ka < K) ? A[(size_t)row * K + ka] : 0.0;
        Bs[ty][tx] = (col < N && kb < K) ? B[(size_t)kb * N + col] : 0.0;
        __syncthreads();
#pragma unroll
        for (int k = 0; k < TILE16; ++k)
            acc = fma(As[ty][k], Bs[k][tx], acc);
        __syncthreads();
    }
    if (row < M && col < N)
        C[(size_t)row * N + col] = acc;
}

// Transpose through a padded shared tile, 32x8 threads, 4 rows per thread.
__global__ void transpose_tiled(const float *__restrict__ in, float *__restrict__ out, int rows, int cols)
{
    __shared__ float tile[TILE32][TILE32 + 1];
    int x = blockIdx.x * TILE32 + threadIdx.x;
    int y = blockIdx.y * TILE32 + threadIdx.y;
    for (int j = 0; j < TILE32; j += 8)
        if (x < cols && y + j < rows)
            tile[threadIdx.y + j][threadIdx.x] = in[(size_t)(y + j) * cols + x];
    __syncthreads();
    x = blockIdx.y * TILE32 + threadIdx.x;
    y = blockIdx.x * TILE32 + threadIdx.y;
    for (int j = 0; j < TILE32; j += 8)
        if (x < rows && y + j < cols)
            out[(size_t)(y + j) * rows + x] = tile[threadIdx.x][threadIdx.y + j];
}
