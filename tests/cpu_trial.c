/* cpu_trial.c - see cpu_trial.h. */
#include "cpu_trial.h"

rn_trial cpu_trial(const char *workload, rn_dtype dtype, long long size, int threads, uint64_t seed,
                   const rn_param *params, int nparams)
{
    rn_trial t = {.workload = workload, .device = RN_DEV_CPU, .params = params};
    t.dtype = dtype;
    t.size = size;
    t.threads = threads;
    t.seed = seed;
    t.nparams = nparams;
    return t;
}
