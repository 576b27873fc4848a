/* mem.h - buffers and the split of element ranges across threads. */
#ifndef BACKENDS_CPU_MEM_H
#define BACKENDS_CPU_MEM_H

#include <stddef.h>

#include "backend.h"

/* A 64-byte aligned buffer of count * elem bytes (uninitialised), or NULL
 * with err naming the workload and the buffer ("matmul: cannot allocate A
 * (4.0 GiB): out of memory").  Always at least one cache line, so an empty
 * trial (size 0) still gets a pointer it may pass around.  A buffer of
 * 128 KiB or more also starts at an offset within its page that differs
 * from the buffers allocated just before it (see mem.c).  Free with
 * cpu_free(), never free(). */
void *cpu_alloc(size_t count, size_t elem, const char *workload, const char *what,
                rn_error *err);

/* Frees a buffer of cpu_alloc; NULL is a no-op. */
void cpu_free(void *p);

/* cpu_free on each of the n buffers p[0 .. n - 1] (a state's list). */
void cpu_free_all(void *const *p, size_t n);

/* Converts a trial's size (or a size-like parameter) to an element count;
 * fails with a message when it is negative or does not fit in memory. */
int cpu_count(long long v, const char *workload, const char *what, size_t *out,
              rn_error *err);

/* The element-wise workloads' arrays: *n = the trial's size (cpu_count),
 * then *p[i] = cpu_alloc(*n, size of the trial's dtype, workload,
 * names[i]) for i < count.  0, or -1 with err (the buffers allocated so far
 * stay in *p[], for the state's release). */
int cpu_alloc_arrays(const rn_trial *t, const char *workload, size_t *n, void **const *p,
                     const char *const *names, int count, rn_error *err);

/* Part `part` of `parts` of [0, n): contiguous, in order, boundaries on
 * multiples of `align` elements (so every thread starts on a cache line and
 * vector loops run aligned).  The same n and parts always give the same
 * split, which keeps results independent of scheduling. */
static inline void cpu_split(size_t n, size_t align, int part, int parts, size_t *lo,
                             size_t *hi)
{
    size_t units = (n + align - 1) / align, p = (size_t)parts, i = (size_t)part;
    size_t per = units / p, extra = units % p;
    size_t a = (i * per + (i < extra ? i : extra)) * align;
    size_t b = a + (per + (i < extra ? 1 : 0)) * align;
    *lo = a < n ? a : n;
    *hi = b < n ? b : n;
}

/* The backend's one way of running an element range on OpenMP threads:
 * fn(ctx, part, lo, hi) for every non-empty part [lo, hi) of cpu_split(n,
 * align, part, parts), in one parallel region of `threads` threads (< 1:
 * OpenMP's current count; 1: on the calling thread, no region). */
typedef void (*cpu_range_fn)(void *ctx, int part, size_t lo, size_t hi);
void cpu_parallel(size_t n, size_t align, int threads, cpu_range_fn fn, void *ctx);

#endif
