/* change.h - the change between two sides (OLD and NEW) of a trial from
 * their runs' block medians, with the smallest change it could have
 * detected (doc/compare.md#what-one-run-can-show).  Used by `runner compare`;
 * a history gate can pass each earlier run as a run of one block.
 *
 * Each run's blocks (block medians, > 0) are grouped by the CPU they ran on
 * (cell; -1: not known).  A run's centre is the mean over its cells of the
 * mean log block median (so a run with half its blocks on a slow CPU and
 * half on a fast one is compared as such with another); its noise is the
 * spread of the log block medians within cells, pooled over every run of
 * both sides (degrees of freedom: blocks less cells).  A run whose cells
 * leave no degree of freedom (one block per CPU) is taken as one cell.  A
 * side with two runs or more also has the spread of its runs' centres,
 * which becomes the side's variance when its runs disagree beyond what
 * their blocks explain (F test of the two variances, p <
 * CHANGE_RUNS_ALPHA): a worker landing in a slow mode is a block's noise
 * and is pooled, a whole run on a slow machine is the runs' (bench/aa.sh
 * measured both, bench/NOTES-compare.md).  The difference of the sides'
 * centres over its standard error is a t statistic (Welch-Satterthwaite
 * degrees of freedom); `detectable` is the half-width of its 95 % interval
 * as a ratio less 1 (0.12: a change of +-12 % would have been seen).
 *
 * Two speed modes.  On a shared machine a worker often lands in a mode
 * 1.3-1.9x slower than the rest for its whole life, and the share of slow
 * workers moves from minute to minute; the mean over blocks then follows
 * the share, not the code.  Where each side shows two modes - its fastest
 * CHANGE_MODE_MIN or more blocks, pooled over its runs, within
 * CHANGE_MODE_WIDTH of the fastest, the next block CHANGE_MODE_GAP beyond
 * them, and CHANGE_MODE_MIN or more blocks beyond that gap (one slow
 * outlier is not a mode: a side whose blocks were all slow would pass for
 * one) - and the modes are not the CPUs (some CPU ran blocks in both), the
 * sides are compared mode by mode: in each, the difference of their mean
 * log medians over the spread inside it; the two differences weighted by
 * their precision (doc/compare.md#two-speed-modes).  The centres are then
 * the fast modes'. */
#ifndef RUNNER_CHANGE_H
#define RUNNER_CHANGE_H
/* public header of runner/stats/ */

/* The F test's level for taking a side's runs' spread as its noise: at
 * 0.05 a 1.5x slower Lua loop read `slower` in 17 of 28 pairs of 3 runs
 * a side, at 0.001 in 27 of 28, with the same 5 % of unchanged pairs
 * failing (bench/NOTES-compare.md). */
#define CHANGE_RUNS_ALPHA 0.001

/* The fast mode (bench/NOTES-compare.md#two-speed-modes: on the runs
 * bench/aa.sh kept from 28 invocations, a 1.15x gap and a 1.2x width,
 * with one-sided speeds kept out of the CPU cells, gave about half the A/A
 * false alarms of the rule before, with the 1.5x Lua loop found in as many
 * invocations). */
#define CHANGE_MODE_MIN 2
#define CHANGE_MODE_WIDTH 1.2
#define CHANGE_MODE_GAP 1.15

/* One run of a side: n block medians and the CPU of each (NULL: unknown). */
typedef struct change_run {
    const double *med;
    const int *cell;
    int n;
} change_run;

typedef struct change_est {
    double old_centre, new_centre; /* exp of the sides' mean log centres */
    double ratio;                  /* new / old */
    double se, df;                 /* of the log ratio */
    double p;                      /* two-sided; NaN without a noise estimate */
    double detectable;             /* exp(t(0.975, df) se) - 1; INFINITY without one */
    int by_runs;                   /* 1: a side's run-to-run spread set the noise */
    int by_history;                /* 1: the earlier runs' spread (run_sd) set it */
    int by_modes;                  /* 1: the sides were compared mode by mode */
    int old_fast, old_blocks;      /* with by_modes: the blocks in the fast mode, of all */
    int new_fast, new_blocks;
} change_est;

/* 0, or -1 when a side has no usable block (est then NaN, detectable INFINITY). */
int change_estimate(const change_run *old, int nold, const change_run *new_runs, int nnew,
                    change_est *est);
/* The same, with the run-to-run noise known from earlier runs: run_sd, the
 * sd of one run's log centre, with run_df degrees of freedom (NaN: not
 * known).  A side's variance is then at least run_sd^2 / its runs. */
int change_estimate_known(const change_run *old, int nold, const change_run *new_runs, int nnew,
                          double run_sd, double run_df, change_est *est);

/* Student's t comes from stats/quantile.h (one owner). */

#endif
