/* changepoint.h - change points in a series of run medians
 * (doc/history.md#change-points): optimal partitioning (Jackson et al. 2005,
 * pruned as PELT: Killick, Fearnhead and Eckley 2012) of the log medians
 * with the squared cost, each value first pulled to within 3 noise units of
 * its neighbours' running median (so that one run on a busy machine moves
 * the cost little), the noise measured from successive differences (a
 * trimmed root mean square: robust to steps and to outlier runs, and right
 * for runs in two speed modes or on two timer ticks, where a median of
 * differences is 0), at least a floor.  A change point is kept only when
 * each side has at least CHANGEPOINT_MIN_SEGMENT runs and its step's
 * interval excludes 0.  The penalty is calibrated by simulation
 * (bench/changepoint.sh).  Library code: pure computation. */
#ifndef RUNNER_CHANGEPOINT_H
#define RUNNER_CHANGEPOINT_H
/* internal header of runner/results/history/: other folders may not include it */

/* The penalty of a change point, in units of the noise's variance:
 * CHANGEPOINT_PENALTY_A + CHANGEPOINT_PENALTY_B ln n (bench/changepoint.sh,
 * doc/history.md#change-points). */
#define CHANGEPOINT_PENALTY_A 4.0
#define CHANGEPOINT_PENALTY_B 2.0
/* The fewest runs on either side of a change point. */
#define CHANGEPOINT_MIN_SEGMENT 4
/* The least noise assumed, relative (0.1 %): a series of equal values is not
 * all change. */
#define CHANGEPOINT_NOISE_FLOOR 1e-3

typedef struct changepoint {
    int at;          /* index of the first run after the change */
    double step;     /* median after / median before - 1 */
    double step_lo, step_hi; /* the step's interval (each side's median at ~95 %) */
} changepoint;

/* The change points of y[0..n-1] (medians, > 0 and finite: leave the others
 * out first), in order; their count, *out malloc'd (NULL when none).
 * penalty <= 0: the calibrated one.  floor: the least noise (relative; the
 * runs' own intervals or the clock's resolution), 0 for none beyond
 * CHANGEPOINT_NOISE_FLOOR. */
int changepoints_find_floor(const double *y, int n, double penalty, double floor,
                            changepoint **out);
/* changepoints_find_floor without a floor. */
int changepoints_find(const double *y, int n, double penalty, changepoint **out);
/* The series' noise as changepoints_find sees it: the standard deviation of
 * its log values from the root mean square of their successive differences,
 * the largest tenth of them left out (scaled to be right for normal noise).
 * NaN below 3 values. */
double changepoint_noise(const double *y, int n);
/* The noise changepoints_find works with: changepoint_noise measured again
 * with outlier runs pulled in to 3 of it (at least CHANGEPOINT_NOISE_FLOOR);
 * NaN below 3 values. */
double changepoint_noise_robust(const double *y, int n);
/* changepoint_noise of log values x[0..n-1]. */
double changepoint_noise_log(const double *x, int n);
/* The least run-to-run noise a series of runs can have, from their own
 * medians' intervals [lo, hi] (about 95 %): the median over the runs of
 * ln(hi / lo) / 3.92, their median's standard error, which quantised
 * medians (a clock's ticks) give too; 0 when no run has one. */
double changepoint_interval_floor(const double *lo, const double *hi, int n);

#endif
