/* cmd_call.c - see cmd_call.h. */
#include "run/exec/cmd_call.h"

#include "base/util.h"
#include "run/exec/cmd_proto.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* Until pid has ended (not reaped: its group id stays its own).  With its
 * pidfd, the pidfd polls readable the moment the kernel would wake a
 * waitpid, and meanwhile its stderr is kept to its tail (cmd_err_trim). */
static void until_ended(pid_t pid, int pfd, int errfd)
{
    struct pollfd pf = {pfd, POLLIN, 0};
    int r = 0;
    while (pfd >= 0 && ((r = poll(&pf, 1, 100)) == 0 || (r < 0 && errno == EINTR)))
        if (r == 0)
            cmd_err_trim(errfd);
    if (pfd >= 0 && r > 0)
        return;
    siginfo_t si;
    while (waitid(P_PID, (id_t)pid, &si, WEXITED | WNOWAIT) < 0 && errno == EINTR)
        ;
}

int cmd_call_run(const cmd_launch *l, const cmd_callenv *c, cmd_tell_fn tell, const char *what,
                 double *secs, rn_error *err)
{
    if (ftruncate(c->err, 0) < 0) { /* this run's stderr only */
        snprintf(err->msg, sizeof err->msg, "cannot reset the program's stderr");
        return -1;
    }
    /* Inside the interval: the start (cmd_spawn_call's child does only what
     * must be its own) and the wait for the end, as hyperfine's.  The rest
     * runs while the program does (telling its group, opening its pidfd)
     * or after the clock (killing what it left in its group, reaping it). */
    double t0 = now_seconds();
    pid_t pid = cmd_spawn_call(l, c);
    int e = errno;
    if (pid < 0) {
        *secs = now_seconds() - t0;
        snprintf(err->msg, sizeof err->msg, "cannot run %s: %s", l->path, strerror(e));
        return -1;
    }
    tell(pid);
    int pfd = cmd_pidfd(pid);
    until_ended(pid, pfd, c->err);
    *secs = now_seconds() - t0;
    if (pfd >= 0)
        close(pfd);
    int st = cmd_wait(pid);
    tell(0);
    if (st != 0) {
        char how[160], tail[700];
        cmd_status_text(st, how, sizeof how);
        cmd_err_tail(c->err, tail, sizeof tail);
        snprintf(err->msg, sizeof err->msg, "%s %s%s%s", what, how, *tail ? "; stderr: " : "",
                 tail);
        return -1;
    }
    return 0;
}
