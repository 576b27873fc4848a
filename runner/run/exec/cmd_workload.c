/* cmd_workload.c - see cmd_workload.h; the protocol is in cmd_proto.c,
 * starting and ending the program in cmd_program.c (doc/own-code.md). */
#include "run/exec/cmd_workload.h"

#include "base/spawn.h"
#include "base/util.h"
#include "run/exec/cmd_call.h"
#include "run/exec/cmd_spawn.h"
#include "stats/series.h"
#include "stats/stats.h"
#include "base/value.h"
#include "run/exec/cmd_launch.h"
#include "run/exec/cmd_program.h"
#include "run/exec/cmd_proto.h"
#include "run/exec/proto.h"
#include "run/exec/worker_out.h"
#include "experiment/command_spec.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* no-op round trips at setup: their median is the protocol's own cost */
#define NOOP_TRIPS 5
/* empty programs started per trial: their median is spawn_seconds */
#define SPAWN_TRIES 9

/* The trial being run (cmd_workload_for). */
static struct {
    const experiment *e;
    long long trial;
    const resolved_trial *r;
    int res_fd;
    struct cmd_state *state; /* prepared, not yet released */
} cur;

/* The persistent program, kept across the worker's trials. */
static struct {
    pid_t pid; /* 0: none */
    cmd_chan ch;
    int errfd;
    char *key; /* what it was started for: program, arguments, env, folder, device */
    const char *last_op; /* what its last reply answered */
    int echoes;          /* its last reply echoed its request's id */
} prog = {0, {-1, -1, NULL, 0, 0, 0, -1, -1, 0}, -1, NULL, NULL, 0};

typedef struct cmd_state {
    cmd_launch l;
    const command_spec *spec;
    int persistent, failed, timing;
    cmd_callenv calls;          /* per_call: what every run shares (its stderr) */
    cmd_launch prep;            /* per_call: the file's prepare command (argv NULL: none) */
    double spawn;               /* per_call: an empty program's start, seconds */
    series sp; /* subtract_spawn: every start of `true` (doc/own-code.md#per_call) */
    char *true_path;
    double rt_sum, own_sum;     /* timed calls: round trips and the program's times */
    long rt_n;
    int batch;                  /* persistent, timed loop: calls per run request */
    double noop, started;       /* persistent: the no-op round trip; the start (NAN) */
    double flops, bytes;
    char **xk, **xv;            /* the program's extra columns, last values */
    int nx;
} cmd_state;

/* The supervisor kills this group with the worker at a timeout (0: none). */
static void tell_group(pid_t g)
{
    struct {
        msg_header h;
        int g;
    } m;
    memset(&m, 0, sizeof m);
    m.h = (msg_header){MSG_GROUP, 0, sizeof(int), 0, wout_nonce()};
    m.g = (int)g;
    if (cur.res_fd >= 0 && fd_write_all(cur.res_fd, &m, sizeof m) < 0)
        _exit(3); /* the supervisor is gone */
}

static void prog_stop(void)
{
    if (prog.pid > 0)
        cmd_stop(prog.pid, prog.ch.to, 1.0, NULL);
    else if (prog.ch.to >= 0)
        close(prog.ch.to);
    if (prog.ch.from >= 0)
        close(prog.ch.from);
    if (prog.ch.pidfd >= 0)
        close(prog.ch.pidfd);
    if (prog.errfd >= 0)
        close(prog.errfd);
    cmd_chan_reset(&prog.ch);
    free(prog.key);
    if (prog.pid > 0)
        tell_group(0);
    prog.pid = 0;
    prog.ch.to = prog.ch.from = prog.ch.pidfd = prog.errfd = prog.ch.errfd = -1;
    prog.ch.pid = 0;
    prog.ch.id = 0;
    prog.key = NULL;
    prog.last_op = NULL;
    prog.echoes = 0;
}

pid_t cmd_workload_kept(void)
{
    return prog.pid;
}

void cmd_workload_shutdown(void)
{
    prog_stop();
    cmd_sweep(0);
}

/* ---- the persistent program's replies ---------------------------------------- */

