/* plot_crossover.h - where a speedup curve crosses 1.
 *
 * A pure function shared by the speedup chart (its markers and labels) and
 * report.md (its findings): given the points (x, speedup) of one curve,
 * sorted by x, it reports every x where the curve passes 1.  Speedup is
 * baseline time / curve time, so above 1 means "faster than the baseline". */
#ifndef RUNNER_PLOT_CROSSOVER_H
#define RUNNER_PLOT_CROSSOVER_H
/* internal header of runner/results/report/: other folders may not include it */

typedef struct crossing {
    double x;       /* the first measured x on the new side ("faster from x") */
    double x_prev;  /* the last measured x on the old side */
    double x_cross; /* where the line between the two points meets 1 (log-log
                     * interpolation when both are positive) */
    int faster;     /* 1: from below (faster from x), 0: from above (slower from x) */
} crossing;

/* Points with a speedup that is not a finite positive number are skipped; a
 * speedup of exactly 1 counts as "not faster".  Writes at most `max`
 * crossings to `out` (may be NULL when max is 0) and returns how many there
 * are in all. */
int find_crossings(const double *x, const double *speedup, int n, crossing *out, int max);

/* The minimum effect a crossing needs (doc/results.md#plots-and-reports): 5 %. */
#define CROSSOVER_MIN_EFFECT 0.05

/* Crossings claimed only where the difference is clear: a point counts as
 * faster when the low end of its speedup's interval (lo[i], or the speedup
 * itself when lo is NULL or lo[i] is not finite) is above 1 + min_effect,
 * slower when the high end is below 1 / (1 + min_effect), and as neither
 * otherwise; a crossing is a change from a faster point to a slower one or
 * back, points that are neither in between being skipped (x_prev is then
 * the last clear point on the old side).  With min_effect 0 and no
 * intervals it is find_crossings. */
int find_clear_crossings(const double *x, const double *speedup, const double *lo,
                         const double *hi, int n, double min_effect, crossing *out, int max);

#endif
