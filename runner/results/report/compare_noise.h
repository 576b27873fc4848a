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

/* The clock tolerance: two sides whose CPUs' measured speeds differ by more
 * than this or the detectable change, whichever is larger, cannot say
 * `same` (doc/compare.md#what-one-run-can-show). */
#define COMPARE_CLOCK_TOL 0.05

/* After the verdict: `inconclusive` (c->why says why) when no change was
 * seen but the detectable change is above the threshold, or when the
 * sides' clocks differ by more than the detectable change (or explain a
 * slower or faster verdict). */
void compare_row_settle(const compare_report *R, compare_row *c);

#endif
