/* cmd_program.h - the user's program of `workload: command`
 * (doc/own-code.md#how-the-program-runs): started with an argument vector
 * (never a shell) in a process group of its own, stdin and stdout on
 * /dev/null, stderr kept in memory for a failed trial's reason; ended with
 * its whole group.  Library code: it prints nothing. */
#ifndef RUNNER_CMD_PROGRAM_H
#define RUNNER_CMD_PROGRAM_H
/* internal header of runner/run/exec/: other folders may not include it */

#include <signal.h>
#include <stddef.h>
#include <sys/types.h>

typedef struct cmd_launch {
    char *path;  /* the program's file */
    char **argv; /* NULL-terminated, placeholders replaced */
    char **envp; /* the whole environment */
    char *cwd;
} cmd_launch;

void cmd_launch_free(cmd_launch *l);

/* A file in memory for the program's stderr (append mode); -1 on error. */
int cmd_errfile(void);
/* The last lines of what the program wrote to stderr, joined by " | ",
 * made safe to print (at most len - 1 bytes); "" when it wrote nothing. */
void cmd_err_tail(int errfd, char *out, size_t len);
/* What a program wrote to stderr is kept to its last CMD_ERR_KEEP bytes
 * (doc/own-code.md#what-the-runner-guarantees): cmd_err_trim frees the
 * memory of what is before them once the file holds CMD_ERR_TRIM. */
#define CMD_ERR_KEEP (64 << 10)
#define CMD_ERR_TRIM (1 << 20)
void cmd_err_trim(int errfd);
/* "exited with status 3", "was killed by signal 11 (Segmentation fault)" */
void cmd_status_text(int status, char *out, size_t len);

/* The persistent program: forked, its group's leader, killed if the worker
 * dies; the requests on its fd 3 and the replies from its fd 4
 * ($RUNNER_PROTOCOL_FDS says so).  Its pid, with the runner's ends in *to
 * and *from; -1 with err filled. */
pid_t cmd_start_persistent(const cmd_launch *l, int errfd, int *to, int *from, char *err,
                           size_t errlen);

/* What the per_call runs of a trial share, made before the first one is
 * timed (doc/own-code.md#per_call): the child of cmd_spawn_call only puts
 * these fds in place and resets these signals before it execs, so that the
 * timed interval holds what hyperfine's holds, the start of the program,
 * and not the worker's look-ups (a sigaction per signal, two opens). */
typedef struct cmd_callenv {
    int err;               /* the runs' stderr (cmd_errfile) */
    int null_in, null_out; /* /dev/null, close-on-exec, above fd 2 */
    sigset_t reset;        /* the worker's handled signals, SIGINT and SIGPIPE: SIG_DFL in the program */
} cmd_callenv;

/* 0, or -1 with errno set (nothing is left open). */
int cmd_callenv_open(cmd_callenv *c);
void cmd_callenv_close(cmd_callenv *c);

/* One run of a per_call program (a group of its own, killed if the worker
 * dies), its stderr on c->err: its pid, or -1 with errno set. */
pid_t cmd_spawn_call(const cmd_launch *l, const cmd_callenv *c);

/* The worker that runs programs (doc/own-code.md#what-the-runner-guarantees):
 * its /proc entries are closed to them (not dumpable: no program opens its
 * pipe to the runner through /proc/PPID/fd).  Once per worker. */
void cmd_guard_worker(void);
/* Kills and reaps every child of the worker but `keep` (0: none): what
 * the trial's processes left running, and what the worker adopted (it is
 * a subreaper: a daemon whose parent ended becomes its child, not init's),
 * with the groups they lead.  After every trial: a worker without children
 * pays one system call. */
void cmd_sweep(pid_t keep);
/* The worker, as the runner dies (SIGKILL included), ends every process it
 * adopted or started (a daemon a trial left, its kept program) before it
 * dies itself: a parent-death signal of its own instead of SIGKILL
 * (doc/own-code.md#what-the-runner-guarantees). */
void cmd_sweep_on_runner_death(void);

/* Waits for pid: its wait status, or -1. */
int cmd_wait(pid_t pid);

/* Ends a persistent program: closes `to` (end of file: it exits by itself),
 * waits up to `grace` seconds, then kills its group; reaps it.  Its wait
 * status, or -1; *killed (may be NULL) says whether the runner killed it. */
int cmd_stop(pid_t pid, int to, double grace, int *killed);

#endif
