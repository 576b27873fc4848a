/* stats.c - see stats.h. */
#include "util.h"
#include "stats.h"

#include <math.h>
#include <stdlib.h>

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

double t975(int df)
{
    static const double table[] = {0,      12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365,
                                   2.306,  2.262,  2.228, 2.201, 2.179, 2.160, 2.145, 2.131,
                                   2.120,  2.110,  2.101, 2.093, 2.086, 2.080, 2.074, 2.069,
                                   2.064,  2.060,  2.056, 2.052, 2.048, 2.045, 2.042};
    if (df < 1)
        return NAN;
    if (df <= 30)
        return table[df];
    /* Cornish-Fisher expansion around the normal quantile; < 1e-3 off past 30 */
    double z = 1.959964, v = df;
    return z + (z * z * z + z) / (4 * v) + (5 * pow(z, 5) + 16 * z * z * z + 3 * z) / (96 * v * v);
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

const char *stop_reason(double rse_target, int min_samples, int max_samples, double min_time,
                        double max_time, int n, double mean, double m2, double measured,
                        double elapsed)
{
    if (n >= max_samples)
        return "max_samples";
    if (elapsed >= max_time)
        return "max_time";
    if (n < min_samples || n < 2 || measured < min_time || !(mean > 0))
        return NULL;
    double rse = sqrt(m2 / (n - 1)) / sqrt((double)n) / mean;
    return rse <= rse_target ? "rse" : NULL;
}

int batch_for(double call, double threshold)
{
    if (!(call < threshold))
        return 1;
    int batch = 1;
    while (batch < (1 << 20) && batch * call < threshold)
        batch *= 2;
    return batch;
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
        s->min = s->median = s->mean = s->stddev = s->max = s->ci95_low = s->ci95_high = NAN;
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
        double h = t975(k - 1) * s->stddev / sqrt((double)k);
        s->ci95_low = mean - h;
        s->ci95_high = mean + h;
    } else {
        s->ci95_low = s->ci95_high = NAN;
    }
}
