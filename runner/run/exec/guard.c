/* guard.c - see guard.h. */
#include "run/exec/guard.h"

#include "base/util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <signal.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define GUARD_MAX 1024

/* The guard's life: read groups until end of file, then kill them. */
static void guard_main(int in)
{
    static pid_t groups[GUARD_MAX];
    int n = 0;
    signal(SIGINT, SIG_IGN); /* a Ctrl-C is the runner's to handle */
    signal(SIGHUP, SIG_IGN);
    signal(SIGPIPE, SIG_IGN);
    /* only its pipe: it must not keep a worker's pipe open */
    if (in != 0 && (dup2(in, 0) < 0 || close(in) < 0))
        _exit(1);
#ifdef SYS_close_range
    if (syscall(SYS_close_range, 1u, ~0u, 0u) < 0)
#endif
        for (int fd = 1; fd < 4096; fd++)
            close(fd);
    for (;;) {
        int32_t v;
        ssize_t got = read(0, &v, sizeof v);
        if (got < 0 && errno == EINTR)
            continue;
        if (got != (ssize_t)sizeof v)
            break;
        if (v > 1 && n < GUARD_MAX) {
            groups[n++] = (pid_t)v;
        } else if (v < -1) {
            for (int i = 0; i < n; i++)
                if (groups[i] == (pid_t)-v) {
                    groups[i] = groups[--n];
                    break;
                }
        } else if (v == 0) { /* guard_stop: the runner ended them */
            _exit(0);
        }
    }
    for (int i = 0; i < n; i++)
        kill(-groups[i], SIGKILL);
    _exit(0);
}

static int guard_start(guard *G)
{
    int p[2];
    if (pipe2(p, O_CLOEXEC) < 0)
        return -1;
    fflush(NULL); /* nothing buffered is written twice */
    pid_t pid = fork();
    if (pid < 0) {
        close(p[0]);
        close(p[1]);
        return -1;
    }
    if (pid == 0) {
        setpgid(0, 0); /* out of the runner's group: a terminal's signals miss it */
        guard_main(p[0]);
    }
    close(p[0]);
    G->pid = pid;
    G->fd = p[1];
    return 0;
}

void guard_watch(guard *G, pid_t g, int on)
{
    if (g <= 1 || (!on && G->pid <= 0))
        return;
    if (G->pid <= 0 && guard_start(G) < 0)
        return;
    int32_t v = on ? (int32_t)g : -(int32_t)g;
    if (fd_write_all(G->fd, &v, sizeof v) < 0)
        guard_stop(G);
}

void guard_stop(guard *G)
{
    if (G->pid <= 0)
        return;
    int32_t zero = 0;
    fd_write_all(G->fd, &zero, sizeof zero);
    close(G->fd);
    while (waitpid(G->pid, NULL, 0) < 0 && errno == EINTR)
        ;
    *G = GUARD_NONE;
}
