/* cmd_program.c - see cmd_program.h. */
#include "run/exec/cmd_program.h"

#include "base/child.h"
#include "base/util.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define TAIL_LINES 8

void cmd_launch_free(cmd_launch *l)
{
    free(l->path);
    for (char **p = l->argv; p && *p; p++)
        free(*p);
    for (char **p = l->envp; p && *p; p++)
        free(*p);
    free(l->argv);
    free(l->envp);
    free(l->cwd);
    memset(l, 0, sizeof *l);
}

int cmd_errfile(void)
{
    int fd = memfd_create("runner-program-stderr", MFD_CLOEXEC);
    if (fd >= 0)
        fcntl(fd, F_SETFL, O_APPEND); /* shared with the program: it appends, we pread */
    return fd;
}

void cmd_err_tail(int errfd, char *out, size_t len)
{
    out[0] = '\0';
    off_t size = errfd >= 0 ? lseek(errfd, 0, SEEK_END) : 0;
    if (size <= 0 || len < 8)
        return;
    char buf[4096];
    size_t want = size < (off_t)sizeof buf - 1 ? (size_t)size : sizeof buf - 1;
    ssize_t n = pread(errfd, buf, want, size - (off_t)want);
    if (n <= 0)
        return;
    buf[n] = '\0';
    while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == '\r' || buf[n - 1] == ' '))
        buf[--n] = '\0';
    /* the last TAIL_LINES lines */
    char *start = buf;
    int lines = 0;
    for (char *p = buf + n; p > buf; p--)
        if (p[-1] == '\n' && ++lines == TAIL_LINES) {
            start = p;
            break;
        }
    strbuf b = {0};
    for (char *save, *l = strtok_r(start, "\n", &save); l; l = strtok_r(NULL, "\n", &save))
        if (*l)
            sb_printf(&b, "%s%s", b.len ? " | " : "", l);
    char *s = sb_take(&b);
    sanitize_text(s);
    snprintf(out, len, "%s", s);
    free(s);
}

void cmd_status_text(int st, char *out, size_t len)
{
    if (st < 0)
        snprintf(out, len, "ended (its status is unknown)");
    else if (WIFSIGNALED(st))
        snprintf(out, len, "was killed by signal %d (%s)", WTERMSIG(st), strsignal(WTERMSIG(st)));
    else
        snprintf(out, len, "exited with status %d", WEXITSTATUS(st));
}

/* dup2 to a fixed fd in the child, where from may already be that fd */
static int place(int from, int to)
{
    if (from == to)
        return fcntl(to, F_SETFD, 0);
    return dup2(from, to) < 0 ? -1 : 0;
}

/* What the persistent program's child does (child_start): its fds set, it
 * becomes the program. */
typedef struct persistent_start {
    const cmd_launch *l;
    int errfd;
} persistent_start;

static void exec_persistent(void *arg, int in, int out)
{
    const persistent_start *ps = arg;
    const cmd_launch *l = ps->l;
    /* above the fds the child sets (0-4), so that no dup2 overwrites one */
    int r = fcntl(in, F_DUPFD_CLOEXEC, 10), w = fcntl(out, F_DUPFD_CLOEXEC, 10);
    int e = fcntl(ps->errfd, F_DUPFD_CLOEXEC, 10);
    int devnull = open("/dev/null", O_RDWR | O_CLOEXEC);
    if (r < 0 || w < 0 || e < 0 || devnull < 0 || place(devnull, 0) < 0 ||
        place(devnull, 1) < 0 || place(e, 2) < 0 || place(r, 3) < 0 || place(w, 4) < 0)
        _exit(127);
    signal(SIGPIPE, SIG_DFL);
    signal(SIGINT, SIG_DFL);
    if (l->cwd && chdir(l->cwd) < 0) {
        dprintf(2, "runner: cannot enter %s: %s\n", l->cwd, strerror(errno));
        _exit(127);
    }
    execve(l->path, l->argv, l->envp);
    dprintf(2, "runner: cannot run %s: %s\n", l->path, strerror(errno));
    _exit(127);
}

pid_t cmd_start_persistent(const cmd_launch *l, int errfd, int *to, int *from, char *err,
                           size_t errlen)
{
    persistent_start ps = {l, errfd};
    child c;
    /* its group's leader, killed if the worker dies (doc/own-code.md#how-the-program-runs) */
    if (child_start(&c, CHILD_IN | CHILD_OUT | CHILD_GROUP | CHILD_TIED, exec_persistent, &ps) <
        0) {
        snprintf(err, errlen, "cannot start the program: %s", strerror(errno));
        return -1;
    }
    *to = c.to;
    *from = c.from;
    return c.pid;
}

pid_t cmd_spawn_call(const cmd_launch *l, int errfd)
{
    posix_spawn_file_actions_t fa;
    posix_spawnattr_t at;
    posix_spawn_file_actions_init(&fa);
    posix_spawnattr_init(&at);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_adddup2(&fa, errfd, 2);
    if (l->cwd)
        posix_spawn_file_actions_addchdir_np(&fa, l->cwd);
    sigset_t none;
    sigemptyset(&none);
    posix_spawnattr_setsigmask(&at, &none);
    sigset_t dfl;
    sigemptyset(&dfl);
    sigaddset(&dfl, SIGPIPE);
    sigaddset(&dfl, SIGINT);
    posix_spawnattr_setsigdefault(&at, &dfl);
    posix_spawnattr_setpgroup(&at, 0);
    posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK |
                                      POSIX_SPAWN_SETSIGDEF);
    pid_t pid;
    int rc = posix_spawn(&pid, l->path, &fa, &at, l->argv, l->envp);
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&at);
    if (rc != 0) {
        errno = rc;
        return -1;
    }
    return pid;
}

int cmd_wait(pid_t pid)
{
    /* ended, not yet reaped: its group id cannot be reused, so what it
     * left running in its group is ended with it */
    child c = child_of(pid, 1);
    child_ended(&c, -1);
    child_kill(&c);
    int st;
    return child_reap(&c, &st) < 0 ? -1 : st;
}

int cmd_stop(pid_t pid, int to, double grace)
{
    if (to >= 0)
        close(to);
    if (pid <= 0)
        return -1;
    child c = child_of(pid, 1);
    if (!child_ended(&c, grace))
        child_kill(&c);
    return cmd_wait(pid);
}
