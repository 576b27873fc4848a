/* nested_sin.c - y = sin(sin(...sin(x))), `depth` applications, f32 / f64.
 *
 * fused: one pass over memory: each tile of x is read once, sin applied
 *   `depth` times while the tile sits in L1, and written to y once.
 * unfused: `depth` passes over whole arrays, each reading one buffer and
 *   writing another, one parallel region per pass, as eager PyTorch runs
 *   torch.sin(torch.sin(x)): x -> t -> y -> t ... ending in y.
 * The loops call sinf / sin under `omp simd`, which vmath.h turns into calls
 * of glibc's vector variants; x is input stream 0. */
#include "fill.h"
#include "frame.h"
#include "mem.h"
#include "verify_tol.h"
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

static void nested_sin_free(void *st)
{
    nested_sin_state *s = st;
    cpu_free_all((void *[]){s->x, s->y, s->t}, 3);
}

static int nested_sin_setup(const rn_trial *t, void *st, rn_error *err)
{
    nested_sin_state *s = st;
    double depth = rn_param_num(t, "depth", 4);
    if (!(depth >= 1 && depth <= 1 << 20)) {
        snprintf(err->msg, sizeof err->msg, "nested_sin: depth = %g is out of range", depth);
        return -1;
    }
    s->depth = (int)depth;
    s->fused = rn_param_num(t, "fused", 0) != 0;
    s->threads = t->threads > 1 ? t->threads : 1;
    s->dtype = t->dtype;
    /* t: the unfused passes' ping-pong buffer */
    if (cpu_alloc_arrays(t, "nested_sin", &s->n, (void **[]){&s->x, &s->y, &s->t},
                         (const char *[]){"x", "y", "t"}, !s->fused && s->depth > 1 ? 3 : 2, err))
        return -1;
    cpu_fill_uniform(s->x, s->dtype, s->n, t->seed, 0, s->threads);
    s->out = (cpu_output){s->y, s->n, s->dtype, 0};
    return 0;
}

/* One pass src -> dst, or (fused) all `depth` of them, on one thread's range. */
typedef struct pass_args {
    const nested_sin_state *s;
    void *src, *dst;
    int fused;
} pass_args;

static void pass_range(void *ctx, int part, size_t lo, size_t hi)
{
    (void)part;
    const pass_args *p = ctx;
    rn_dtype d = p->s->dtype;
    void *src = offset(p->src, d, lo), *dst = offset(p->dst, d, lo);
    if (p->fused && d == RN_F32)
        fused_f32(src, dst, hi - lo, p->s->depth);
    else if (p->fused)
        fused_f64(src, dst, hi - lo, p->s->depth);
    else if (d == RN_F32)
        pass_f32(src, dst, hi - lo);
    else
        pass_f64(src, dst, hi - lo);
}

/* src -> dst over all elements, split across the threads. */
static void pass(const nested_sin_state *s, void *src, void *dst, int fused)
{
    pass_args p = {s, src, dst, fused};
    cpu_parallel(s->n, ALIGN_ELEMS, s->threads, pass_range, &p);
}

static void nested_sin_kernel(void *st)
{
    nested_sin_state *s = st;
    if (s->fused) {
        pass(s, s->x, s->y, 1);
        return;
    }
    /* Ping-pong between t and y, starting so that the last pass writes y. */
    void *src = s->x, *dst = s->depth % 2 ? s->y : s->t;
    for (int d = 0; d < s->depth; d++) {
        pass(s, src, dst, 0);
        src = dst;
        dst = dst == s->y ? s->t : s->y;
    }
}

/* sin applied `depth` times to x[i], in double */
static double nested_sin_reference(const void *st, size_t i, char *what, size_t len)
{
    const nested_sin_state *s = st;
    double ref = cpu_at(s->x, s->dtype, i);
    for (int d = 0; d < s->depth; d++)
        ref = sin(ref);
    snprintf(what, len, "y[%zu]", i);
    return ref;
}

static int nested_sin_check(void *st, rn_error *err)
{
    nested_sin_state *s = st;
    /* libmvec's sin / sinf are within 4 ulp; errors add up over the depth
     * (sin neither amplifies nor damps relative errors much near [0, 1)). */
    return cpu_check_output(s, rn_tol_nested_sin(s->dtype, s->depth), SIZE_MAX, "nested_sin",
                            nested_sin_reference, err);
}

CPU_KERNEL_WORKLOAD(nested_sin, 1, NULL)
