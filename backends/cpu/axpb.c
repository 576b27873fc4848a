/* axpb.c - solves a * x + b = 0 element-wise: x = -b / a, f32 / f64.
 * a = 1 + u (stream 0, the sum rounded to the dtype) so it is never zero,
 * b = u (stream 1); see fill.h. */
#include <float.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#include "cpu.h"
#include "fill.h"
#include "mem.h"
#include "verify.h"
#include "vmath.h"

#define ALIGN_ELEMS 16 /* threads split on cache lines of f32 */

typedef struct axpb_state {
    cpu_output out; /* x; first member, see verify.h */
    void *a, *b, *x;
    size_t n;
    int threads;
    rn_dtype dtype;
} axpb_state;

#define DEFINE_KERNEL(T, SUFFIX)                                                        \
    CPU_CLONES static void solve_##SUFFIX(const T *restrict a, const T *restrict b,       \
                                          T *restrict x, size_t n)                      \
    {                                                                                   \
        _Pragma("omp simd") for (size_t i = 0; i < n; i++) x[i] = -b[i] / a[i];         \
    }                                                                                   \
    static void add_one_##SUFFIX(T *a, size_t n, int threads)                           \
    {                                                                                   \
        _Pragma("omp parallel for simd num_threads(threads) if (threads > 1)")          \
        for (size_t i = 0; i < n; i++) a[i] += 1;                                       \
    }

DEFINE_KERNEL(float, f32)
DEFINE_KERNEL(double, f64)

static void axpb_release(void *st)
{
    axpb_state *s = st;
    if (!s)
        return;
    cpu_free(s->a);
    cpu_free(s->b);
    cpu_free(s->x);
    free(s);
}

static int axpb_prepare(const rn_trial *t, void **state, rn_error *err)
{
    *state = NULL;
    if (t->dtype != RN_F32 && t->dtype != RN_F64) {
        snprintf(err->msg, sizeof err->msg, "dtype %s is not supported by the cpu backend",
                 rn_dtype_name(t->dtype));
        return RN_PREPARE_SKIP;
    }
    axpb_state *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(err->msg, sizeof err->msg, "axpb: out of memory");
        return -1;
    }
    s->threads = t->threads > 1 ? t->threads : 1;
    s->dtype = t->dtype;
    size_t es = rn_dtype_size(t->dtype);
    if (cpu_count(t->size, "axpb", "size", &s->n, err) ||
        !(s->a = cpu_alloc(s->n, es, "axpb", "a", err)) ||
        !(s->b = cpu_alloc(s->n, es, "axpb", "b", err)) ||
        !(s->x = cpu_alloc(s->n, es, "axpb", "x", err))) {
        axpb_release(s);
        return -1;
    }
    cpu_fill_uniform(s->a, s->dtype, s->n, t->seed, 0, s->threads);
    cpu_fill_uniform(s->b, s->dtype, s->n, t->seed, 1, s->threads);
    if (s->dtype == RN_F32)
        add_one_f32(s->a, s->n, s->threads);
    else
        add_one_f64(s->a, s->n, s->threads);
    s->out = (cpu_output){s->x, s->n, s->dtype, 0};
    int inj = cpu_inject(t, &s->out, err); /* doc/workloads.md#fault-injection */
    if (inj) {
        axpb_release(s);
        return inj;
    }
    *state = s;
    return 0;
}

static int axpb_run(void *st, rn_sample *smp, rn_error *err)
{
    (void)smp;
    (void)err;
    axpb_state *s = st;
    if (s->out.skip_kernel) /* inject: skip_kernel */
        return 0;
#pragma omp parallel num_threads(s->threads) if (s->threads > 1)
    {
        size_t lo, hi;
        cpu_split(s->n, ALIGN_ELEMS, omp_get_thread_num(), omp_get_num_threads(), &lo, &hi);
        if (lo < hi) {
            if (s->dtype == RN_F32)
                solve_f32((float *)s->a + lo, (float *)s->b + lo, (float *)s->x + lo, hi - lo);
            else
                solve_f64((double *)s->a + lo, (double *)s->b + lo, (double *)s->x + lo,
                          hi - lo);
        }
    }
    return 0;
}

static double at(const void *p, rn_dtype d, size_t i)
{
    return d == RN_F32 ? ((const float *)p)[i] : ((const double *)p)[i];
}

static int axpb_check(void *st, rn_error *err)
{
    axpb_state *s = st;
    /* One correctly rounded division: the result is within half an ulp. */
    double tol = s->dtype == RN_F32 ? 1e-6 : 1e-15;
    int digits = s->dtype == RN_F32 ? 9 : 17;
    size_t count = cpu_sample_count(s->n);
    for (size_t q = 0; q < count; q++) {
        size_t i = cpu_sample_index(s->n, q);
        double ref = -at(s->b, s->dtype, i) / at(s->a, s->dtype, i);
        char what[48];
        snprintf(what, sizeof what, "x[%zu]", i);
        if (cpu_compare(at(s->x, s->dtype, i), ref, tol, digits, "axpb", what, err))
            return -1;
    }
    return 0;
}

const rn_workload_impl cpu_axpb = {
    .name = "axpb",
    .prepare = axpb_prepare,
    .run = axpb_run,
    .check = axpb_check,
    .release = axpb_release,
};

RN_REGISTER_WORKLOAD(cpu_register_workload, cpu_axpb)
