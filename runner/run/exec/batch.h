/* batch.h - batches of calls: `batch: auto` (doc/timing.md#batching): the
 * clock's cost and resolution, measured once per process, the shortest
 * sample they allow, and the batch of calls grown until one batch lasts
 * that long and at least the experiment's `sample_time`; and a batch whose
 * calls report device times, averaged over the batch. */
#ifndef RUNNER_BATCH_H
#define RUNNER_BATCH_H
/* internal header of runner/run/exec/: other folders may not include it */

#include "backend.h"

/* The shortest sample: 1000x the clock's resolution and 100x its cost
 * (google/benchmark grows iterations the same way), so the clock's tick and
 * its cost are each at most 0.1 % and 1 % of a sample. */
double sample_target(void);

/* Who hears of each batch before its calls run (rn_backend.batch_begin,
 * doc/timing.md#how-a-trial-is-timed, step 6): the batch probe and the
 * steady rounds announce theirs as the samples do, so that a backend that
 * times a batch as one (CUDA's io: without) runs their calls back to back
 * as it runs a sample's, and the batch is sized and judged steady in the
 * regime the samples measure.  fn NULL: no one. */
typedef struct batch_announce {
    void (*fn)(const rn_trial *t, int calls);
    const rn_trial *t;
} batch_announce;

static inline void batch_announced(const batch_announce *a, int calls)
{
    if (a && a->fn)
        a->fn(a->t, calls);
}

/* The whole batch, `start` calls at first, is timed, and grown
 * (batch_grow) until one batch lasts the larger of sample_target() and
 * sample_time (seconds): each probe re-times the batch it would use, so
 * the choice rests on a measured batch, not on one call scaled up.  It
 * never shrinks: a batch chosen while the calls were cold is grown from
 * by a second probe once they are warm.  Returns the batch; on a failed
 * call *rc is its code (err filled) and the return is 1.  *calls counts
 * the calls made. */
int choose_batch(const rn_workload_impl *impl, void *state, int start, double sample_time,
                 const batch_announce *ann, rn_error *err, int *rc, long *calls);

/* 1 when a call's sample carries a device time or a phase (h2d, compute,
 * d2h). */
int sample_has_device(const rn_sample *s);

/* One sample's `batch` calls of run() (doc/timing.md#how-a-trial-is-timed,
 * step 6), the plain loop: 0, or the failed call's code (err filled) after
 * which no call runs. */
int batch_run(const rn_workload_impl *impl, void *state, int batch, rn_sample *s,
              rn_error *err);

/* One sample's `batch` calls (doc/timing.md#how-a-trial-is-timed, step 6),
 * with their device time and phases averaged: each call writes its own
 * into the sample, so the sample keeps the mean over the calls that
 * reported each (NAN where none did), as its wall time is the batch's
 * over its calls.  For workloads that report them: the plain loop costs a
 * CPU call of 2 ns nothing more.  Returns 0, or the failed call's code
 * (err filled) after which no call runs. */
int batch_run_device(const rn_workload_impl *impl, void *state, int batch, rn_sample *s,
                     rn_error *err);

#endif
