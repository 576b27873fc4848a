/* fill.c - inputs from Philox, vectorised and spread over OpenMP threads. */
#include "fill.h"

#include "mem.h"
#include "vmath.h"

#define BATCH (4 * CPU_PHILOX_LANES) /* values per batch: 16 blocks of 4 words */

/* dst[i - lo] = value i for lo <= i < hi; lo is a multiple of BATCH. */
#define DEFINE_FILL(T, SUFFIX)                                                          \
    CPU_CLONES static void fill_##SUFFIX(T *dst, size_t lo, size_t hi, uint64_t seed,     \
                                         uint32_t stream)                               \
    {                                                                                   \
        float v[BATCH];                                                                 \
        for (size_t base = lo; base < hi; base += BATCH) {                              \
            cpu_philox_values(base, seed, stream, v);                                   \
            size_t m = hi - base < BATCH ? hi - base : BATCH;                           \
            T *d = dst + (base - lo);                                                   \
            _Pragma("omp simd") for (size_t e = 0; e < m; e++) d[e] = v[e];             \
        }                                                                               \
    }

DEFINE_FILL(float, f32)
DEFINE_FILL(double, f64)

typedef struct fill_args {
    void *dst;
    rn_dtype dtype;
    uint64_t seed;
    uint32_t stream;
} fill_args;

static void fill_range(void *ctx, int part, size_t lo, size_t hi)
{
    (void)part;
    const fill_args *a = ctx;
    if (a->dtype == RN_F32)
        fill_f32((float *)a->dst + lo, lo, hi, a->seed, a->stream);
    else
        fill_f64((double *)a->dst + lo, lo, hi, a->seed, a->stream);
}

int cpu_fill_uniform(void *dst, rn_dtype dtype, size_t n, uint64_t seed, uint32_t stream,
                     int threads)
{
    if (dtype != RN_F32 && dtype != RN_F64)
        return -1;
    fill_args a = {dst, dtype, seed, stream};
    cpu_parallel(n, BATCH, threads > 1 ? threads : 1, fill_range, &a);
    return 0;
}
