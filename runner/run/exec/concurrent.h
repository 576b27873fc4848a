/* concurrent.h - the `concurrent` workload: several workload specs run at
 * once, each on its own device, whatever their backends.  It lives in the
 * core because it drives other backends' workloads. */
#ifndef RUNNER_CONCURRENT_H
#define RUNNER_CONCURRENT_H
/* internal header of runner/run/exec/: other folders may not include it */

#include "backend.h"

extern const rn_workload_impl core_concurrent;

#endif
