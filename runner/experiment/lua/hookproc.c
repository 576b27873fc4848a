/* hookproc.c - see hookproc.h.  The parent talks to the hooks process over
 * two pipes: a request (which hook, which trial, the result for
 * after_trial) and a response (the hook's return code, its message, its
 * extra columns).  The child builds the trial's table itself from the
 * experiment it inherited when it was forked (child_start). */
#include "experiment/lua/hookproc.h"

#include "base/child.h"
#include "base/util.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

enum { OP_SKIP = 1, OP_BEFORE, OP_AFTER };

typedef struct req {
    int op;
    int samples;
    long long t;
    double num[7]; /* min, median, mean, stddev, max, gflops, gbps */
    unsigned slen, rlen; /* status and reason text that follow */
} req;

typedef struct resp {
    int rc;
    int has; /* the load response: bit i = skip, before_trial, after_trial */
    int nextra;
    unsigned len; /* payload: message NUL, then key NUL value NUL per extra */
} resp;

#define PAYLOAD_MAX (1 << 20)

struct hookproc {
    const experiment *e;
    char path[PATH_MAX];
    volatile sig_atomic_t *intr;
    child c; /* the hooks process (c.pid 0: none running) */
    int has;
    int restarts;
};

enum { RD_OK = 0, RD_EOF = -1, RD_TIMEOUT = -2, RD_INTR = -3 };

/* Reads n bytes before `deadline`; polls in slices of 100 ms so that a
 * SIGINT that lands just before poll() is still seen within 0.1 s
 * (doc/results.md#guarantees: a run ends within 1 s of SIGINT / SIGTERM). */
static int read_by(int fd, void *buf, size_t n, double deadline,
                   volatile sig_atomic_t *intr)
{
    char *p = buf;
    while (n) {
        if (intr && *intr)
            return RD_INTR;
        double left = deadline - now_seconds();
        if (left <= 0)
            return RD_TIMEOUT;
        struct pollfd pf = {fd, POLLIN, 0};
        int ms = left > 0.1 ? 100 : (int)(left * 1000) + 1;
        int r = poll(&pf, 1, ms);
        if (r < 0 && errno != EINTR)
            return RD_EOF;
        if (r <= 0)
            continue;
        ssize_t got = read(fd, p, n);
        if (got < 0 && (errno == EINTR || errno == EAGAIN))
            continue;
        if (got <= 0)
            return RD_EOF;
        p += got;
        n -= (size_t)got;
    }
    return RD_OK;
}

/* Kills a child and its process group (an --allow-unsafe-lua hook may have
 * started processes of its own), and says how it ended. */
static void end_child(child *c, int kill_it, char *why, size_t len)
{
    if (kill_it)
        child_kill(c);
    child_close(c);
    int st = 0;
    child_reap(c, &st);
    if (why)
        child_describe(st, why, len);
}

/* What a child does first, after base/child.h made it the leader of its
 * own process group (killed as one) tied to the runner's life: Ctrl-C
 * left to the runner. */
static void child_setup(void)
{
    signal(SIGINT, SIG_IGN);
    signal(SIGTERM, SIG_DFL);
    signal(SIGPIPE, SIG_DFL);
}

static void send_resp(int fd, int rc, int has, const char *msg, const lua_extra *x)
{
    strbuf b = {0};
    resp h = {rc, has, x ? x->n : 0, 0};
    sb_puts(&b, msg ? msg : "");
    sb_putc(&b, '\0');
    for (int i = 0; x && i < x->n; i++) {
        sb_puts(&b, x->keys[i]);
        sb_putc(&b, '\0');
        sb_puts(&b, x->values[i]);
        sb_putc(&b, '\0');
    }
    h.len = (unsigned)b.len;
    if (fd_write_all(fd, &h, sizeof h) < 0 || fd_write_all(fd, b.s, b.len) < 0)
        _exit(3); /* the runner is gone */
    sb_free(&b);
}

