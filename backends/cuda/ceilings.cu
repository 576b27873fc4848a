/* ceilings.cu - a CUDA device's ceilings (doc/ceilings.md#the-ceilings):
 * the FP32, TF32, FP16, BF16 and FP64 GEMM peaks through cuBLAS at n =
 * 8192 (a size where cuBLAS reaches its peak on current GPUs), the
 * device-to-device copy bandwidth (bytes read plus bytes written, as the
 * memcpy workload counts it) and the pinned host<->device bandwidths; each
 * the best of several runs timed with events.  Beside them the nominal
 * figures: SMs x boost clock x the per-SM rate of the compute capability,
 * and 2 x memory clock x bus width for the memory. */
#include "cuda_backend.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define GEMM_N 8192
#define REPS 5

/* flops per clock per SM: FP32 (CUDA cores), FP64, dense FP16/BF16 on the
 * tensor cores with FP32 accumulation (TF32: half of it); 0: unknown */
typedef struct sm_rate {
    int major, minor;
    double fp32, fp64, fp16;
} sm_rate;

static const sm_rate rates[] = {
    {7, 0, 128, 64, 1024}, {7, 5, 128, 4, 1024}, {8, 0, 128, 64, 2048},
    {8, 6, 256, 4, 512},   {8, 9, 256, 4, 512},  {9, 0, 256, 128, 4096},
};

static const sm_rate *rate_of(int major, int minor)
{
    for (size_t i = 0; i < sizeof rates / sizeof rates[0]; i++)
        if (rates[i].major == major && rates[i].minor == minor)
            return &rates[i];
    return NULL;
}

/* Best seconds of one GEMM of kind w ("fp32", ...) at GEMM_N. */
static int gemm_seconds(const char *w, double *best, rn_error *err)
{
    const size_t n = GEMM_N;
    int f64 = !strcmp(w, "fp64"), half = !strcmp(w, "fp16") || !strcmp(w, "bf16");
    size_t esz = f64 ? 8 : half ? 2 : 4;
    void *a = NULL, *b = NULL, *c = NULL;
    CK(cudaMalloc(&a, n * n * esz));
    CK(cudaMalloc(&b, n * n * esz));
    CK(cudaMalloc(&c, n * n * esz));
    CK(cudaMemset(a, 0, n * n * esz)); /* zeros: the same time as any data on tensor cores */
    CK(cudaMemset(b, 0, n * n * esz));
    cublasHandle_t h;
    if (cuda_blas(&h, 0, err))
        return 1;
    if (!strcmp(w, "tf32"))
        CKB(cublasSetMathMode(h, CUBLAS_TF32_TENSOR_OP_MATH));
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    *best = INFINITY;
    const float one = 1, zero = 0;
    const double done = 1, dzero = 0;
    for (int r = 0; r < REPS + 1; r++) { /* the first one warms up */
        CK(cudaEventRecord(e0, 0));
        if (f64)
            CKB(cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &done, (const double *)a, n,
                            (const double *)b, n, &dzero, (double *)c, n));
        else if (!half)
            CKB(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, (const float *)a, n,
                            (const float *)b, n, &zero, (float *)c, n));
        else {
            cudaDataType_t ty = !strcmp(w, "fp16") ? CUDA_R_16F : CUDA_R_16BF;
            CKB(cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, a, ty, n, b, ty, n, &zero,
                             c, ty, n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
        }
        CK(cudaEventRecord(e1, 0));
        CK(cudaEventSynchronize(e1));
        float ms;
        CK(cudaEventElapsedTime(&ms, e0, e1));
        if (r && ms * 1e-3 < *best)
            *best = ms * 1e-3;
    }
    CKB(cublasSetMathMode(h, CUBLAS_DEFAULT_MATH));
    cudaEventDestroy(e0);
    cudaEventDestroy(e1);
    cudaFree(a);
    cudaFree(b);
    cudaFree(c);
    return 0;
}

