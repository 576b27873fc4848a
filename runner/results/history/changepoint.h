/* changepoint.h - change points in a series of run medians
 * (doc/history.md#change-points): binary segmentation (Scott and Knott 1974;
 * Killick, Fearnhead and Eckley 2012 for the penalised form) over the log
 * medians with the L1 cost (sum of absolute deviations from a segment's
 * median: the Laplace likelihood, which a run on a busy machine moves little),
 * the gain scaled by the series' own noise (the MAD of successive
 * differences) and a penalty calibrated by simulation
 * (tests/test_changepoint.c).  Library code: pure computation. */
#ifndef RUNNER_CHANGEPOINT_H
#define RUNNER_CHANGEPOINT_H
/* internal header of runner/results/history/: other folders may not include it */

/* The penalty: a split is kept when its gain in cost, in units of the
 * series' noise, exceeds CHANGEPOINT_PENALTY * log(n).  Calibrated on
 * simulated A/A histories (tests/test_changepoint.c, doc/history.md). */
#define CHANGEPOINT_PENALTY 2.0
/* The fewest runs on either side of a change point. */
#define CHANGEPOINT_MIN_SEGMENT 4

typedef struct changepoint {
    int at;          /* index of the first run after the change */
    double step;     /* median after / median before - 1 */
    double step_lo, step_hi; /* the step's interval (each side's median at ~95 %) */
} changepoint;

/* The change points of y[0..n-1] (medians, > 0; non-finite values are
 * not allowed: leave them out first), in order; their count, *out malloc'd
 * (NULL when none).  penalty <= 0: CHANGEPOINT_PENALTY. */
int changepoints_find(const double *y, int n, double penalty, changepoint **out);
/* The series' noise as changepoints_find sees it: the robust standard
 * deviation of its log values (1.4826 MAD of successive differences / sqrt 2). */
double changepoint_noise(const double *y, int n);

#endif
