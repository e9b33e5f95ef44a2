// Double precision: daxpy, Horner polynomials, Kahan summation, Newton
// iterations, a 1D heat equation step and a complex multiply-add.

__global__ void daxpy_grid(long n, double a, const double *__restrict__ x, double *__restrict__ y)
{
    for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < n; i += (long)blockDim.x * gridDim.x)
        y[i] = fma(a, x[i], y[i]);
}

// p(x) = sum c[k] x^k by Horner's rule, plus its derivative.
__global__ void horner_poly(const double *__restrict__ x, int n, const double *__restrict__ c, int degree,
                            double *__restrict__ p, double *__restrict__ dp)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    double xv = x[i];
    double v = c[degree], d = 0.0;
    for (int k = degree - 1; k >= 0; --k) {
        d = fma(d, xv, v);
        v = fma(v, xv, c[k]);
    }
    p[i] = v;
    dp[i] = d;
}

// Kahan-compensated sum per row.
__global__ void kahan_row_sum(const double *__restrict__ x, int rows, int cols, double *__restrict__ out)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows)
        return;
    double sum = 0.0, comp = 0.0;
    for (int k = 0; k < cols; ++k) {
        double y = x[(size_t)r * cols + k] - comp;
        double t = sum + y;
        comp = (t - sum) - y;
        sum = t;
    }
    out[r] = sum;
}

// Newton iterations for 1/sqrt(a) from a float seed, and a cubic root
// solve with bisection fallback when the derivative vanishes.
__global__ void newton_rsqrt_cubic(const double *__restrict__ a, int n, double *__restrict__ rs,
                                   double *__restrict__ root)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    double v = a[i];
    double y = (double)rsqrtf((float)v);
    for (int it = 0; it < 3; ++it)
        y = y * (1.5 - 0.5 * v * y * y);
    rs[i] = y;

    // solve x^3 + x - v = 0
    double lo = fmin(0.0, v), hi = fmax(0.0, v) + 1.0, x = 0.5 * (lo + hi);
    for (int it = 0; it < 50; ++it) {
        double f = x * x * x + x - v;
        double df = 3.0 * x * x + 1.0;
        if (f > 0.0) hi = x; else lo = x;
        double nx = x - f / df;
        if (nx <= lo || nx >= hi)
            nx = 0.5 * (lo + hi);
        if (fabs(nx - x) < 1e-15 * fabs(nx))
            break;
        x = nx;
    }
    root[i] = x;
}

// Explicit heat equation step with variable conductivity, shared tile.
__global__ void heat1d_step(const double *__restrict__ u, const double *__restrict__ k, double *__restrict__ unew,
                            int n, double dt_dx2)
{
    extern __shared__ double su[];
    int g = blockIdx.x * blockDim.x + threadIdx.x;
    int t = threadIdx.x + 1;
    su[t] = g < n ? u[g] : 0.0;
    if (threadIdx.x == 0)
        su[0] = g > 0 ? u[g - 1] : 0.0;
    if (threadIdx.x == blockDim.x - 1)
        su[t + 1] = g + 1 < n ? u[g + 1] : 0.0;
    __syncthreads();
    if (g == 0 || g >= n - 1) {
        if (g < n)
            unew[g] = su[t];
        return;
    }
    double kl = 0.5 * (k[g] + k[g - 1]), kr = 0.5 * (k[g] + k[g + 1]);
    unew[g] = su[t] + dt_dx2 * (kr * (su[t + 1] - su[t]) - kl * (su[t] - su[t - 1]));
}

// Complex z = a * b + c on interleaved doubles, and |z|.
__global__ void zmul_add_abs(const double2 *__restrict__ a, const double2 *__restrict__ b,
                             const double2 *__restrict__ c, double2 *__restrict__ z, double *__restrict__ mag, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        double2 x = a[i], y = b[i], w = c[i];
        double re = fma(x.x, y.x, fma(-x.y, y.y, w.x));
        double im = fma(x.x, y.y, fma(x.y, y.x, w.y));
        z[i] = make_double2(re, im);
        mag[i] = hypot(re, im);
    }
}