/* The program ended or stopped answering: the reason, with its stderr.
 * One that closed its reply pipe and did not exit within a second is
 * stopped, and said to be (not "killed by signal 9"). */
static void gone(const char *op, rn_error *err)
{
    int killed;
    int st = cmd_stop(prog.pid, prog.ch.to, 1.0, &killed);
    prog.ch.to = -1;
    char how[160], tail[700];
    if (killed)
        snprintf(how, sizeof how, "closed its reply pipe (fd 4) and did not exit (the runner "
                                  "stopped it)");
    else
        cmd_status_text(st, how, sizeof how);
    cmd_err_tail(prog.errfd, tail, sizeof tail);
    snprintf(err->msg, sizeof err->msg, "the program %s before answering %s%s%s", how, op,
             *tail ? "; stderr: " : "", tail);
    prog.pid = 0; /* reaped: prog_stop() closes the rest */
    prog_stop();
}

/* One request and its reply: 0 with r filled (REPLY_OK, SKIP or ERROR);
 * -1 with err filled when the program ended or answered nonsense, after
 * which it is stopped.  *rt gets the round trip. */
static int ask(cmd_state *s, const char *op, json_object *fields, cmd_reply *r, double *rt,
               rn_error *err)
{
    char *line = NULL;
    /* a second reply to the last request: a program that echoes the id
     * is caught by it (cmd_parse_reply), one that does not is looked for
     * here (one system call) */
    if (prog.echoes ? prog.ch.len > 0 : cmd_unasked(&prog.ch)) {
        char shown[200];
        const char *nl = memchr(prog.ch.buf, '\n', prog.ch.len); /* no NUL in the buffer */
        size_t n = nl ? (size_t)(nl - prog.ch.buf) : prog.ch.len;
        snprintf(shown, sizeof shown, "%.*s", (int)(n < sizeof shown ? n : sizeof shown - 1),
                 prog.ch.buf);
        sanitize_text(shown);
        snprintf(err->msg, sizeof err->msg,
                 "the program wrote a line nobody asked for %s%s: '%s'",
                 prog.last_op ? "after its reply to " : "before the first request",
                 prog.last_op ? prog.last_op : "", shown);
        json_object_put(fields);
        prog_stop();
        return -1;
    }
    double t0 = now_seconds();
    int rc = cmd_send(&prog.ch, op, fields);
    if (rc == 0)
        rc = cmd_read_line(&prog.ch, &line);
    double t1 = now_seconds();
    if (rt)
        *rt = t1 - t0;
    prog.last_op = op;
    if (rc == CMD_LONG) {
        snprintf(err->msg, sizeof err->msg, "the program's reply to %s is longer than %d bytes",
                 op, CMD_PROTO_MAX_LINE);
        prog_stop();
        return -1;
    }
    if (rc < 0) {
        gone(op, err);
        return -1;
    }
    char why[200];
    if (cmd_parse_reply(line, op, prog.ch.id, r, why, sizeof why) < 0) {
        char shown[300];
        snprintf(shown, sizeof shown, "%s", line);
        if (strlen(line) >= sizeof shown)
            memcpy(shown + sizeof shown - 4, "...", 4);
        sanitize_text(shown);
        snprintf(err->msg, sizeof err->msg, "the program's reply to %s is not valid (%s): '%s'",
                 op, why, shown);
        free(line);
        prog_stop();
        return -1;
    }
    free(line);
    prog.echoes = json_object_object_get_ex(r->root, "id", NULL);
    cmd_extras_keep(&s->xk, &s->xv, &s->nx, r->extras);
    return 0;
}

/* The program for this trial: the one kept, unless it was started for
 * another command or device or has ended; else a fresh one.  *fresh says
 * which. */
