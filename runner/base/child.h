/* child.h - a child process of the runner's own, one way for all of them:
 * the worker (run/exec/supervisor.c), the hooks process and the check of a Lua
 * file (experiment/lua/hookproc.c), the processes of `parallel: processes`
 * (run/exec/procs.c), the persistent program of `workload: command`
 * (run/exec/cmd_program.c), the backend facts of
 * a run's meta (results/rundir/meta.c),
 * and the programs spawn.c runs.  Started with its pipes (close-on-exec),
 * maybe in a process group of its own and tied to the runner's life; killed
 * with its group; reaped.  Library code: it prints nothing. */
#ifndef RUNNER_CHILD_H
#define RUNNER_CHILD_H
/* public header of runner/base/ */

#include <stddef.h>
#include <sys/types.h>

enum {
    CHILD_IN = 1,     /* a pipe to the child (to, its `in`) */
    CHILD_OUT = 2,    /* a pipe from the child (from, its `out`) */
    CHILD_SOCKET = 4, /* one socket pair both ways instead (to == from, in == out) */
    CHILD_GROUP = 8,  /* it leads a process group of its own, killed as one: what it
                       * starts (os.execute under --allow-unsafe-lua) goes with it */
    CHILD_TIED = 16,  /* killed when the runner dies, even by SIGKILL */
};

typedef struct child {
    pid_t pid;    /* 0: none */
    int to, from; /* the runner's ends (-1: none) */
    int group;    /* it leads its own process group */
} child;

/* What the child runs, with its ends of the pipes (-1: none); it must not
 * return (it ends with _exit). */
typedef void child_fn(void *arg, int in, int out);

/* Forks a child that runs fn(arg, in, out).  stdio is flushed first, so
 * that nothing buffered is written twice.  0, or -1 with errno (nothing
 * left open). */
int child_start(child *c, int flags, child_fn *fn, void *arg);
/* A child started by other means (posix_spawn), for child_kill/child_reap. */
child child_of(pid_t pid, int group);

/* Waits up to `seconds` (< 0: as long as it takes) for the child to end,
 * without reaping it (its process group id stays its own); 1 when it has
 * ended, 0 when it still runs. */
int child_ended(const child *c, double seconds);
/* SIGKILL to the child and, when it leads one, its process group. */
void child_kill(const child *c);
/* The children of process pid (all its threads'), at most max in out: how
 * many; -1 where the kernel does not list them (no
 * /proc/PID/task/TID/children). */
int child_children(pid_t pid, pid_t *out, int max);
/* SIGKILL to every descendant of pid (not pid itself) and the process
 * groups they lead, found while pid lives: stopped first, so that none
 * forks another while they are looked for.  What left pid's tree before
 * (a daemon adopted by init) is not found. */
void child_kill_tree(pid_t pid);
/* Closes the runner's ends of the pipes that are still open. */
void child_close(child *c);
/* Reaps the child (waitpid); 0 with *status, or -1 with errno.  c->pid is 0
 * after. */
int child_reap(child *c, int *status);
/* Reads what the child writes to its CHILD_OUT pipe until it closes it,
 * then closes the runner's ends and reaps it: the text (malloc'd, never
 * NULL) and, in *status, how it ended. */
char *child_output(child *c, int *status);
/* How a wait status ended: "signal 11 (Segmentation fault)", "exit status 3". */
void child_describe(int status, char *why, size_t len);

#endif
