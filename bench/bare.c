/* bare.c - the same work as the runner's CPU benchmarks, in bare loops, so
 * that bench/cpu.sh can say how much the runner costs on top.
 *
 * Timing is the runner's: CLOCK_MONOTONIC around each call, WARMUPS untimed
 * calls, then the median of REPEATS timed ones.  Prints one line per
 * measurement: `name size seconds_median`.
 *   noop        0        an empty timed region (the clock's own cost)
 *   sgemm       n        cblas_sgemm, n x n x n, all usable CPUs
 *   nested_sin  2^22     y = sin(sin(sin(sin(x)))) in f32, one pass, 1 thread
 *   nested_sin_chained   the same written as nested calls (slower; for information)
 *   sumsq       2000     2000 iterations of 1000 Philox numbers, 1 thread
 * Inputs are Philox uniforms as in the runner; their values do not change the
 * timings (no denormals, no special cases), only keep the comparison honest. */
#include <cblas.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "cpu/fill.h"
#include "cpu/vmath.h"
#include "philox.h"

#define WARMUPS 2

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* Times fn(ctx) WARMUPS + repeats times; returns the median of the timed. */
static double time_median(void (*fn)(void *), void *ctx, int repeats)
{
    double *t = malloc((size_t)repeats * sizeof *t);
    if (!t) {
        perror("bare");
        exit(1);
    }
    for (int i = 0; i < WARMUPS; i++)
        fn(ctx);
    for (int i = 0; i < repeats; i++) {
        double t0 = now();
        fn(ctx);
        t[i] = now() - t0;
    }
    double m = median(t, repeats);
    free(t);
    return m;
}

static void *xalloc(size_t bytes)
{
    void *p = aligned_alloc(64, (bytes + 63) / 64 * 64);
    if (!p) {
        perror("bare");
        exit(1);
    }
    return p;
}

static void fill(float *v, size_t n, uint32_t stream)
{
    for (size_t i = 0; i < n; i++)
        v[i] = rn_uniform(0, stream, i);
}

/* --- noop ---------------------------------------------------------------- */

static void nothing(void *ctx)
{
    (void)ctx;
}

/* --- sgemm ---------------------------------------------------------------- */

typedef struct {
    int n;
    float *a, *b, *c;
} gemm_ctx;

static void gemm(void *p)
{
    gemm_ctx *g = p;
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, g->n, g->n, g->n, 1.0f, g->a, g->n,
                g->b, g->n, 0.0f, g->c, g->n);
}

/* --- nested_sin -------------------------------------------------------------- */

typedef struct {
    size_t n;
    float *x, *y;
} sin_ctx;

/* The fastest simple form we know: one sin over an L1-sized tile per step,
 * so that consecutive vector calls are independent and overlap. */
CPU_CLONES static void sin4(const float *restrict x, float *restrict y, size_t n)
{
    for (size_t lo = 0; lo < n; lo += 1024) {
        size_t m = n - lo < 1024 ? n - lo : 1024;
        const float *restrict xs = x + lo;
        float *restrict ys = y + lo;
#pragma omp simd
        for (size_t i = 0; i < m; i++)
            ys[i] = sinf(xs[i]);
        for (int d = 1; d < 4; d++) {
#pragma omp simd
            for (size_t i = 0; i < m; i++)
                ys[i] = sinf(ys[i]);
        }
    }
}

/* The textbook form, for information: each call waits for the previous. */
CPU_CLONES static void sin4_nested(const float *restrict x, float *restrict y, size_t n)
{
#pragma omp simd
    for (size_t i = 0; i < n; i++)
        y[i] = sinf(sinf(sinf(sinf(x[i]))));
}

static void nested_sin_chained(void *p)
{
    sin_ctx *s = p;
    sin4_nested(s->x, s->y, s->n);
}

static void nested_sin(void *p)
{
    sin_ctx *s = p;
    sin4(s->x, s->y, s->n);
}

/* --- sumsq ------------------------------------------------------------------ */

typedef struct {
    int iters, length;
    double total;
} sumsq_ctx;

CPU_CLONES static double sumsq_iteration(uint32_t it, int length)
{
    uint32_t w[4 * CPU_PHILOX_LANES];
    double sum = 0;
    for (int base = 0; base < length; base += 4 * CPU_PHILOX_LANES) {
        cpu_philox_lanes((uint64_t)base / 4, it, 0, 0, w);
        int rest = length - base;
#pragma omp simd reduction(+ : sum)
        for (int e = 0; e < 4 * CPU_PHILOX_LANES; e++) {
            int index = 4 * (e % CPU_PHILOX_LANES) + e / CPU_PHILOX_LANES;
            uint32_t keep = 0u - (uint32_t)(index < rest); /* drop numbers past length */
            double u = rn_u01f(w[e] & keep);
            sum += u * u;
        }
    }
    return sum;
}

static void sumsq(void *p)
{
    sumsq_ctx *s = p;
    double total = 0;
    for (int it = 0; it < s->iters; it++)
        total += sumsq_iteration((uint32_t)it, s->length);
    s->total = total;
}

int main(void)
{
    cpu_set_t set;
    int cpus = sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : 1;

    printf("noop 0 %.9e\n", time_median(nothing, NULL, 100001));

    openblas_set_num_threads(cpus); /* the runner's threads: all */
    for (int n = 256; n <= 2048; n *= 2) {
        size_t nn = (size_t)n * (size_t)n;
        gemm_ctx g = {n, xalloc(nn * 4), xalloc(nn * 4), xalloc(nn * 4)};
        fill(g.a, nn, 0);
        fill(g.b, nn, 1);
        printf("sgemm %d %.9e\n", n, time_median(gemm, &g, 31));
        free(g.a);
        free(g.b);
        free(g.c);
    }

    sin_ctx s = {(size_t)1 << 22, NULL, NULL};
    s.x = xalloc(s.n * 4);
    s.y = xalloc(s.n * 4);
    fill(s.x, s.n, 0);
    printf("nested_sin %zu %.9e\n", s.n, time_median(nested_sin, &s, 21));
    printf("nested_sin_chained %zu %.9e\n", s.n, time_median(nested_sin_chained, &s, 21));
    free(s.x);
    free(s.y);

    sumsq_ctx q = {2000, 1000, 0};
    printf("sumsq %d %.9e\n", q.iters, time_median(sumsq, &q, 21));
    return q.total > 0 ? 0 : 1; /* uses the result, so no call is optimised away */
}
