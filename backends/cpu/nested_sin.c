/* nested_sin.c - y = sin(sin(...sin(x))), `depth` applications, f32 / f64.
 *
 * fused: one pass over memory: each tile of x is read once, sin applied
 *   `depth` times while the tile sits in L1, and written to y once.
 * unfused: `depth` passes over whole arrays, each reading one buffer and
 *   writing another, one parallel region per pass, as eager PyTorch runs
 *   torch.sin(torch.sin(x)): x -> t -> y -> t ... ending in y.
 * The loops call sinf / sin under `omp simd`, which vmath.h turns into calls
 * of glibc's vector variants; x is input stream 0. */
#include <float.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#include "cpu.h"
#include "fill.h"
#include "mem.h"
#include "verify.h"
#include "vmath.h"

/* Elements per fused tile: 4 KiB of floats stays in L1 across the passes. */
#define TILE 1024
/* Threads split arrays on multiples of this many elements (a cache line of f32). */
#define ALIGN_ELEMS 16

typedef struct nested_sin_state {
    cpu_output out; /* y; first member, see verify.h */
    void *x, *y, *t;
    size_t n;
    int depth, fused, threads;
    rn_dtype dtype;
} nested_sin_state;

/* The vector kernels, one set per element type.  The fused kernel applies
 * one sin to a whole L1-resident tile per step rather than all `depth` to one
 * vector: GCC does not vectorise a variable-length inner loop, and even
 * written out, sin(sin(sin(sin(x)))) chains each vector call on the previous
 * one, while consecutive calls over a tile are independent and overlap in the
 * core (measured on Zen 4: 0.29 against 0.40 ns per sinf). */
#define DEFINE_KERNELS(T, SIN, SUFFIX)                                                  \
    CPU_CLONES static void pass_##SUFFIX(const T *restrict src, T *restrict dst, size_t n) \
    {                                                                                   \
        _Pragma("omp simd") for (size_t i = 0; i < n; i++) dst[i] = SIN(src[i]);        \
    }                                                                                   \
    CPU_CLONES static void fused_##SUFFIX(const T *restrict x, T *restrict y, size_t n,  \
                                          int depth)                                    \
    {                                                                                   \
        for (size_t lo = 0; lo < n; lo += TILE) {                                       \
            size_t m = n - lo < TILE ? n - lo : TILE;                                   \
            const T *restrict xs = x + lo;                                              \
            T *restrict ys = y + lo;                                                    \
            _Pragma("omp simd") for (size_t i = 0; i < m; i++) ys[i] = SIN(xs[i]);      \
            for (int d = 1; d < depth; d++) {                                           \
                _Pragma("omp simd") for (size_t i = 0; i < m; i++) ys[i] = SIN(ys[i]);  \
            }                                                                           \
        }                                                                               \
    }

DEFINE_KERNELS(float, sinf, f32)
DEFINE_KERNELS(double, sin, f64)

static void *offset(void *p, rn_dtype d, size_t i)
{
    return (char *)p + i * rn_dtype_size(d);
}

static void nested_sin_release(void *st)
{
    nested_sin_state *s = st;
    if (!s)
        return;
    cpu_free(s->x);
    cpu_free(s->y);
    cpu_free(s->t);
    free(s);
}

static int nested_sin_prepare(const rn_trial *t, void **state, rn_error *err)
{
    *state = NULL;
    if (t->dtype != RN_F32 && t->dtype != RN_F64) {
        snprintf(err->msg, sizeof err->msg, "dtype %s is not supported by the cpu backend",
                 rn_dtype_name(t->dtype));
        return RN_PREPARE_SKIP;
    }
    double depth = rn_param_num(t, "depth", 4);
    if (!(depth >= 1 && depth <= 1 << 20)) {
        snprintf(err->msg, sizeof err->msg, "nested_sin: depth = %g is out of range", depth);
        return -1;
    }
    nested_sin_state *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(err->msg, sizeof err->msg, "nested_sin: out of memory");
        return -1;
    }
    s->depth = (int)depth;
    s->fused = rn_param_num(t, "fused", 0) != 0;
    s->threads = t->threads > 1 ? t->threads : 1;
    s->dtype = t->dtype;
    size_t es = rn_dtype_size(t->dtype);
    if (cpu_count(t->size, "nested_sin", "size", &s->n, err) ||
        !(s->x = cpu_alloc(s->n, es, "nested_sin", "x", err)) ||
        !(s->y = cpu_alloc(s->n, es, "nested_sin", "y", err)) ||
        (!s->fused && s->depth > 1 && !(s->t = cpu_alloc(s->n, es, "nested_sin", "t", err)))) {
        nested_sin_release(s);
        return -1;
    }
    cpu_fill_uniform(s->x, s->dtype, s->n, t->seed, 0, s->threads);
    s->out = (cpu_output){s->y, s->n, s->dtype, 0};
    int inj = cpu_inject(t, &s->out, err); /* doc/workloads.md#fault-injection */
    if (inj) {
        nested_sin_release(s);
        return inj;
    }
    *state = s;
    return 0;
}

