/* compare_trial.c - see compare_trial.h. */
#include "report/compare_trial.h"

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
