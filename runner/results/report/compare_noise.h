/* compare_noise.h - the noise of one row of a comparison and the smallest
 * change it could have detected (doc/compare.md#what-one-run-can-show):
 * from the worker blocks of its runs (stats/change.h), or, for runs without
 * them, from consecutive cuts of their samples.  Library code. */
#ifndef RUNNER_COMPARE_NOISE_H
#define RUNNER_COMPARE_NOISE_H
/* internal header of runner/results/report/: other folders may not include it */

#include "results/report/compare_types.h"

/* Sets c->detectable and c->basis, the sides' clocks, and where every ok
 * run of both sides has worker blocks, the sides' centres, the ratio and
 * the p-value from them (replacing the U test's). */
void compare_row_noise(const compare_report *R, compare_row *c);

/* 1 when c was judged from worker blocks (basis blocks, runs, history or
 * modes), 0 for the U test over per-run medians or cuts. */
int compare_row_by_workers(const compare_row *c);

/* The clock tolerance: two sides whose CPUs' measured speeds differ by more
 * than this or the detectable change, whichever is larger, cannot say
 * `same` (doc/compare.md#what-one-run-can-show). */
#define COMPARE_CLOCK_TOL 0.05

/* After the verdict: `inconclusive` (c->why says why) when no change was
 * seen but the detectable change is above the threshold, or when the
 * sides' clocks differ by more than the detectable change (or explain a
 * slower or faster verdict). */
void compare_row_settle(const compare_report *R, compare_row *c);

/* The fewest trials compared by worker blocks whose common factor is judged. */
#define COMPARE_SHIFT_MIN_TRIALS 3

/* How far apart trials that moved with the machine may be: in the phases
 * bench/aa.sh saw on the 2-vCPU VM every trial of a run moved together,
 * each by 1.3 to 1.8x (bench/NOTES-compare.md#machine-wide-phases). */
#define COMPARE_SHIFT_SPREAD 1.5

/* After every verdict, with one run a side: where the trials compared by worker blocks (at least
 * COMPARE_SHIFT_MIN_TRIALS) moved by a common factor (the median of their
 * ratios) beyond the threshold, each `slower` or `faster` trial in its
 * direction and within COMPARE_SHIFT_SPREAD of it becomes `inconclusive`
 * (c->why says the factor), and R's notes say so: a shared VM moves every
 * trial of a run at once for seconds (doc/compare.md#what-one-run-can-show). */
void compare_common_shift(compare_report *R);

#endif
