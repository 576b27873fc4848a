/* fill.c - inputs from Philox, vectorised and spread over OpenMP threads. */
#include "fill.h"

#include "mem.h"
#include "vmath.h"

#define BATCH (4 * CPU_PHILOX_LANES) /* values per batch: 16 blocks of 4 words */

/* dst[i] = value i for lo <= i < hi (dst: the whole array; offset 0); lo is
 * a multiple of BATCH. */
#define DEFINE_FILL(T, SUFFIX)                                                          \
    CPU_CLONES static void fill_##SUFFIX(const cpu_fill_call *c, size_t lo, size_t hi)    \
    {                                                                                   \
        float v[BATCH];                                                                 \
        for (size_t base = lo; base < hi; base += BATCH) {                              \
            cpu_philox_values(base, c->seed, c->stream, v);                             \
            size_t m = hi - base < BATCH ? hi - base : BATCH;                           \
            T *d = (T *)c->dst + base;                                                  \
            _Pragma("omp simd") for (size_t e = 0; e < m; e++) d[e] = v[e];             \
        }                                                                               \
    }

DEFINE_FILL(float, f32)
DEFINE_FILL(double, f64)

static void fill_part(void *ctx, int part, size_t lo, size_t hi)
{
    (void)part;
    const cpu_fill_call *c = ctx;
    c->range(c, lo, hi);
}

void cpu_fill_run(const cpu_fill_call *c, size_t n, size_t align, int threads)
{
    cpu_parallel(n, align, threads, fill_part, (void *)c);
}

int cpu_fill_uniform(void *dst, rn_dtype dtype, size_t n, uint64_t seed, uint32_t stream,
                     int threads)
{
    if (dtype != RN_F32 && dtype != RN_F64)
        return -1;
    cpu_fill_call c = {dtype == RN_F32 ? fill_f32 : fill_f64, dst, seed, 0, stream};
    cpu_fill_run(&c, n, BATCH, threads > 1 ? threads : 1);
    return 0;
}
