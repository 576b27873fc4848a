/* stats.c - see stats.h. */
#include "base/util.h"
#include "stats/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Moves finite values to the front, sorted; returns their count. */
static int sort_finite(double *x, int n)
{
    int k = 0;
    for (int i = 0; i < n; i++)
        if (isfinite(x[i]))
            x[k++] = x[i];
    xqsort(x, (size_t)k, sizeof *x, cmp_double);
    return k;
}

/* Linear interpolation between order statistics (type 7, as R and numpy). */
static double quantile(const double *x, int k, double q)
{
    double h = (k - 1) * q;
    int lo = (int)h;
    return lo + 1 < k ? x[lo] + (h - lo) * (x[lo + 1] - x[lo]) : x[lo];
}

int stats_outliers(double *x, int n)
{
    int k = sort_finite(x, n);
    if (k < 4)
        return 0;
    double q1 = quantile(x, k, 0.25), q3 = quantile(x, k, 0.75), iqr = q3 - q1;
    int out = 0;
    for (int i = 0; i < k; i++)
        out += x[i] < q1 - 1.5 * iqr || x[i] > q3 + 1.5 * iqr;
    return out;
}

double binom_half_cdf(int n, int k)
{
    if (k < 0)
        return 0;
    if (k >= n)
        return 1;
    /* P(B = k) from log-gamma, then the terms below it by the recurrence
     * P(i-1) = P(i) i / (n-i+1), until they no longer count (the lower tail
     * of a binomial falls off fast: a few sqrt(n) terms at most) */
    double term = exp(lgamma(n + 1.0) - lgamma(k + 1.0) - lgamma(n - k + 1.0) - n * M_LN2);
    double sum = 0;
    for (int i = k; i >= 0 && term > 0; i--) {
        sum += term;
        if (term < sum * 1e-17)
            break;
        term *= (double)i / (double)(n - i + 1);
    }
    if (sum > 1)
        sum = 1;
    return sum;
}

int median_ci_rank(int n, double level, double *coverage)
{
    if (n < 1) {
        *coverage = NAN;
        return 0;
    }
    /* coverage of [x(l), x(n-l+1)] is P(l <= B <= n-l), B ~ Bin(n, 1/2):
     * the median lies between those order statistics exactly when l to n-l
     * samples fall below it (doc/timing.md#measurement-quality) */
#define COVER(l) (1 - 2 * binom_half_cdf(n, (l) - 1))
    /* start from the normal approximation, then walk to the exact rank */
    int l = (int)floor(n / 2.0 - 0.5 * 1.959964 * sqrt((double)n));
    if (l < 1)
        l = 1;
    if (l > (n + 1) / 2)
        l = (n + 1) / 2;
    while (l > 1 && COVER(l) < level)
        l--;
    while (l + 1 <= (n + 1) / 2 && COVER(l + 1) >= level)
        l++;
    *coverage = COVER(l);
#undef COVER
    return l;
}

int stats_bimodal(const double *x, int k, double *lo_mode, double *hi_mode, double *hi_share)
{
    if (k < 10)
        return 0;
    /* a mode is at least two samples: a lone slow one is an outlier or a
     * stall (doc/timing.md#measurement-quality), and one of 15 is already 7 % */
    int edge = (int)ceil(0.05 * k), best = -1;
    if (edge < 2)
        edge = 2;
    double ratio = 2;
    for (int i = edge; i <= k - edge; i++)
        if (x[i - 1] > 0 && x[i] / x[i - 1] >= ratio) {
            ratio = x[i] / x[i - 1];
            best = i;
        }
    if (best < 0)
        return 0;
    *lo_mode = best % 2 ? x[best / 2] : 0.5 * (x[best / 2 - 1] + x[best / 2]);
    int m = k - best;
    *hi_mode = m % 2 ? x[best + m / 2] : 0.5 * (x[best + m / 2 - 1] + x[best + m / 2]);
    *hi_share = (double)m / k;
    return 1;
}

double stats_median_copy(const double *v, int n)
{
    if (n <= 0)
        return NAN;
    double *x = xmalloc((size_t)n * sizeof *x);
    memcpy(x, v, (size_t)n * sizeof *x);
    double m = stats_median(x, n);
    free(x);
    return m;
}

double stats_median(double *x, int n)
{
    int k = sort_finite(x, n);
    if (k == 0)
        return NAN;
    return k % 2 ? x[k / 2] : 0.5 * (x[k / 2 - 1] + x[k / 2]);
}

