/* child.c - see child.h. */
#include "base/child.h"

#include "base/util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void close_pair(int p[2])
{
    if (p[0] >= 0)
        close(p[0]);
    if (p[1] >= 0)
        close(p[1]);
}

int child_start(child *c, int flags, child_fn *fn, void *arg)
{
    int down[2] = {-1, -1}, up[2] = {-1, -1};
    c->pid = 0;
    c->to = c->from = -1;
    c->group = (flags & CHILD_GROUP) != 0;
    if (flags & CHILD_SOCKET) {
        if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, down) < 0)
            return -1;
    } else if (((flags & CHILD_IN) && pipe2(down, O_CLOEXEC) < 0) ||
               ((flags & CHILD_OUT) && pipe2(up, O_CLOEXEC) < 0)) {
        int e = errno;
        close_pair(down);
        errno = e;
        return -1;
    }
    fflush(NULL);
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        int e = errno;
        close_pair(down);
        close_pair(up);
        errno = e;
        return -1;
    }
    if (pid == 0) {
        if (flags & CHILD_TIED) {
            prctl(PR_SET_PDEATHSIG, SIGKILL);
            if (getppid() != parent) /* the runner died before the line above */
                _exit(0);
        }
        if (c->group)
            setpgid(0, 0);
        if (flags & CHILD_SOCKET) {
            close(down[0]);
            fn(arg, down[1], down[1]);
        } else {
            if (down[1] >= 0)
                close(down[1]);
            if (up[0] >= 0)
                close(up[0]);
            fn(arg, down[0], up[1]);
        }
        _exit(0);
    }
    if (c->group)
        setpgid(pid, pid); /* as the child does: no race with a kill(-pid) */
    c->pid = pid;
    if (flags & CHILD_SOCKET) {
        close(down[1]);
        c->to = c->from = down[0];
        return 0;
    }
    if (down[0] >= 0)
        close(down[0]);
    if (up[1] >= 0)
        close(up[1]);
    c->to = down[1];
    c->from = up[0];
    return 0;
}

child child_of(pid_t pid, int group)
{
    return (child){.pid = pid, .to = -1, .from = -1, .group = group};
}

int child_ended(const child *c, double seconds)
{
    siginfo_t si;
    if (seconds < 0) {
        while (waitid(P_PID, (id_t)c->pid, &si, WEXITED | WNOWAIT) < 0 && errno == EINTR)
            ;
        return 1;
    }
    struct timespec t0, t;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (;;) {
        si.si_pid = 0;
        int r = waitid(P_PID, (id_t)c->pid, &si, WEXITED | WNOHANG | WNOWAIT);
        if ((r == 0 && si.si_pid) || (r < 0 && errno != EINTR))
            return 1; /* an error: child_reap says which */
        clock_gettime(CLOCK_MONOTONIC, &t);
        if ((double)(t.tv_sec - t0.tv_sec) + (double)(t.tv_nsec - t0.tv_nsec) * 1e-9 >= seconds)
            return 0;
        struct timespec nap = {0, 1000 * 1000};
        nanosleep(&nap, NULL);
    }
}

void child_kill(const child *c)
{
    if (c->pid <= 0)
        return;
    if (c->group)
        kill(-c->pid, SIGKILL);
    kill(c->pid, SIGKILL);
}

int child_children(pid_t pid, pid_t *out, int max)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/task", (int)pid);
    DIR *d = opendir(path);
    if (!d)
        return -1;
    int n = 0, listed = 0;
    for (struct dirent *e; (e = readdir(d));) {
        if (e->d_name[0] == '.')
            continue;
        char p[128];
        snprintf(p, sizeof p, "/proc/%d/task/%.20s/children", (int)pid, e->d_name);
        FILE *f = fopen(p, "r");
        if (!f)
            continue;
        listed = 1;
        for (int k; n < max && fscanf(f, "%d", &k) == 1;)
            out[n++] = (pid_t)k;
        fclose(f);
    }
    closedir(d);
    return listed ? n : -1;
}

#define TREE_MAX 4096

void child_kill_tree(pid_t pid)
{
    static pid_t found[TREE_MAX];
    int n = 0;
    /* breadth first: the children of found[i] are appended */
    int got = child_children(pid, found, TREE_MAX);
    if (got <= 0)
        return;
    n = got;
    for (int i = 0; i < n; i++)
        kill(found[i], SIGSTOP);
    for (int i = 0; i < n && n < TREE_MAX; i++) {
        int more = child_children(found[i], found + n, TREE_MAX - n);
        for (int k = 0; k < more; k++)
            kill(found[n + k], SIGSTOP);
        if (more > 0)
            n += more;
    }
    for (int i = 0; i < n; i++) {
        if (getpgid(found[i]) == found[i] && found[i] != getpgrp())
            kill(-found[i], SIGKILL);
        kill(found[i], SIGKILL);
    }
}

void child_close(child *c)
{
    if (c->to >= 0)
        close(c->to);
    if (c->from >= 0 && c->from != c->to)
        close(c->from);
    c->to = c->from = -1;
}

int child_reap(child *c, int *status)
{
    int st = 0;
    pid_t w;
    while ((w = waitpid(c->pid, &st, 0)) < 0 && errno == EINTR)
        ;
    c->pid = 0;
    if (status)
        *status = st;
    return w < 0 ? -1 : 0;
}

char *child_output(child *c, int *status)
{
    strbuf b = {0};
    sb_puts(&b, "");
    char buf[4096];
    ssize_t n;
    while ((n = read(c->from, buf, sizeof buf)) > 0 || (n < 0 && errno == EINTR))
        if (n > 0)
            sb_putn(&b, buf, (size_t)n);
    child_close(c);
    child_reap(c, status);
    return sb_take(&b);
}

void child_describe(int status, char *why, size_t len)
{
    if (WIFSIGNALED(status))
        snprintf(why, len, "signal %d (%s)", WTERMSIG(status), strsignal(WTERMSIG(status)));
    else if (WIFEXITED(status))
        snprintf(why, len, "exit status %d", WEXITSTATUS(status));
    else
        snprintf(why, len, "ended");
}
