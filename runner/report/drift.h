/* drift.h - how far the machine moved during a run, as its interleaved
 * rounds show it (README "Plots and reports", Drift). */
#ifndef RUNNER_DRIFT_H
#define RUNNER_DRIFT_H

#include "base/util.h"
#include "report/plot_model.h"

/* Appends the Drift paragraph of the report to b when run m (in run_dir) has
 * at least DRIFT_MIN_TRIALS ok interleaved trials with DRIFT_MIN_ROUNDS
 * samples or more: for each round, the median over those trials of the
 * round's sample over its trial's median.  Nothing otherwise (and nothing
 * when the samples table cannot be read: the rest of the report stands). */
void report_drift(strbuf *b, const run_model *m, const char *run_dir);

enum { DRIFT_MIN_TRIALS = 2, DRIFT_MIN_ROUNDS = 3 };

#endif
