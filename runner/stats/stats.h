/* stats.h - summary statistics of a trial's samples
 * (doc/timing.md#measurement-quality, "How a trial is timed"). */
#ifndef RUNNER_STATS_H
#define RUNNER_STATS_H
/* public header of runner/stats/ */

typedef struct stats {
    int n;
    double min, median, mean, stddev, max;
    /* Distribution-free interval of the median from order statistics
     * (doc/timing.md#measurement-quality): [x(l), x(n-l+1)], and its exact
     * coverage ci_level (>= 0.95 from n = 6; [min, max] below that, e.g.
     * 0.9375 at n = 5).  Always inside [min, max]: never negative for
     * durations. */
    double median_ci_low, median_ci_high, ci_level;
    double mad; /* median absolute deviation from the median (unscaled) */
} stats;

/* `x` is sorted in place.  NaN entries are ignored. */
void stats_compute(double *x, int n, stats *out);
double stats_median(double *x, int n); /* NaN when no finite value */
/* The same of a copy of v (v is not reordered); NaN when n <= 0. */
double stats_median_copy(const double *v, int n);
/* Samples outside Tukey's fences (1.5 IQR beyond the quartiles); sorts x. */
int stats_outliers(double *x, int n);

/* P(B <= k) for B ~ Binomial(n, 1/2). */
double binom_half_cdf(int n, int k);
/* For n sorted values: the 1-based rank l of the lower end of the median's
 * interval [x(l), x(n-l+1)] at confidence `level`: the largest l whose exact
 * coverage 1 - 2 P(B <= l-1) is at least `level`, or 1 ([min, max]) when
 * none is.  *coverage gets the interval's exact coverage.  0 when n < 1. */
int median_ci_rank(int n, double level, double *coverage);

/* Bimodality or stalls in sorted samples x[0..k-1]
 * (doc/timing.md#measurement-quality): 1 when the median is over twice the minimum and the sorted
 * samples have a gap (a ratio of at least 2 between neighbours) with at
 * least 5 % of the samples on each side; *lo_mode and *hi_mode get the
 * medians of the two groups and *hi_share the upper group's share. */
int stats_bimodal(const double *x, int k, double *lo_mode, double *hi_mode, double *hi_share);

/* repeats: auto (doc/timing.md#measurement-quality).  The state of the stop rule
 * over one trial's samples. */
typedef struct stop_state {
    double *x, *scratch; /* the samples so far (per call), and room to select in */
    int n, cap;
    int next_check;      /* the median's CI is recomputed at this n */
    int hist_n[256];     /* (n, relative half-width) at each check */
    double hist_w[256];
    int nhist;
    double half_width;   /* last relative half-width of the median's CI */
} stop_state;

/* Adds a sample and says whether to stop: "max_samples", "max_time",
 * "rse" (the median's CI half-width relative to the median at or under the
 * target, once min_samples and min_time are reached), "converged" (the
 * half-width stopped shrinking: no better by 10 % over the last 4x samples,
 * counted from at least 32),
 * or NULL to go on.  `measured` seconds of samples, `elapsed` since the
 * first.  stop_free releases the samples. */
const char *stop_add(stop_state *st, double sample, double rse_target, int min_samples,
                     int max_samples, double min_time, double max_time, double measured,
                     double elapsed);
void stop_free(stop_state *st);

/* batch: auto (doc/timing.md#batching).  Given that `batch` calls took `took`
 * seconds together, the next batch to try so that one sample lasts at
 * least `target` seconds: `batch` itself when it does already, else a
 * larger power of two (at most 2^20, at most 16x at a time: the next timing
 * checks the guess). */
int batch_grow(int batch, double took, double target);

#endif
