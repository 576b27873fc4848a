/* trial_extras.h - the columns the runner adds to a finished trial
 * (doc/results.md#results): `noise` and the load columns (doc/timing.md#measurement-quality),
 * and an `order: interleaved` trial's rounds folded into one result
 * (doc/timing.md#how-a-trial-is-timed). */
#ifndef RUNNER_RUN_TRIAL_EXTRAS_H
#define RUNNER_RUN_TRIAL_EXTRAS_H
/* internal header of runner/run/: other folders may not include it */

#include "results/rundir/result.h"

/* The value of extra column `key` of r (the last one set), or NULL. */
const char *trial_extra(const trial_result *r, const char *key);

/* Adds the `noise` column to an ok trial worth a second look: its spread,
 * outliers, stalls, two modes, a stop rule that gave up before `rse_target`,
 * an unsteady warmup, a busy or throttled machine. */
void trial_flag_noise(trial_result *r, double rse_target);

/* Adds `load_avg`, `steal`, `other_cpu`, `cpu_mhz`, `cpu_max_mhz` from the
 * load measured while a worker ran the trial. */
void trial_record_load(trial_result *r);

/* Folds round `round` (from 0) of an interleaved trial into its result a:
 * the samples appended, the load summed, `cold` the first round's,
 * warmup_calls and warmup_time summed, warmup_unsteady the largest; the
 * status, reason and other extras the last round's.  r keeps its memory. */
void trial_add_round(trial_result *a, trial_result *r, int round);

#endif
