/* run.h - the run of one experiment, the stage between the command line and
 * the stages it drives (doc/contributing/architecture.md#architecture): its hooks process, its run
 * folder and its meta, every trial in a supervised worker (the sequential
 * ones in trial order, then the interleaved ones round by round:
 * doc/timing.md#how-a-trial-is-timed), each trial finished and saved as it ends, then
 * the charts and the report.  Library code: what it has to say goes to the
 * caller's run_hand, which prints. */
#ifndef RUNNER_RUN_H
#define RUNNER_RUN_H
/* public header of runner/run/ */

#include "experiment/config.h"
#include "run/run_types.h"

/* Runs every trial of e not done yet; fills *out (free with run_outcome_free). */
run_end run_experiment(const experiment *e, const run_opts *o, const run_hand *h,
                       run_outcome *out);
void run_outcome_free(run_outcome *out);

#endif