static int ensure_program(cmd_state *s, const char *key, int *fresh, rn_error *err)
{
    siginfo_t si;
    si.si_pid = 0;
    if (prog.pid && (strcmp(prog.key, key) || /* another command or device */
                     (waitid(P_PID, (id_t)prog.pid, &si, WEXITED | WNOHANG | WNOWAIT) == 0 &&
                      si.si_pid == prog.pid))) /* or it ended after its last trial */
        prog_stop();
    *fresh = !prog.pid;
    if (!*fresh) {
        if (ftruncate(prog.errfd, 0) == 0) /* this trial's stderr only */
            return 0;
        snprintf(err->msg, sizeof err->msg, "cannot reset the program's stderr");
        return -1;
    }
    if ((prog.errfd = cmd_errfile()) < 0) {
        snprintf(err->msg, sizeof err->msg, "cannot keep the program's stderr: %s",
                 strerror(errno));
        return -1;
    }
    pid_t pid = cmd_start_persistent(&s->l, prog.errfd, &prog.ch.to, &prog.ch.from, err->msg,
                                     sizeof err->msg);
    if (pid < 0) {
        prog_stop();
        return -1;
    }
    prog.pid = pid;
    prog.ch.pid = pid;
    prog.ch.pidfd = cmd_pidfd(pid);
    prog.ch.errfd = prog.errfd;
    prog.key = xstrdup(key);
    tell_group(pid);
    return 0;
}

static int prepare_persistent(cmd_state *s, const char *key, rn_error *err)
{
    s->started = NAN;
    double t0 = now_seconds();
    int fresh;
    cmd_reply r;
    for (int attempt = 0;; attempt++) {
        if (ensure_program(s, key, &fresh, err) < 0)
            return RN_PREPARE_FAIL;
        json_object *f = json_object_new_object();
        json_object_object_add(f, "trial", json_object_new_int64(cur.e->ids[cur.trial]));
        json_object_object_add(f, "params", cmd_trial_params(cur.e, cur.trial, cur.r));
        json_object_object_add(f, "version", json_object_new_int(CMD_PROTO_VERSION));
        if (ask(s, "setup", f, &r, NULL, err) == 0)
            break;
        /* a kept program that was ending as the trial began (it exited
         * after its last reply): once more with a fresh one */
        if (fresh || attempt > 0)
            return RN_PREPARE_FAIL;
        t0 = now_seconds();
    }
    int rc = RN_PREPARE_OK;
    if (r.kind != REPLY_OK) {
        snprintf(err->msg, sizeof err->msg, "%s%s", r.kind == REPLY_SKIP ? "" : "setup failed: ",
                 r.message);
        sanitize_text(err->msg);
        rc = r.kind == REPLY_SKIP ? RN_PREPARE_SKIP : RN_PREPARE_FAIL;
        if (rc == RN_PREPARE_FAIL || s->spec->restart_per_trial)
            prog_stop();
    }
    s->flops = r.flops;
    s->bytes = r.bytes;
    cmd_reply_free(&r);
    if (rc != RN_PREPARE_OK)
        return rc;
    if (fresh) /* start-up and setup: untimed, but worth knowing (import torch) */
        s->started = now_seconds() - t0;
    /* the protocol's own cost: a run of no calls (doc/own-code.md#the-protocol) */
    double trips[NOOP_TRIPS];
    for (int i = 0; i < NOOP_TRIPS; i++) {
        json_object *k = json_object_new_object();
        json_object_object_add(k, "k", json_object_new_int(0));
        if (ask(s, "run", k, &r, &trips[i], err) < 0)
            return RN_PREPARE_FAIL;
        int bad = r.kind != REPLY_OK;
        if (bad)
            snprintf(err->msg, sizeof err->msg, "run with k = 0 failed: %s", r.message);
        cmd_reply_free(&r);
        if (bad) {
            prog_stop();
            return RN_PREPARE_FAIL;
        }
    }
    s->noop = stats_median_copy(trips, NOOP_TRIPS); /* NOOP_TRIPS is odd: the middle one */
    return RN_PREPARE_OK;
}

/* ---- per_call ----------------------------------------------------------------- */

/* One run of `l`, timed (cmd_call.h). */
static int one_call(const cmd_launch *l, const cmd_callenv *c, double *secs, rn_error *err)
{
    return cmd_call_run(l, c, tell_group, "the program", secs, err);
}

/* spawn_seconds: the median of SPAWN_TRIES starts of `true`, and of one
 * beside every call with subtract_spawn (doc/own-code.md#per_call) */
