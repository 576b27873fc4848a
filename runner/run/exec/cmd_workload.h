/* cmd_workload.h - `workload: command` in the worker (doc/own-code.md): the
 * user's program as a workload the timed loop runs like any other.
 * per_call: a call is one run of the program, timed around its start and
 * end (less the cost of starting an empty program with subtract_spawn).
 * persistent: the program is started once per command and device and kept
 * across the worker's trials (restarted after a failed trial, or for each
 * trial with restart: per_trial); a call is one `run` request on the
 * protocol (cmd_proto.h), and the sample is the time the program measured,
 * never longer than the round trip that contained it. */
#ifndef RUNNER_CMD_WORKLOAD_H
#define RUNNER_CMD_WORKLOAD_H
/* internal header of runner/run/exec/: other folders may not include it */

#include "backend.h"
#include "experiment/trial.h"

#include <sys/types.h>

/* The impl: a call's time is its own (the worker takes s.seconds, summed
 * over the batch, not the wall time around the batch). */
extern const rn_workload_impl cmd_workload;
/* What its check() returns when the program, not its result, failed (it
 * ended, or its reply to check broke the protocol): the reason is whole,
 * without the "wrong result: " of a verification that failed. */
#define CMD_CHECK_BROKEN 2

/* Readies the impl for trial `trial` of e (resolved as r); the worker's
 * messages go to res_fd (the program's process group, MSG_GROUP).  NULL
 * with the reason the trial is skipped. */
const rn_workload_impl *cmd_workload_for(const experiment *e, long long trial,
                                         const resolved_trial *r, int res_fd, char *why,
                                         size_t len);

/* The timed loop's batch, when impl is cmd_workload (else nothing): from
 * now until the trial ends, a persistent program gets one `run` request of
 * `batch` calls per sample (its first run() of the sample; the others add
 * nothing), so its calls run back to back and its device is synchronised
 * once, as a built-in workload's batch is timed. */
void cmd_workload_batch(const rn_workload_impl *impl, int batch);

/* The persistent program kept for the next trial (its pid), or 0. */
pid_t cmd_workload_kept(void);

/* Ends the persistent program, if any (the worker is about to exit). */
void cmd_workload_shutdown(void);

#endif
