/* plausible.h - what a workload reports about its own calls, checked before
 * it becomes a cell (doc/own-code.md#what-the-runner-guarantees): a device
 * time or phase must be finite and not negative (NAN: not reported), the
 * work of a call finite and not negative, and the throughput they make with
 * a sample's time possible on a device (at most PLAUSIBLE_MAX_RATE flop/s or
 * bytes/s).  A plugin's negative device time read as a median of -1 ms,
 * and a work count that overflowed as -4e8 GFLOP/s; such a trial now fails
 * with the reason. */
#ifndef RUNNER_EXEC_PLAUSIBLE_H
#define RUNNER_EXEC_PLAUSIBLE_H
/* internal header of runner/run/exec/: other folders may not include it */

#include "backend.h"

#include <stddef.h>

/* 10^18 flop/s or bytes/s in one call: a thousand times the fastest single
 * device's dense peak (an H200's FP8, 2e15 flop/s), so that only a count
 * that overflowed or a clock that lied reaches it. */
#define PLAUSIBLE_MAX_RATE 1e18

/* The work of one call (counts[0] flops, counts[1] bytes; NAN: unknown):
 * 0 when each is NAN or finite and >= 0, else -1 with why filled. */
int plausible_work(const double counts[2], char *why, size_t len);

/* A sample (s->seconds the wall time of one call, the device times the
 * batch's mean per call) with the work of one call: 0 when its times are
 * finite and not negative (NAN: not reported) and the throughput is
 * possible, else -1 with why filled. */
int plausible_sample(const rn_sample *s, const double counts[2], char *why, size_t len);

#endif
