/* ceilings.cu - a CUDA device's ceilings (doc/ceilings.md#the-ceilings):
 * the FP32, TF32, FP16, BF16 and FP64 GEMM peaks through cuBLAS at n =
 * 8192 (a size where cuBLAS reaches its peak on current GPUs), the
 * device-to-device copy bandwidth (bytes read plus bytes written, as the
 * memcpy workload counts it) and the pinned host<->device bandwidths; each
 * the best of several runs timed with events, the GEMMs on random non-zero
 * inputs (probe_fill.h).  Beside them the nominal figures: the vendor's
 * (gpu_nominal.c: SMs x clock x the per-SM rate of the compute capability,
 * FP64 on the tensor cores where DGEMM runs there), and 2 x memory clock x
 * bus width for the memory.  Every buffer and event is freed on every path
 * (probe_res). */
#include "cuda_backend.h"
#include "gpu_nominal.h"
#include "probe_fill.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define GEMM_N 8192
#define REPS 5

/* The probe's buffers and events, freed on every path (NULL: not made). */
typedef struct probe_res {
    void *d[3], *h;
    cudaEvent_t e[2];
} probe_res;

static void probe_free(probe_res *r)
{
    for (int i = 0; i < 3; i++)
        if (r->d[i])
            cudaFree(r->d[i]);
    if (r->h)
        cudaFreeHost(r->h);
    for (int i = 0; i < 2; i++)
        if (r->e[i])
            cudaEventDestroy(r->e[i]);
    memset(r, 0, sizeof *r);
}

/* Best seconds of one GEMM of kind w ("fp32", ...) at GEMM_N, on random
 * non-zero inputs (probe_fill.h). */
static int gemm_run(probe_res *res, const char *w, double *best, rn_error *err)
{
    const size_t n = GEMM_N;
    int f64 = !strcmp(w, "fp64"), half = !strcmp(w, "fp16") || !strcmp(w, "bf16");
    size_t esz = f64 ? 8 : half ? 2 : 4;
    int kind = f64 ? PROBE_F64 : !half ? PROBE_F32 : !strcmp(w, "fp16") ? PROBE_F16 : PROBE_BF16;
    for (int i = 0; i < 3; i++)
        CK(cudaMalloc(&res->d[i], n * n * esz));
    void *a = res->d[0], *b = res->d[1], *c = res->d[2];
    probe_fill<<<grid_for(n * n), 256>>>(a, n * n, kind, 1);
    CK_LAUNCH("probe_fill");
    probe_fill<<<grid_for(n * n), 256>>>(b, n * n, kind, 2);
    CK_LAUNCH("probe_fill");
    cublasHandle_t h;
    if (cuda_blas(&h, 0, err))
        return 1;
    if (!strcmp(w, "tf32"))
        CKB(cublasSetMathMode(h, CUBLAS_TF32_TENSOR_OP_MATH));
    CK(cudaEventCreate(&res->e[0]));
    CK(cudaEventCreate(&res->e[1]));
    cudaEvent_t e0 = res->e[0], e1 = res->e[1];
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
    return 0;
}

static int gemm_seconds(const char *w, double *best, rn_error *err)
{
    probe_res r = {};
    int rc = gemm_run(&r, w, best, err);
    probe_free(&r); /* also after a failure part-way */
    return rc;
}

/* Best seconds of a copy of `bytes` of kind k. */
static int copy_run(probe_res *res, cudaMemcpyKind k, size_t bytes, double *best, rn_error *err)
{
    CK(cudaMalloc(&res->d[0], bytes));
    if (k == cudaMemcpyDeviceToDevice)
        CK(cudaMalloc(&res->d[1], bytes));
    else
        CK(cudaMallocHost(&res->h, bytes));
    void *d1 = res->d[0], *d2 = res->d[1], *h = res->h;
    CK(cudaMemset(d1, 1, bytes));
    if (h)
        memset(h, 1, bytes);
    CK(cudaEventCreate(&res->e[0]));
    CK(cudaEventCreate(&res->e[1]));
    cudaEvent_t e0 = res->e[0], e1 = res->e[1];
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
    return 0;
}

static int copy_seconds(cudaMemcpyKind k, size_t bytes, double *best, rn_error *err)
{
    probe_res r = {};
    int rc = copy_run(&r, k, bytes, best, err);
    probe_free(&r);
    return rc;
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
        static const char *const kinds[] = {"fp32", "tf32", "fp16", "bf16", "fp64"};
        for (int i = 0; i < 5 && rc == 0; i++) {
            double s = NAN;
            if ((rc = gemm_seconds(kinds[i], &s, err)) != 0)
                break;
            cb(ctx, kinds[i], 2.0 * GEMM_N * GEMM_N * (double)GEMM_N / s / 1e9,
               gpu_nominal_gflops(p.name, p.major, p.minor, p.multiProcessorCount, khz * 1e-3,
                                  kinds[i]),
               "GFLOP/s");
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
