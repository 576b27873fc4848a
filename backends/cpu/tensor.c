/* tensor.c - the CPU's tensor ops for the Lua API (rn_tensor_ops, backend.h):
 * f32 buffers in host memory.  Every op is synchronous.
 *
 * Small tensors are the common case in Lua code that mimics eager PyTorch
 * (a one-element sum, a scalar operand), so below PAR_MIN elements an op is
 * a plain loop on the calling thread: no OpenMP region, no target_clones
 * dispatch.  Large ones are split over the OpenMP threads the trial asked for
 * (cpu_select sets them), with the vector kernels of vmath.h.
 *
 * Random fills reproduce rn_uniform(seed, stream, offset + i) exactly (the
 * CUDA backend draws the same numbers).  A normal fill draws element i from
 * u1 = U(2 (offset + i)) and u2 = U(2 (offset + i) + 1), as backends/cuda does:
 *   z = sqrt(-2 ln(1 - u1)) * cos(2 pi u2), in double, rounded to f32.
 */
#include <cblas.h>
#include <math.h>
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend_tables.h"
#include "cpu.h"
#include "ewise.h"
#include "fill.h"
#include "mem.h"
#include "philox.h"
#include "vmath.h"


#define PAR_MIN 32768 /* elements: below this an op runs on the calling thread */
#define BATCH (4 * CPU_PHILOX_LANES) /* values per vector Philox batch */
#define ALIGN_ELEMS 16    /* threads split on cache lines */

/* --- memory -------------------------------------------------------------- */

static void *t_alloc(int dev, size_t n, rn_error *err)
{
    (void)dev;
    return cpu_alloc(n, sizeof(float), "tensor", "a tensor", err);
}

static void t_release(int dev, void *p)
{
    (void)dev;
    cpu_free(p);
}

static int t_upload(int dev, float *dst, const float *src, size_t n, rn_error *err)
{
    (void)dev;
    (void)err;
    if (n)
        memmove(dst, src, n * sizeof(float));
    return 0;
}

/* host memory both ways: the same copy */
static int t_download(int dev, float *dst, const float *src, size_t n, rn_error *err)
{
    return t_upload(dev, dst, src, n, err);
}

static int t_sync(int dev, rn_error *err)
{
    (void)dev;
    (void)err;
    return 0;
}

/* --- random fills -------------------------------------------------------- */

/* dst[j - j0] = U(j) for j0 <= j < j1: scalar Philox blocks (one block gives
 * four consecutive values). */
static void uniform_scalar(float *dst, uint64_t j0, uint64_t j1, uint64_t seed, uint32_t stream)
{
    uint64_t j = j0;
    while (j < j1) {
        uint64_t blk = j >> 2;
        rn_philox_out o = rn_philox4x32((uint32_t)blk, (uint32_t)(blk >> 32), stream, 0u,
                                        (uint32_t)seed, (uint32_t)(seed >> 32));
        for (unsigned w = (unsigned)(j & 3); w < 4 && j < j1; w++, j++)
            dst[j - j0] = rn_u01f(o.v[w]);
    }
}

/* The same in vector batches of 16 Philox blocks (64 numbers) from the first
 * block boundary; a short range stays scalar. */
CPU_CLONES static void uniform_range(float *dst, uint64_t j0, uint64_t j1, uint64_t seed,
                                     uint32_t stream)
{
    if (j1 - j0 < 16) {
        uniform_scalar(dst, j0, j1, seed, stream);
        return;
    }
    uint64_t j = (j0 + 3) & ~(uint64_t)3;
    uniform_scalar(dst, j0, j, seed, stream);
    float v[BATCH];
    while (j < j1) {
        uint64_t m = j1 - j < BATCH ? j1 - j : BATCH;
        float *d = m == BATCH ? dst + (j - j0) : v;
        cpu_philox_values(j, seed, stream, d);
        if (m < BATCH)
            memcpy(dst + (j - j0), v, m * sizeof(float));
        j += m;
    }
}

