/* trial_peak.h - a finished trial against its device's ceiling
 * (doc/ceilings.md#percent-of-peak): the `pct_of_peak` and `peak_bound`
 * columns. */
#ifndef RUNNER_RUN_TRIAL_PEAK_H
#define RUNNER_RUN_TRIAL_PEAK_H
/* internal header of runner/run/: other folders may not include it */

#include "base/util.h"
#include "results/rundir/result.h"
#include "experiment/config.h"
#include "experiment/machine/ceilings.h"
#include "results/rundir/meta.h"

/* The machine's ceilings for a run (cached, else probed now: notes get a
 * line saying so), recorded in its the run's metadata (rundir); NULL when the probe failed
 * (the run's metadata (rundir) and a note say why). */
ceilings *run_ceilings(meta *m, strbuf *notes);

/* Adds pct_of_peak (achieved throughput as a percent of the ceiling that
 * bounds the trial) and peak_bound (which: "fp32", "bandwidth", ...) to an
 * ok trial whose work is declared, when c has a ceiling for it. */
void trial_add_peak(trial_result *r, const ceilings *c, const experiment *e, long long t);

#endif
