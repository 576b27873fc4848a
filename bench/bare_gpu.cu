/* bare_gpu.cu - the reference loops bench/gpu.sh compares the runner with:
 * cuBLAS sgemm, a device-to-device copy, fused and unfused 4x sin kernels and
 * an empty launch + sync, each timed with CUDA events, median of N after
 * three warmups.  Inputs are random (zeros draw less power and can run
 * faster than real data), every CUDA and cuBLAS return is checked.
 * Prints lines: NAME SIZE SECONDS_MEDIAN */
#include <algorithm>
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <vector>

#define CK(x)                                                                            \
    do {                                                                                 \
        cudaError_t e = (x);                                                             \
        if (e != cudaSuccess) {                                                          \
            fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e));    \
            exit(1);                                                                     \
        }                                                                                \
    } while (0)
#define CB(x)                                                                            \
    do {                                                                                 \
        cublasStatus_t s = (x);                                                          \
        if (s != CUBLAS_STATUS_SUCCESS) {                                                \
            fprintf(stderr, "%s:%d cuBLAS status %d\n", __FILE__, __LINE__, (int)s);     \
            exit(1);                                                                     \
        }                                                                                \
    } while (0)

/* uniform [-1, 1) from a 64-bit mix of the index: random-looking, no state */
__global__ void fill_random(float *x, size_t n, uint64_t seed)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x) {
        uint64_t z = (i + seed) * 0x9E3779B97F4A7C15ull;
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        z ^= z >> 31;
        x[i] = (float)((z >> 40) * (1.0 / 16777216.0)) * 2.0f - 1.0f;
    }
}
__global__ void sin4(float *y, const float *x, size_t n)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x)
        y[i] = sinf(sinf(sinf(sinf(x[i]))));
}
__global__ void sin1(float *y, const float *x, size_t n)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x)
        y[i] = sinf(x[i]);
}
__global__ void empty(void) {}

static unsigned grid_for(size_t n)
{
    size_t g = (n + 255) / 256;
    return (unsigned)(g > 1048576 ? 1048576 : g);
}
static void random_fill(float *x, size_t n, uint64_t seed)
{
    fill_random<<<grid_for(n), 256>>>(x, n, seed);
    CK(cudaGetLastError());
}

template <typename F> static double median_of(int reps, F f)
{
    cudaEvent_t a, b;
    CK(cudaEventCreate(&a));
    CK(cudaEventCreate(&b));
    for (int w = 0; w < 3; w++)
        f();
    CK(cudaDeviceSynchronize());
    std::vector<double> t;
    for (int r = 0; r < reps; r++) {
        CK(cudaEventRecord(a));
        f();
        CK(cudaEventRecord(b));
        CK(cudaEventSynchronize(b));
        float ms;
        CK(cudaEventElapsedTime(&ms, a, b));
        t.push_back(ms * 1e-3);
    }
    CK(cudaGetLastError());
    CK(cudaEventDestroy(a));
    CK(cudaEventDestroy(b));
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}

int main(void)
{
    cublasHandle_t h;
    CB(cublasCreate(&h));
    /* the runner's f32 matmul runs with CUBLAS_DEFAULT_MATH: no TF32 */
    CB(cublasSetMathMode(h, CUBLAS_DEFAULT_MATH));
    for (int n : {1024, 2048, 4096, 8192}) {
        float *A, *B, *C;
        size_t bytes = (size_t)n * n * 4;
        CK(cudaMalloc(&A, bytes));
        CK(cudaMalloc(&B, bytes));
        CK(cudaMalloc(&C, bytes));
        random_fill(A, (size_t)n * n, 1);
        random_fill(B, (size_t)n * n, 2);
        const float one = 1, zero = 0;
        double s = median_of(20, [&] {
            CB(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, B, n, A, n, &zero, C, n));
        });
        printf("sgemm %d %.9g\n", n, s);
        CK(cudaFree(A));
        CK(cudaFree(B));
        CK(cudaFree(C));
    }
    size_t n = (size_t)1 << 28;
    float *x, *y;
    CK(cudaMalloc(&x, n * 4));
    CK(cudaMalloc(&y, n * 4));
    random_fill(x, n, 3);
    printf("d2d %zu %.9g\n", n * 4, median_of(20, [&] { CK(cudaMemcpy(y, x, n * 4, cudaMemcpyDeviceToDevice)); }));
    printf("sin4 %zu %.9g\n", n, median_of(20, [&] { sin4<<<grid_for(n), 256>>>(y, x, n); }));
    printf("sin1x4 %zu %.9g\n", n, median_of(20, [&] {
               sin1<<<grid_for(n), 256>>>(y, x, n);
               for (int k = 0; k < 3; k++)
                   sin1<<<grid_for(n), 256>>>(y, y, n);
           }));
    CK(cudaFree(x));
    CK(cudaFree(y));
    /* launch + sync on the host clock: the cost a user pays per tiny kernel */
    std::vector<double> t;
    for (int r = 0; r < 2010; r++) {
        struct timespec a, b;
        clock_gettime(CLOCK_MONOTONIC, &a);
        empty<<<1, 1>>>();
        CK(cudaDeviceSynchronize());
        clock_gettime(CLOCK_MONOTONIC, &b);
        if (r >= 10)
            t.push_back((b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) * 1e-9);
    }
    std::sort(t.begin(), t.end());
    printf("launch_sync 1 %.9g\n", t[t.size() / 2]);
    CB(cublasDestroy(h));
    return 0;
}
