/* spawn.h - running another program: gnuplot (doc/results.md#plots-and-reports)
 * and Slurm's sbatch, squeue, scontrol
 * (doc/slurm.md#running-on-a-slurm-cluster).  One way for all of them: posix_spawnp with an
 * argument vector, never a shell; stdin from /dev/null; its output read through a pipe; killed
 * when it has not ended in time.  Library code: it prints nothing. */
#ifndef RUNNER_SPAWN_H
#define RUNNER_SPAWN_H
/* public header of runner/base/ */

#include <stddef.h>

/* The program `name` stands for: a name with a '/' as it is, else the first
 * regular executable file called `name` in a folder of $PATH
 * ("/usr/local/bin:/usr/bin:/bin" when PATH is unset or empty; empty
 * entries are skipped).  Malloc'd; NULL when there is none. */
char *spawn_find(const char *name);

typedef struct spawn_opts {
    const char *dir;  /* the child's working folder; NULL: ours */
    int with_stderr;  /* its stderr is read with its stdout; else it is ours */
    int own_group;    /* the child leads a process group of its own, and the
                       * whole group is killed at the time limit */
    double timeout;   /* seconds; at most this long, then SIGKILL */
    size_t keep;      /* 0: all of its output is kept; else only the last
                       * `keep` bytes */
} spawn_opts;

typedef struct spawn_result {
    int started;   /* 0: it could not be started (the reason in `error`) */
    int error;     /* errno of the failed start */
    int timed_out; /* killed at the time limit */
    int status;    /* exit status, or 128 + the signal that ended it */
    int signal;    /* that signal, or 0 */
    char *out;     /* what it wrote (see spawn_opts.keep), NUL-terminated; malloc'd */
    size_t len;
} spawn_result;

/* Runs argv[0] (looked up on PATH as posix_spawnp does) with argv and waits
 * for it.  0 when it ran and ended by itself (whatever its status); -1 when
 * it could not be started or was killed at the time limit.  r->out is set
 * either way: free it with spawn_result_free. */
int spawn_run(char *const argv[], const spawn_opts *o, spawn_result *r);
void spawn_result_free(spawn_result *r);

#endif
