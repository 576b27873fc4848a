/* axpb.c - solves a * x + b = 0 element-wise: x = -b / a, f32 / f64.
 * a = 1 + u (stream 0, the sum rounded to the dtype) so it is never zero,
 * b = u (stream 1); see fill.h. */
#include "fill.h"
#include "frame.h"
#include "mem.h"
#include "verify_tol.h"
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

static void axpb_free(void *st)
{
    axpb_state *s = st;
    cpu_free_all((void *[]){s->a, s->b, s->x}, 3);
}

static int axpb_setup(const rn_trial *t, void *st, rn_error *err)
{
    axpb_state *s = st;
    s->threads = t->threads > 1 ? t->threads : 1;
    s->dtype = t->dtype;
    if (cpu_alloc_arrays(t, "axpb", &s->n, (void **[]){&s->a, &s->b, &s->x},
                         (const char *[]){"a", "b", "x"}, 3, err))
        return -1;
    cpu_fill_uniform(s->a, s->dtype, s->n, t->seed, 0, s->threads);
    cpu_fill_uniform(s->b, s->dtype, s->n, t->seed, 1, s->threads);
    if (s->dtype == RN_F32)
        add_one_f32(s->a, s->n, s->threads);
    else
        add_one_f64(s->a, s->n, s->threads);
    s->out = (cpu_output){s->x, s->n, s->dtype, 0};
    return 0;
}

static void solve_range(void *st, int part, size_t lo, size_t hi)
{
    (void)part;
    const axpb_state *s = st;
    if (s->dtype == RN_F32)
        solve_f32((float *)s->a + lo, (float *)s->b + lo, (float *)s->x + lo, hi - lo);
    else
        solve_f64((double *)s->a + lo, (double *)s->b + lo, (double *)s->x + lo, hi - lo);
}

static void axpb_kernel(void *st)
{
    axpb_state *s = st;
    cpu_parallel(s->n, ALIGN_ELEMS, s->threads, solve_range, s);
}

static double axpb_reference(const void *st, size_t i, char *what, size_t len)
{
    const axpb_state *s = st;
    snprintf(what, len, "x[%zu]", i);
    return -cpu_at(s->b, s->dtype, i) / cpu_at(s->a, s->dtype, i);
}

static int axpb_check(void *st, rn_error *err)
{
    const axpb_state *s = st;
    /* One correctly rounded division: the result is within half an ulp. */
    return cpu_check_output(s, rn_tol_axpb(s->dtype), SIZE_MAX, "axpb", axpb_reference, err);
}

CPU_KERNEL_WORKLOAD(axpb, 1, NULL)
