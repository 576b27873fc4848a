/* sumsq.c - `size` iterations of: draw `length` uniform numbers, square,
 * sum; the iteration sums are accumulated in double.
 *
 * Number j of iteration `it` is Philox with counter (low32(j / 4),
 * high32(j / 4), low32(it), high32(it)), word j % 4, i.e. rn_uniform(seed,
 * it, j) for it < 2^32 (fill.h).  Each iteration's sum is computed the same
 * way whatever the thread count, so only the final double accumulation
 * depends on how OpenMP splits the iterations.  The iteration sums are kept
 * (8 bytes per iteration, noise next to drawing a thousand numbers) so that
 * check() can compare a sample of them with a scalar reference. */
#include "fill.h"
#include "frame.h"
#include "mem.h"
#include "vmath.h"

#define LANES CPU_PHILOX_LANES
#define BATCH (4 * LANES)
#define REFERENCE_NUMBERS (1u << 22) /* numbers check() draws, at most about */

typedef struct sumsq_state {
    cpu_output out; /* the iteration sums; first member, see verify.h */
    double *sums;
    double total;
    size_t iters, length;
    uint64_t seed;
    int threads;
} sumsq_state;

/* Sum of squares of the `length` numbers of iteration `it`: Philox in
 * batches of 16 blocks, vectorised (about 1.3 ns per number on one AVX-512
 * core, against 15 for scalar rn_uniform calls). */
CPU_CLONES static double iteration(uint64_t seed, uint64_t it, size_t length)
{
    uint32_t w[BATCH];
    uint32_t c2 = (uint32_t)it, c3 = (uint32_t)(it >> 32);
    double sum = 0;
    size_t base = 0;
    for (; base + BATCH <= length; base += BATCH) {
        cpu_philox_lanes(base / 4, c2, c3, seed, w);
#pragma omp simd reduction(+ : sum)
        for (int e = 0; e < BATCH; e++) {
            double u = rn_u01f(w[e]);
            sum += u * u;
        }
    }
    if (base < length) {
        /* w[q * LANES + l] is number base + 4l + q; keep those below length. */
        size_t rest = length - base;
        cpu_philox_lanes(base / 4, c2, c3, seed, w);
#pragma omp simd reduction(+ : sum)
        for (int e = 0; e < BATCH; e++) {
            /* Masking the word, not the square, and without a branch: GCC
             * vectorises neither a conditional load nor (under
             * -ftrapping-math) a floating-point select. */
            uint32_t keep = 0u - (uint32_t)((size_t)(4 * (e % LANES) + e / LANES) < rest);
            double u = rn_u01f(w[e] & keep);
            sum += u * u;
        }
    }
    return sum;
}

static void sumsq_free(void *st)
{
    sumsq_state *s = st;
    cpu_free(s->sums);
}

static int sumsq_setup(const rn_trial *t, void *st, rn_error *err)
{
    sumsq_state *s = st;
    double length = rn_param_num(t, "length", 1000);
    if (!(length >= 1 && length <= 1e15)) {
        snprintf(err->msg, sizeof err->msg, "sumsq: length = %g is out of range", length);
        return -1;
    }
    s->length = (size_t)length;
    s->seed = t->seed;
    s->threads = t->threads > 1 ? t->threads : 1;
    if (cpu_count(t->size, "sumsq", "size", &s->iters, err) ||
        !(s->sums = cpu_alloc(s->iters, sizeof(double), "sumsq", "the iteration sums", err)))
        return -1;
    s->out = (cpu_output){s->sums, s->iters, RN_F64, 0};
    return 0;
}

static void sumsq_kernel(void *st)
{
    sumsq_state *s = st;
    double total = 0;
    double *sums = s->sums;
    size_t iters = s->iters, length = s->length;
    uint64_t seed = s->seed;
#pragma omp parallel for num_threads(s->threads) if (s->threads > 1) schedule(static) \
    reduction(+ : total)
    for (size_t it = 0; it < iters; it++) {
        double v = iteration(seed, it, length);
        sums[it] = v;
        total += v;
    }
    s->total = total;
}

/* The plain reference: one rn_philox4x32 call per number, in double. */
static double reference(uint64_t seed, uint64_t it, size_t length)
{
    double sum = 0;
    for (size_t j = 0; j < length; j++) {
        uint64_t blk = j / 4;
        rn_philox_out o = rn_philox4x32((uint32_t)blk, (uint32_t)(blk >> 32), (uint32_t)it,
                                        (uint32_t)(it >> 32), (uint32_t)seed,
                                        (uint32_t)(seed >> 32));
        double u = rn_u01f(o.v[j % 4]);
        sum += u * u;
    }
    return sum;
}

static double sumsq_reference(const void *st, size_t it, char *what, size_t len)
{
    const sumsq_state *s = st;
    snprintf(what, len, "the sum of iteration %zu", it);
    return reference(s->seed, it, s->length);
}

static int sumsq_check(void *st, rn_error *err)
{
    sumsq_state *s = st;
    /* Sums of exact squares (48-bit products in double) in different orders:
     * they differ by a few ulps times log(length). */
    const double tol = 1e-12;
    /* The scalar reference draws ~70 M numbers a second: for long iterations
     * check fewer of them (spread over the sample, first and last kept) so
     * that check() stays well under a second. */
    size_t budget = REFERENCE_NUMBERS / s->length;
    if (cpu_check_output(s, tol, budget > 2 ? budget : 2, "sumsq", sumsq_reference, err))
        return -1;
    double total = 0;
    for (size_t it = 0; it < s->iters; it++)
        total += s->sums[it];
    return cpu_compare(s->total, total, tol, 17, "sumsq", "the total", err);
}

/* the numbers are drawn as f32, as on the GPU: f32 only */
CPU_KERNEL_WORKLOAD(sumsq, 0, NULL)
