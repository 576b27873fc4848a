/* worker.h - the process that runs trials.  It reads trial indices from
 * `cmd_fd` and streams samples and a final status to `res_fd`; a crash or a
 * hang in a trial takes down this process only (see supervisor.c). */
#ifndef RUNNER_WORKER_H
#define RUNNER_WORKER_H
/* internal header of runner/run/exec/: other folders may not include it */

#include "experiment/config.h"
#include "run/exec/proto.h"

void worker_main(const experiment *e, int cmd_fd, int res_fd);

/* Runs a trial of e in this process, reporting to res_fd. */
void worker_run_trial(const experiment *e, const worker_cmd *cmd, int res_fd);

#endif