void stats_compute(double *x, int n, stats *s)
{
    int k = sort_finite(x, n);
    s->n = k;
    if (k == 0) {
        s->min = s->median = s->mean = s->stddev = s->max = NAN;
        s->median_ci_low = s->median_ci_high = s->ci_level = s->mad = NAN;
        return;
    }
    s->min = x[0];
    s->max = x[k - 1];
    s->median = k % 2 ? x[k / 2] : 0.5 * (x[k / 2 - 1] + x[k / 2]);
    /* Welford: stable for the tiny, close values of fast kernels */
    double mean = 0, m2 = 0;
    for (int i = 0; i < k; i++) {
        double d = x[i] - mean;
        mean += d / (i + 1);
        m2 += d * (x[i] - mean);
    }
    s->mean = mean;
    s->stddev = k > 1 ? sqrt(m2 / (k - 1)) : NAN;
    if (k > 1) {
        int l = median_ci_rank(k, 0.95, &s->ci_level);
        s->median_ci_low = x[l - 1];
        s->median_ci_high = x[k - l];
    } else {
        s->median_ci_low = s->median_ci_high = s->ci_level = NAN;
    }
    double *dev = xmalloc((size_t)k * sizeof *dev);
    for (int i = 0; i < k; i++)
        dev[i] = fabs(x[i] - s->median);
    s->mad = stats_median(dev, k);
    free(dev);
}

/* The j-th smallest (0-based) of x[0..n-1]; reorders x (Hoare's select). */
static double select_kth(double *x, int n, int j)
{
    int lo = 0, hi = n - 1;
    while (lo < hi) {
        double p = x[lo + (hi - lo) / 2];
        int i = lo, k = hi;
        while (i <= k) {
            while (x[i] < p)
                i++;
            while (x[k] > p)
                k--;
            if (i <= k) {
                double t = x[i];
                x[i++] = x[k];
                x[k--] = t;
            }
        }
        if (j <= k)
            hi = k;
        else if (j >= i)
            lo = i;
        else
            return x[j];
    }
    return x[j];
}

/* Relative half-width of the median's 95 % interval over the samples so
 * far: the larger of its two sides over the median (the interval is not
 * symmetric for skewed samples). */
static double median_half_width(stop_state *st)
{
    int n = st->n;
    double cover;
    int l = median_ci_rank(n, 0.95, &cover);
    memcpy(st->scratch, st->x, (size_t)n * sizeof *st->x);
    double lo = select_kth(st->scratch, n, l - 1);
    double med = select_kth(st->scratch, n, n / 2);
    if (n % 2 == 0) /* the mean of the two middle values, as stats_compute */
        med = 0.5 * (med + select_kth(st->scratch, n, n / 2 - 1));
    double hi = select_kth(st->scratch, n, n - l);
    if (!(med > 0))
        return INFINITY;
    double w = med - lo > hi - med ? med - lo : hi - med;
    return w / med;
}

const char *stop_add(stop_state *st, double sample, double rse_target, int min_samples,
                     int max_samples, double min_time, double max_time, double measured,
                     double elapsed)
{
    if (st->n == st->cap) {
        st->cap = st->cap ? st->cap * 2 : 1024;
        st->x = xrealloc(st->x, (size_t)st->cap * sizeof *st->x);
        st->scratch = xrealloc(st->scratch, (size_t)st->cap * sizeof *st->x);
    }
    st->x[st->n++] = sample;
    int n = st->n;
    if (n >= max_samples)
        return "max_samples";
    if (elapsed >= max_time)
        return "max_time";
    /* the median's interval needs 6 samples to reach 95 % at all */
    if (n < min_samples || n < 6 || measured < min_time || n < st->next_check)
        return NULL;
    /* recomputed as the count grows by 1/16 (select is O(n): the checks
     * cost about 16 passes over the final samples in all) */
    st->next_check = n + (n / 16 > 1 ? n / 16 : 1);
    double w = st->half_width = median_half_width(st);
    if (w <= rse_target)
        return "rse";
    /* nvbench's convergence exit: the half-width should halve when the
     * samples quadruple; when it did not shrink by even 10 %, more of the
     * same samples will not reach the target */
    const char *r = NULL;
    for (int i = st->nhist - 1; i >= 0 && st->hist_n[i] >= 32; i--)
        if (st->hist_n[i] * 4 <= n) {
            if (w > 0.9 * st->hist_w[i])
                r = "converged";
            break;
        }
    if (st->nhist == 256) {
        memmove(st->hist_n, st->hist_n + 1, 255 * sizeof *st->hist_n);
        memmove(st->hist_w, st->hist_w + 1, 255 * sizeof *st->hist_w);
        st->nhist--;
    }
    st->hist_n[st->nhist] = n;
    st->hist_w[st->nhist++] = w;
    return r;
}

void stop_free(stop_state *st)
{
    free(st->x);
    free(st->scratch);
    memset(st, 0, sizeof *st);
}

int batch_grow(int batch, double took, double target)
{
    if (took >= target || batch >= (1 << 20))
        return batch;
    /* as google/benchmark: scale by the shortfall (the power of two above
     * it is the margin), at most 16x at a time because one timing of a tiny
     * batch is rough */
    double want = took > 0 ? batch * target / took : batch * 16.0;
    if (want > batch * 16.0)
        want = batch * 16.0;
    int next = batch * 2;
    while (next < (1 << 20) && next < want)
        next *= 2;
    return next;
}
