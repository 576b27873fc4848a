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

#include "backend.h"
#include "cpu.h"
#include "fill.h"
#include "mem.h"
#include "philox.h"
#include "vmath.h"


#define PAR_MIN 32768 /* elements: below this an op runs on the calling thread */
#define LANES CPU_PHILOX_LANES
#define BATCH (4 * LANES) /* values per vector Philox batch */
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

static int t_copy(int dev, float *dst, const float *src, size_t n, rn_error *err)
{
    (void)dev;
    (void)err;
    if (n)
        memmove(dst, src, n * sizeof(float));
    return 0;
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
    uint32_t w[BATCH];
    float v[BATCH];
    while (j < j1) {
        cpu_philox_lanes(j / 4, stream, 0, seed, w);
        uint64_t m = j1 - j < BATCH ? j1 - j : BATCH;
        float *d = m == BATCH ? dst + (j - j0) : v;
#pragma omp simd
        for (int l = 0; l < LANES; l++) {
            d[4 * l + 0] = rn_u01f(w[l]);
            d[4 * l + 1] = rn_u01f(w[LANES + l]);
            d[4 * l + 2] = rn_u01f(w[2 * LANES + l]);
            d[4 * l + 3] = rn_u01f(w[3 * LANES + l]);
        }
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
    if (n < PAR_MIN) {
        if (kind == RN_FILL_UNIFORM)
            uniform_range(dst, offset, offset + n, seed, stream);
        else
            normal_range(dst, 0, n, seed, stream, offset);
        return 0;
    }
#pragma omp parallel
    {
        size_t lo, hi;
        cpu_split(n, kind == RN_FILL_UNIFORM ? BATCH : NORMAL_CHUNK, omp_get_thread_num(),
                  omp_get_num_threads(), &lo, &hi);
        if (lo < hi) {
            if (kind == RN_FILL_UNIFORM)
                uniform_range(dst + lo, offset + lo, offset + hi, seed, stream);
            else
                normal_range(dst + lo, lo, hi - lo, seed, stream, offset);
        }
    }
    return 0;
}

/* --- element-wise -------------------------------------------------------- */

/* Every kernel is an `omp simd` loop compiled per ISA (CPU_CLONES): even at
 * 1000 numbers a scalar loop costs several times the vector one.  A kernel
 * runs on the calling thread below PAR_MIN elements, else each OpenMP thread
 * runs it on its own slice. */
typedef void (*unary_kernel)(float *restrict d, const float *restrict s, size_t n, float k);

#define UNARY_KERNEL(NAME, EXPR)                                                        \
    CPU_CLONES static void NAME(float *restrict d, const float *restrict s, size_t n,    \
                                float k)                                                \
    {                                                                                   \
        (void)k;                                                                        \
        _Pragma("omp simd") for (size_t i = 0; i < n; i++)                              \
        {                                                                               \
            float x = s[i];                                                             \
            d[i] = (EXPR);                                                              \
        }                                                                               \
    }

UNARY_KERNEL(u_neg, -x)
UNARY_KERNEL(u_abs, fabsf(x))
UNARY_KERNEL(u_sin, sinf(x))
UNARY_KERNEL(u_exp, expf(x))
UNARY_KERNEL(u_pow, powf(x, k))
UNARY_KERNEL(u_square, x *x)
UNARY_KERNEL(u_cube, x *x *x)
UNARY_KERNEL(u_sqrt, sqrtf(x))
UNARY_KERNEL(u_recip, 1.0f / x)
UNARY_KERNEL(u_copy, x)
UNARY_KERNEL(u_one, 1.0f + 0.0f * x)

static void run_unary(unary_kernel f, float *d, const float *s, size_t n, float k)
{
    if (n < PAR_MIN) {
        f(d, s, n, k);
        return;
    }
#pragma omp parallel
    {
        size_t lo, hi;
        cpu_split(n, ALIGN_ELEMS, omp_get_thread_num(), omp_get_num_threads(), &lo, &hi);
        if (lo < hi)
            f(d + lo, s + lo, hi - lo, k);
    }
}

static int t_unary(int dev, rn_unary_op op, float *dst, const float *src, size_t n, double arg,
                   rn_error *err)
{
    (void)dev;
    unary_kernel f = NULL;
    switch (op) {
    case RN_UN_NEG:
        f = u_neg;
        break;
    case RN_UN_ABS:
        f = u_abs;
        break;
    case RN_UN_SIN:
        f = u_sin;
        break;
    case RN_UN_EXP:
        f = u_exp;
        break;
    case RN_UN_POW:
        f = arg == 2     ? u_square
            : arg == 1   ? u_copy
            : arg == 0   ? u_one
            : arg == 3   ? u_cube
            : arg == 0.5 ? u_sqrt
            : arg == -1  ? u_recip
                         : u_pow;
        break;
    }
    if (!f) {
        snprintf(err->msg, sizeof err->msg, "unary: unknown operation %d", (int)op);
        return -1;
    }
    run_unary(f, dst, src, n, (float)arg);
    return 0;
}

/* Binary kernels in three shapes: equal sizes (vv), a one-element left
 * operand (sv), a one-element right operand (vs). */
typedef void (*binary_kernel)(float *restrict d, const float *restrict a,
                              const float *restrict b, size_t n);

#define BINARY_KERNELS(NAME, OP)                                                        \
    CPU_CLONES static void NAME##_vv(float *restrict d, const float *restrict a,         \
                                     const float *restrict b, size_t n)                 \
    {                                                                                   \
        _Pragma("omp simd") for (size_t i = 0; i < n; i++) d[i] = a[i] OP b[i];         \
    }                                                                                   \
    CPU_CLONES static void NAME##_sv(float *restrict d, const float *restrict a,         \
                                     const float *restrict b, size_t n)                 \
    {                                                                                   \
        float x = a[0];                                                                 \
        _Pragma("omp simd") for (size_t i = 0; i < n; i++) d[i] = x OP b[i];            \
    }                                                                                   \
    CPU_CLONES static void NAME##_vs(float *restrict d, const float *restrict a,         \
                                     const float *restrict b, size_t n)                 \
    {                                                                                   \
        float y = b[0];                                                                 \
        _Pragma("omp simd") for (size_t i = 0; i < n; i++) d[i] = a[i] OP y;            \
    }

