// Stencils and convolutions: 1D convolution with a constant-memory filter
// and shared halo, 2D Jacobi, 3D 7-point stencil streaming along z in
// registers, 3x3 multi-channel convolution.

#define MAX_TAPS 33
__constant__ float c_taps[MAX_TAPS];

__global__ void conv1d_shared_halo(const float *__restrict__ in, float *__restrict__ out, int n, int radius)
{
    extern __shared__ float tile[];  // blockDim.x + 2*radius
    int g = blockIdx.x * blockDim.x + threadIdx.x;
    int t = threadIdx.x + radius;
    tile[t] = g < n ? in[g] : 0.0f;
    if (threadIdx.x < radius) {
        int l = g - radius, r = g + blockDim.x;
        tile[threadIdx.x] = l >= 0 ? in[l] : 0.0f;
        tile[t + blockDim.x] = r < n ? in[r] : 0.0f;
    }
    __syncthreads();
    if (g >= n)
        return;
    float acc = 0.0f;
    for (int k = -radius; k <= radius; ++k)
        acc += c_taps[k + radius] * tile[t + k];
    out[g] = acc;
}

// 2D Jacobi 5-point sweep with a shared tile (16x16 plus halo), Dirichlet
// boundaries; residual accumulated with atomics.
__global__ void jacobi2d_shared(const float *__restrict__ u, const float *__restrict__ f, float *__restrict__ unew,
                                int nx, int ny, float h2, float *__restrict__ residual)
{
    __shared__ float s[18][18];
    int tx = threadIdx.x, ty = threadIdx.y;
    int x = blockIdx.x * 16 + tx, y = blockIdx.y * 16 + ty;
    bool inside = x < nx && y < ny;
    s[ty + 1][tx + 1] = inside ? u[y * nx + x] : 0.0f;
    if (tx == 0) s[ty + 1][0] = (x > 0 && y < ny) ? u[y * nx + x - 1] : 0.0f;
    if (tx == 15) s[ty + 1][17] = (x + 1 < nx && y < ny) ? u[y * nx + x + 1] : 0.0f;
    if (ty == 0) s[0][tx + 1] = (y > 0 && x < nx) ? u[(y - 1) * nx + x] : 0.0f;
    if (ty == 15) s[17][tx + 1] = (y + 1 < ny && x < nx) ? u[(y + 1) * nx + x] : 0.0f;
    __syncthreads();
    if (!inside)
        return;
    float r = 0.0f;
    if (x == 0 || y == 0 || x == nx - 1 || y == ny - 1) {
        unew[y * nx + x] = s[ty + 1][tx + 1];
    } else {
        float nb = s[ty][tx + 1] + s[ty + 2][tx + 1] + s[ty + 1][tx] + s[ty + 1][tx + 2];
        float v = 0.25f * (nb - h2 * f[y * nx + x]);
        r = fabsf(v - s[ty + 1][tx + 1]);
        unew[y * nx + x] = v;
    }
    for (int o = 16; o > 0; o >>= 1)
        r += __shfl_down_sync(0xffffffffu, r, o);
    if (((ty * 16 + tx) & 31) == 0)
        atomicAdd(residual, r);
}

// 3D 7-point Laplacian, a thread walks z keeping below/center/above in
// registers; 2D shared plane for x/y neighbours.
__global__ void laplace3d_stream(const float *__restrict__ in, float *__restrict__ out, int nx, int ny, int nz,
                                 float c0, float c1)
{
    __shared__ float plane[8 + 2][32 + 2];
    int tx = threadIdx.x, ty = threadIdx.y;
    int x = blockIdx.x * 32 + tx, y = blockIdx.y * 8 + ty;
    bool valid = x < nx && y < ny;
    size_t stride = (size_t)nx * ny;
    size_t idx = (size_t)y * nx + x;
    float below = 0.0f;
    float center = valid ? in[idx] : 0.0f;
    float above = (valid && nz > 1) ? in[idx + stride] : 0.0f;
    for (int z = 0; z < nz; ++z) {
        __syncthreads();
        plane[ty + 1][tx + 1] = center;
        if (tx == 0) plane[ty + 1][0] = (x > 0 && y < ny) ? in[z * stride + idx - 1] : 0.0f;
        if (tx == 31) plane[ty + 1][33] = (x + 1 < nx && y < ny) ? in[z * stride + idx + 1] : 0.0f;
        if (ty == 0) plane[0][tx + 1] = (y > 0 && x < nx) ? in[z * stride + idx - nx] : 0.0f;
        if (ty == 7) plane[9][tx + 1] = (y + 1 < ny && x < nx) ? in[z * stride + idx + nx] : 0.0f;
        __syncthreads();
        if (valid)
            out[z * stride + idx] = c0 * center +
                                    c1 * (below + above + plane[ty + 1][tx] + plane[ty + 1][tx + 2] +
                                          plane[ty][tx + 1] + plane[ty + 2][tx + 1]);
        below = center;
        center = above;
        above = (valid && z + 2 < nz) ? in[(z + 2) * stride + idx] : 0.0f;
    }
}

// 3x3 convolution of a multi-channel image (NCHW), output channel per
// blockIdx.z, weights in global memory; zero padding.
__global__ void conv2d_3x3_nchw(const float *__restrict__ in, const float *__restrict__ wts,
                                const float *__restrict__ bias, float *__restrict__ out, int C, int H, int W)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    int oc = blockIdx.z;
    if (x >= W || y >= H)
        return;
    float acc = bias[oc];
    for (int c = 0; c < C; ++c) {
        const float *w = wts + ((size_t)oc * C + c) * 9;
        const float *p = in + (size_t)c * H * W;
#pragma unroll
        for (int dy = -1; dy <= 1; ++dy)
#pragma unroll
            for (int dx = -1; dx <= 1; ++dx) {
                int yy = y + dy, xx = x + dx;
                if (yy >= 0 && yy < H && xx >= 0 && xx < W)
                    acc += w[(dy + 1) * 3 + dx + 1] * p[yy * W + xx];
            }
    }
    out[((size_t)oc * H + y) * W + x] = acc;
}
