/* procs.h - `parallel: processes` (doc/timing.md#processes-and-threads): a
 * trial's work in N processes of one thread each, forked by the trial's
 * worker (so they are in its process group: the supervisor's timeout and
 * its end kill them with it).  Each prepares its part of the work (`share:
 * split`: `size`, or matmul's rows, divided as evenly as whole numbers
 * allow) or the whole (`share: replicate`), then waits for calls.  A call
 * starts every process on a barrier in shared memory and lasts from the
 * barrier to the last process's finish.  Start-up (fork, and each
 * process's prepare: allocation and inputs) is timed apart.  A process
 * that crashes fails its trial, not the worker; so does a Lua workload's
 * teardown that fails in a process. */
#ifndef RUNNER_PROCS_H
#define RUNNER_PROCS_H
/* internal header of runner/run/exec/: other folders may not include it */

#include "backend.h"
#include "run/exec/procs_child.h" /* procs_spec */
#include "experiment/trial.h"
#include "experiment/registry/workloads.h"

/* Why trial r cannot run as asked (a skip reason), or NULL: processes on
 * a GPU, for `concurrent`, with cold_cache; replicate or per_call without
 * processes. */
const char *procs_refusal(const resolved_trial *r, const workload_desc *desc);

/* The workload that runs `spec` (one trial at a time: the spec is kept
 * until the next call). */
const rn_workload_impl *procs_workload(const procs_spec *spec);
extern const rn_workload_impl core_processes;

#endif