/* One pass src -> dst over all elements, split across the threads. */
static void pass(const nested_sin_state *s, void *src, void *dst)
{
#pragma omp parallel num_threads(s->threads) if (s->threads > 1)
    {
        size_t lo, hi;
        cpu_split(s->n, ALIGN_ELEMS, omp_get_thread_num(), omp_get_num_threads(), &lo, &hi);
        if (lo < hi) {
            if (s->dtype == RN_F32)
                pass_f32(offset(src, s->dtype, lo), offset(dst, s->dtype, lo), hi - lo);
            else
                pass_f64(offset(src, s->dtype, lo), offset(dst, s->dtype, lo), hi - lo);
        }
    }
}

static int nested_sin_run(void *st, rn_sample *smp, rn_error *err)
{
    (void)smp;
    (void)err;
    nested_sin_state *s = st;
    if (s->out.skip_kernel) /* inject: skip_kernel */
        return 0;
    if (s->fused) {
#pragma omp parallel num_threads(s->threads) if (s->threads > 1)
        {
            size_t lo, hi;
            cpu_split(s->n, ALIGN_ELEMS, omp_get_thread_num(), omp_get_num_threads(), &lo, &hi);
            if (lo < hi) {
                if (s->dtype == RN_F32)
                    fused_f32(offset(s->x, s->dtype, lo), offset(s->y, s->dtype, lo), hi - lo,
                              s->depth);
                else
                    fused_f64(offset(s->x, s->dtype, lo), offset(s->y, s->dtype, lo), hi - lo,
                              s->depth);
            }
        }
        return 0;
    }
    /* Ping-pong between t and y, starting so that the last pass writes y. */
    void *src = s->x, *dst = s->depth % 2 ? s->y : s->t;
    for (int d = 0; d < s->depth; d++) {
        pass(s, src, dst);
        src = dst;
        dst = dst == s->y ? s->t : s->y;
    }
    return 0;
}

static int nested_sin_check(void *st, rn_error *err)
{
    nested_sin_state *s = st;
    /* libmvec's sin / sinf are within 4 ulp; errors add up over the depth
     * (sin neither amplifies nor damps relative errors much near [0, 1)). */
    double eps = s->dtype == RN_F32 ? FLT_EPSILON : DBL_EPSILON;
    double floor = s->dtype == RN_F32 ? 1e-5 : 1e-12;
    double tol = fmax(floor, 4.0 * s->depth * eps);
    int digits = s->dtype == RN_F32 ? 9 : 17;
    size_t count = cpu_sample_count(s->n);
    for (size_t q = 0; q < count; q++) {
        size_t i = cpu_sample_index(s->n, q);
        double x = s->dtype == RN_F32 ? ((float *)s->x)[i] : ((double *)s->x)[i];
        double y = s->dtype == RN_F32 ? ((float *)s->y)[i] : ((double *)s->y)[i];
        double ref = x;
        for (int d = 0; d < s->depth; d++)
            ref = sin(ref);
        char what[48];
        snprintf(what, sizeof what, "y[%zu]", i);
        if (cpu_compare(y, ref, tol, digits, "nested_sin", what, err))
            return -1;
    }
    return 0;
}

const rn_workload_impl cpu_nested_sin = {
    .name = "nested_sin",
    .prepare = nested_sin_prepare,
    .run = nested_sin_run,
    .check = nested_sin_check,
    .release = nested_sin_release,
};

RN_REGISTER_WORKLOAD(cpu_register_workload, cpu_nested_sin)
