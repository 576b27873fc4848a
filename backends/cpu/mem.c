/* mem.c - checked, aligned allocation. */
#include "mem.h"

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

void *cpu_alloc(size_t count, size_t elem, const char *workload, const char *what,
                rn_error *err)
{
    size_t bytes;
    if (__builtin_mul_overflow(count, elem, &bytes) || bytes > SIZE_MAX - CPU_ALIGN) {
        snprintf(err->msg, sizeof err->msg, "%s: %s of %zu elements of %zu bytes is too large",
                 workload, what, count, elem);
        return NULL;
    }
    /* Refused up front rather than left to the allocator: under ASan a
     * request beyond what it supports aborts the process instead of
     * returning NULL, and the message can say what would have been needed. */
    double phys = (double)sysconf(_SC_PHYS_PAGES) * (double)sysconf(_SC_PAGESIZE);
    if (phys > 0 && (double)bytes > phys) {
        char need[32], have[32];
        human((double)bytes, need, sizeof need);
        human(phys, have, sizeof have);
        snprintf(err->msg, sizeof err->msg,
                 "%s: cannot allocate %s (%s): more than this machine's %s of memory", workload,
                 what, need, have);
        return NULL;
    }
    /* C11 wants the size to be a multiple of the alignment. */
    size_t rounded = bytes < CPU_ALIGN ? CPU_ALIGN
                                       : (bytes + CPU_ALIGN - 1) / CPU_ALIGN * CPU_ALIGN;
    void *p = aligned_alloc(CPU_ALIGN, rounded);
    if (!p) {
        char h[32];
        human((double)bytes, h, sizeof h);
        snprintf(err->msg, sizeof err->msg, "%s: cannot allocate %s (%s): out of memory",
                 workload, what, h);
    }
    return p;
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
