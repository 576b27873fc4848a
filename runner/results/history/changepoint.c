/* changepoint.c - see changepoint.h (doc/history.md#change-points). */
#include "results/history/changepoint.h"

#include "base/util.h"
#include "stats/quantile.h"
#include "stats/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double changepoint_noise_log(const double *x, int n)
{
    if (n < 3)
        return NAN;
    int m = n - 1, k = m / 10; /* the largest tenth left out: outlier runs */
    double *d = xmalloc((size_t)m * sizeof *d);
    for (int i = 0; i < m; i++)
        d[i] = fabs(x[i + 1] - x[i]);
    xqsort(d, (size_t)m, sizeof *d, cmp_double);
    double ss = 0;
    for (int i = 0; i < m - k; i++)
        ss += d[i] * d[i];
    free(d);
    /* a difference of two normal values has variance 2 sigma^2; the part of
     * it below the trimmed quantile q keeps 1 - 2 q phi(q) / (1 - f) of it */
    double f = (double)k / m, keep = 1;
    if (k > 0) {
        double q = stats_probit(1 - f / 2);
        keep = 1 - 2 * q * exp(-q * q / 2) / sqrt(2 * M_PI) / (1 - f);
    }
    return sqrt(ss / (m - k) / keep / 2);
}

double changepoint_noise(const double *y, int n)
{
    if (n < 3)
        return NAN;
    double *x = xmalloc((size_t)n * sizeof *x);
    for (int i = 0; i < n; i++)
        x[i] = log(y[i]);
    double s = changepoint_noise_log(x, n);
    free(x);
    return s;
}

double changepoint_interval_floor(const double *lo, const double *hi, int n)
{
    double *w = xmalloc(((size_t)n + 1) * sizeof *w);
    int k = 0;
    for (int i = 0; i < n; i++)
        if (lo[i] > 0 && hi[i] >= lo[i] && isfinite(hi[i]))
            w[k++] = log(hi[i] / lo[i]) / (2 * 1.96);
    double f = k ? stats_median(w, k) : 0;
    free(w);
    return f;
}

/* x[i] pulled to within c of the median of x[i-2..i+2]: a run far from its
 * neighbours counts as c, where a step (3 runs or more) keeps its level. */
static void clip_to_running_median(const double *x, int n, double c, double *out)
{
    double w[5];
    for (int i = 0; i < n; i++) {
        int a = i - 2 < 0 ? 0 : i - 2, b = i + 2 >= n ? n - 1 : i + 2, k = 0;
        for (int j = a; j <= b; j++)
            w[k++] = x[j];
        qsort(w, (size_t)k, sizeof *w, cmp_double);
        double m = k % 2 ? w[k / 2] : 0.5 * (w[k / 2 - 1] + w[k / 2]);
        double r = x[i] - m;
        out[i] = m + (r > c ? c : r < -c ? -c : r);
    }
}

/* The noise of log values x[0..n-1], at least the floor: outlier runs
 * inflate changepoint_noise_log, so it is measured again on the values
 * pulled to within 3 of it of their running median, twice (a series in two
 * speed modes keeps its own); z gets the values pulled in. */
static double robust_sigma(const double *x, int n, double floor, double *z)
{
    double least = fmax(floor, CHANGEPOINT_NOISE_FLOOR);
    double sigma = fmax(changepoint_noise_log(x, n), least);
    for (int it = 0; it < 2; it++) {
        clip_to_running_median(x, n, 3 * sigma, z);
        sigma = fmax(fmin(sigma, changepoint_noise_log(z, n)), least);
    }
    clip_to_running_median(x, n, 3 * sigma, z);
    return sigma;
}

double changepoint_noise_robust(const double *y, int n)
{
    if (n < 3)
        return NAN;
    double *x = xmalloc((size_t)n * sizeof *x), *z = xmalloc((size_t)n * sizeof *z);
    for (int i = 0; i < n; i++)
        x[i] = log(y[i]);
    double s = robust_sigma(x, n, 0, z);
    free(x);
    free(z);
    return s;
}

/* The squared cost of z[a..b) from the prefix sums; inv[k] = 1 / k (a
 * product, not a division, in the search's inner loop). */
static double seg_cost(const double *s1, const double *s2, const double *inv, int a, int b)
{
    double s = s1[b] - s1[a];
    return (s2[b] - s2[a]) - s * s * inv[b - a];
}

/* Optimal partitioning of z[0..n) at penalty pen a change point (PELT's
 * pruning: a start that cannot win again is dropped); the cuts, ascending,
 * in cuts; their count.  Of starts whose costs tie (within rounding), the
 * earliest: the change is placed at the first run that can be after it. */
