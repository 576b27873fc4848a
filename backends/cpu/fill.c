/* fill.c - inputs from Philox, vectorised and spread over OpenMP threads. */
#include "fill.h"

#include <omp.h>

#include "mem.h"
#include "vmath.h"

#define LANES CPU_PHILOX_LANES
#define BATCH (4 * LANES) /* values per batch: 16 blocks of 4 words */

/* Values base .. base + BATCH - 1 of (seed, stream).  Value 4b + w is word w
 * of block b, so the lanes' words are interleaved on the way out. */
__attribute__((always_inline)) static inline void batch_values(size_t base, uint64_t seed,
                                                               uint32_t stream, float v[BATCH])
{
    uint32_t w[BATCH];
    cpu_philox_lanes(base / 4, stream, 0, seed, w);
#pragma omp simd
    for (int l = 0; l < LANES; l++) {
        v[4 * l + 0] = rn_u01f(w[l]);
        v[4 * l + 1] = rn_u01f(w[LANES + l]);
        v[4 * l + 2] = rn_u01f(w[2 * LANES + l]);
        v[4 * l + 3] = rn_u01f(w[3 * LANES + l]);
    }
}

/* dst[i - lo] = value i for lo <= i < hi; lo is a multiple of BATCH. */
CPU_CLONES static void fill_f32(float *dst, size_t lo, size_t hi, uint64_t seed,
                                uint32_t stream)
{
    float v[BATCH];
    for (size_t base = lo; base < hi; base += BATCH) {
        batch_values(base, seed, stream, v);
        size_t m = hi - base < BATCH ? hi - base : BATCH;
        float *d = dst + (base - lo);
#pragma omp simd
        for (size_t e = 0; e < m; e++)
            d[e] = v[e];
    }
}

CPU_CLONES static void fill_f64(double *dst, size_t lo, size_t hi, uint64_t seed,
                                uint32_t stream)
{
    float v[BATCH];
    for (size_t base = lo; base < hi; base += BATCH) {
        batch_values(base, seed, stream, v);
        size_t m = hi - base < BATCH ? hi - base : BATCH;
        double *d = dst + (base - lo);
#pragma omp simd
        for (size_t e = 0; e < m; e++)
            d[e] = v[e];
    }
}

int cpu_fill_uniform(void *dst, rn_dtype dtype, size_t n, uint64_t seed, uint32_t stream,
                     int threads)
{
    if (dtype != RN_F32 && dtype != RN_F64)
        return -1;
    int nt = threads > 1 ? threads : 1;
#pragma omp parallel num_threads(nt) if (nt > 1)
    {
        size_t lo, hi;
        cpu_split(n, BATCH, omp_get_thread_num(), omp_get_num_threads(), &lo, &hi);
        if (lo < hi) {
            if (dtype == RN_F32)
                fill_f32((float *)dst + lo, lo, hi, seed, stream);
            else
                fill_f64((double *)dst + lo, lo, hi, seed, stream);
        }
    }
    return 0;
}