static int measure_spawn(cmd_state *s, int n, rn_error *err)
{
    int rc = cmd_spawn_time(&s->sp, &s->true_path, &s->l, &s->calls, n, one_call, err);
    s->spawn = series_median(&s->sp);
    return rc;
}

/* ---- the impl ------------------------------------------------------------------ */

static void state_free(cmd_state *s)
{
    if (!s)
        return;
    cmd_launch_free(&s->l);
    cmd_launch_free(&s->prep);
    series_free(&s->sp);
    free(s->true_path);
    cmd_callenv_close(&s->calls);
    for (int i = 0; i < s->nx; i++) {
        free(s->xk[i]);
        free(s->xv[i]);
    }
    free(s->xk);
    free(s->xv);
    free(s);
}

static int cw_prepare(const rn_trial *t, void **state, rn_error *err)
{
    (void)t;
    cmd_guard_worker();
    cmd_state *s = xcalloc(1, sizeof *s);
    s->spec = cur.e->command;
    s->calls.err = s->calls.null_in = s->calls.null_out = -1;
    s->spawn = s->noop = s->started = s->flops = s->bytes = NAN;
    s->persistent = s->spec->protocol == CMD_PERSISTENT;
    char *key = NULL;
    int rc = cmd_launch_build(cur.e, cur.trial, cur.r, &s->l, &key, err->msg, sizeof err->msg) < 0 ? RN_PREPARE_FAIL : RN_PREPARE_OK;
    if (rc == RN_PREPARE_OK && s->persistent)
        rc = prepare_persistent(s, key, err);
    else if (rc == RN_PREPARE_OK) {
        if (cmd_callenv_open(&s->calls) < 0) {
            snprintf(err->msg, sizeof err->msg, "cannot set up the program's runs: %s",
                     strerror(errno));
            rc = RN_PREPARE_FAIL;
        } else if ((s->spec->nprepare > 0 &&
                    cmd_launch_prepare(cur.e, cur.trial, cur.r, &s->prep, err->msg,
                                       sizeof err->msg) < 0) ||
                   measure_spawn(s, SPAWN_TRIES, err) < 0)
            rc = RN_PREPARE_FAIL;
    }
    free(key);
    if (rc != RN_PREPARE_OK) { /* the worker calls release() only after a prepared trial */
        state_free(s);
        return rc;
    }
    *state = s;
    cur.state = s;
    return RN_PREPARE_OK;
}

static int failed(cmd_state *s)
{
    s->failed = 1;
    return -1;
}

static int cw_run(void *state, rn_sample *smp, rn_error *err)
{
    cmd_state *s = state;
    double own, rt;
    long n = 1;
    if (!s->persistent) {
        double untimed;
        /* the file's prepare command before every run, outside its time */
        if (s->prep.argv && cmd_call_run(&s->prep, &s->calls, tell_group, "the prepare command",
                                         &untimed, err) < 0)
            return failed(s);
        if (one_call(&s->l, &s->calls, &rt, err) < 0)
            return failed(s);
        /* subtract_spawn: a start of `true` beside every call, over the samples' span */
        if (s->spec->subtract_spawn && measure_spawn(s, 1, err) < 0)
            return failed(s);
        own = s->spec->subtract_spawn ? fmax(0, rt - s->spawn) : rt;
    } else {
        if (!prog.pid) {
            snprintf(err->msg, sizeof err->msg, "the program is not running");
            return failed(s);
        }
        int calls = 1;
        if (s->batch > 1) { /* the sample's first run() asks for all its calls */
            if (isfinite(smp->seconds))
                return 0;
            calls = s->batch;
        }
        json_object *k = json_object_new_object();
        json_object_object_add(k, "k", json_object_new_int(calls));
        cmd_reply r;
        if (ask(s, "run", k, &r, &rt, err) < 0)
            return failed(s);
        own = r.seconds;
        double dev = isfinite(r.device_seconds) ? r.device_seconds : 0;
        smp->device_seconds = r.device_seconds / calls; /* per call, as the batch's mean */
        n = calls;
        int bad = r.kind != REPLY_OK;
        if (bad)
            snprintf(err->msg, sizeof err->msg, "run failed: %s", r.message);
        cmd_reply_free(&r);
        if (bad || cmd_times_fit(own, dev, rt, calls, err->msg, sizeof err->msg) < 0)
            return failed(s);
    }
    smp->seconds = (isfinite(smp->seconds) ? smp->seconds : 0) + own;
    if (s->timing) {
        s->rt_sum += rt;
        s->own_sum += own;
        s->rt_n += n;
    }
    return 0;
}

