/* cmd_program.c - see cmd_program.h. */
#include "run/exec/cmd_program.h"

#include "base/child.h"
#include "base/util.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
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

void cmd_err_trim(int errfd)
{
    off_t size = errfd >= 0 ? lseek(errfd, 0, SEEK_END) : 0;
    if (size < CMD_ERR_TRIM)
        return;
    /* a hole where the head was: its memory is freed, the size and the
     * program's appends stay as they are (no race with its writes) */
    off_t cut = (size - CMD_ERR_KEEP) & ~(off_t)4095;
    fallocate(errfd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, 0, cut);
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

int cmd_callenv_open(cmd_callenv *c)
{
    c->err = c->null_in = c->null_out = -1;
    int in = open("/dev/null", O_RDONLY | O_CLOEXEC), out = open("/dev/null", O_WRONLY | O_CLOEXEC);
    int err = cmd_errfile();
    /* above 0-2, so that the child's dup2 to 0-2 always makes a copy (a
     * copy is not close-on-exec) */
    if (in >= 0 && out >= 0 && err >= 0) {
        c->null_in = fcntl(in, F_DUPFD_CLOEXEC, 3);
        c->null_out = fcntl(out, F_DUPFD_CLOEXEC, 3);
        c->err = fcntl(err, F_DUPFD_CLOEXEC, 3);
    }
    int e = errno;
    for (int i = 0; i < 3; i++) {
        int fd = i == 0 ? in : i == 1 ? out : err;
        if (fd >= 0)
            close(fd);
    }
    if (c->null_in < 0 || c->null_out < 0 || c->err < 0) {
        cmd_callenv_close(c);
        errno = e;
        return -1;
    }
    /* the worker's handlers are not the program's: the ones it has now (it
     * sets no other while it runs programs) */
    sigemptyset(&c->reset);
    for (int sig = 1; sig < NSIG; sig++) {
        struct sigaction sa;
        if (sigaction(sig, NULL, &sa) == 0 && sa.sa_handler != SIG_IGN &&
            sa.sa_handler != SIG_DFL)
            sigaddset(&c->reset, sig);
    }
    sigaddset(&c->reset, SIGPIPE);
    sigaddset(&c->reset, SIGINT);
    return 0;
}

void cmd_callenv_close(cmd_callenv *c)
{
    if (c->err >= 0)
        close(c->err);
    if (c->null_in >= 0)
        close(c->null_in);
    if (c->null_out >= 0)
        close(c->null_out);
    c->err = c->null_in = c->null_out = -1;
}

/* What the child of cmd_spawn_call does, sharing the worker's memory until
 * it execs (as posix_spawn's child does, which cannot set a parent-death
 * signal): only system calls, no allocation, no stdio; and only the few
 * that must be the child's own, as each one is inside the timed interval
 * (doc/own-code.md#per_call). */
typedef struct call_start {
    const cmd_launch *l;
    const cmd_callenv *c;
    int err; /* the errno of what failed, for the worker */
} call_start;

static int exec_call(void *arg)
{
    call_start *cs = arg;
    const cmd_launch *l = cs->l;
    const cmd_callenv *c = cs->c;
    /* all signals are blocked until the mask is set below */
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    for (int sig = 1; sig < NSIG; sig++)
        if (sigismember(&c->reset, sig) == 1)
            sigaction(sig, &dfl, NULL);
    /* dies with the worker, which dies with the runner
     * (doc/own-code.md#what-the-runner-guarantees) */
    if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || setpgid(0, 0) < 0)
        goto fail;
    if (dup2(c->null_in, 0) < 0 || dup2(c->null_out, 1) < 0 || dup2(c->err, 2) < 0)
        goto fail;
    if (l->cwd && chdir(l->cwd) < 0)
        goto fail;
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    execve(l->path, l->argv, l->envp);
fail:
    cs->err = errno;
    _exit(127);
}