/* Best seconds of a copy of `bytes` of kind k. */
static int copy_seconds(cudaMemcpyKind k, size_t bytes, double *best, rn_error *err)
{
    void *d1 = NULL, *d2 = NULL, *h = NULL;
    CK(cudaMalloc(&d1, bytes));
    if (k == cudaMemcpyDeviceToDevice)
        CK(cudaMalloc(&d2, bytes));
    else
        CK(cudaMallocHost(&h, bytes));
    CK(cudaMemset(d1, 1, bytes));
    if (h)
        memset(h, 1, bytes);
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    *best = INFINITY;
    void *dst = k == cudaMemcpyDeviceToDevice ? d2 : k == cudaMemcpyHostToDevice ? d1 : h;
    void *src = k == cudaMemcpyDeviceToDevice ? d1 : k == cudaMemcpyHostToDevice ? h : d1;
    for (int r = 0; r < REPS + 1; r++) {
        CK(cudaEventRecord(e0, 0));
        CK(cudaMemcpyAsync(dst, src, bytes, k, 0));
        CK(cudaEventRecord(e1, 0));
        CK(cudaEventSynchronize(e1));
        float ms;
        CK(cudaEventElapsedTime(&ms, e0, e1));
        if (r && ms * 1e-3 < *best)
            *best = ms * 1e-3;
    }
    cudaEventDestroy(e0);
    cudaEventDestroy(e1);
    cudaFree(d1);
    if (d2)
        cudaFree(d2);
    if (h)
        cudaFreeHost(h);
    return 0;
}

int cuda_ceilings(int dev, void *ctx, rn_ceiling_cb cb, char *why, size_t len)
{
    rn_error e = {{0}}, *err = &e;
    int rc = 0;
    do {
        if (cudaSetDevice(dev) != cudaSuccess) {
            snprintf(e.msg, sizeof e.msg, "cudaSetDevice(%d) failed", dev);
            rc = 1;
            break;
        }
        cuda_current_device = dev;
        cudaDeviceProp p;
        if ((rc = cudaGetDeviceProperties(&p, dev) != cudaSuccess)) {
            snprintf(e.msg, sizeof e.msg, "cudaGetDeviceProperties(%d) failed", dev);
            break;
        }
        int khz = 0, mem_khz = 0, bus = 0;
        cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, dev);
        cudaDeviceGetAttribute(&mem_khz, cudaDevAttrMemoryClockRate, dev);
        cudaDeviceGetAttribute(&bus, cudaDevAttrGlobalMemoryBusWidth, dev);
        const sm_rate *r = rate_of(p.major, p.minor);
        double ghz_sm = khz * 1e-6 * p.multiProcessorCount;
        static const char *const kinds[] = {"fp32", "tf32", "fp16", "bf16", "fp64"};
        for (int i = 0; i < 5 && rc == 0; i++) {
            double s = NAN;
            if ((rc = gemm_seconds(kinds[i], &s, err)) != 0)
                break;
            double per = !r ? 0 : i == 0 ? r->fp32 : i == 1 ? r->fp16 / 2 : i == 4 ? r->fp64 : r->fp16;
            if (i == 1 && p.major < 8)
                per = r ? r->fp32 : 0; /* no TF32 before Ampere: cuBLAS runs FP32 */
            cb(ctx, kinds[i], 2.0 * GEMM_N * GEMM_N * (double)GEMM_N / s / 1e9,
               per > 0 ? ghz_sm * per : NAN, "GFLOP/s");
        }
        if (rc)
            break;
        double s;
        size_t big = (size_t)1 << 30;
        if (p.totalGlobalMem < 4 * big)
            big = p.totalGlobalMem / 8;
        if ((rc = copy_seconds(cudaMemcpyDeviceToDevice, big, &s, err)) != 0)
            break;
        double nom_bw = mem_khz > 0 && bus > 0 ? 2.0 * mem_khz * 1e3 * (bus / 8.0) / 1e9 : NAN;
        cb(ctx, "bandwidth", 2.0 * (double)big / s / 1e9, nom_bw, "GB/s");
        size_t hb = (size_t)256 << 20;
        if ((rc = copy_seconds(cudaMemcpyHostToDevice, hb, &s, err)) != 0)
            break;
        cb(ctx, "h2d", (double)hb / s / 1e9, NAN, "GB/s");
        if ((rc = copy_seconds(cudaMemcpyDeviceToHost, hb, &s, err)) != 0)
            break;
        cb(ctx, "d2h", (double)hb / s / 1e9, NAN, "GB/s");
    } while (0);
    if (rc)
        snprintf(why, len, "%s", e.msg);
    return rc;
}
