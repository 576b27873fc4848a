/* cpu_trial.h - a trial of a built-in workload on the CPU backend, as the
 * workload tests prepare and run it without the runner. */
#ifndef TESTS_CPU_TRIAL_H
#define TESTS_CPU_TRIAL_H

#include "backend.h"

#include <stdint.h>

/* A CPU trial of `workload` (params: nparams of them, not copied). */
rn_trial cpu_trial(const char *workload, rn_dtype dtype, long long size, int threads, uint64_t seed,
                   const rn_param *params, int nparams);

#endif
