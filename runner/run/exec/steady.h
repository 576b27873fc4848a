/* steady.h - warmup to steady state (doc/timing.md#how-a-trial-is-timed, step
 * 4): untimed rounds of whole batches, run until the time per call has
 * stopped changing or the trial's `warmup_time` is spent. */
#ifndef RUNNER_STEADY_H
#define RUNNER_STEADY_H
/* internal header of runner/run/exec/: other folders may not include it */

#include "backend.h"
#include "run/exec/batch.h"

/* The device and workload a trial warms: a worker's next trial of the same
 * ones may keep their warmth (doc/timing.md#how-a-trial-is-timed, step 4). */
typedef struct steady_key {
    const rn_backend *b;  /* NULL: the core drives the trial's devices (no carry) */
    int device, index;    /* rn_device_kind and its index */
    const char *workload; /* the trial's workload name */
} steady_key;

/* At a trial's start, before its prepare: when the worker's previous trial
 * ran the same key on a backend with a warm_carry and left its device warm
 * (see steady_carry_keep), the time its device calls ended (now_seconds());
 * else NAN.  Forgets that trial either way, so that one which fails before
 * its samples end leaves nothing to the next. */
double steady_carry_take(const steady_key *k);

/* Whether a trial whose warmup starts at warm_start keeps the warmth that
 * steady_carry_take() answered: less than b->warm_carry seconds passed. */
int steady_carries(const rn_backend *b, double prev_end, double warm_start);

/* After a trial's device calls (samples, energy): `warm` when it warmed at
 * least its backend's min_warm, or carried, and `end` the time they ended. */
void steady_carry_keep(const steady_key *k, int warm, double end);

/* The least warming, in seconds, of a trial with `threads` threads and the
 * given `warmup_time` on a backend whose table asks for `min_warm` (0: the
 * core's floor), or the core's floor alone when the trial `carried` its
 * device's warmth: longer when the worker's thread count changes (a pool to
 * start or resize).  Called for every trial a worker runs, in order: it
 * remembers the thread count for the next one. */
double steady_settle(int threads, double warmup_time, double min_warm, int carried);

/* Rounds of `batch` calls from `warm_start` (now_seconds()) until steady,
 * at least `settle` and at most `warmup_time` seconds after it.  *calls
 * counts the calls made; *steady is 1 when the last round agreed (or fewer
 * than two rounds fitted), 0 when it gave up; *ratio is the last round's
 * time per call over the fastest's (NAN when not judged).  Returns 0, or a
 * failed call's code with err filled. */
int steady_warm(const rn_workload_impl *impl, void *state, int batch, const batch_announce *ann,
                double warm_start, double settle, double warmup_time, double tolerance,
                long *calls, int *steady, double *ratio, rn_error *err);

#endif
