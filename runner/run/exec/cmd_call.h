/* cmd_call.h - one run of a `per_call` program, timed as hyperfine times a
 * command it starts without a shell (doc/own-code.md#per_call): the clock
 * read just before the start and as soon as the program has ended, and
 * everything else (its group told to the supervisor, what it left running
 * killed, its reaping) done while it runs or after the clock; and the
 * file's `prepare` command, run untimed before a call.  Library code: it
 * prints nothing. */
#ifndef RUNNER_CMD_CALL_H
#define RUNNER_CMD_CALL_H
/* internal header of runner/run/exec/: other folders may not include it */

#include "backend.h"
#include "run/exec/cmd_program.h"

/* Tells the supervisor the process group to kill with the worker at a
 * timeout (0: none); see cmd_workload.c. */
typedef void (*cmd_tell_fn)(pid_t group);

/* One run of l: its time from the start to the end, 0; or -1 with err
 * ("the program exited with status 3; stderr: ...").  `what` names it in
 * the reason ("the program", "the prepare command"). */
int cmd_call_run(const cmd_launch *l, const cmd_callenv *c, cmd_tell_fn tell, const char *what,
                 double *secs, rn_error *err);

#endif
