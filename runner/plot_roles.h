/* plot_roles.h - what each column of a run is to its findings and tables
 * (README "Plots and reports"): a swept key is a configuration (how the work
 * is done) or not (an amount of work, or a measurement setting); a column
 * after `gbps` that the runner does not write itself is a workload's or a
 * hook's own column. */
#ifndef RUNNER_PLOT_ROLES_H
#define RUNNER_PLOT_ROLES_H

#include "plot_model.h"

/* Is the key column `col` a configuration?  Yes for the workload, device,
 * threads, io, dtype, batch, affinity and cold_cache, for a linked axis and
 * the keys it sets, and for a workload parameter whose values are not
 * numbers (fused: true, math: tf32); no for size, the other run keys
 * (repeats, warmups, timeout, seed) and a workload parameter whose values
 * are numbers (iters, length, depth): amounts of work. */
int pm_is_config(const run_model *m, int col);

/* The speedup charts of the obvious baselines a run has (README "Plots and
 * reports"): `threads: 1` when threads is swept over 1 and another value
 * among the ok trials, `fused: false` likewise; x is pm_default_x, else
 * the baseline's key.  Returns their number. */
int pm_obvious_baselines(const run_model *m, chart_spec **out);

/* Is column `col` one that a workload or a hooks file added (README
 * "Results": after gbps, and none of the runner's own: device_*, cold_*,
 * the measurement-quality and warmup columns)? */
int pm_is_extra_col(const run_model *m, int col);

#endif
