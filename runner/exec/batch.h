/* batch.h - `batch: auto` (README "Batching"): the clock's cost and
 * resolution, measured once per process, the shortest sample they allow,
 * and the batch of calls grown until one batch lasts that long and at
 * least the experiment's `sample_time`. */
#ifndef RUNNER_BATCH_H
#define RUNNER_BATCH_H

#include "backend.h"

/* The shortest sample: 1000x the clock's resolution and 100x its cost
 * (google/benchmark grows iterations the same way), so the clock's tick and
 * its cost are each at most 0.1 % and 1 % of a sample. */
double sample_target(void);

/* The whole batch, `start` calls at first, is timed, and grown
 * (batch_grow) until one batch lasts the larger of sample_target() and
 * sample_time (seconds): each probe re-times the batch it would use, so
 * the choice rests on a measured batch, not on one call scaled up.  It
 * never shrinks: a batch chosen while the calls were cold is grown from
 * by a second probe once they are warm.  Returns the batch; on a failed
 * call *rc is its code (err filled) and the return is 1.  *calls counts
 * the calls made. */
int choose_batch(const rn_workload_impl *impl, void *state, int start, double sample_time,
                 rn_error *err, int *rc, long *calls);

#endif