#define NORMAL_CHUNK 512

/* dst[i] = normal number i0 + i (of `offset`), i < n. */
static void normal_range(float *dst, size_t i0, size_t n, uint64_t seed, uint32_t stream,
                         uint64_t offset)
{
    float u[2 * NORMAL_CHUNK];
    const double two_pi = 6.283185307179586476925286766559;
    for (size_t c = 0; c < n; c += NORMAL_CHUNK) {
        size_t m = n - c < NORMAL_CHUNK ? n - c : NORMAL_CHUNK;
        uint64_t j = 2 * (offset + (uint64_t)(i0 + c));
        uniform_range(u, j, j + 2 * m, seed, stream);
        for (size_t e = 0; e < m; e++) {
            double r = sqrt(-2.0 * log(1.0 - (double)u[2 * e]));
            dst[c + e] = (float)(r * cos(two_pi * (double)u[2 * e + 1]));
        }
    }
}

/* cpu_fill_call's ranges: element i of dst is number offset + i */
static void uniform_part(const cpu_fill_call *c, size_t lo, size_t hi)
{
    uniform_range((float *)c->dst + lo, c->offset + lo, c->offset + hi, c->seed, c->stream);
}

static void normal_part(const cpu_fill_call *c, size_t lo, size_t hi)
{
    normal_range((float *)c->dst + lo, lo, hi - lo, c->seed, c->stream, c->offset);
}

static int t_fill(int dev, float *dst, size_t n, rn_fill_kind kind, double value, uint64_t seed,
                  uint32_t stream, uint64_t offset, rn_error *err)
{
    (void)dev;
    if (kind == RN_FILL_CONST) {
        float v = (float)value;
        if (n < PAR_MIN) {
            for (size_t i = 0; i < n; i++)
                dst[i] = v;
        } else {
#pragma omp parallel for simd schedule(static)
            for (size_t i = 0; i < n; i++)
                dst[i] = v;
        }
        return 0;
    }
    if (kind != RN_FILL_UNIFORM && kind != RN_FILL_NORMAL) {
        snprintf(err->msg, sizeof err->msg, "fill: unknown kind %d", (int)kind);
        return -1;
    }
    int uniform = kind == RN_FILL_UNIFORM;
    cpu_fill_call c = {uniform ? uniform_part : normal_part, dst, seed, offset, stream};
    if (n < PAR_MIN)
        c.range(&c, 0, n);
    else
        cpu_fill_run(&c, n, uniform ? BATCH : NORMAL_CHUNK, 0);
    return 0;
}

/* --- element-wise -------------------------------------------------------- */

/* The kernels are ewise.c's.  One runs on the calling thread below PAR_MIN
 * elements, else each OpenMP thread runs it on its own slice; a one-element
 * operand is passed whole to every slice (stride 0). */
typedef struct ewise_args {
    cpu_unary_fn unary;
    cpu_binary_fn binary;
    float *d;
    const float *a, *b;
    size_t sa, sb; /* the operands' strides: 1, or 0 for one element */
    float k;
} ewise_args;

static void ewise_range(void *ctx, int part, size_t lo, size_t hi)
{
    (void)part;
    const ewise_args *e = ctx;
    if (e->unary)
        e->unary(e->d + lo, e->a + lo, hi - lo, e->k);
    else
        e->binary(e->d + lo, e->a + lo * e->sa, e->b + lo * e->sb, hi - lo);
}

static void run_ewise(const ewise_args *e, size_t n)
{
    if (n < PAR_MIN)
        ewise_range((void *)e, 0, 0, n);
    else
        cpu_parallel(n, ALIGN_ELEMS, 0, ewise_range, (void *)e);
}

static int t_unary(int dev, rn_unary_op op, float *dst, const float *src, size_t n, double arg,
                   rn_error *err)
{
    (void)dev;
    cpu_unary_fn f = cpu_ew_unary(op, arg);
    if (!f) {
        snprintf(err->msg, sizeof err->msg, "unary: unknown operation %d", (int)op);
        return -1;
    }
    ewise_args e = {.unary = f, .d = dst, .a = src, .sa = 1, .k = (float)arg};
    run_ewise(&e, n);
    return 0;
}

