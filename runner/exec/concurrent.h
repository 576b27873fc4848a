/* concurrent.h - the `concurrent` workload: several workload specs run at
 * once, each on its own device, whatever their backends.  It lives in the
 * core because it drives other backends' workloads. */
#ifndef RUNNER_CONCURRENT_H
#define RUNNER_CONCURRENT_H

#include "backend.h"

extern const rn_workload_impl core_concurrent;

/* Called by the worker just before the timed calls: the rounds run so far
 * (warmups, batch probes) are dropped from the solo and call times that the
 * speedup is computed from (README "concurrent"). */
void concurrent_timed_begin(void *state);

#endif