static int partition(const double *z, int n, double pen, int *cuts)
{
    double *s1 = xcalloc((size_t)n + 1, sizeof *s1), *s2 = xcalloc((size_t)n + 1, sizeof *s2);
    double *inv = xcalloc((size_t)n + 1, sizeof *inv);
    for (int i = 1; i <= n; i++)
        inv[i] = 1.0 / i;
    for (int i = 0; i < n; i++) {
        s1[i + 1] = s1[i] + z[i];
        s2[i + 1] = s2[i] + z[i] * z[i];
    }
    double *F = xmalloc(((size_t)n + 1) * sizeof *F), *val = xmalloc(((size_t)n + 1) * sizeof *val);
    int *last = xmalloc(((size_t)n + 1) * sizeof *last), *cand = xmalloc(((size_t)n + 2) * sizeof *cand);
    int nc = 0;
    F[0] = -pen;
    cand[nc++] = 0;
    for (int s = 1; s <= n; s++) {
        double best = INFINITY;
        for (int i = 0; i < nc; i++) {
            int t = cand[i];
            val[i] = F[t] + seg_cost(s1, s2, inv, t, s) + pen;
            best = val[i] < best ? val[i] : best;
        }
        double tol = 1e-9 * (1 + fabs(best));
        int arg = -1, keep = 0;
        for (int i = 0; i < nc; i++) {
            if (arg < 0 && val[i] <= best + tol)
                arg = cand[i]; /* the earliest: candidates are in ascending order */
            if (val[i] - pen <= best + tol) /* else pruned: it cannot beat s from here on */
                cand[keep++] = cand[i];
        }
        F[s] = best;
        last[s] = arg;
        nc = keep;
        cand[nc++] = s;
    }
    int k = 0;
    for (int s = n; s > 0; s = last[s])
        if (last[s] > 0)
            cuts[k++] = last[s];
    for (int i = 0; i < k / 2; i++) { /* ascending */
        int t = cuts[i];
        cuts[i] = cuts[k - 1 - i];
        cuts[k - 1 - i] = t;
    }
    free(s1), free(s2), free(inv), free(F), free(val), free(last), free(cand);
    return k;
}

/* The median of x[a..b) and its interval's ends (order statistics, 95 %). */
static void seg_median(const double *x, int a, int b, double *med, double *lo, double *hi)
{
    int n = b - a;
    double *s = xmalloc((size_t)n * sizeof *s);
    memcpy(s, x + a, (size_t)n * sizeof *s);
    stats st;
    stats_compute(s, n, &st);
    *med = st.median;
    *lo = st.median_ci_low;
    *hi = st.median_ci_high;
    free(s);
}

static void remove_cut(int *cuts, int *k, int i)
{
    memmove(cuts + i, cuts + i + 1, (size_t)(*k - i - 1) * sizeof *cuts);
    (*k)--;
}

/* The best single cut c of z[a..b) with lo <= c <= hi and at least
 * CHANGEPOINT_MIN_SEGMENT runs each side, when its gain pays the penalty
 * and its first run is nearer the level after it than the level before
 * (a change is never placed on a run that had not changed); else -1. */
static int refit(const double *z, int a, int b, int lo, int hi, double pen)
{
    double s1 = 0, s2 = 0;
    for (int i = a; i < b; i++)
        s1 += z[i], s2 += z[i] * z[i];
    double whole = s2 - s1 * s1 / (b - a), best = INFINITY;
    int at = -1;
    for (int c = lo; c <= hi; c++) {
        if (c - a < CHANGEPOINT_MIN_SEGMENT || b - c < CHANGEPOINT_MIN_SEGMENT)
            continue;
        double l1 = 0, l2 = 0;
        for (int i = a; i < c; i++)
            l1 += z[i], l2 += z[i] * z[i];
        double mb = l1 / (c - a), ma = (s1 - l1) / (b - c);
        if (fabs(z[c] - ma) >= fabs(z[c] - mb))
            continue;
        double cost = (l2 - l1 * l1 / (c - a)) + ((s2 - l2) - (s1 - l1) * (s1 - l1) / (b - c));
        if (cost < best - 1e-9 * (1 + fabs(best)))
            best = cost, at = c;
    }
    return at >= 0 && whole - best > pen ? at : -1;
}

/* Segments shorter than CHANGEPOINT_MIN_SEGMENT are merged: the short
 * segment's cuts go, and the best single cut near them that leaves 4 runs
 * each side takes their place when it still pays its penalty (refit): a
 * change in the last three runs waits for a fourth, and a drift of a run or
 * two between two levels stays one change. */
