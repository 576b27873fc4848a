/* bare_gpu.cu - the reference loops bench/gpu.sh compares the runner with:
 * cuBLAS sgemm, a device-to-device copy, a fused 4x sin kernel and an empty
 * launch + sync, each timed with CUDA events, median of N.
 * Prints lines: NAME SIZE SECONDS_MEDIAN */
#include <algorithm>
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <vector>

#define CK(x)                                                                            \
    do {                                                                                 \
        cudaError_t e = (x);                                                             \
        if (e != cudaSuccess) {                                                          \
            fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e));    \
            exit(1);                                                                     \
        }                                                                                \
    } while (0)

__global__ void sin4(float *y, const float *x, size_t n)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x)
        y[i] = sinf(sinf(sinf(sinf(x[i]))));
}
__global__ void empty(void) {}

template <typename F> static double median_of(int reps, F f)
{
    cudaEvent_t a, b;
    CK(cudaEventCreate(&a));
    CK(cudaEventCreate(&b));
    f(); /* warmup */
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
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}

int main(void)
{
    cublasHandle_t h;
    cublasCreate(&h);
    for (int n : {4096, 8192}) {
        float *A, *B, *C;
        CK(cudaMalloc(&A, (size_t)n * n * 4));
        CK(cudaMalloc(&B, (size_t)n * n * 4));
        CK(cudaMalloc(&C, (size_t)n * n * 4));
        CK(cudaMemset(A, 0, (size_t)n * n * 4));
        CK(cudaMemset(B, 0, (size_t)n * n * 4));
        const float one = 1, zero = 0;
        double s = median_of(20, [&] {
            cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, B, n, A, n, &zero, C, n);
        });
        printf("sgemm %d %.9g\n", n, s);
        cudaFree(A);
        cudaFree(B);
        cudaFree(C);
    }
    size_t n = (size_t)1 << 28;
    float *x, *y;
    CK(cudaMalloc(&x, n * 4));
    CK(cudaMalloc(&y, n * 4));
    CK(cudaMemset(x, 0, n * 4));
    printf("d2d %zu %.9g\n", n * 4, median_of(20, [&] { cudaMemcpy(y, x, n * 4, cudaMemcpyDeviceToDevice); }));
    printf("sin4 %zu %.9g\n", n, median_of(20, [&] { sin4<<<(unsigned)((n + 255) / 256 > 1048576 ? 1048576 : (n + 255) / 256), 256>>>(y, x, n); }));
    /* launch + sync on the host clock: the cost a user pays per tiny kernel */
    std::vector<double> t;
    for (int r = 0; r < 2000; r++) {
        struct timespec a, b;
        clock_gettime(CLOCK_MONOTONIC, &a);
        empty<<<1, 1>>>();
        cudaDeviceSynchronize();
        clock_gettime(CLOCK_MONOTONIC, &b);
        t.push_back((b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) * 1e-9);
    }
    std::sort(t.begin(), t.end());
    printf("launch_sync 1 %.9g\n", t[t.size() / 2]);
    return 0;
}
