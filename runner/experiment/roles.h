/* roles.h - what a column of the trials table is to the findings and the
 * tables (doc/results.md#plots-and-reports): a swept key is a configuration (how
 * the work is done) or not (an amount of work, or a measurement setting); a
 * column after `gbps` that the runner does not write itself is a workload's
 * or a hook's own column.  By the column's name (and whether its values are
 * numbers), so that the plot specs of a file can be checked before any run
 * (plots_check.h) and a run's findings drawn from it. */
#ifndef RUNNER_ROLES_H
#define RUNNER_ROLES_H
/* public header of runner/experiment/ */

/* Is the key `name` a configuration?  Yes for the workload, device,
 * threads, io, dtype, batch, affinity, cold_cache, parallel, share and
 * spawn, for a linked axis and the keys it sets (`linked`), and for a
 * workload parameter whose values are not numbers (fused: true, math:
 * tf32); no for size, the other run keys (repeats, warmups, timeout, seed,
 * warmup_curve, order) and a workload parameter whose
 * values are numbers (`numeric`: iters, length, depth), amounts of work. */
int column_is_config(const char *name, int numeric, int linked);

/* Is a column after `gbps` named `name` a workload's or a hook's own
 * (doc/results.md#results), not one of the runner's: device_*, cold_*, the
 * measurement-quality and warmup columns? */
int column_is_extra(const char *name);

#endif
