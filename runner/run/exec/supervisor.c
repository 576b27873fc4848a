/* supervisor.c - see supervisor.h. */
#include "run/exec/supervisor.h"
#include "experiment/trial.h"

#include "base/child.h"
#include "base/util.h"
#include "run/exec/trace.h"
#include "run/exec/worker.h"
#include "run/exec/worker_out.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/wait.h>
#include <unistd.h>

void sup_init(supervisor *S, const experiment *e, volatile sig_atomic_t *interrupted)
{
    memset(S, 0, sizeof *S);
    S->e = e;
    S->interrupted = interrupted;
    S->w = child_of(0, 0);
    S->cmd_fd = S->res_fd = -1;
    S->guard = GUARD_NONE;
    /* looked up once, not by name every trial (issue 38) */
    S->col_affinity = experiment_column(e, "affinity");
    S->col_threads = experiment_column(e, "threads");
    S->col_wcurve = experiment_column(e, "warmup_curve");
    S->col_timeout = experiment_column(e, "timeout");
    S->per_trial = -1;
    S->solo_until = -1;
}

/* The worker, in a child of its own (base/child.h): tied to the runner's
 * life (a worker must never outlive a runner killed with SIGKILL), leading
 * its own process group (what it starts, os.execute under
 * --allow-unsafe-lua, is killed with it). */
static void worker_child(void *arg, int in, int out)
{
    supervisor *S = arg;
    /* before any thread of the worker exists: they all inherit it */
    if (S->aff_pin)
        affinity_apply(&S->aff_set, S->aff_threads, 1);
    wout_set_nonce(S->nonce);
    worker_main(S->e, in, out);
}

/* The kernel's count of out-of-memory kills (/proc/vmstat oom_kill, cgroup
 * kills included), or -1 where it has none. */
static long long oom_kills(void)
{
    FILE *f = fopen("/proc/vmstat", "r");
    long long n = -1;
    char line[128];
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "oom_kill %lld", &n) == 1)
            break;
    if (f)
        fclose(f);
    return n;
}

static int spawn(supervisor *S)
{
    /* a header without it is not the worker's (msg_valid) */
    if (getrandom(&S->nonce, sizeof S->nonce, GRND_NONBLOCK) != sizeof S->nonce)
        S->nonce = (unsigned)now_seconds() ^ (unsigned)getpid() * 2654435761u;
    S->oom_at_start = oom_kills();
    if (child_start(&S->w, CHILD_IN | CHILD_OUT | CHILD_GROUP | CHILD_TIED, worker_child, S) < 0)
        return -1;
    S->pid = S->w.pid;
    S->cmd_fd = S->w.to;
    S->res_fd = S->w.from;
    return 0;
}

/* Kills the group of the worker's command program (doc/own-code.md), which the
 * worker reaps, so it lives while the worker does: killed before the
 * worker's own group. */
static void kill_program(supervisor *S)
{
    /* and every process below the worker, adopted daemons too
     * (doc/own-code.md#what-the-runner-guarantees), while it still holds them */
    if (S->pid > 0)
        child_kill_tree(S->pid);
    if (S->group > 0) {
        kill(-S->group, SIGKILL);
        guard_watch(&S->guard, S->group, 0);
    }
    S->group = 0;
}

/* How long a worker that closed its pipe has to end by itself before it is
 * killed: a crash closes the pipe a moment before the worker can be waited
 * for; a plugin that closed the descriptors it does not own, then blocked,
 * never ends. */
#define REAP_GRACE 1.0

