/* guard.h - a small process of the runner's that ends, when the runner
 * ends however it ends (SIGKILL included), the process groups of the
 * programs its workers run (doc/own-code.md#what-the-runner-guarantees):
 * a persistent program dies with its worker (a parent-death signal), but
 * the helpers in its group would not.  The guard is told each group as it
 * starts and ends; when its pipe from the runner reaches end of file (the
 * kernel closes it as the runner dies), it kills the groups it was told of
 * and exits.  It runs only the runner's code, never a user's. */
#ifndef RUNNER_GUARD_H
#define RUNNER_GUARD_H
/* internal header of runner/run/exec/: other folders may not include it */

#include <sys/types.h>

typedef struct guard {
    pid_t pid; /* 0: not started */
    int fd;    /* the runner's end of its pipe */
} guard;

#define GUARD_NONE ((guard){0, -1})

/* Group g is to die with the runner (on: 1) or no longer (on: 0); the
 * guard is started by the first.  Nothing when it cannot be started. */
void guard_watch(guard *G, pid_t g, int on);
/* Ends the guard (the groups it watches are not killed) and reaps it. */
void guard_stop(guard *G);

#endif
