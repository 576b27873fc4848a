/* mem.c - checked, aligned allocation; ranges over OpenMP threads. */
#include "mem.h"

#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define CPU_ALIGN 64

static void human(double bytes, char *buf, size_t len)
{
    static const char *const unit[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    int u = 0;
    while (bytes >= 1024 && u < 6) {
        bytes /= 1024;
        u++;
    }
    snprintf(buf, len, "%.1f %s", bytes, unit[u]);
}

/* Where large buffers start within a 4 KiB page.  Buffers the allocator
 * maps one by one (glibc maps each request beyond its threshold, 128 KiB at
 * first) all begin at the same offset in a page, and a kernel that streams
 * through two of them at once then has loads and stores 4 KiB apart: the
 * core takes them for the same address ("4K aliasing") and a trial whose
 * arrays were mapped that way ran 6-17 % slower than the same trial on heap
 * memory (doc/timing.md#how-a-trial-is-timed, Order).  So each large buffer gets
 * the next of 64 offsets 1088 bytes apart (17 cache lines: every step lands
 * in a different line of the page), as STREAM pads its arrays: the buffers
 * of one trial, allocated one after another, never share an offset, however
 * the allocator placed them. */
#define CPU_PAGE 4096
#define CPU_STAGGER_MIN (128 * 1024)
static _Atomic unsigned cpu_slot;

void *cpu_alloc(size_t count, size_t elem, const char *workload, const char *what,
                rn_error *err)
{
    size_t bytes;
    if (__builtin_mul_overflow(count, elem, &bytes) || bytes > SIZE_MAX - 4 * CPU_PAGE) {
        snprintf(err->msg, sizeof err->msg, "%s: %s of %zu elements of %zu bytes is too large",
                 workload, what, count, elem);
        return NULL;
    }
    int large = bytes >= CPU_STAGGER_MIN;
    /* Refused up front rather than left to the allocator: under ASan a
     * request beyond what it supports aborts the process instead of
     * returning NULL, and the message can say what would have been needed.
     * Small buffers skip the check: they cannot exceed memory, and a
     * one-element tensor must stay cheap. */
    double phys = large ? (double)sysconf(_SC_PHYS_PAGES) * (double)sysconf(_SC_PAGESIZE) : 0;
    if (phys > 0 && (double)bytes > phys) {
        char need[32], have[32];
        human((double)bytes, need, sizeof need);
        human(phys, have, sizeof have);
        snprintf(err->msg, sizeof err->msg,
                 "%s: cannot allocate %s (%s): more than this machine's %s of memory", workload,
                 what, need, have);
        return NULL;
    }
    /* A whole number of cache lines, so vector loops may run to the end of
     * the last one; then room for the pointer cpu_free needs, stored just
     * before the buffer, and for the alignment (a page and the offset for a
     * large buffer). */
    size_t rounded = bytes < CPU_ALIGN ? CPU_ALIGN
                                       : (bytes + CPU_ALIGN - 1) / CPU_ALIGN * CPU_ALIGN;
    size_t pad = large ? 2 * CPU_PAGE : CPU_ALIGN + sizeof(void *);
    char *raw = malloc(rounded + pad);
    if (!raw) {
        char h[32];
        human((double)bytes, h, sizeof h);
        snprintf(err->msg, sizeof err->msg, "%s: cannot allocate %s (%s): out of memory",
                 workload, what, h);
        return NULL;
    }
    uintptr_t u = (uintptr_t)raw + sizeof(void *);
    if (large) {
        unsigned k = cpu_slot++ % 64;
        u = (u + CPU_PAGE - 1) / CPU_PAGE * CPU_PAGE + (uintptr_t)(k * 17 % 64) * CPU_ALIGN;
    } else {
        u = (u + CPU_ALIGN - 1) / CPU_ALIGN * CPU_ALIGN;
    }
    void **p = (void **)u;
    p[-1] = raw;
    return p;
}

void cpu_free(void *p)
{
    if (p)
        free(((void **)p)[-1]);
}

void cpu_free_all(void *const *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        cpu_free(p[i]);
}

int cpu_count(long long v, const char *workload, const char *what, size_t *out,
              rn_error *err)
{
    /* 2^56 elements is far beyond any memory; the bound keeps later products
     * such as m * k * 8 from overflowing. */
    if (v < 0 || (unsigned long long)v > (1ull << 56)) {
        snprintf(err->msg, sizeof err->msg, "%s: %s = %lld is out of range", workload, what, v);
        return -1;
    }
    *out = (size_t)v;
    return 0;
}

int cpu_alloc_arrays(const rn_trial *t, const char *workload, size_t *n, void **const *p,
                     const char *const *names, int count, rn_error *err)
{
    if (cpu_count(t->size, workload, "size", n, err))
        return -1;
    for (int i = 0; i < count; i++)
        if (!(*p[i] = cpu_alloc(*n, rn_dtype_size(t->dtype), workload, names[i], err)))
            return -1;
    return 0;
}

void cpu_parallel(size_t n, size_t align, int threads, cpu_range_fn fn, void *ctx)
{
    int nt = threads > 0 ? threads : omp_get_max_threads();
#pragma omp parallel num_threads(nt) if (nt > 1)
    {
        int part = omp_get_thread_num();
        size_t lo, hi;
        cpu_split(n, align, part, omp_get_num_threads(), &lo, &hi);
        if (lo < hi)
            fn(ctx, part, lo, hi);
    }
}