/* Reaps the worker; returns a description of how it ended. */
static char *reap(supervisor *S, int killed_by_us)
{
    int st = 0, stuck = 0;
    char *why;
    /* wait for it to end (a bounded while, which a SIGTERM cuts short),
     * without reaping, then end what is left of its group (the group id
     * cannot have been reused yet) */
    if (!killed_by_us) {
        double until = now_seconds() + REAP_GRACE;
        while (!child_ended(&S->w, 0.01))
            if (*S->interrupted || now_seconds() > until) {
                stuck = *S->interrupted ? 2 : 1;
                break;
            }
    }
    kill_program(S); /* before the worker that reaps it */
    child_kill(&S->w);
    child_ended(&S->w, -1);
    child_close(&S->w);
    child_reap(&S->w, &st);
    if (stuck == 2) {
        why = xstrdup("interrupted");
    } else if (stuck) {
        why = xasprintf("the worker closed its pipe to the runner and did not end (something "
                        "in it, a plugin?, closed descriptors it does not own): it was killed");
    } else if (WIFSIGNALED(st)) {
        int sig = WTERMSIG(st);
        long long oom = sig == SIGKILL && !killed_by_us ? oom_kills() : -1;
        if (sig == SIGKILL && !killed_by_us)
            why = xasprintf("the worker was killed by SIGKILL (%s)",
                            oom < 0 || S->oom_at_start < 0 ? "out of memory?"
                            : oom > S->oom_at_start
                                ? "out of memory: the kernel's out-of-memory killer ran"
                                : "not by the kernel's out-of-memory killer: by a process, "
                                  "or itself");
        else
            why = xasprintf("the worker crashed: signal %d (%s)", sig, strsignal(sig));
    } else if (WIFEXITED(st)) {
        why = xasprintf("the worker exited with status %d in the middle of a trial",
                        WEXITSTATUS(st));
    } else {
        why = xstrdup("the worker ended unexpectedly");
    }
    S->pid = 0;
    S->cmd_fd = S->res_fd = -1;
    S->rpos = S->rlen = 0; /* nothing of the old worker's is read by the next */
    S->nahead = S->ahead_pos = 0; /* what it was sent died with it */
    return why;
}

void sup_stop(supervisor *S)
{
    free(S->rbuf);
    S->rbuf = NULL;
    S->rpos = S->rlen = 0;
    int pending = S->nahead > S->ahead_pos; /* a batch not answered: not waited for */
    S->nahead = S->ahead_pos = 0;
    if (!S->pid)
        return;
    close(S->w.to); /* EOF: the worker exits by itself, within 0.1 s */
    S->w.to = S->cmd_fd = -1;
    if (!pending)
        child_ended(&S->w, 0.1);
    kill_program(S); /* before the worker that reaps it */
    child_kill(&S->w);
    child_close(&S->w);
    child_reap(&S->w, NULL);
    S->pid = 0;
}

void sup_free(supervisor *S)
{
    sup_stop(S);
    guard_stop(&S->guard);
    free(S->aff_spec);
    S->aff_spec = NULL;
    free(S->payload);
    S->payload = NULL;
}

enum { RD_OK = 0, RD_EOF = -1, RD_TIMEOUT = -2, RD_INTR = -3 };

#define RBUF_SIZE (1 << 18)

/* Reads exactly n bytes before `deadline` (0 = none), through a buffer:
 * a trial's messages usually arrive in one write and are read in one. */
static int read_by(supervisor *S, void *buf, size_t n, double deadline)
{
    if (!S->rbuf)
        S->rbuf = xmalloc(RBUF_SIZE);
    while (S->rlen - S->rpos < n) {
        if (*S->interrupted)
            return RD_INTR;
        if (S->rpos) { /* keep the unread part at the front */
            memmove(S->rbuf, S->rbuf + S->rpos, S->rlen - S->rpos);
            S->rlen -= S->rpos;
            S->rpos = 0;
        }
        if (deadline > 0) {
            double left = deadline - now_seconds();
            if (left <= 0)
                return RD_TIMEOUT;
            struct pollfd pf = {S->res_fd, POLLIN, 0};
            int r = poll(&pf, 1, (int)(left * 1000) + 1);
            if (r < 0 && errno == EINTR)
                continue;
            if (r == 0)
                continue; /* the deadline check above decides */
        }
        ssize_t got = read(S->res_fd, S->rbuf + S->rlen, RBUF_SIZE - S->rlen);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            return RD_EOF;
        S->rlen += (size_t)got;
    }
    memcpy(buf, S->rbuf + S->rpos, n);
    S->rpos += n;
    return RD_OK;
}

/* The group a worker names (MSG_GROUP) is killed with it: only a group
 * whose leader is a child of the worker's, so that bytes written into the
 * pipe by something else cannot name the runner's own group, or -1 (every
 * process of the user's). */
static pid_t group_of_worker(const supervisor *S, int g)
{
    if (g <= 1 || g == getpgrp() || getpgid(g) != g)
        return 0;
    char p[64], buf[512];
    snprintf(p, sizeof p, "/proc/%d/stat", g);
    FILE *f = fopen(p, "r");
    size_t n = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
    if (f)
        fclose(f);
    buf[n] = '\0';
    char *rp = strrchr(buf, ')'); /* "pid (comm) S ppid ..." */
    int ppid = 0;
    if (!rp || sscanf(rp + 1, " %*c %d", &ppid) != 1 || ppid != S->pid)
        return 0;
    return g;
}

