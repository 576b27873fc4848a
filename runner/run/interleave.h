/* interleave.h - the trials with `order: interleaved`, measured together
 * after the sequential ones (doc/timing.md#how-a-trial-is-timed).  Internal to
 * runner/run/. */
#ifndef RUNNER_RUN_INTERLEAVE_H
#define RUNNER_RUN_INTERLEAVE_H
/* internal header of runner/run/: other folders may not include it */

#include "run/exec/supervisor.h"
#include "run/finish.h"

/* Runs the interleaved trials not done yet, round by round, each finished
 * (run_finish_trial) once it has all its samples or a round failed. */
void run_interleaved(run_state *st, supervisor *S);

#endif
