/* spawn.c - see spawn.h. */
#include "base/spawn.h"

#include "base/child.h"
#include "base/util.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int executable(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

char *spawn_find(const char *name)
{
    if (strchr(name, '/'))
        return executable(name) ? xstrdup(name) : NULL;
    const char *path = getenv("PATH");
    if (!path || !*path)
        path = "/usr/local/bin:/usr/bin:/bin";
    char *found = NULL;
    for (const char *d = path; !found;) {
        size_t n = strcspn(d, ":");
        if (n) { /* empty entries are skipped */
            char *p = xasprintf("%.*s/%s", (int)n, d, name);
            if (executable(p))
                found = p;
            else
                free(p);
        }
        if (!d[n])
            break;
        d += n + 1;
    }
    return found;
}

/* Keeps what the child wrote: all of it, or its last `keep` bytes. */
static void take(strbuf *b, const char *buf, size_t n, size_t keep)
{
    sb_putn(b, buf, n);
    if (keep && b->len > keep) {
        size_t drop = b->len - keep;
        memmove(b->s, b->s + drop, keep + 1);
        b->len = keep;
    }
}

int spawn_run(char *const argv[], const spawn_opts *o, spawn_result *r)
{
    memset(r, 0, sizeof *r);
    strbuf b = {0};
    sb_puts(&b, "");
    int pfd[2];
    if (pipe2(pfd, O_CLOEXEC) < 0) {
        r->error = errno;
        r->out = sb_take(&b);
        return -1;
    }
    posix_spawn_file_actions_t fa;
    posix_spawnattr_t at;
    posix_spawn_file_actions_init(&fa);
    posix_spawnattr_init(&at);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&fa, pfd[1], 1);
    if (o->with_stderr)
        posix_spawn_file_actions_adddup2(&fa, pfd[1], 2);
    if (o->dir)
        posix_spawn_file_actions_addchdir_np(&fa, o->dir);
    sigset_t def;
    sigemptyset(&def);
    sigaddset(&def, SIGPIPE);
    posix_spawnattr_setsigdefault(&at, &def);
    short flags = POSIX_SPAWN_SETSIGDEF;
    if (o->own_group) {
        flags |= POSIX_SPAWN_SETPGROUP;
        posix_spawnattr_setpgroup(&at, 0);
    }
    posix_spawnattr_setflags(&at, flags);
    if (!o->with_stderr) { /* what we printed comes before what it prints */
        fflush(stdout);
        fflush(stderr);
    }
    pid_t pid;
    int e = posix_spawnp(&pid, argv[0], &fa, &at, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&at);
    close(pfd[1]);
    if (e != 0) {
        close(pfd[0]);
        r->error = e;
        r->out = sb_take(&b);
        return -1;
    }
    r->started = 1;
    double deadline = now_seconds() + o->timeout;
    for (;;) {
        double left = deadline - now_seconds();
        if (left <= 0) {
            r->timed_out = 1;
            break;
        }
        struct pollfd p = {.fd = pfd[0], .events = POLLIN};
        int pr = poll(&p, 1, (int)(left * 1000) + 1);
        if (pr < 0 && errno == EINTR)
            continue;
        if (pr == 0)
            continue; /* the deadline is checked above */
        char buf[4096];
        ssize_t n = pr > 0 ? read(pfd[0], buf, sizeof buf) : -1;
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        take(&b, buf, (size_t)n, o->keep);
    }
    close(pfd[0]);
    child c = child_of(pid, o->own_group);
    double left = deadline - now_seconds();
    if (!r->timed_out && !child_ended(&c, left > 0 ? left : 0))
        r->timed_out = 1;
    if (r->timed_out)
        child_kill(&c);
    int status = 0;
    int w = child_reap(&c, &status);
    r->len = b.len;
    r->out = sb_take(&b);
    if (r->timed_out)
        return -1;
    if (w < 0) {
        r->error = errno;
        r->started = 0;
        return -1;
    }
    if (WIFSIGNALED(status)) {
        r->signal = WTERMSIG(status);
        r->status = 128 + r->signal;
    } else {
        r->status = WEXITSTATUS(status);
    }
    return 0;
}

void spawn_result_free(spawn_result *r)
{
    free(r->out);
    r->out = NULL;
    r->len = 0;
}