/* A header as the worker writes them (proto.h): its nonce, a known type, a
 * payload of the type's size, a status that is one.  Anything else was
 * written by something else in the worker (a plugin, a program that found
 * the pipe), and is never used as an index or a size. */
static int msg_valid(const supervisor *S, const msg_header *h)
{
    if (h->nonce != S->nonce || h->len > MSG_MAX_PAYLOAD || (h->retire != 0 && h->retire != 1))
        return 0;
    switch (h->type) {
    case MSG_SAMPLES:
        return h->len % sizeof(rn_sample) == 0;
    case MSG_COLD:
        return h->len == sizeof(double);
    case MSG_COUNTS:
        return h->len == 2 * sizeof(double);
    case MSG_GROUP:
        return h->len == sizeof(int);
    case MSG_TRACE:
        return h->len % sizeof(trace_rec) == 0;
    case MSG_EXTRA:
        return 1;
    case MSG_DONE:
        return h->status >= 0 && h->status < ST_COUNT;
    default:
        return 0;
    }
}

static void add_samples(trial_result *r, const rn_sample *s, int n)
{
    if (r->nsamples + n > r->cap) {
        r->cap = (r->nsamples + n) * 2;
        r->samples = xrealloc(r->samples, (size_t)r->cap * sizeof *r->samples);
    }
    memcpy(r->samples + r->nsamples, s, (size_t)n * sizeof *s);
    r->nsamples += n;
}

static int sup_run_inner(supervisor *S, long long t, double timeout, int samples, int warmups,
                         trial_result *out);

/* The trial, with the machine's load over it (sysload.h;
 * doc/timing.md#load): what the runner and its worker used is left out. */
void sup_run(supervisor *S, long long t, double timeout, int samples, int warmups,
             trial_result *out)
{
    load_snap a, b;
    load_snap_take(&a, S->pid);
    trace_file_begin(S->trace, "trial", (long)S->e->ids[t]);
    /* a worker that ended in a batch before trial t's verdict: t again,
     * alone in a fresh worker, which says what t does */
    while (sup_run_inner(S, t, timeout, samples, warmups, out) == 1)
        trial_result_free(out);
    trace_file_settle(S->trace); /* what a crashed or killed worker left open */
    trace_file_end(S->trace);
    load_snap_take(&b, S->pid ? S->pid : a.worker);
    load_add(&out->load, &a, &b);
}

/* 1 when trial u can go in trial t's batch: the same worker (CPUs and
 * threads), no fresh one wanted (warmup_curve), no timeout to keep. */
static int batchable(const supervisor *S, long long t, long long u)
{
    const experiment *e = S->e;
    int cols[2] = {S->col_affinity, S->col_threads};
    for (int i = 0; i < 2; i++) {
        if (cols[i] < 0)
            continue;
        value a = trial_value(e, t, cols[i]), b = trial_value(e, u, cols[i]);
        if (a.kind != b.kind || (a.text && strcmp(a.text, b.text)))
            return 0;
    }
    value w = S->col_wcurve >= 0 ? trial_value(e, u, S->col_wcurve) : (value){0};
    value o = S->col_timeout >= 0 ? trial_value(e, u, S->col_timeout) : (value){0};
    return !(w.kind == VAL_INT && w.i > 0) && !(value_is_num(&o) && o.f > 0);
}

/* Sends trial t's command, and with it those of the trials that follow it
 * (doc/timing.md#batches-of-small-trials) when the last trials were small;
 * -1 when the worker cannot be written to. */
static int send_trials(supervisor *S, long long t, const worker_cmd *first, double timeout)
{
    worker_cmd cmds[SUP_BATCH_MAX];
    cmds[0] = *first;
    S->ahead[0] = t;
    int n = 1;
    if (S->will_run && first->samples < 0 && first->warmups < 0 && timeout <= 0 &&
        !first->trace && t > S->solo_until && S->per_trial >= 0 &&
        S->per_trial < SUP_BATCH_UNDER) {
        double fit = S->per_trial > 0 ? SUP_BATCH_SPAN / S->per_trial : SUP_BATCH_MAX;
        int most = fit < SUP_BATCH_MAX ? (int)fit : SUP_BATCH_MAX;
        /* a look a little past the batch: a resumed run's done trials are skipped */
        for (long long u = t + 1; u < S->e->ntrials && n < most && u <= t + 16 * SUP_BATCH_MAX; u++) {
            if (!S->will_run(S->will_run_ctx, u))
                continue;
            if (!batchable(S, t, u))
                break;
            cmds[n] = *first;
            cmds[n].trial = u;
            S->ahead[n++] = u;
        }
    }
    for (int i = 0; i < n; i++)
        cmds[i].more = n - 1 - i;
    S->nahead = n;
    S->ahead_pos = 0;
    S->batch_at = now_seconds();
    size_t bytes = (size_t)n * sizeof cmds[0];
    if (fd_write_all(S->cmd_fd, cmds, bytes) < 0) {
        S->nahead = 0;
        return -1;
    }
    return 0;
}