BINARY_KERNELS(b_add, +)
BINARY_KERNELS(b_sub, -)
BINARY_KERNELS(b_mul, *)
BINARY_KERNELS(b_div, /)

static const binary_kernel kernels[4][3] = {
    [RN_BIN_ADD] = {b_add_vv, b_add_sv, b_add_vs},
    [RN_BIN_SUB] = {b_sub_vv, b_sub_sv, b_sub_vs},
    [RN_BIN_MUL] = {b_mul_vv, b_mul_sv, b_mul_vs},
    [RN_BIN_DIV] = {b_div_vv, b_div_sv, b_div_vs},
};

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
    binary_kernel f = kernels[op][shape];
    size_t n = (na == 0 || nb == 0) ? 0 : na > nb ? na : nb; /* empty stays empty */
    if (n < PAR_MIN) {
        f(dst, a, b, n);
        return 0;
    }
    size_t sa = shape == 1 ? 0 : 1, sb = shape == 2 ? 0 : 1; /* strides of the slices */
#pragma omp parallel
    {
        size_t lo, hi;
        cpu_split(n, ALIGN_ELEMS, omp_get_thread_num(), omp_get_num_threads(), &lo, &hi);
        if (lo < hi)
            f(dst + lo, a + lo * sa, b + lo * sb, hi - lo);
    }
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
    double part[256] = {0};
    int nt = omp_get_max_threads();
    if (nt > 256)
        nt = 256;
#pragma omp parallel num_threads(nt)
    {
        int k = omp_get_thread_num(), m = omp_get_num_threads();
        size_t lo, hi;
        cpu_split(n, ALIGN_ELEMS, k, m, &lo, &hi);
        part[k] = lo < hi ? sum_range(src + lo, hi - lo) : 0;
    }
    double acc = 0;
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

const rn_tensor_ops cpu_tensor_ops = {
    .alloc = t_alloc,
    .release = t_release,
    .upload = t_copy,
    .download = t_copy,
    .fill = t_fill,
    .unary = t_unary,
    .binary = t_binary,
    .sum = t_sum,
    .matmul = t_matmul,
    .sync = t_sync,
    .fuse_compile = cpu_fuse_compile, /* fuse.c */
    .fuse_run = cpu_fuse_run,
    .fuse_free = cpu_fuse_free,
};