static int one_op(cmd_state *s, const char *op, rn_error *err)
{
    if (!s->persistent || s->failed || !prog.pid)
        return 0;
    cmd_reply r;
    if (ask(s, op, NULL, &r, NULL, err) < 0) {
        failed(s);
        return CMD_CHECK_BROKEN;
    }
    int bad = r.kind != REPLY_OK;
    if (bad)
        snprintf(err->msg, sizeof err->msg, "%s", r.message);
    cmd_reply_free(&r);
    return bad ? failed(s) : 0;
}

static int cw_check(void *state, rn_error *err)
{
    return one_op(state, "check", err);
}

static int cw_teardown(void *state, rn_error *err)
{
    return one_op(state, "teardown", err);
}

static void cw_release(void *state)
{
    cmd_state *s = state;
    if (s && s->persistent && (s->failed || s->spec->restart_per_trial))
        prog_stop();
    if (cur.state == s)
        cur.state = NULL;
    state_free(s);
}

static void cw_timed_begin(void *state)
{
    cmd_state *s = state;
    s->timing = 1;
    s->rt_sum = s->own_sum = 0;
    s->rt_n = 0;
}

/* One of the runner's own columns (reserved: experiment/columns.h), sent as
 * the worker sends its others, not through the user's extras. */
static void put(const char *k, double v)
{
    char t[40];
    if (!isfinite(v))
        return;
    format_double(t, sizeof t, v);
    wout_extra(NULL, k, t);
}

/* The program's columns go through cb, which refuses a reserved name
 * (doc/results.md#reserved-column-names); the protocol's own go out
 * directly. */
static void cw_extras(void *state, void *ctx, void (*cb)(void *ctx, const char *k, const char *v))
{
    cmd_state *s = state;
    for (int i = 0; i < s->nx; i++)
        cb(ctx, s->xk[i], s->xv[i]);
    put("spawn_seconds", s->spawn);
    if (s->spec && s->spec->subtract_spawn && s->sp.n > 1) { /* for the noise flag */
        put("spawn_spread_seconds", series_spread(&s->sp));
        put("spawn_starts", s->sp.n);
    }
    put("protocol_seconds", s->noop);
    put("program_start_seconds", s->started);
    if (s->persistent && s->rt_n) /* per call, beside the samples */
        put("round_trip_seconds", s->rt_sum / (double)s->rt_n);
}

static void cw_work(void *state, double *flops, double *bytes)
{
    cmd_state *s = state;
    *flops = s->flops;
    *bytes = s->bytes;
}

const rn_workload_impl cmd_workload = {
    .name = "command", .prepare = cw_prepare, .run = cw_run, .check = cw_check,
    .release = cw_release, .extras = cw_extras, .work = cw_work, .teardown = cw_teardown,
    .timed_begin = cw_timed_begin,
};

void cmd_workload_batch(const rn_workload_impl *impl, int batch)
{
    if (impl == &cmd_workload && cur.state)
        cur.state->batch = batch;
}

const rn_workload_impl *cmd_workload_for(const experiment *e, long long trial,
                                         const resolved_trial *r, int res_fd, char *why,
                                         size_t len)
{
    cur.e = e;
    cur.trial = trial;
    cur.r = r;
    cur.res_fd = res_fd;
    if (!e->command || !e->command->argc) {
        snprintf(why, len, "workload: command without a command");
        return NULL;
    }
    if (r->processes) {
        snprintf(why, len, "parallel: processes does not apply to workload: command (the "
                           "program runs its own processes)");
        return NULL;
    }
    return &cmd_workload;
}
