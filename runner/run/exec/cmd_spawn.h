/* cmd_spawn.h - the start of an empty program (`true`) timed the way a
 * `per_call` program is started: spawn_seconds, and with subtract_spawn one
 * start beside every call (doc/own-code.md#per_call).  Internal to
 * runner/run/exec/. */
#ifndef RUNNER_CMD_SPAWN_H
#define RUNNER_CMD_SPAWN_H
/* internal header of runner/run/exec/: other folders may not include it */

#include "backend.h"
#include "run/exec/cmd_program.h"
#include "stats/series.h"

/* How a call is run and timed (the per_call workload's own). */
typedef int (*cmd_call_fn)(const cmd_launch *l, const cmd_callenv *c, double *secs,
                           rn_error *err);

/* n starts of `true` in the folder and environment of `like`, each time
 * added to *sp; the first ever (*true_path still NULL: it is looked up
 * then) warms the path and is not kept.  0, or -1 with err set. */
int cmd_spawn_time(series *sp, char **true_path, const cmd_launch *like, const cmd_callenv *c,
                   int n, cmd_call_fn call, rn_error *err);

#endif