static int t_binary(int dev, rn_binary_op op, float *dst, const float *a, size_t na,
                    const float *b, size_t nb, rn_error *err)
{
    (void)dev;
    if ((unsigned)op > RN_BIN_DIV) {
        snprintf(err->msg, sizeof err->msg, "binary: unknown operation %d", (int)op);
        return -1;
    }
    if (na != nb && na != 1 && nb != 1) {
        snprintf(err->msg, sizeof err->msg, "sizes %zu and %zu do not fit", na, nb);
        return -1;
    }
    int shape = na == nb ? 0 : na == 1 ? 1 : 2;
    size_t n = (na == 0 || nb == 0) ? 0 : na > nb ? na : nb; /* empty stays empty */
    ewise_args e = {.binary = cpu_ew_binary[op][shape], .d = dst, .a = a, .b = b,
                    .sa = shape == 1 ? 0 : 1, .sb = shape == 2 ? 0 : 1};
    run_ewise(&e, n);
    return 0;
}

/* --- reductions and products --------------------------------------------- */

#define SMALL 16 /* below this, a plain loop */

CPU_CLONES static double sum_range(const float *s, size_t n)
{
    double acc = 0;
#pragma omp simd reduction(+ : acc)
    for (size_t i = 0; i < n; i++)
        acc += (double)s[i];
    return acc;
}

typedef struct sum_args {
    const float *src;
    double part[256]; /* per thread; 0 for a thread with nothing to add */
} sum_args;

static void sum_part(void *ctx, int part, size_t lo, size_t hi)
{
    sum_args *a = ctx;
    a->part[part] = sum_range(a->src + lo, hi - lo);
}

/* In double; the same split for the same thread count, partials added in
 * order, so a sum does not change from run to run. */
static int t_sum(int dev, float *dst1, const float *src, size_t n, rn_error *err)
{
    (void)dev;
    (void)err;
    if (n < SMALL) {
        double acc = 0;
        for (size_t i = 0; i < n; i++)
            acc += (double)src[i];
        dst1[0] = (float)acc;
        return 0;
    }
    if (n < PAR_MIN) {
        dst1[0] = (float)sum_range(src, n);
        return 0;
    }
    sum_args a = {src, {0}};
    int nt = omp_get_max_threads();
    if (nt > 256)
        nt = 256;
    cpu_parallel(n, ALIGN_ELEMS, nt, sum_part, &a);
    double *part = a.part, acc = 0;
    for (int q = 0; q < nt; q++)
        acc += part[q];
    dst1[0] = (float)acc;
    return 0;
}

static int t_matmul(int dev, float *c, const float *a, const float *b, int m, int n, int k,
                    rn_error *err)
{
    (void)dev;
    if (m < 0 || n < 0 || k < 0) {
        snprintf(err->msg, sizeof err->msg, "matmul: negative dimension %dx%d by %dx%d", m, k,
                 k, n);
        return -1;
    }
    if (m == 0 || n == 0)
        return 0;
    if (k == 0) {
        memset(c, 0, (size_t)m * (size_t)n * sizeof(float));
        return 0;
    }
    /* The trial's threads (select() set OpenMP's count on this thread and
     * leaves OpenBLAS alone until a workload calls it: see cpu_backend.c). */
    cpu_blas_threads(omp_get_max_threads());
    if (n == 1)
        cblas_sgemv(CblasRowMajor, CblasNoTrans, m, k, 1.0f, a, k, b, 1, 0.0f, c, 1);
    else
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1.0f, a, k, b, n, 0.0f,
                    c, n);
    return 0;
}

/* the fused expressions' cpu_fuse_* are fuse.c's */
const rn_tensor_ops cpu_tensor_ops = RN_TENSOR_OPS_OF(t, cpu);
