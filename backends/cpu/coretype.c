/* coretype.c - is OPENBLAS_CORETYPE holding this CPU back?
 *
 * OpenBLAS (DYNAMIC_ARCH builds, as in Debian and Ubuntu) picks its kernels
 * for the running CPU unless OPENBLAS_CORETYPE names a core.  Naming an
 * older one, e.g. Haswell on an AVX-512 Intel server, silently halves sgemm:
 * a common leftover from working around an old misdetection. */
#include <cblas.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cpu.h"

/* Vector levels, as OpenBLAS's kernels use them. */
enum { LV_SSE, LV_AVX, LV_AVX2, LV_AVX512, LV_UNKNOWN };

static const char *const level_name[] = {"SSE", "AVX", "AVX2", "AVX-512"};

/* OpenBLAS 0.3 core names (case does not matter to it) by kernel level. */
static int coretype_level(const char *name)
{
    static const struct {
        const char *name;
        int level;
    } cores[] = {
        {"SkylakeX", LV_AVX512},  {"Cooperlake", LV_AVX512}, {"SapphireRapids", LV_AVX512},
        {"Haswell", LV_AVX2},     {"Zen", LV_AVX2},          {"Excavator", LV_AVX2},
        {"Sandybridge", LV_AVX},  {"Bulldozer", LV_AVX},     {"Piledriver", LV_AVX},
        {"Steamroller", LV_AVX},  {"Nehalem", LV_SSE},       {"Core2", LV_SSE},
        {"Penryn", LV_SSE},       {"Dunnington", LV_SSE},    {"Atom", LV_SSE},
        {"Prescott", LV_SSE},     {"Northwood", LV_SSE},     {"Coppermine", LV_SSE},
        {"Katmai", LV_SSE},       {"Banias", LV_SSE},        {"Athlon", LV_SSE},
        {"Opteron", LV_SSE},      {"Opteron_SSE3", LV_SSE},  {"Barcelona", LV_SSE},
        {"Nano", LV_SSE},         {"Bobcat", LV_SSE},
    };
    for (size_t i = 0; i < sizeof cores / sizeof cores[0]; i++)
        if (strcasecmp(name, cores[i].name) == 0)
            return cores[i].level;
    return LV_UNKNOWN; /* OpenBLAS ignores names it does not know, and says so */
}

static int cpu_level(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f"))
        return LV_AVX512;
    if (__builtin_cpu_supports("avx2"))
        return LV_AVX2;
    if (__builtin_cpu_supports("avx"))
        return LV_AVX;
#endif
    return LV_SSE;
}

/* What running `want` kernels on a `have` CPU costs sgemm. */
static const char *slowdown(int want, int have)
{
    /* Half the FMA width per cycle.  Measured on a Zen 4 VM, Haswell kernels
     * were no slower there: its 512-bit units are 256 bits wide inside. */
    if (want == LV_AVX2 && have == LV_AVX512)
        return "at about half speed (less on AMD Zen 4, which splits 512-bit work in two)";
    if (have - want == 1) /* AVX without FMA, or SSE against AVX */
        return "at about half speed";
    return "several times slower";
}

/* The level named by "SSE", "AVX", "AVX2" or "AVX-512". */
static int level_of(const char *name)
{
    for (int l = LV_SSE; l <= LV_AVX512; l++)
        if (!strcmp(name, level_name[l]))
            return l;
    return LV_UNKNOWN;
}

/* A core OpenBLAS knows for each level, for the advice. */
static const char *const level_core[] = {"Nehalem", "Sandybridge", "Haswell", "SkylakeX"};

const char *cpu_coretype_warning_for(const char *forced, const char *detected, const char *isa,
                                     char *msg, size_t len)
{
    int have = level_of(isa);
    if (have == LV_UNKNOWN)
        return NULL;
    if (forced && *forced) {
        int want = coretype_level(forced);
        if (want == LV_UNKNOWN || want >= have)
            return NULL;
        snprintf(msg, len,
                 "OPENBLAS_CORETYPE=%s forces %s kernels on a CPU with %s: sgemm may run %s; "
                 "unset OPENBLAS_CORETYPE to let OpenBLAS pick the kernels for this CPU",
                 forced, level_name[want], level_name[have], slowdown(want, have));
        return msg;
    }
    /* Not forced: OpenBLAS's own detection can miss a CPU it does not know
     * (a virtual machine that hides the CPU model, seen on a cloud GPU host
     * detected as Prescott although it has AVX-512). */
    int got = detected ? coretype_level(detected) : LV_UNKNOWN;
    if (got == LV_UNKNOWN || got >= have)
        return NULL;
    snprintf(msg, len,
             "OpenBLAS detected this CPU as %s and runs %s kernels on a CPU with %s: sgemm may "
             "run %s; set OPENBLAS_CORETYPE=%s (or the core of this CPU) before running",
             detected, level_name[got], level_name[have], slowdown(got, have), level_core[have]);
    return msg;
}

const char *cpu_coretype_warning(void)
{
    static _Thread_local char msg[384];
    int have = cpu_level();
    return cpu_coretype_warning_for(getenv("OPENBLAS_CORETYPE"), openblas_get_corename(),
                                    have == LV_UNKNOWN ? "" : level_name[have], msg, sizeof msg);
}