/* The hooks process: loads the file, answers requests until EOF. */
static void child_main(const experiment *e, const char *path, int in, int out)
{
    static char msg[8192];
    lua_hooks *h = lua_hooks_open(path, msg, sizeof msg);
    if (!h) {
        send_resp(out, -1, 0, msg, NULL);
        _exit(0);
    }
    int has = lua_hooks_has(h, "skip") | lua_hooks_has(h, "before_trial") << 1 |
              lua_hooks_has(h, "after_trial") << 2;
    send_resp(out, 0, has, "", NULL);
    const char **keys = xcalloc((size_t)e->ncols + 1, sizeof *keys);
    const char **vals = xcalloc((size_t)e->ncols + 1, sizeof *vals);
    for (;;) {
        req q;
        if (fd_read_all(in, &q, sizeof q) < 0)
            break;
        if (q.slen > PAYLOAD_MAX || q.rlen > PAYLOAD_MAX || q.t < 0 || q.t >= e->ntrials)
            _exit(4);
        char *status = xcalloc(q.slen + 1, 1), *reason = xcalloc(q.rlen + 1, 1);
        if (fd_read_all(in, status, q.slen) < 0 || fd_read_all(in, reason, q.rlen) < 0)
            break;
        for (int c = 0; c < e->ncols; c++) {
            keys[c] = e->cols[c].name;
            vals[c] = trial_value(e, q.t, c).text; /* NULL: no value */
        }
        lua_trial_view v = {e->ids[q.t], e->ncols, keys, vals};
        msg[0] = '\0';
        lua_extra x = {0};
        int rc;
        if (q.op == OP_SKIP) {
            rc = lua_hooks_skip(h, &v, msg, sizeof msg);
        } else if (q.op == OP_BEFORE) {
            rc = lua_hooks_before(h, &v, msg, sizeof msg);
        } else {
            lua_result_view r = {status, reason, q.samples, q.num[0], q.num[1], q.num[2],
                                 q.num[3], q.num[4], q.num[5], q.num[6]};
            rc = lua_hooks_after(h, &v, &r, &x, msg, sizeof msg);
        }
        send_resp(out, rc, 0, msg, &x);
        lua_extra_free(&x);
        free(status);
        free(reason);
    }
    _exit(0);
}

/* How long the parent waits for an answer: the hook's own limit (the
 * child stops a Lua loop itself then, with the line it was on), plus 1 s
 * for what the count hook cannot stop (a C function such as string.find). */
static double wait_limit(void)
{
    return lua_hooks_time_limit() + 1.0;
}

static void stop(hookproc *hp, int kill_it, char *why, size_t len)
{
    if (!hp->c.pid)
        return;
    close(hp->c.to); /* EOF: a healthy child exits by itself */
    hp->c.to = -1;
    end_child(&hp->c, kill_it, why, len);
}

/* Reads one response; 0 with *h and *payload (malloc'ed), or RD_*. */
static int read_resp(hookproc *hp, resp *h, char **payload, double deadline)
{
    int rc = read_by(hp->c.from, h, sizeof *h, deadline, hp->intr);
    if (rc != RD_OK)
        return rc;
    if (h->len > PAYLOAD_MAX || h->len == 0)
        return RD_EOF;
    *payload = xmalloc(h->len + 1);
    rc = read_by(hp->c.from, *payload, h->len, deadline, hp->intr);
    if (rc != RD_OK) {
        free(*payload);
        *payload = NULL;
        return rc;
    }
    (*payload)[h->len] = '\0';
    return RD_OK;
}

/* Why the child stopped answering: "hooks process crashed: signal 11
 * (Segmentation fault)", or the time limit.  Kills and reaps it. */
static void failure(hookproc *hp, int rd, const char *what, char *err, size_t len)
{
    char why[128] = "";
    stop(hp, 1, why, sizeof why);
    hp->restarts++;
    if (rd == RD_TIMEOUT)
        snprintf(err, len, "%s: %s did not return within %g s (the hooks process was killed)",
                 hp->path, what, wait_limit());
    else if (rd == RD_INTR)
        snprintf(err, len, "interrupted");
    else
        snprintf(err, len, "%s: hooks process crashed in %s: %s", hp->path, what, why);
}

