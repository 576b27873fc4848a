/* cuda_common.cu - see cuda_common.h. */
#include "cuda_common.h"
#include "verify_tol.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int cuda_current_device = 0;

int ck_fail(rn_error *err, const char *file, int line, const char *what, cudaError_t e)
{
    const char *base = strrchr(file, '/');
    snprintf(err->msg, sizeof err->msg, "%s:%d: %s: %s (%s)", base ? base + 1 : file, line, what,
             cudaGetErrorName(e), cudaGetErrorString(e));
    return 1;
}

int ck_fail_blas(rn_error *err, const char *file, int line, const char *what, cublasStatus_t s)
{
    const char *base = strrchr(file, '/');
    snprintf(err->msg, sizeof err->msg, "%s:%d: %s: %s", base ? base + 1 : file, line, what,
             cublasGetStatusName(s));
    return 1;
}

/* The calling thread's handles, one per (device, stream) it has used; the
 * thread's exit destroys them.  A stream destroyed and another created at
 * the same address reuse the entry: harmless, the stream is set every call. */
namespace {
struct blas_entry {
    int device;
    cudaStream_t stream;
    cublasHandle_t h;
};
struct blas_cache {
    blas_entry e[32];
    int n = 0, next = 0; /* next: the entry replaced when all are taken */
    ~blas_cache()
    {
        for (int i = 0; i < n; i++)
            cublasDestroy(e[i].h);
    }
};
thread_local blas_cache blas_handles;
thread_local double blas_create_seconds;

double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}
} // namespace

double cuda_blas_created_seconds(void)
{
    double s = blas_create_seconds;
    blas_create_seconds = 0;
    return s;
}

int cuda_blas(cublasHandle_t *out, cudaStream_t st, rn_error *err)
{
    blas_cache &c = blas_handles;
    int d = cuda_current_device;
    cublasHandle_t h = NULL;
    for (int i = 0; i < c.n && !h; i++)
        if (c.e[i].device == d && c.e[i].stream == st)
            h = c.e[i].h;
    if (!h) {
        double t0 = now_s();
        CKB(cublasCreate(&h));
        blas_create_seconds += now_s() - t0;
        int slot = c.n < 32 ? c.n++ : c.next;
        if (c.e[slot].h && slot == c.next) {
            cublasDestroy(c.e[slot].h); /* all taken: the oldest goes */
            c.next = (c.next + 1) % 32;
        }
        c.e[slot] = {d, st, h};
    }
    CKB(cublasSetStream(h, st));
    CKB(cublasSetMathMode(h, CUBLAS_DEFAULT_MATH));
    CKB(cublasSetPointerMode(h, CUBLAS_POINTER_MODE_HOST));
    *out = h;
    return 0;
}

void host_fill_uniform(float *dst, size_t n, uint64_t seed, uint32_t stream, float lo, float hi)
{
#pragma omp parallel for schedule(static) if (n > (1 << 16))
    for (size_t blk = 0; blk < (n + 3) / 4; blk++) {
        rn_philox_out o = rn_philox4x32((uint32_t)blk, (uint32_t)((uint64_t)blk >> 32), stream,
                                        0u, (uint32_t)seed, (uint32_t)(seed >> 32));
        for (int j = 0; j < 4 && blk * 4 + j < n; j++)
            dst[blk * 4 + j] = lo + (hi - lo) * rn_u01f(o.v[j]);
    }
}

void *host_alloc(size_t bytes, int pinned, rn_error *err)
{
    void *p = NULL;
    if (pinned) {
        cudaError_t e = cudaMallocHost(&p, bytes ? bytes : 1);
        if (e != cudaSuccess) {
            ck_fail(err, __FILE__, __LINE__, "cudaMallocHost", e);
            return NULL;
        }
        return p;
    }
    p = aligned_alloc(64, ((bytes ? bytes : 1) + 63) / 64 * 64);
    if (!p)
        snprintf(err->msg, sizeof err->msg, "cannot allocate %zu bytes of host memory", bytes);
    return p;
}

void host_free(void *p, int pinned)
{
    if (!p)
        return;
    if (pinned)
        cudaFreeHost(p);
    else
        free(p);
}

int compare_value(double got, double want, double tol, const char *workload, const char *what,
                  rn_error *err)
{
    double scale = fabs(want) > 1e-30 ? fabs(want) : 1.0;
    double rel = fabs(got - want) / scale;
    if (rel <= tol && got == got)
        return 0;
    snprintf(err->msg, sizeof err->msg,
             "%s: %s = %.9g but the reference is %.9g (relative error %.1e > %.1e)", workload,
             what, got, want, rel, tol);
    return 1;
}

int check_close(double got, double want, double tol, const char *workload, rn_error *err,
                const char *fmt, ...)
{
    if (rn_within(got, want, tol))
        return 0;
    char what[64];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    return compare_value(got, want, tol, workload, what, err);
}

int lanes_init(cuda_lanes *l, int n, int events, rn_error *err)
{
    for (int i = 0; i < n; i++) {
        CK(cudaStreamCreateWithFlags(&l->st[i], cudaStreamNonBlocking));
        if (events)
            CK(cudaEventCreateWithFlags(&l->done[i], cudaEventDisableTiming));
    }
    return timer_init(&l->tm, err);
}

int lanes_fork(cuda_lanes *l, int n, cudaEvent_t e, rn_error *err)
{
    for (int i = 1; i < n; i++)
        CK(cudaStreamWaitEvent(l->st[i], e, 0));
    return 0;
}

void lanes_free(cuda_lanes *l)
{
    for (int i = 0; i < CUDA_MAX_LANES; i++) {
        if (l->st[i])
            cudaStreamDestroy(l->st[i]);
        if (l->done[i])
            cudaEventDestroy(l->done[i]);
    }
    timer_free(&l->tm);
}

void host_memory_extra(int pinned, void *ctx, void (*cb)(void *ctx, const char *k, const char *v))
{
    cb(ctx, "host_memory_used", pinned ? "pinned" : "pageable");
}

void *state_calloc(size_t size, const char *workload, rn_error *err)
{
    void *p = calloc(1, size);
    if (!p)
        snprintf(err->msg, sizeof err->msg, "%s%sout of host memory", workload ? workload : "",
                 workload ? ": " : "");
    return p;
}
