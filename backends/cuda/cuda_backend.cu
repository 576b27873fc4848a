/* cuda_backend.cu - the CUDA backend's table: devices, probe, versions.
 * Built as lib/runner-cuda.so and loaded by the runner with dlopen(); only
 * this library links cudart and cuBLAS. */
#include "backend_tables.h"
#include "cuda_backend.h"
#include "cudnn_api.h"

#include <nvtx3/nvToolsExt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Context creation per device, timed where it happens (the first select, or
 * the probe for device 0) and reported once by cold_facts. */
static double ctx_seconds[64];
static int ctx_made[64], ctx_reported[64];

static cudaError_t make_context(int d)
{
    if (d < 0 || d >= 64)
        return cudaSetDevice(d);
    if (ctx_made[d])
        return cudaSetDevice(d);
    double t0 = now_s();
    cudaError_t e = cudaSetDevice(d);
    if (e == cudaSuccess)
        e = cudaFree(0); /* forces the context into being */
    ctx_seconds[d] = now_s() - t0;
    ctx_made[d] = e == cudaSuccess;
    return e;
}

__global__ void probe_kernel(int *out)
{
    *out = 42;
}

static int cuda_probe(char *why, size_t len)
{
    int n = 0;
    cudaError_t e = cudaGetDeviceCount(&n);
    if (e == cudaErrorInsufficientDriver) {
        int rt = 0;
        cudaRuntimeGetVersion(&rt);
        snprintf(why, len, "no CUDA driver (or one older than CUDA runtime %d.%d)", rt / 1000,
                 rt % 1000 / 10);
        return 1;
    }
    if (e == cudaErrorNoDevice || (e == cudaSuccess && n == 0)) {
        /* a machine with GPUs that the environment hides (an empty or
         * wrong CUDA_VISIBLE_DEVICES) says so: "no CUDA device" alone
         * sends its user looking for a missing card */
        const char *vis = getenv("CUDA_VISIBLE_DEVICES");
        if (vis)
            snprintf(why, len, "no CUDA device visible (CUDA_VISIBLE_DEVICES=%.64s)", vis);
        else
            snprintf(why, len, "no CUDA device");
        return 1;
    }
    if (e != cudaSuccess) {
        snprintf(why, len, "CUDA is not usable: %s (%s)", cudaGetErrorName(e),
                 cudaGetErrorString(e));
        return 1;
    }
    /* One tiny kernel: a GPU this library has no code for (no SASS for its
     * architecture and PTX too new for its driver) is a skip reason here,
     * not a failure of every trial later.  (doc/contributing/backends.md#backends.) */
    int *d = NULL, got = 0;
    e = make_context(0);
    if (e == cudaSuccess)
        e = cudaMalloc(&d, sizeof *d);
    if (e == cudaSuccess) {
        probe_kernel<<<1, 1>>>(d);
        e = cudaGetLastError();
    }
    if (e == cudaSuccess)
        e = cudaMemcpy(&got, d, sizeof got, cudaMemcpyDeviceToHost);
    if (d)
        cudaFree(d);
    if (e == cudaSuccess && got != 42)
        e = cudaErrorUnknown;
    if (e != cudaSuccess) {
        cudaDeviceProp p;
        int ok = cudaGetDeviceProperties(&p, 0) == cudaSuccess;
        if (e == cudaErrorNoKernelImageForDevice || e == cudaErrorUnsupportedPtxVersion ||
            e == cudaErrorInvalidKernelImage)
            snprintf(why, len,
                     "runner-cuda.so has no code this GPU can run (%s%s compute capability "
                     "%d.%d): %s; rebuild it with a toolkit that targets it",
                     ok ? p.name : "device 0", ok ? "," : "", ok ? p.major : 0,
                     ok ? p.minor : 0, cudaGetErrorName(e));
        else
            snprintf(why, len, "a test kernel failed on cuda:0: %s (%s)", cudaGetErrorName(e),
                     cudaGetErrorString(e));
        return 1;
    }
    return 0;
}

static int cuda_device_count(void)
{
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess)
        return 0;
    return n;
}

static int cuda_device_info(int index, rn_device_info *out)
{
    cudaDeviceProp p;
    if (cudaGetDeviceProperties(&p, index) != cudaSuccess)
        return -1;
    int drv = 0, rt = 0;
    cudaDriverGetVersion(&drv);
    cudaRuntimeGetVersion(&rt);
    snprintf(out->name, sizeof out->name, "%.127s", p.name);
    snprintf(out->detail, sizeof out->detail,
             "compute capability %d.%d, %d SMs, driver %d.%d, runtime %d.%d", p.major, p.minor,
             p.multiProcessorCount, drv / 1000, drv % 1000 / 10, rt / 1000, rt % 1000 / 10);
    out->memory_bytes = (double)p.totalGlobalMem;
    size_t fr = 0, tot = 0;
    int cur = 0;
    cudaGetDevice(&cur);
    if (cudaSetDevice(index) == cudaSuccess && cudaMemGetInfo(&fr, &tot) == cudaSuccess)
        out->free_bytes = (double)fr;
    cudaSetDevice(cur);
    return 0;
}

static int cuda_select(const rn_trial *t, rn_error *err)
{
    CK(make_context(t->device_index));
    cuda_current_device = t->device_index;
    return 0;
}

/* cold_cache, as nvbench does it: overwrite twice the L2 before a sample.
 * The buffer is made once per device and process, and freed at shutdown. */
static void *junk[64];
static size_t junk_size[64];