static void merge_short(const double *z, int n, double pen, int *cuts, int *k)
{
    for (;;) {
        int shortest = -1, len = CHANGEPOINT_MIN_SEGMENT;
        for (int i = 0; i <= *k; i++) {
            int a = i ? cuts[i - 1] : 0, b = i < *k ? cuts[i] : n;
            if (b - a < len)
                len = b - a, shortest = i;
        }
        if (shortest < 0)
            return;
        /* the cuts that bound it: [first, last] of cuts[] */
        int first = shortest > 0 ? shortest - 1 : 0, last = shortest < *k ? shortest : *k - 1;
        int lo = cuts[first] - (shortest == *k ? 3 : 0), hi = cuts[last] + (shortest == 0 ? 3 : 0);
        int a = first > 0 ? cuts[first - 1] : 0, b = last + 1 < *k ? cuts[last + 1] : n;
        for (int i = last; i >= first; i--)
            remove_cut(cuts, k, i);
        int at = refit(z, a, b, lo, hi, pen);
        if (at >= 0) {
            memmove(cuts + first + 1, cuts + first, (size_t)(*k - first) * sizeof *cuts);
            cuts[first] = at;
            (*k)++;
        }
    }
}

/* Each cut placed on a run of the level after it: where the first run
 * after a cut is nearer the median before it than the median after, the
 * cut moves a run left when the run before it is nearer the level after
 * (an exact tie goes to the earlier place), else a run right; at most two
 * moves, each side keeping CHANGEPOINT_MIN_SEGMENT runs. */
static void place_cuts(const double *x, int n, int *cuts, int k)
{
    for (int i = 0; i < k; i++) {
        int a = i ? cuts[i - 1] : 0, b = i + 1 < k ? cuts[i + 1] : n;
        for (int moves = 0; moves < 2; moves++) {
            int c = cuts[i];
            double mb = stats_median_copy(x + a, c - a), ma = stats_median_copy(x + c, b - c);
            if (fabs(x[c] - ma) < fabs(x[c] - mb))
                break;
            if (fabs(x[c - 1] - ma) < fabs(x[c - 1] - mb) && c - 1 - a >= CHANGEPOINT_MIN_SEGMENT)
                cuts[i] = c - 1;
            else if (b - (c + 1) >= CHANGEPOINT_MIN_SEGMENT)
                cuts[i] = c + 1;
            else
                break;
        }
    }
}

/* The step at cut i among k cuts of x[0..n), its interval; whether the
 * interval excludes 0. */
static int step_of(const double *x, int n, const int *cuts, int k, int i, changepoint *cp)
{
    int a = i ? cuts[i - 1] : 0, c = cuts[i], b = i + 1 < k ? cuts[i + 1] : n;
    double ml, ll, hl, mr, lr, hr;
    seg_median(x, a, c, &ml, &ll, &hl);
    seg_median(x, c, b, &mr, &lr, &hr);
    cp->at = c;
    cp->step = exp(mr - ml) - 1;
    cp->step_lo = exp(lr - hl) - 1;
    cp->step_hi = exp(hr - ll) - 1;
    return cp->step_lo > 0 || cp->step_hi < 0;
}

int changepoints_find_floor(const double *y, int n, double penalty, double floor,
                            changepoint **out)
{
    *out = NULL;
    if (n < 2 * CHANGEPOINT_MIN_SEGMENT)
        return 0;
    double *x = xmalloc((size_t)n * sizeof *x), *z = xmalloc((size_t)n * sizeof *z);
    double mean = 0;
    for (int i = 0; i < n; i++)
        mean += (x[i] = log(y[i])) / n;
    double sigma = robust_sigma(x, n, floor, z);
    for (int i = 0; i < n; i++) /* in noise units, about the mean: sums stay exact */
        z[i] = (z[i] - mean) / sigma;
    double pen = penalty > 0 ? penalty
                             : CHANGEPOINT_PENALTY_A + CHANGEPOINT_PENALTY_B * log((double)n);
    int *cuts = xmalloc((size_t)n * sizeof *cuts);
    int k = partition(z, n, pen, cuts);
    merge_short(z, n, pen, cuts, &k);
    place_cuts(x, n, cuts, k);
    /* a change whose step's interval includes 0 is no change: the one nearest
     * to 0 goes first, and the steps beside it are measured again */
    changepoint *cp = xcalloc((size_t)k + 1, sizeof *cp);
    for (;;) {
        int worst = -1;
        double worst_margin = INFINITY;
        for (int i = 0; i < k; i++) {
            changepoint c;
            if (!step_of(x, n, cuts, k, i, &c)) {
                double margin = c.step >= 0 ? c.step_lo : -c.step_hi;
                if (margin < worst_margin)
                    worst_margin = margin, worst = i;
            }
        }
        if (worst < 0)
            break;
        remove_cut(cuts, &k, worst);
    }
    for (int i = 0; i < k; i++)
        step_of(x, n, cuts, k, i, &cp[i]);
    free(cuts);
    free(x);
    free(z);
    if (!k) {
        free(cp);
        cp = NULL;
    }
    *out = cp;
    return k;
}

int changepoints_find(const double *y, int n, double penalty, changepoint **out)
{
    return changepoints_find_floor(y, n, penalty, 0, out);
}
