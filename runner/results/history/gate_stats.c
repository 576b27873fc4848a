/* gate_stats.c - see gate_stats.h (doc/history.md#runner-gate). */
#include "results/history/gate_stats.h"

#include "base/util.h"
#include "results/history/changepoint.h"
#include "stats/quantile.h"
#include "stats/stats.h"

#include <math.h>
#include <stdlib.h>

void gate_stat_compute(const double *hist, int n, int ntests, double alpha, double floor,
                       gate_stat *out)
{
    int from = 0;
    changepoint *cp;
    int k = changepoints_find_floor(hist, n, 0, floor, &cp);
    if (k > 0)
        from = cp[k - 1].at;
    free(cp);
    int nb = out->nbase = n - from;
    double *x = xmalloc((size_t)n * sizeof *x);
    for (int i = 0; i < n; i++)
        x[i] = log(hist[i]);
    double least = fmax(floor, CHANGEPOINT_NOISE_FLOOR);
    /* the window's noise from successive differences: what a run far from
     * its neighbours may be pulled to (3 of it from the base's median) */
    double wide = fmax(changepoint_noise_log(x, n), least);
    double med = log(stats_median_copy(hist + from, nb)), sum = 0, ss = 0;
    out->lo = INFINITY, out->hi = -INFINITY;
    for (int i = from; i < n; i++) {
        double v = fmin(fmax(x[i], med - 3 * wide), med + 3 * wide);
        sum += v;
        out->lo = fmin(out->lo, hist[i]);
        out->hi = fmax(out->hi, hist[i]);
    }
    double mean = sum / nb;
    for (int i = from; i < n; i++) {
        double v = fmin(fmax(x[i], med - 3 * wide), med + 3 * wide);
        ss += (v - mean) * (v - mean);
    }
    free(x);
    out->base = exp(mean);
    out->noise = fmax(nb > 1 ? sqrt(ss / (nb - 1)) : wide, least);
    out->df = nb > 1 ? nb - 1 : 1;
    /* a new value against the mean of nb: sqrt(1 + 1 / nb) times its sd */
    double sd = out->noise * sqrt(1 + 1.0 / nb);
    double t = stats_t_quantile(1 - alpha / (ntests > 0 ? ntests : 1), out->df);
    out->threshold = exp(t * sd);
    out->detectable = out->threshold - 1;
}

int gate_stat_judge(const gate_stat *g, double median)
{
    double r = median / g->base;
    if (r > g->threshold && median > g->hi)
        return 1;
    if (r < 1 / g->threshold && median < g->lo)
        return -1;
    return 0;
}