static size_t flush_bytes(int d)
{
    int l2 = 0;
    if (cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, d) != cudaSuccess || l2 <= 0)
        l2 = 64 << 20;
    return 2 * (size_t)l2;
}

static int cuda_flush_caches(const rn_trial *t, rn_error *err)
{
    int d = t->device_index;
    if (d < 0 || d >= 64)
        return 0;
    if (!junk[d]) {
        junk_size[d] = flush_bytes(d);
        CK(cudaMalloc(&junk[d], junk_size[d]));
    }
    CK(cudaMemsetAsync(junk[d], 0, junk_size[d], 0));
    CK(cudaDeviceSynchronize());
    return 0;
}

/* For the fit check, which runs before the trial's first flush: a device
 * without its flush buffer yet counts that buffer as taken. */
static int cuda_free_memory(int index, double *bytes)
{
    size_t fr = 0, tot = 0;
    if (cudaSetDevice(index) != cudaSuccess || cudaMemGetInfo(&fr, &tot) != cudaSuccess)
        return -1;
    size_t reserve = index >= 0 && index < 64 && !junk[index] ? flush_bytes(index) : 0;
    *bytes = fr > reserve ? (double)(fr - reserve) : 0;
    return 0;
}

static void shutdown_backend(void)
{
    for (int d = 0; d < 64; d++)
        if (junk[d]) {
            cudaSetDevice(d);
            cudaFree(junk[d]);
            junk[d] = NULL;
        }
}

static void cuda_env_info(void *ctx, rn_fact_cb cb)
{
    char buf[64];
    int drv = 0, rt = 0;
    cudaDriverGetVersion(&drv);
    cudaRuntimeGetVersion(&rt);
    snprintf(buf, sizeof buf, "%d.%d", drv / 1000, drv % 1000 / 10);
    cb(ctx, "cuda_driver_version", buf);
    snprintf(buf, sizeof buf, "%d.%d", rt / 1000, rt % 1000 / 10);
    cb(ctx, "cuda_runtime_version", buf);
    int v = 0;
    if (cublasGetProperty(MAJOR_VERSION, &v) == CUBLAS_STATUS_SUCCESS) {
        int mi = 0, pa = 0;
        cublasGetProperty(MINOR_VERSION, &mi);
        cublasGetProperty(PATCH_LEVEL, &pa);
        snprintf(buf, sizeof buf, "%d.%d.%d", v, mi, pa);
        cb(ctx, "cublas_version", buf);
    }
    const char *dnn = cudnn_version_text(); /* cnn_forward's; absent: not installed */
    if (dnn)
        cb(ctx, "cudnn_version", dnn);
}

/* The cold breakdown (doc/timing.md#how-a-trial-is-timed): context creation where this
 * trial paid it, and cuBLAS handle creation inside its first call. */
static void cold_facts(const rn_trial *t, void *ctx,
                       void (*cb)(void *ctx, const char *k, const char *v))
{
    char buf[32];
    int d = t->device_index;
    if (d >= 0 && d < 64 && ctx_made[d] && !ctx_reported[d]) {
        ctx_reported[d] = 1;
        snprintf(buf, sizeof buf, "%.9g", ctx_seconds[d]);
        cb(ctx, "cold_context", buf);
    }
    double b = cuda_blas_created_seconds();
    if (b > 0) {
        snprintf(buf, sizeof buf, "%.9g", b);
        cb(ctx, "cold_blas", buf);
    }
}

/* NVTX ranges with the trace's names (doc/results.md#a-timeline-of-a-run): an
 * nsys capture of a run is labelled by trial, sample and phase.  NVTX is
 * header-only; without a profiler attached a range costs a few ns. */
static void range(const char *name, int begin)
{
    if (begin)
        nvtxRangePushA(name);
    else
        nvtxRangePop();
}

/* The workloads, as their files register them (RN_REGISTER_WORKLOAD) when
 * this library is loaded. */
static rn_workload_list workloads;

void cuda_register_workload(const rn_workload_impl *w)
{
    rn_workload_list_add(&workloads, w);
}

static const rn_workload_impl *cuda_workload(const char *name)
{
    return rn_workload_list_find(&workloads, name);
}

static const rn_backend cuda_backend = RN_BACKEND_OF(
    cuda, cuda,
    .shutdown = shutdown_backend,
    .tensor = &cuda_tensor_ops,
    .sample_begin = cuda_sample_begin,
    .sample_check = cuda_sample_check,
    .device_warning = cuda_device_warning,
    .cold_facts = cold_facts,
    .range = range,
    /* a GPU's clocks ramp under load for longer than its calls take to
     * settle: on an H200, CUDA trials that warmed under 20 ms had their
     * first timed sample the slowest (by 1-3 %, on the device's clock too)
     * about twice as often as chance; 50 ms brought it to chance
     * (bench/NOTES-gpu.md) */
    .min_warm = 0.05,
    .ceilings = cuda_ceilings,
    .energy = cuda_energy,
    .batch_begin = cuda_batch_begin, /* cuda_common.cu: a batch's device time as one */
    /* no carry: every CUDA trial warms min_warm.  A carried trial warms
     * 0.01 s, the arm of the H200 A/B in which the first sample was the
     * slowest 15 and 12 times of 42 against 8.4 by chance, and that arm's
     * trials were just what a carry covers: nested_sin after nested_sin on
     * cuda:0, back to back (bench/NOTES-gpu.md; doc/timing.md#how-a-trial-is-timed) */
    .warm_carry = 0,
);

extern "C" __attribute__((visibility("default"))) const rn_backend *runner_backend_entry(void)
{
    return &cuda_backend;
}
