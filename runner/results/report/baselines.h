/* baselines.h - the speedups a run's findings look for without a
 * `speedup` chart in its file (doc/results.md#plots-and-reports). */
#ifndef RUNNER_BASELINES_H
#define RUNNER_BASELINES_H
/* internal header of runner/results/report/: other folders may not include it */

#include "results/report/plot_model.h"

/* Speedup charts against the obvious baselines of a run: `threads: 1` when
 * threads is swept over 1 and another value among the ok trials, and
 * `fused: false` likewise; x is pm_default_x, else the baseline's key.
 * Returns their number; *out is malloc'd (chart_spec_free each). */
int pm_obvious_baselines(const run_model *m, chart_spec **out);

#endif
