/* trial_impl.h - which implementation a trial runs on its backend: a Lua
 * file's, a plugin's (doc/own-code-plugins.md#a-plugin: the library loaded
 * here, in the worker) or the backend's own for a built-in workload. */
#ifndef RUNNER_TRIAL_IMPL_H
#define RUNNER_TRIAL_IMPL_H
/* internal header of runner/run/exec/: other folders may not include it */

#include "backend.h"
#include "experiment/trial.h"
#include "experiment/experiment.h"
#include "experiment/registry/workloads.h"

#include <stddef.h>

/* The implementation of r's workload on backend b (desc: its registry
 * entry, NULL for lua: and plugin:), with its required functions; NULL
 * when there is none, with why and *failed (0: the trial is skipped, 1: it
 * failed, as for a plugin without the workload it names). */
const rn_workload_impl *trial_impl(const experiment *e, const resolved_trial *r,
                                   const rn_backend *b, const workload_desc *desc, int *failed,
                                   char *why, size_t len);

#endif
