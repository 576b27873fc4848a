/* cmd_launch.h - what one trial of `workload: command` starts
 * (doc/own-code.md#the-experiment-file): its placeholders replaced, the
 * program found (a path relative to the experiment file, or on PATH), its
 * environment (the runner's, PYTHONPATH with the project's python/ folder
 * first, the file's env:, the protocol's fds) and its folder; and the
 * trial's parameters as the protocol's setup sends them. */
#ifndef RUNNER_CMD_LAUNCH_H
#define RUNNER_CMD_LAUNCH_H
/* internal header of runner/run/exec/: other folders may not include it */

#include "run/exec/cmd_program.h"
#include "experiment/trial.h"

#include <json-c/json.h>

/* 0 with l filled and *key (malloc'd) naming what was started: program,
 * arguments, env, folder and device (a persistent program is kept while
 * its key stays); -1 with err filled. */
int cmd_launch_build(const experiment *e, long long trial, const resolved_trial *r,
                     cmd_launch *l, char **key, char *err, size_t errlen);

/* The same for the file's `prepare` command (doc/own-code.md#per_call): its
 * words, in the program's environment and folder.  0, or -1 with err. */
int cmd_launch_prepare(const experiment *e, long long trial, const resolved_trial *r,
                       cmd_launch *l, char *err, size_t errlen);

/* Every value of the trial (its columns, `threads` resolved, device_index)
 * as a JSON object (the caller owns it). */
json_object *cmd_trial_params(const experiment *e, long long trial, const resolved_trial *r);

#endif
