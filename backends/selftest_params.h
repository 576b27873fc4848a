/* selftest_params.h - the parameters of the selftest workload, read the same way
 * by every backend (doc/workloads.md#built-in-workloads): `action`, limited
 * to process `in_process` of a `parallel: processes` trial
 * (doc/timing.md#processes-and-threads), and `seconds`.
 *
 * static inline, plain C that also compiles as C++ (nvcc), as verify_tol.h. */
#ifndef BACKENDS_SELFTEST_PARAMS_H
#define BACKENDS_SELFTEST_PARAMS_H

#include <stdio.h>
#include <string.h>

#include "backend.h"

/* Writes the action (len bytes at most; "none" in the processes that
 * in_process leaves out) and the seconds of action: sleep.  0, or
 * RN_PREPARE_SKIP with err for action: skip. */
static inline int rn_selftest_params(const rn_trial *t, char *action, size_t len,
                                     double *seconds, rn_error *err)
{
    snprintf(action, len, "%s", rn_param_text(t, "action", "none"));
    int only = (int)rn_param_num(t, "in_process", 0);
    if (only > 0 && only != (int)rn_param_num(t, "process_index", 0))
        snprintf(action, len, "none");
    *seconds = rn_param_num(t, "seconds", 0.001);
    if (!strcmp(action, "skip")) {
        snprintf(err->msg, sizeof err->msg, "selftest: skipped on purpose");
        return RN_PREPARE_SKIP;
    }
    return 0;
}

#endif
