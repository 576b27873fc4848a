/* cmd_proto.c - see cmd_proto.h. */
#include "run/exec/cmd_proto.h"

#include "base/util.h"
#include "base/value.h"
#include "run/exec/cmd_program.h"

#include <errno.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int cmd_send(cmd_chan *c, const char *op, json_object *fields)
{
    json_object *o = fields ? fields : json_object_new_object();
    /* the id before op: "op" stays last (doc/own-code.md#requests) */
    json_object_object_add(o, "id", json_object_new_int64(++c->id));
    json_object_object_add(o, "op", json_object_new_string(op));
    const char *s = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN);
    size_t n = strlen(s);
    char *line = xmalloc(n + 2);
    memcpy(line, s, n);
    line[n] = '\n';
    /* a program that has closed its end gives EPIPE, not a SIGPIPE that
     * would end the worker (its default there) */
    struct sigaction ign = {.sa_handler = SIG_IGN}, old;
    sigemptyset(&ign.sa_mask);
    sigaction(SIGPIPE, &ign, &old);
    int rc = fd_write_all(c->to, line, n + 1);
    sigaction(SIGPIPE, &old, NULL);
    free(line);
    json_object_put(o);
    return rc;
}

int cmd_pidfd(pid_t pid)
{
#ifdef SYS_pidfd_open
    return (int)syscall(SYS_pidfd_open, pid, 0); /* close-on-exec by itself */
#else
    (void)pid;
    return -1;
#endif
}

/* How often a reply's wait looks at the program's stderr (and, without a
 * pidfd, whether the program ended). */
#define TICK_MS 100

static int ended(const cmd_chan *c)
{
    siginfo_t si;
    si.si_pid = 0;
    return c->pid > 0 && waitid(P_PID, (id_t)c->pid, &si, WEXITED | WNOHANG | WNOWAIT) == 0 &&
           si.si_pid == c->pid;
}

/* Reads what the pipe holds now, without waiting: 1 when something came,
 * 0 when nothing, -1 at end of file. */
static int read_some(cmd_chan *c, int wait_ms)
{
    if (c->cap - c->len < 4096) {
        c->cap = c->cap ? c->cap * 2 : 65536;
        c->buf = xrealloc(c->buf, c->cap);
    }
    struct pollfd pf = {c->from, POLLIN, 0};
    int r = poll(&pf, 1, wait_ms);
    if (r <= 0)
        return 0;
    ssize_t got = read(c->from, c->buf + c->len, c->cap - c->len);
    if (got < 0 && errno == EINTR)
        return 0;
    if (got <= 0)
        return -1;
    c->len += (size_t)got;
    return 1;
}

int cmd_read_line(cmd_chan *c, char **line)
{
    int gone = 0; /* the program ended: what the pipe holds is all there is */
    for (;;) {
        char *nl = c->len ? memchr(c->buf, '\n', c->len) : NULL;
        if (nl) {
            size_t n = (size_t)(nl - c->buf);
            *line = xmalloc(n + 1);
            memcpy(*line, c->buf, n);
            (*line)[n] = '\0';
            if (n && (*line)[n - 1] == '\r')
                (*line)[n - 1] = '\0';
            memmove(c->buf, nl + 1, c->len - n - 1);
            c->len -= n + 1;
            return 0;
        }
        if (c->len > CMD_PROTO_MAX_LINE)
            return CMD_LONG;
        if (gone) {
            int r = read_some(c, 0);
            if (r < 0)
                return CMD_EOF;
            if (r == 0)
                return CMD_ENDED;
            continue;
        }
        /* the reply, the program's end (a child it forked may hold the
         * pipe open after it: doc/own-code.md#how-the-program-runs), or a
         * tick to cut its stderr */
        struct pollfd pf[2] = {{c->from, POLLIN, 0}, {c->pidfd, POLLIN, 0}};
        int r = poll(pf, c->pidfd >= 0 ? 2 : 1, TICK_MS);
        if (r < 0 && errno != EINTR)
            return CMD_EOF;
        if (r <= 0) {
            cmd_err_trim(c->errfd);
            gone = c->pidfd < 0 && ended(c);
            continue;
        }
        if (pf[0].revents) {
            int got = read_some(c, 0);
            if (got < 0)
                return CMD_EOF;
            continue;
        }
        gone = c->pidfd >= 0 && pf[1].revents;
    }
}

int cmd_unasked(cmd_chan *c)
{
    if (c->len)
        return 1;
    return read_some(c, 0) > 0;
}

void cmd_chan_reset(cmd_chan *c)
{
    free(c->buf);
    c->buf = NULL;
    c->len = c->cap = 0;
}

static double num_field(json_object *o, const char *k, int *bad)
{
    json_object *v;
    if (!json_object_object_get_ex(o, k, &v) || json_object_is_type(v, json_type_null))
        return NAN;
    if (!json_object_is_type(v, json_type_double) && !json_object_is_type(v, json_type_int)) {
        *bad = 1;
        return NAN;
    }
    double d = json_object_get_double(v);
    if (!isfinite(d) || d < 0)
        *bad = 1;
    return d;
}