static int sup_run_inner(supervisor *S, long long t, double timeout, int samples, int warmups,
                         trial_result *out)
{
    worker_cmd cmd;
    memset(&cmd, 0, sizeof cmd); /* no uninitialised padding down the pipe */
    cmd = (worker_cmd){t, samples, warmups, S->trace != NULL, 0};
    memset(out, 0, sizeof *out);
    out->cold = out->flops = out->bytes = NAN;
    /* the trial's CPUs (doc/timing.md#pinning): a worker is
     * pinned for its whole life, so a trial with other CPUs gets a new one */
    int ac = S->col_affinity, tc = S->col_threads;
    value av = ac >= 0 ? trial_value(S->e, t, ac) : (value){0};
    value tv = tc >= 0 ? trial_value(S->e, t, tc) : (value){0};
    const char *spec = S->place ? S->place : av.kind != VAL_NONE && av.text ? av.text : "none";
    int threads = tv.kind == VAL_INT ? (int)tv.i : host_cpus();
    /* resolved and formatted once while the trials' spec and threads stay
     * the same (issue 38: affinity_format was a per-trial cost) */
    if (!S->aff_spec || strcmp(S->aff_spec, spec) || S->aff_spec_threads != threads) {
        free(S->aff_spec);
        S->aff_spec = xstrdup(spec);
        S->aff_spec_threads = threads;
        S->aff_spec_pin = affinity_resolve(spec, threads, &S->aff_spec_set, S->aff_why,
                                           sizeof S->aff_why);
        if (S->aff_spec_pin >= 0)
            affinity_format(&S->aff_spec_set, S->aff_why, sizeof S->aff_why);
        snprintf(S->aff_spec_key, sizeof S->aff_spec_key, "%d:%d:%s", S->aff_spec_pin,
                 S->aff_spec_pin ? threads : 0, S->aff_why);
    }
    cpu_set_t set = S->aff_spec_set;
    const char *why = S->aff_why;
    int pin = S->aff_spec_pin;
    /* sent already, in the batch of a trial before it */
    int sent = S->pid && S->nahead > S->ahead_pos && S->ahead[S->ahead_pos] == t;
    if (!sent && S->nahead > S->ahead_pos) { /* a batch that does not go on: dropped */
        kill_program(S);
        child_kill(&S->w);
        free(reap(S, 1));
    }
    if (pin < 0) {
        out->status = ST_FAILED;
        out->reason = xstrdup(why);
        return 0;
    }
    const char *key = S->aff_spec_key;
    /* warmup_curve: the first calls of a fresh worker (doc/timing.md#the-warmup-curve) */
    int wc = S->col_wcurve;
    value wv = wc >= 0 ? trial_value(S->e, t, wc) : (value){0};
    int same_key = !strcmp(key, S->aff_key);
    if (S->pid && (!same_key || (wv.kind == VAL_INT && wv.i > 0)))
        sup_stop(S);
    if (!same_key)
        snprintf(S->aff_key, sizeof S->aff_key, "%s", key);
    S->aff_set = set;
    S->aff_threads = threads;
    S->aff_pin = pin;
    if (pin && !S->place) /* a block's CPU is the `blocks` column's */
        trial_result_add_extra(out, "cpus", why);
    if (!S->pid)
        trace_file_begin(S->trace, "start worker", -1);
    int spawned = !S->pid ? spawn(S) : 1; /* 0: a fresh one */
    if (spawned != 1)
        trace_file_end(S->trace);
    if (spawned < 0) {
        out->status = ST_FAILED;
        out->reason = xasprintf("cannot start a worker process: %s", strerror(errno));
        return 0;
    }
    if (!sent && send_trials(S, t, &cmd, timeout) < 0) {
        /* a worker that ended while idle, between two trials (killed from
         * outside): t never ran, and runs again in a fresh worker; a
         * fresh one that cannot be written to fails t, saying so */
        char *how = reap(S, 0);
        int fresh = spawned == 0;
        if (!fresh && !*S->interrupted) {
            free(how);
            return 1;
        }
        out->status = *S->interrupted ? ST_INTERRUPTED : ST_FAILED;
        out->reason = xasprintf("cannot send the trial to a fresh worker process: %s", how);
        free(how);
        return 0;
    }
    double start = now_seconds();
    double deadline = timeout > 0 ? start + timeout : 0;
    if (!S->payload) /* kept for the next trial: no 64 KiB allocation a trial */
        S->payload = xmalloc(MSG_MAX_PAYLOAD + 1);
    char *payload = S->payload;
    for (;;) {
        msg_header h;
        int rc = read_by(S, &h, sizeof h, deadline), bad = 0;
        if (rc == RD_OK && !msg_valid(S, &h)) {
            bad = 1;
            rc = RD_EOF;
        }
        if (rc == RD_OK && h.len)
            rc = read_by(S, payload, h.len, deadline);
        if (rc == RD_TIMEOUT || rc == RD_INTR) {
            kill_program(S); /* before the worker that reaps it */
            child_kill(&S->w);
            free(reap(S, 1));
            char d[32];
            fmt_seconds(d, sizeof d, timeout);
            out->status = rc == RD_TIMEOUT ? ST_TIMEOUT : ST_INTERRUPTED;
            out->reason = rc == RD_TIMEOUT
                              ? xasprintf("stopped at the %s timeout (%d samples taken)", d,
                                          out->nsamples)
                              : xstrdup("interrupted");
            break;
        }
        if (bad) /* not the worker's: it is stopped, its word no longer trusted */
            child_kill(&S->w);
        if (rc == RD_EOF && !*S->interrupted && S->nahead - S->ahead_pos > 1) {
            /* the worker ended in a batch: which of its trials ended it is
             * not known, so they go one a command from t on */
            S->solo_until = S->ahead[S->nahead - 1];
            free(reap(S, bad));
            return 1;
        }
        if (rc == RD_EOF) {
            out->status = *S->interrupted ? ST_INTERRUPTED : ST_FAILED;
            out->reason = reap(S, bad);
            if (bad && !*S->interrupted) {
                free(out->reason);
                out->reason = xasprintf(
                    "the worker's pipe to the runner held bytes the worker did not write "
                    "(type %d, %u bytes): something in the worker process (a plugin, or a "
                    "program that opened the pipe) wrote into it; the worker was stopped",
                    h.type, h.len);
            }
            break;
        }
        if (h.type == MSG_SAMPLES) {
            add_samples(out, (const rn_sample *)payload, (int)(h.len / sizeof(rn_sample)));
        } else if (h.type == MSG_COLD && h.len == sizeof(double)) {
            memcpy(&out->cold, payload, sizeof(double));
        } else if (h.type == MSG_COUNTS && h.len == 2 * sizeof(double)) {
            double c[2];
            memcpy(c, payload, sizeof c);
            out->flops = c[0];
            out->bytes = c[1];
        } else if (h.type == MSG_GROUP && h.len == sizeof(int)) {
            int g;
            memcpy(&g, payload, sizeof g);
            if (S->group > 0) /* the worker ended it */
                guard_watch(&S->guard, S->group, 0);
            S->group = group_of_worker(S, g);
            if (S->group > 0) /* to die with the runner, however it dies */
                guard_watch(&S->guard, S->group, 1);
        } else if (h.type == MSG_TRACE) {
            trace_file_add(S->trace, (const trace_rec *)payload, h.len / sizeof(trace_rec));
        } else if (h.type == MSG_EXTRA) {
            payload[h.len] = '\0';
            char *tab = strchr(payload, '\t');
            if (tab) {
                *tab = '\0';
                trial_result_add_extra(out, payload, tab + 1);
            }
        } else if (h.type == MSG_DONE) {
            payload[h.len] = '\0';
            out->status = (trial_status)h.status;
            out->reason = xstrdup(payload);
            /* a batch's verdicts come together: its first one times it */
            if (S->ahead_pos == 0)
                S->per_trial = (now_seconds() - S->batch_at) / S->nahead;
            if (++S->ahead_pos >= S->nahead)
                S->nahead = S->ahead_pos = 0;
            if (h.retire) /* it exits now: the next trial gets a fresh one */
                free(reap(S, 1));
            break;
        }
    }
    return 0;
}
