/* gate_stats.h - the gate's judgement of one trial (doc/history.md#runner-gate):
 * its earlier runs' medians against this run's.  The base is the median of
 * the runs since the last change point in them (a step inside the window
 * does not make an old level the base); the noise is that of the whole
 * window from successive differences (a step does not inflate it; see
 * changepoint.h), at least the floor; the threshold the one-sided Student
 * t quantile at alpha / (the trials judged), with the noise estimate's
 * effective degrees of freedom: a few earlier runs give a wide threshold,
 * not a false alarm.  Library code: pure computation. */
#ifndef RUNNER_GATE_STATS_H
#define RUNNER_GATE_STATS_H
/* internal header of runner/results/history/: other folders may not include it */

typedef struct gate_stat {
    int nbase;        /* earlier runs in the base (since the last change point) */
    double base;      /* their median */
    double noise;     /* the window's run-to-run noise: sd of the log medians */
    double df;        /* its effective degrees of freedom */
    double threshold; /* the ratio beyond which a run is slower (1 / it: faster) */
    double detectable; /* the smallest change the gate can see: threshold - 1 */
    double lo, hi;    /* the fastest and slowest of the base's runs */
} gate_stat;

/* 1 slower, -1 faster, 0 neither: beyond the threshold and beyond every run
 * of the base (a run on a tick or in a speed mode the history has shown is
 * not a change). */
int gate_stat_judge(const gate_stat *g, double median);

/* hist[0..n-1]: the earlier runs' medians, oldest first, each > 0 and
 * finite; n >= 3.  ntests: the trials judged together (Bonferroni); alpha:
 * the chance of any false `slower` among them; floor: the least noise
 * (relative). */
void gate_stat_compute(const double *hist, int n, int ntests, double alpha, double floor,
                       gate_stat *out);

#endif
