/* stats.h - summary statistics of a trial's samples. */
#ifndef RUNNER_STATS_H
#define RUNNER_STATS_H

typedef struct stats {
    int n;
    double min, median, mean, stddev, max;
    double ci95_low, ci95_high; /* Student-t interval of the mean */
} stats;

/* `x` is sorted in place.  NaN entries are ignored. */
void stats_compute(double *x, int n, stats *out);
double stats_median(double *x, int n); /* NaN when no finite value */
/* Samples outside Tukey's fences (1.5 IQR beyond the quartiles); sorts x. */
int stats_outliers(double *x, int n);

/* repeats: auto.  After n samples with running mean and m2 (Welford),
 * `measured` seconds of samples and `elapsed` seconds since the first:
 * "max_samples", "max_time", "rse" (relative standard error of the mean at
 * or under the target, once min_samples and min_time are reached), or NULL
 * to go on. */
const char *stop_reason(double rse_target, int min_samples, int max_samples, double min_time,
                        double max_time, int n, double mean, double m2, double measured,
                        double elapsed);

/* Calls per timed sample for a call of `call` seconds: 1 when the call is at
 * least `threshold` (100x the timer's resolution), else the power of two
 * that lifts a batch to the threshold (at most 2^20). */
int batch_for(double call, double threshold);

/* Two-sided 97.5 % quantile of Student's t with `df` degrees of freedom. */
double t975(int df);

#endif
