/* compare_trial.c - see compare_trial.h. */
#include "results/report/compare_trial.h"

#include "base/util.h"
#include "stats/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int compare_trial_ok(const compare_run *D, int pos)
{
    return pos >= 0 && !strcmp(compare_cell(D, pos, D->status_col), "ok");
}

double compare_trial_median(const compare_run *D, int pos)
{
    const char *c = compare_cell(D, pos, D->median_col);
    char *end;
    double v = strtod(c, &end);
    if (*c && !*end && !isnan(v))
        return v;
    if (D->nsmp[pos] == 0)
        return NAN;
    double *x = xmalloc((size_t)D->nsmp[pos] * sizeof *x);
    memcpy(x, D->smp[pos], (size_t)D->nsmp[pos] * sizeof *x);
    v = stats_median(x, D->nsmp[pos]);
    free(x);
    return v;
}

double *compare_trial_blocks(const compare_run *D, int pos, int *n)
{
    int ns = D->nsmp[pos], nb = ns < COMPARE_BLOCKS ? ns : COMPARE_BLOCKS;
    double *x = xmalloc((size_t)(nb + 1) * sizeof *x);
    double *tmp = xmalloc((size_t)(ns + 1) * sizeof *tmp);
    for (int b = 0; b < nb; b++) {
        int a = (int)((long long)b * ns / nb), e = (int)((long long)(b + 1) * ns / nb);
        memcpy(tmp, D->smp[pos] + a, (size_t)(e - a) * sizeof *tmp);
        x[b] = stats_median(tmp, e - a);
    }
    free(tmp);
    *n = nb;
    return x;
}

int compare_trial_busy(const compare_run *D, int pos)
{
    return strstr(compare_cell(D, pos, D->noise_col), "busy: ") != NULL;
}

int compare_trial_throttled(const compare_run *D, int pos)
{
    if (strstr(compare_cell(D, pos, D->noise_col), "throttled: "))
        return 1;
    /* absent or empty: none kept */
    const char *c = compare_cell(D, pos, D->throttled_kept_col);
    char *end;
    double v = strtod(c, &end);
    return *c && !*end && v > 0;
}

/* A cell as a number, or NaN. */
static double cell_number(const compare_run *D, int pos, int col)
{
    const char *c = compare_cell(D, pos, col);
    char *end;
    double v = strtod(c, &end);
    return *c && !*end ? v : NAN;
}

double compare_trial_explains(const compare_run *D, int pos)
{
    double f = 1.0;
    if (compare_trial_busy(D, pos)) {
        double other = cell_number(D, pos, D->other_cpu_col);
        double steal = cell_number(D, pos, D->steal_col);
        double threads = D->threads_col < 0 ? 1.0 : cell_number(D, pos, D->threads_col);
        double busy = INFINITY;
        if (other >= 0 && threads >= 1 && D->cores > 0 && threads + other <= D->cores)
            busy = 1.0 + COMPARE_BUSY_PER_CORE * other;
        if (steal > 0 && steal < 1 && 1.0 / (1.0 - steal) > busy)
            busy = 1.0 / (1.0 - steal);
        f *= busy;
    }
    if (compare_trial_throttled(D, pos)) {
        double mhz = cell_number(D, pos, D->mhz_col), max = cell_number(D, pos, D->max_mhz_col);
        int cpu = strstr(compare_cell(D, pos, D->noise_col), "throttled: ") != NULL;
        f *= cpu && mhz > 0 && max > mhz ? max / mhz : COMPARE_GPU_THROTTLE;
    }
    return f;
}

int compare_trial_worker_blocks(const compare_run *D, int pos, double **med, int **cpu,
                                const char **why)
{
    *med = NULL;
    *cpu = NULL;
    const char *c = compare_cell(D, pos, D->blocks_col);
    if (!*c) {
        *why = "no worker blocks (an older run)";
        return 0;
    }
    int cap = 8, n = 0, used = 0;
    int *count = xmalloc((size_t)cap * sizeof *count), *where = xmalloc((size_t)cap * sizeof *where);
    const char *p = c;
    int bad = 0;
    while (*p && !bad) {
        char *end;
        int k = -1;
        if (*p == '?')
            end = (char *)p + 1;
        else {
            long v = strtol(p, &end, 10);
            bad = end == p || v < 0 || v > 100000;
            k = (int)v;
        }
        if (bad || *end != ':') {
            bad = 1;
            break;
        }
        p = end + 1;
        long m = strtol(p, &end, 10);
        if (end == p || m < 1 || m > D->nsmp[pos] - used || (*end && *end != ' ')) {
            bad = 1;
            break;
        }
        used += (int)m;
        p = *end ? end + 1 : end;
        if (n == cap) {
            cap *= 2;
            count = xrealloc(count, (size_t)cap * sizeof *count);
            where = xrealloc(where, (size_t)cap * sizeof *where);
        }
        count[n] = (int)m;
        where[n++] = k;
    }
    if (bad || used != D->nsmp[pos] || n < 1) {
        free(count);
        free(where);
        *why = "its blocks cell does not fit its samples";
        return 0;
    }
    double *x = xmalloc((size_t)n * sizeof *x);
    double *tmp = xmalloc((size_t)D->nsmp[pos] * sizeof *tmp);
    for (int b = 0, a = 0; b < n; a += count[b], b++) {
        memcpy(tmp, D->smp[pos] + a, (size_t)count[b] * sizeof *tmp);
        x[b] = stats_median(tmp, count[b]);
    }
    free(tmp);
    free(count);
    *med = x;
    *cpu = where;
    return n;
}

double compare_trial_clock(const compare_run *D, int pos)
{
    double v = cell_number(D, pos, D->clock_col);
    if (!(v > 0 && v < 1e5))
        v = D->clock;
    return v > 0 && v < 1e5 ? v : NAN;
}
