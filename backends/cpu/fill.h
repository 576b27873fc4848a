/* fill.h - random inputs, drawn exactly as rn_uniform() (philox.h) draws them.
 *
 * The mapping, which the CUDA backend reproduces:
 *   element i of input array j of a trial = rn_uniform(seed, j, i)
 *     = top 24 bits of word (i % 4) of Philox4x32-10 with
 *       counter (low32(i / 4), high32(i / 4), j, 0) and key (low32(seed), high32(seed)),
 *       divided by 2^24: a float in [0, 1), stored unchanged in f64 arrays.
 * Streams used: matmul A = 0, B = 1; nested_sin x = 0; axpb a = 1 + u(0),
 * b = u(1) (the sum computed in the array's dtype); sumsq draws number j of
 * iteration it from counter (low32(j / 4), high32(j / 4), low32(it), high32(it)),
 * i.e. rn_uniform(seed, it, j) for it < 2^32.
 */
#ifndef BACKENDS_CPU_FILL_H
#define BACKENDS_CPU_FILL_H

#include <stddef.h>
#include <stdint.h>

#include "backend.h"
#include "philox.h"

/* Philox blocks generated together: one AVX-512 register of 32-bit words per
 * counter word, so that the lane loop below becomes vector code. */
#define CPU_PHILOX_LANES 16

/* hi:lo = a * m, from 16-bit halves so that every product fits in 32 bits.
 * The obvious (uint64_t)a * m makes GCC emulate a 64 x 64-bit vector multiply
 * (three multiplies per lane pair); this form keeps 16 lanes per AVX-512
 * register and makes the batch about 1.4x faster. */
__attribute__((always_inline)) static inline void cpu_mulhilo32(uint32_t a, uint32_t m,
                                                                uint32_t *hi, uint32_t *lo)
{
    uint32_t al = a & 0xffffu, ah = a >> 16, ml = m & 0xffffu, mh = m >> 16;
    uint32_t t = al * ml;
    uint32_t u = ah * ml + (t >> 16);
    uint32_t v = al * mh + (u & 0xffffu);
    *hi = ah * mh + (u >> 16) + (v >> 16);
    *lo = (v << 16) | (t & 0xffffu);
}

/* Blocks blk0 .. blk0 + 15 with counter words 2 and 3 = (c2, c3) under `seed`:
 * out[w * CPU_PHILOX_LANES + l] = word w of block blk0 + l, the same as
 * rn_philox4x32(low32(blk0 + l), high32(blk0 + l), c2, c3, low32(seed),
 * high32(seed)).v[w].  One simd loop over lanes with the ten rounds unrolled
 * inside keeps each lane's state in registers.  static inline so that every
 * caller's target_clones variant compiles it for its own ISA. */
__attribute__((always_inline)) static inline void
cpu_philox_lanes(uint64_t blk0, uint32_t c2, uint32_t c3, uint64_t seed,
                 uint32_t out[4 * CPU_PHILOX_LANES])
{
    const uint32_t key0 = (uint32_t)seed, key1 = (uint32_t)(seed >> 32);
#pragma omp simd
    for (int l = 0; l < CPU_PHILOX_LANES; l++) {
        uint64_t b = blk0 + (uint64_t)l;
        uint32_t x0 = (uint32_t)b, x1 = (uint32_t)(b >> 32), x2 = c2, x3 = c3;
        uint32_t k0 = key0, k1 = key1;
#pragma GCC unroll 10
        for (int r = 0; r < 10; r++) {
            uint32_t h0, l0, h1, l1;
            cpu_mulhilo32(x0, RN_PHILOX_M0, &h0, &l0);
            cpu_mulhilo32(x2, RN_PHILOX_M1, &h1, &l1);
            x0 = h1 ^ x1 ^ k0;
            x1 = l1;
            x2 = h0 ^ x3 ^ k1;
            x3 = l0;
            k0 += RN_PHILOX_W0;
            k1 += RN_PHILOX_W1;
        }
        out[l] = x0;
        out[CPU_PHILOX_LANES + l] = x1;
        out[2 * CPU_PHILOX_LANES + l] = x2;
        out[3 * CPU_PHILOX_LANES + l] = x3;
    }
}

/* Values base .. base + 4 * CPU_PHILOX_LANES - 1 of (seed, stream) (base a
 * multiple of 4), as floats: value 4b + w is word w of block b, so the
 * lanes' words are interleaved on the way out.  The one vector path of the
 * inputs (cpu_fill_uniform) and of the tensor API's uniform fills (tensor.c). */
__attribute__((always_inline)) static inline void
cpu_philox_values(uint64_t base, uint64_t seed, uint32_t stream, float v[4 * CPU_PHILOX_LANES])
{
    uint32_t w[4 * CPU_PHILOX_LANES];
    cpu_philox_lanes(base / 4, stream, 0, seed, w);
#pragma omp simd
    for (int l = 0; l < CPU_PHILOX_LANES; l++) {
        v[4 * l + 0] = rn_u01f(w[l]);
        v[4 * l + 1] = rn_u01f(w[CPU_PHILOX_LANES + l]);
        v[4 * l + 2] = rn_u01f(w[2 * CPU_PHILOX_LANES + l]);
        v[4 * l + 3] = rn_u01f(w[3 * CPU_PHILOX_LANES + l]);
    }
}

/* A random fill of dst, n elements on OpenMP threads: range(c, lo, hi)
 * writes elements [lo, hi) (lo a multiple of the split's alignment) of the
 * numbers of (seed, stream) from number `offset` on.  cpu_fill_uniform's
 * and the tensor API's fills (tensor.c) run through it. */
typedef struct cpu_fill_call {
    void (*range)(const struct cpu_fill_call *c, size_t lo, size_t hi);
    void *dst;
    uint64_t seed, offset;
    uint32_t stream;
} cpu_fill_call;

/* The fill c of n elements, split on multiples of `align` over `threads`
 * OpenMP threads (< 1: OpenMP's current count; mem.h cpu_parallel). */
void cpu_fill_run(const cpu_fill_call *c, size_t n, size_t align, int threads);

/* dst[i] = rn_uniform(seed, stream, i) for i < n, in the dtype `dtype`
 * (f32 or f64; other dtypes are not filled and give -1), on `threads`
 * OpenMP threads.  The values do not depend on the thread count. */
int cpu_fill_uniform(void *dst, rn_dtype dtype, size_t n, uint64_t seed, uint32_t stream,
                     int threads);

#endif