static void hooks_child(void *arg, int in, int out)
{
    hookproc *hp = arg;
    child_setup();
    child_main(hp->e, hp->path, in, out);
}

/* Starts the child and reads its load response; 0, or -1 with err. */
static int start(hookproc *hp, char *err, size_t len)
{
    if (child_start(&hp->c, CHILD_IN | CHILD_OUT | CHILD_GROUP | CHILD_TIED, hooks_child, hp) < 0)
        goto sys;
    resp h;
    char *payload = NULL;
    int rd = read_resp(hp, &h, &payload, now_seconds() + wait_limit());
    if (rd != RD_OK) {
        failure(hp, rd, "loading the hooks file", err, len);
        return rd == RD_INTR ? HOOKPROC_INTERRUPTED : -1;
    }
    if (h.rc != 0) {
        snprintf(err, len, "%s", payload);
        free(payload);
        stop(hp, 1, NULL, 0);
        return -1;
    }
    free(payload);
    hp->has = h.has;
    return 0;
sys:
    snprintf(err, len, "%s: cannot start the hooks process: %s", hp->path, strerror(errno));
    return -1;
}

hookproc *hookproc_open(const experiment *e, const char *path,
                        volatile sig_atomic_t *interrupted, char *err, size_t len)
{
    hookproc *hp = xcalloc(1, sizeof *hp);
    hp->e = e;
    hp->intr = interrupted;
    snprintf(hp->path, sizeof hp->path, "%s", path);
    if (start(hp, err, len) != 0) {
        free(hp);
        return NULL;
    }
    return hp;
}

int hookproc_has(const hookproc *hp, const char *name)
{
    if (!hp)
        return 0;
    int bit = !strcmp(name, "skip") ? 1 : !strcmp(name, "before_trial") ? 2
            : !strcmp(name, "after_trial")                       ? 4
                                                                  : 0;
    return (hp->has & bit) != 0;
}

int hookproc_restarts(const hookproc *hp)
{
    return hp ? hp->restarts : 0;
}

/* One request and its response; the rc of the hook, -1 on a crash or a
 * hang (err says which), HOOKPROC_INTERRUPTED. */
static int ask(hookproc *hp, int op, long long t, const lua_result_view *r, lua_extra *out,
               char *err, size_t len)
{
    static const char *const what[] = {"", "skip()", "before_trial()", "after_trial()"};
    if (!hp->c.pid) { /* the last one crashed or hung: a fresh one */
        int rc = start(hp, err, len);
        if (rc != 0)
            return rc;
    }
    req q = {op, r ? r->samples : 0, t, {0}, 0, 0};
    const char *status = r && r->status ? r->status : "", *reason = r && r->reason ? r->reason : "";
    if (r) {
        double v[7] = {r->min, r->median, r->mean, r->stddev, r->max, r->gflops, r->gbps};
        memcpy(q.num, v, sizeof v);
    }
    q.slen = (unsigned)strlen(status);
    q.rlen = (unsigned)strlen(reason);
    if (q.rlen > PAYLOAD_MAX)
        q.rlen = PAYLOAD_MAX;
    int rd = RD_EOF;
    resp h;
    char *payload = NULL;
    if (fd_write_all(hp->c.to, &q, sizeof q) == 0 && fd_write_all(hp->c.to, status, q.slen) == 0 &&
        fd_write_all(hp->c.to, reason, q.rlen) == 0)
        rd = read_resp(hp, &h, &payload, now_seconds() + wait_limit());
    if (rd != RD_OK) {
        failure(hp, rd, what[op], err, len);
        return rd == RD_INTR ? HOOKPROC_INTERRUPTED : -1;
    }
    snprintf(err, len, "%s", payload);
    const char *p = payload + strlen(payload) + 1, *end = payload + h.len;
    for (int i = 0; out && i < h.nextra && i < LUA_EXTRA_MAX && p < end; i++) {
        const char *k = p, *v = k + strlen(k) + 1;
        if (v >= end)
            break;
        out->keys[out->n] = xstrdup(k);
        out->values[out->n++] = xstrdup(v);
        p = v + strlen(v) + 1;
    }
    free(payload);
    return h.rc;
}

