/* tensor.cu - the Lua tensor API's operations on the GPU (rn_tensor_ops):
 * f32 buffers, element-wise kernels with one-element broadcast, a sum, and
 * matmul through cuBLAS.  Kernels go to the default stream; sync() waits.
 * The unary and binary operations move memory as PyTorch's element-wise
 * kernels do (elementwise.h). */
#include "cuda_backend.h"
#include "elementwise.h"

#include <math.h>

static int use(int dev, rn_error *err)
{
    if (dev != cuda_current_device) {
        CK(cudaSetDevice(dev));
        cuda_current_device = dev;
    }
    return 0;
}

static void *t_alloc(int dev, size_t n, rn_error *err)
{
    void *p = NULL;
    if (use(dev, err))
        return NULL;
    cudaError_t e = cudaMalloc(&p, (n ? n : 1) * sizeof(float));
    if (e != cudaSuccess) {
        ck_fail(err, __FILE__, __LINE__, "cudaMalloc", e);
        return NULL;
    }
    return p;
}

static void t_release(int dev, void *p)
{
    (void)dev;
    cudaFree(p);
}

static int t_upload(int dev, float *dst, const float *host, size_t n, rn_error *err)
{
    if (use(dev, err))
        return 1;
    CK(cudaMemcpy(dst, host, n * sizeof(float), cudaMemcpyHostToDevice));
    return 0;
}

static int t_download(int dev, float *host, const float *src, size_t n, rn_error *err)
{
    if (use(dev, err))
        return 1;
    CK(cudaMemcpy(host, src, n * sizeof(float), cudaMemcpyDeviceToHost));
    return 0;
}

__global__ void k_fill(float *d, size_t n, int kind, float value, uint64_t seed, uint32_t stream,
                       uint64_t offset)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x) {
        if (kind == RN_FILL_CONST) {
            d[i] = value;
        } else if (kind == RN_FILL_UNIFORM) {
            d[i] = rn_uniform(seed, stream, offset + i);
        } else { /* Box-Muller on draws 2i and 2i+1, in double as on the CPU
                  * (backends/cpu/tensor.c), rounded to f32 */
            double u1 = rn_uniform(seed, stream, 2 * (offset + i));
            double u2 = rn_uniform(seed, stream, 2 * (offset + i) + 1);
            d[i] = (float)(sqrt(-2.0 * log(1.0 - u1)) * cos(6.283185307179586476925286766559 * u2));
        }
    }
}

static int t_fill(int dev, float *dst, size_t n, rn_fill_kind kind, double value, uint64_t seed,
                  uint32_t stream, uint64_t offset, rn_error *err)
{
    if (use(dev, err) || n == 0)
        return use(dev, err);
    k_fill<<<grid_for(n), 256>>>(dst, n, (int)kind, (float)value, seed, stream, offset);
    CK_LAUNCH("k_fill");
    return 0;
}

struct unary_op {
    int op;
    float arg;
    __device__ float operator()(float x) const
    {
        return op == RN_UN_NEG   ? -x
               : op == RN_UN_SIN ? sinf(x)
               : op == RN_UN_POW ? (arg == 2.0f ? x * x : powf(x, arg))
               : op == RN_UN_EXP ? expf(x)
                                 : fabsf(x);
    }
};

static int t_unary(int dev, rn_unary_op op, float *dst, const float *src, size_t n, double arg,
                   rn_error *err)
{
    if (use(dev, err))
        return 1;
    if (n == 0)
        return 0;
    rn_ew_map1(dst, src, n, unary_op{(int)op, (float)arg}, 0);
    CK_LAUNCH("k_unary");
    return 0;
}

struct binary_op {
    int op;
    __device__ float operator()(float x, float y) const
    {
        return op == RN_BIN_ADD ? x + y : op == RN_BIN_SUB ? x - y : op == RN_BIN_MUL ? x * y : x / y;
    }
};

static int t_binary(int dev, rn_binary_op op, float *dst, const float *a, size_t na,
                    const float *b, size_t nb, rn_error *err)
{
    if (use(dev, err))
        return 1;
    size_t n = (na == 0 || nb == 0) ? 0 : na > nb ? na : nb; /* empty stays empty */
    if (n == 0)
        return 0;
    /* an operand of one element stands for every i */
    rn_ew_args<float, 2> args = {dst, {a, b}, {na == 1, nb == 1}, n};
    rn_ew_launch(args, binary_op{(int)op}, 0);
    CK_LAUNCH("k_binary");
    return 0;
}

__global__ void k_sum(float *out, const float *x, size_t n)
{
    __shared__ float part[256];
    float acc = 0;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x)
        acc += x[i];
    acc = block_sum(part, acc);
    if (threadIdx.x == 0)
        atomicAdd(out, acc);
}

static int t_sum(int dev, float *dst1, const float *src, size_t n, rn_error *err)
{
    if (use(dev, err))
        return 1;
    CK(cudaMemsetAsync(dst1, 0, sizeof(float)));
    if (n == 0)
        return 0;
    unsigned g = grid_for(n);
    if (g > 1024)
        g = 1024;
    k_sum<<<g, 256>>>(dst1, src, n);
    CK_LAUNCH("k_sum");
    return 0;
}

static int t_matmul(int dev, float *c, const float *a, const float *b, int m, int n, int k,
                    rn_error *err)
{
    if (use(dev, err))
        return 1;
    cublasHandle_t h;
    if (cuda_blas(&h, 0, err)) /* default math: no TF32 left by a matmul trial */
        return 1;
    const float one = 1, zero = 0;
    CKB(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, b, n, a, k, &zero, c, n));
    return 0;
}

static int t_sync(int dev, rn_error *err)
{
    if (use(dev, err))
        return 1;
    CK(cudaDeviceSynchronize());
    return 0;
}

const rn_tensor_ops cuda_tensor_ops = {
    .alloc = t_alloc,
    .release = t_release,
    .upload = t_upload,
    .download = t_download,
    .fill = t_fill,
    .unary = t_unary,
    .binary = t_binary,
    .sum = t_sum,
    .matmul = t_matmul,
    .sync = t_sync,
    .fuse_compile = cuda_fuse_compile, /* fuse.cu */
    .fuse_run = cuda_fuse_run,
    .fuse_free = cuda_fuse_free,
};
