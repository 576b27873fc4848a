/* steady.h - warmup to steady state (doc/timing.md#how-a-trial-is-timed, step
 * 4): untimed rounds of whole batches, run until the time per call has
 * stopped changing or the trial's `warmup_time` is spent. */
#ifndef RUNNER_STEADY_H
#define RUNNER_STEADY_H
/* internal header of runner/run/exec/: other folders may not include it */

#include "backend.h"

/* The least warming, in seconds, of a trial with `threads` threads and the
 * given `warmup_time` on a backend whose table asks for `min_warm` (0: the
 * core's floor): longer when the worker's thread count changes (a pool to
 * start or resize).  Called for every trial a worker runs, in order: it
 * remembers the thread count for the next one. */
double steady_settle(int threads, double warmup_time, double min_warm);

/* Rounds of `batch` calls from `warm_start` (now_seconds()) until steady,
 * at least `settle` and at most `warmup_time` seconds after it.  *calls
 * counts the calls made; *steady is 1 when the last round agreed (or fewer
 * than two rounds fitted), 0 when it gave up; *ratio is the last round's
 * time per call over the fastest's (NAN when not judged).  Returns 0, or a
 * failed call's code with err filled. */
int steady_warm(const rn_workload_impl *impl, void *state, int batch, double warm_start,
                double settle, double warmup_time, double tolerance, long *calls, int *steady,
                double *ratio, rn_error *err);

#endif