int hookproc_skip(hookproc *hp, long long t, char *reason, size_t len)
{
    if (!hookproc_has(hp, "skip"))
        return 0;
    return ask(hp, OP_SKIP, t, NULL, NULL, reason, len);
}

int hookproc_before(hookproc *hp, long long t, char *err, size_t len)
{
    if (!hookproc_has(hp, "before_trial"))
        return 0;
    return ask(hp, OP_BEFORE, t, NULL, NULL, err, len);
}

int hookproc_after(hookproc *hp, long long t, const lua_result_view *r, lua_extra *out,
                   char *err, size_t len)
{
    memset(out, 0, sizeof *out);
    if (!hookproc_has(hp, "after_trial"))
        return 0;
    int rc = ask(hp, OP_AFTER, t, r, out, err, len);
    if (rc != 0)
        lua_extra_free(out);
    return rc;
}

void hookproc_close(hookproc *hp)
{
    if (!hp)
        return;
    if (hp->c.pid) {
        /* EOF ends a healthy child; one stuck in a finalizer is killed */
        close(hp->c.to);
        hp->c.to = -1;
        char c;
        int rd = read_by(hp->c.from, &c, 1, now_seconds() + 1.0, NULL);
        end_child(&hp->c, rd != RD_EOF, NULL, 0);
    }
    free(hp);
}

/* --- runner validate ----------------------------------------------------- */

typedef struct check_arg {
    int hooks;
    const char *path;
} check_arg;

/* The check's child: loads the file and answers once. */
static void check_child(void *arg, int in, int out)
{
    const check_arg *ca = arg;
    (void)in;
    child_setup();
    static char msg[8192];
    int rc;
    if (ca->hooks) {
        lua_hooks *h = lua_hooks_open(ca->path, msg, sizeof msg);
        rc = h ? 0 : -1;
        /* the answer goes first: a __gc that loops in lua_close cannot
         * hold it back (the parent kills what is left) */
        send_resp(out, rc, 0, msg, NULL);
        lua_hooks_close(h);
    } else {
        rc = lua_file_check(ca->path, msg, sizeof msg);
        send_resp(out, rc, 0, msg, NULL);
    }
    _exit(0);
}

int lua_check_isolated(int hooks, const char *path, char *err, size_t len)
{
    check_arg ca = {hooks, path};
    child c;
    if (child_start(&c, CHILD_OUT | CHILD_GROUP | CHILD_TIED, check_child, &ca) < 0) {
        snprintf(err, len, "%s: cannot start the check: %s", path, strerror(errno));
        return -1;
    }
    double limit = wait_limit();
    resp h;
    int rd = read_by(c.from, &h, sizeof h, now_seconds() + limit, NULL);
    char *payload = NULL;
    if (rd == RD_OK && (h.len == 0 || h.len > PAYLOAD_MAX))
        rd = RD_EOF;
    if (rd == RD_OK) {
        payload = xmalloc(h.len + 1);
        rd = read_by(c.from, payload, h.len, now_seconds() + limit, NULL);
        payload[h.len] = '\0';
    }
    char why[128];
    end_child(&c, 1, why, sizeof why); /* it has answered: what is left is not waited for */
    int rc = -1;
    if (rd == RD_OK) {
        rc = h.rc;
        snprintf(err, len, "%s", payload);
    } else if (rd == RD_TIMEOUT) {
        snprintf(err, len, "%s: the check did not finish within %g s", path, limit);
    } else {
        snprintf(err, len, "%s: the check crashed: %s", path, why);
    }
    free(payload);
    return rc;
}