int cmd_parse_reply(const char *line, const char *op, long long id, cmd_reply *r, char *err,
                    size_t errlen)
{
    memset(r, 0, sizeof *r);
    r->seconds = r->device_seconds = r->flops = r->bytes = NAN;
    enum json_tokener_error je;
    json_object *o = json_tokener_parse_verbose(line, &je);
    if (!o || !json_object_is_type(o, json_type_object)) {
        snprintf(err, errlen, "not a JSON object%s%s", o ? "" : ": ",
                 o ? "" : json_tokener_error_desc(je));
        json_object_put(o);
        return -1;
    }
    r->root = o;
    json_object *v;
    if (json_object_object_get_ex(o, "id", &v) &&
        (!json_object_is_type(v, json_type_int) || json_object_get_int64(v) != id)) {
        snprintf(err, errlen, "it answers request %s, not request %lld (a reply too many, or a "
                 "stale one)", json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN), id);
        return -1;
    }
    if (json_object_object_get_ex(o, "error", &v)) {
        r->kind = REPLY_ERROR;
        r->message = xstrdup(json_object_is_type(v, json_type_string) ? json_object_get_string(v)
                                                                        : json_object_to_json_string(v));
        return 0;
    }
    if (json_object_object_get_ex(o, "skip", &v)) {
        if (strcmp(op, "setup")) {
            snprintf(err, errlen, "'skip' answers setup only, not %s", op);
            return -1;
        }
        r->kind = REPLY_SKIP;
        r->message = xstrdup(json_object_is_type(v, json_type_string) ? json_object_get_string(v)
                                                                        : "skipped by the program");
        return 0;
    }
    int bad = 0;
    r->seconds = num_field(o, "seconds", &bad);
    r->device_seconds = num_field(o, "device_seconds", &bad);
    r->flops = num_field(o, "flops", &bad);
    r->bytes = num_field(o, "bytes", &bad);
    if (bad) {
        snprintf(err, errlen, "seconds, device_seconds, flops and bytes are numbers >= 0");
        return -1;
    }
    if (json_object_object_get_ex(o, "extras", &v)) {
        if (!json_object_is_type(v, json_type_object)) {
            snprintf(err, errlen, "'extras' is an object of column: value");
            return -1;
        }
        r->extras = v;
    }
    if (!strcmp(op, "run") && isnan(r->seconds)) {
        snprintf(err, errlen, "a reply to run needs \"seconds\" (or \"error\")");
        return -1;
    }
    if (strcmp(op, "run") && !json_object_object_get_ex(o, "ok", &v) && !r->extras &&
        isnan(r->flops) && isnan(r->bytes)) {
        snprintf(err, errlen, "a reply to %s is {\"ok\": true}, {\"error\": ...}%s", op,
                 strcmp(op, "setup") ? "" : " or {\"skip\": ...}");
        return -1;
    }
    r->kind = REPLY_OK;
    return 0;
}

void cmd_reply_free(cmd_reply *r)
{
    free(r->message);
    json_object_put(r->root);
    memset(r, 0, sizeof *r);
}

void cmd_extras_keep(char ***xk, char ***xv, int *nx, json_object *x)
{
    if (!x)
        return;
    json_object_object_foreach(x, k, v)
    {
        char t[512] = ""; /* NaN and Infinity, which the JSON reader takes, are no number */
        if (json_object_is_type(v, json_type_double) || json_object_is_type(v, json_type_int)) {
            if (isfinite(json_object_get_double(v)))
                format_double(t, sizeof t, json_object_get_double(v));
        }
        else if (json_object_is_type(v, json_type_string))
            snprintf(t, sizeof t, "%s", json_object_get_string(v));
        else
            snprintf(t, sizeof t, "%s", json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN));
        int i = 0;
        while (i < *nx && strcmp((*xk)[i], k))
            i++;
        if (i == *nx) {
            XGROW(*xk, *nx);
            XGROW(*xv, *nx);
            (*xk)[*nx] = sanitize_text(xstrdup(k));
            (*xv)[(*nx)++] = NULL;
        }
        free((*xv)[i]);
        (*xv)[i] = sanitize_text(xstrdup(t));
    }
}

int cmd_times_fit(double own, double dev, double rt, int calls, char *msg, size_t len)
{
    double most = rt * (1 + 1e-9) + 1e-9; /* the clocks' rounding */
    if (own <= most && dev <= most)
        return 0;
    char a[32], b[32];
    format_number(a, sizeof a, own > most ? own : dev, 6);
    format_number(b, sizeof b, rt, 6);
    snprintf(msg, len,
             "the program reported %s%s s for %d call%s whose round trip took %s s: its time "
             "must be measured inside the request",
             own > most ? "" : "a device time of ", a, calls, calls == 1 ? "" : "s", b);
    return -1;
}
