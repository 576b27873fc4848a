/* philox.h - the counter-based generator behind every random input.
 *
 * Philox4x32-10 (Salmon et al., "Parallel random numbers: as easy as 1, 2, 3",
 * SC'11).  Element i of stream `stream` under seed `seed` is a pure function
 * of (seed, stream, i), so the CPU and CUDA backends draw identical inputs in
 * any order and on any number of threads.  Plain C, usable from CUDA with
 * RN_HD defined as __host__ __device__.
 */
#ifndef RUNNER_PHILOX_H
#define RUNNER_PHILOX_H

#include <stdint.h>

#ifndef RN_HD
#define RN_HD
#endif

#define RN_PHILOX_M0 0xD2511F53u
#define RN_PHILOX_M1 0xCD9E8D57u
#define RN_PHILOX_W0 0x9E3779B9u
#define RN_PHILOX_W1 0xBB67AE85u

typedef struct rn_philox_out {
    uint32_t v[4];
} rn_philox_out;

/* One block: counter (c0..c3), key (k0, k1) -> four 32-bit words. */
static inline RN_HD rn_philox_out rn_philox4x32(uint32_t c0, uint32_t c1, uint32_t c2,
                                                uint32_t c3, uint32_t k0, uint32_t k1)
{
    for (int r = 0; r < 10; r++) {
        uint64_t p0 = (uint64_t)RN_PHILOX_M0 * c0;
        uint64_t p1 = (uint64_t)RN_PHILOX_M1 * c2;
        uint32_t hi0 = (uint32_t)(p0 >> 32), lo0 = (uint32_t)p0;
        uint32_t hi1 = (uint32_t)(p1 >> 32), lo1 = (uint32_t)p1;
        uint32_t n0 = hi1 ^ c1 ^ k0;
        uint32_t n2 = hi0 ^ c3 ^ k1;
        c0 = n0;
        c1 = lo1;
        c2 = n2;
        c3 = lo0;
        k0 += RN_PHILOX_W0;
        k1 += RN_PHILOX_W1;
    }
    rn_philox_out o = {{c0, c1, c2, c3}};
    return o;
}

/* 24 random bits -> a float in [0, 1), exactly representable in f32, f64. */
static inline RN_HD float rn_u01f(uint32_t x)
{
    return (float)(x >> 8) * (1.0f / 16777216.0f);
}

/* Uniform [0,1) number i of (seed, stream).  Four consecutive i share one
 * Philox block: counter = (i / 4 low, i / 4 high, stream, 0). */
static inline RN_HD float rn_uniform(uint64_t seed, uint32_t stream, uint64_t i)
{
    uint64_t blk = i >> 2;
    rn_philox_out o = rn_philox4x32((uint32_t)blk, (uint32_t)(blk >> 32), stream, 0u,
                                    (uint32_t)seed, (uint32_t)(seed >> 32));
    return rn_u01f(o.v[i & 3]);
}

#endif
