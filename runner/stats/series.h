/* series.h - a growing series of values with its median and robust spread
 * (subtract_spawn's starts, doc/own-code.md#per_call).  Pure computation. */
#ifndef RUNNER_SERIES_H
#define RUNNER_SERIES_H
/* public header of runner/stats/ */

typedef struct series {
    double *x;
    int n, cap;
} series;

void series_add(series *s, double v);
/* NaN when empty. */
double series_median(const series *s);
/* 1.4826 x the median absolute deviation from the median; NaN when empty. */
double series_spread(const series *s);
void series_free(series *s);

#endif
