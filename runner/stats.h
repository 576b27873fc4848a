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
/* Two-sided 97.5 % quantile of Student's t with `df` degrees of freedom. */
double t975(int df);

#endif