pid_t cmd_spawn_call(const cmd_launch *l, const cmd_callenv *c)
{
    static char *stack;
    enum { STACK = 256 << 10 };
    if (!stack) {
        stack = mmap(NULL, STACK, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK,
                     -1, 0);
        if (stack == MAP_FAILED) {
            stack = NULL;
            return -1;
        }
    }
    call_start cs = {l, c, 0};
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    /* the parent waits until the child has exec'd or failed */
    pid_t pid = clone(exec_call, stack + STACK, CLONE_VM | CLONE_VFORK | SIGCHLD, &cs);
    int e = errno;
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (pid < 0) {
        errno = e;
        return -1;
    }
    if (cs.err) { /* it could not start the program: reaped, the reason kept */
        waitpid(pid, NULL, 0);
        errno = cs.err;
        return -1;
    }
    return pid;
}

void cmd_guard_worker(void)
{
    static int done;
    if (done)
        return;
    done = 1;
    prctl(PR_SET_DUMPABLE, 0);
}

void cmd_sweep(pid_t keep)
{
    siginfo_t si;
    si.si_pid = 0;
    if (waitid(P_ALL, 0, &si, WEXITED | WNOHANG | WNOWAIT) < 0 && errno == ECHILD)
        return; /* no child at all: one system call a trial */
    pid_t kids[256];
    /* a killed daemon's children are adopted in turn: a few passes */
    for (int pass = 0; pass < 8; pass++) {
        int n = child_children(getpid(), kids, 256), any = 0;
        for (int i = 0; i < n; i++) {
            if (kids[i] == keep)
                continue;
            any = 1;
            if (getpgid(kids[i]) == kids[i])
                kill(-kids[i], SIGKILL);
            kill(kids[i], SIGKILL);
            while (waitpid(kids[i], NULL, 0) < 0 && errno == EINTR)
                ;
        }
        if (!any)
            break;
    }
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

int cmd_stop(pid_t pid, int to, double grace, int *killed)
{
    if (to >= 0)
        close(to);
    if (killed)
        *killed = 0;
    if (pid <= 0)
        return -1;
    child c = child_of(pid, 1);
    if (!child_ended(&c, grace)) {
        child_kill(&c);
        if (killed)
            *killed = 1;
    }
    return cmd_wait(pid);
}

/* The signal the kernel sends the worker when the runner dies. */
#define RUNNER_DEATH_SIG (SIGRTMIN + 3)

/* Only async-signal-safe calls: open, read, kill, _exit (no stdio, no
 * malloc: the signal may land inside either). */
static void swept_by_death(int sig)
{
    (void)sig;
    char path[64] = "/proc/self/task/", buf[4096], num[16];
    /* the main thread's children: the adopted processes are its own */
    int n = 0;
    for (pid_t p = getpid(); p > 0 && n < 15; p /= 10)
        num[n++] = (char)('0' + p % 10);
    size_t at = strlen(path);
    for (int i = n - 1; i >= 0; i--)
        path[at++] = num[i];
    memcpy(path + at, "/children", 10);
    for (int pass = 0; pass < 4; pass++) {
        int fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd < 0)
            break;
        ssize_t len = read(fd, buf, sizeof buf - 1);
        close(fd);
        if (len <= 0)
            break;
        buf[len] = '\0';
        long v = 0;
        for (ssize_t i = 0; i <= len; i++) {
            if (buf[i] >= '0' && buf[i] <= '9')
                v = v * 10 + (buf[i] - '0');
            else if (v > 0) {
                kill(-(pid_t)v, SIGKILL); /* its group, where it leads one */
                kill((pid_t)v, SIGKILL);
                v = 0;
            }
        }
    }
    _exit(1);
}

void cmd_sweep_on_runner_death(void)
{
    pid_t parent = getppid();
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = swept_by_death;
    sigfillset(&sa.sa_mask);
    if (sigaction(RUNNER_DEATH_SIG, &sa, NULL) < 0)
        return; /* the SIGKILL of child.c stays */
    prctl(PR_SET_PDEATHSIG, RUNNER_DEATH_SIG);
    if (getppid() != parent) /* the runner died before the line above */
        swept_by_death(RUNNER_DEATH_SIG);
}
