/* matmul.c - C = A * B through OpenBLAS (cblas_sgemm / cblas_dgemm).
 * Row-major; A is m x k, B is k x n, C is m x n; n = size, and m and k
 * default to size.  A is input stream 0, B stream 1 (see fill.h). */
#include <cblas.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <time.h>

#include "fill.h"
#include "frame.h"
#include "mem.h"

typedef struct matmul_state {
    cpu_output out; /* C; first member, see verify.h */
    void *a, *b, *c;
    size_t m, n, k;
    rn_dtype dtype;
    int threads;
} matmul_state;

static void matmul_free(void *st)
{
    matmul_state *s = st;
    cpu_free_all((void *[]){s->a, s->b, s->c}, 3);
}

/* A dimension that CBLAS can take (it takes int). */
static int dimension(long long v, const char *key, size_t *out, rn_error *err)
{
    if (cpu_count(v, "matmul", key, out, err))
        return -1;
    if (*out > INT_MAX) {
        snprintf(err->msg, sizeof err->msg, "matmul: %s = %zu is above the BLAS limit of %d",
                 key, *out, INT_MAX);
        return -1;
    }
    return 0;
}

/* m and k: the parameter when given (>= 0), else size. */
static long long param_or_size(const rn_trial *t, const char *key)
{
    double v = rn_param_num(t, key, -1);
    if (v < 0)
        return t->size;
    return v < 9e18 ? (long long)v : LLONG_MAX; /* out of range: refused by dimension() */
}

/* OpenBLAS starts its pool threads on the caller's core; the scheduler
 * spreads them over the cores only after some tens of milliseconds, and
 * until then a multi-threaded GEMM runs at one core's speed (seen: the first
 * ~80 samples of n = 256 at half speed).  The first multi-threaded trial in a
 * worker therefore keeps the pool busy for 60 ms, untimed, before it starts. */
static void settle_blas_pool(int threads)
{
    static int settled;
    if (settled || threads < 2)
        return;
    settled = 1;
    enum { N = 192 };
    float *a = calloc((size_t)N * N * 3, sizeof *a);
    if (!a)
        return;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    do {
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, N, N, N, 1.0f, a, N, a + N * N,
                    N, 0.0f, a + 2 * N * N, N);
        clock_gettime(CLOCK_MONOTONIC, &t1);
    } while ((double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9 < 0.06);
    free(a);
}

static int matmul_setup(const rn_trial *t, void *st, rn_error *err)
{
    matmul_state *s = st;
    s->dtype = t->dtype;
    size_t es = rn_dtype_size(t->dtype);
    if (dimension(param_or_size(t, "m"), "m", &s->m, err) ||
        dimension(param_or_size(t, "k"), "k", &s->k, err) ||
        dimension(t->size, "size", &s->n, err) ||
        !(s->a = cpu_alloc(s->m * s->k, es, "matmul", "A", err)) ||
        !(s->b = cpu_alloc(s->k * s->n, es, "matmul", "B", err)) ||
        !(s->c = cpu_alloc(s->m * s->n, es, "matmul", "C", err)))
        return -1;
    cpu_fill_uniform(s->a, s->dtype, s->m * s->k, t->seed, 0, t->threads);
    cpu_fill_uniform(s->b, s->dtype, s->k * s->n, t->seed, 1, t->threads);
    s->out = (cpu_output){s->c, s->m * s->n, s->dtype, 0};
    s->threads = t->threads > 0 ? t->threads : 1;
    return 0;
}

/* prepare()'s last step, after the inject step */
static void matmul_ready(void *st)
{
    matmul_state *s = st;
    /* select() leaves OpenBLAS alone (cpu_backend.c); set here, not only in
     * run(), for settle_blas_pool's GEMMs */
    cpu_blas_threads(s->threads);
    settle_blas_pool(s->threads);
}

static void matmul_kernel(void *st)
{
    matmul_state *s = st;
    int m = (int)s->m, n = (int)s->n, k = (int)s->k;
    /* Leading dimensions must be >= 1 even for empty matrices. */
    int lda = k > 1 ? k : 1, ldb = n > 1 ? n : 1, ldc = n > 1 ? n : 1;
    cpu_blas_threads(s->threads); /* a concurrent member may have changed it */
    if (s->dtype == RN_F32)
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1.0f, s->a, lda, s->b,
                    ldb, 0.0f, s->c, ldc);
    else
        cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1.0, s->a, lda, s->b,
                    ldb, 0.0, s->c, ldc);
}

/* C[i][j] summed in double from the inputs */
static double matmul_reference(const void *st, size_t idx, char *what, size_t len)
{
    const matmul_state *s = st;
    size_t i = idx / s->n, j = idx % s->n;
    double ref = 0;
    for (size_t p = 0; p < s->k; p++)
        ref += cpu_at(s->a, s->dtype, i * s->k + p) * cpu_at(s->b, s->dtype, p * s->n + j);
    snprintf(what, len, "C[%zu][%zu]", i, j);
    return ref;
}

static int matmul_check(void *st, rn_error *err)
{
    matmul_state *s = st;
    /* Rounding in a k-term sum of positive terms grows like sqrt(k) ulps
     * (the BLAS blocks and reorders the sum, so the bound is statistical);
     * 8 sqrt(k) ulps keeps a wide margin over what 256 samples can show. */
    double eps = s->dtype == RN_F32 ? FLT_EPSILON : DBL_EPSILON;
    double floor = s->dtype == RN_F32 ? 1e-5 : 1e-12;
    double tol = fmax(floor, 8.0 * sqrt((double)s->k) * eps);
    return cpu_check_output(s, tol, SIZE_MAX, "matmul", matmul_reference, err);
}

CPU_KERNEL_WORKLOAD(matmul, 1, matmul_ready)
