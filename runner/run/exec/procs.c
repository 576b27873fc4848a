/* procs.c - see procs.h.
 *
 * The worker forks the N processes in prepare(), each with a socket pair to
 * it.  A process (procs_child.c) builds its own trial (one thread; its
 * part of the size; the parameters process_index and process_count
 * added), selects its device, prepares, and answers "ready" with the times
 * it started and was ready; then it serves the worker's one-byte commands.
 * The barrier is a counter and a generation
 * number in a shared anonymous mapping: the last process to arrive bumps the
 * generation, the others spin on it (yielding the CPU after a while), so a
 * call starts within microseconds in every process.  The call's time is the
 * last end minus the first start; the spread of the starts is the barrier's
 * skew, and the share of the call during which every process ran is the
 * overlap (doc/timing.md#processes-and-threads). */
#include "run/exec/procs.h"

#include "base/child.h"
#include "base/util.h"
#include "run/exec/procs_child.h"
#include "run/exec/trace.h"
#include "stats/stats.h"

#include <errno.h>
#include <math.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

typedef struct member {
    child ch; /* ch.to == ch.from: its socket */
    procs_reply last;
} member;

typedef struct procs {
    int n, dead; /* dead: the processes were killed (a crash) */
    member *c;
    procs_shared *sh;
    const rn_trial *t;
    double *up, *up_fork;   /* per start: to the last one ready, to the last one running */
    int nup, cup, nupf, cupf;
    double *skew, *overlap; /* per call */
    int nskew, cskew, nover, cover;
    int torn_failed; /* spawn: per_call: a call's teardown failed (torn: how) */
    rn_error torn;
    int cpus;                /* CPUs the worker may use: crowding is only told below it */
    int crowded;             /* the last call had two processes on one CPU */
    long calls, crowded_calls; /* since timed_begin */
} procs;

static procs_spec spec;

const char *procs_refusal(const resolved_trial *r, const workload_desc *desc)
{
    if (!r->processes)
        return r->replicate  ? "share: replicate needs parallel: processes"
               : r->per_call ? "spawn: per_call needs parallel: processes"
                             : NULL;
    if (r->t.device != RN_DEV_CPU)
        return "parallel: processes runs on the CPU (a CUDA context does not survive fork)";
    if (desc && !strcmp(desc->name, "concurrent"))
        return "parallel: processes does not apply to concurrent (use its mode)";
    return r->t.cold_cache ? "cold_cache is not supported with parallel: processes" : NULL;
}

const rn_workload_impl *procs_workload(const procs_spec *s)
{
    spec = *s;
    return &core_processes;
}

/* --- the worker's side ------------------------------------------------- */

/* Ends every process that is still there and reaps it. */
static void kill_all(procs *P)
{
    for (int k = 0; k < P->n; k++)
        child_kill(&P->c[k].ch);
    for (int k = 0; k < P->n; k++)
        if (P->c[k].ch.pid > 0)
            child_reap(&P->c[k].ch, NULL);
    P->dead = 1;
}

/* Process k ended (its socket closed): how, in err; every other one is ended. */
static void crashed(procs *P, int k, rn_error *err)
{
    int st = 0;
    child_reap(&P->c[k].ch, &st);
    if (WIFSIGNALED(st))
        snprintf(err->msg, sizeof err->msg, "process %d of %d crashed: signal %d (%s)", k + 1,
                 P->n, WTERMSIG(st), strsignal(WTERMSIG(st)));
    else
        snprintf(err->msg, sizeof err->msg, "process %d of %d exited with status %d", k + 1, P->n,
                 WIFEXITED(st) ? WEXITSTATUS(st) : -1);
    kill_all(P);
}

/* Sends `cmd` to every process and reads every answer (in c[k].last);
 * 0, or 1 with err set: a process crashed, or answered an error (the
 * first one's message, as "process K of N: ..."). */
static int round_trip(procs *P, char cmd, rn_error *err)
{
    if (P->dead) {
        snprintf(err->msg, sizeof err->msg, "the processes were ended by an earlier failure");
        return 1;
    }
    for (int k = 0; k < P->n; k++)
        if (send(P->c[k].ch.to, &cmd, 1, MSG_NOSIGNAL) != 1) {
            crashed(P, k, err);
            return 1;
        }
    struct pollfd *pf = xcalloc((size_t)P->n, sizeof *pf);
    int left = P->n, bad = -1;
    char msg[sizeof err->msg];
    for (int k = 0; k < P->n; k++)
        pf[k] = (struct pollfd){P->c[k].ch.to, POLLIN, 0};
    while (left > 0) {
        if (poll(pf, (nfds_t)P->n, -1) < 0) {
            if (errno == EINTR)
                continue;
            break;
        }
        for (int k = 0; k < P->n; k++) {
            if (pf[k].fd < 0 || !pf[k].revents)
                continue;
            procs_reply *r = &P->c[k].last;
            if (fd_read_all(P->c[k].ch.to, r, sizeof *r) < 0) {
                free(pf);
                crashed(P, k, err);
                return 1;
            }
            if (r->rc) {
                size_t len = r->len < sizeof msg - 1 ? r->len : sizeof msg - 1;
                char junk[256];
                fd_read_all(P->c[k].ch.to, msg, len);
                for (size_t rest = r->len - len; rest > 0;) { /* what did not fit */
                    size_t c = rest < sizeof junk ? rest : sizeof junk;
                    fd_read_all(P->c[k].ch.to, junk, c);
                    rest -= c;
                }
                msg[len] = '\0';
                if (bad < 0) {
                    bad = k;
                    snprintf(err->msg, sizeof err->msg, "process %d of %d: %.900s", k + 1, P->n,
                             msg);
                }
            }
            pf[k].fd = -1;
            left--;
        }
    }
    free(pf);
    if (bad < 0 && left > 0)
        snprintf(err->msg, sizeof err->msg, "cannot wait for the processes: %s", strerror(errno));
    return bad >= 0 || left > 0;
}

static void push(double **v, int *n, int *cap, double x)
{
    if (*n == *cap) {
        *cap = *cap ? *cap * 2 : 64;
        *v = xrealloc(*v, (size_t)*cap * sizeof **v);
    }
    (*v)[(*n)++] = x;
}

/* Ends the processes: each tears down and exits; reaps them. */
static void stop(procs *P)
{
    char q = 'Q';
    for (int k = 0; k < P->n; k++)
        if (P->c[k].ch.pid > 0)
            send(P->c[k].ch.to, &q, 1, MSG_NOSIGNAL);
    for (int k = 0; k < P->n; k++) {
        child_close(&P->c[k].ch);
        if (P->c[k].ch.pid > 0)
            child_reap(&P->c[k].ch, NULL);
    }
}

static void release(void *state)
{
    procs *P = state;
    if (!P)
        return;
    stop(P);
    if (P->sh)
        munmap(P->sh, sizeof *P->sh);
    FREE_ALL(P->c, P->skew, P->overlap, P->up, P->up_fork, P);
}

typedef struct member_arg {
    int k;
    procs *P;
    pid_t worker;
} member_arg;

/* Process k, in a child of the worker (base/child.h) that ties itself to
 * the worker's life (procs_child.c). */
static void member_main(void *arg, int in, int out)
{
    const member_arg *a = arg;
    (void)out;
    procs_child_main(a->k, &spec, a->P->t, in, a->P->sh, a->worker);
}

/* Forks the processes and waits until each has prepared; *t_fork gets the
 * time of the first fork.  0, or the failure (2: a skip) with err set and
 * no process left. */
static int start(procs *P, double *t_fork, rn_error *err)
{
    int n = P->n;
    atomic_store(&P->sh->arrived, 0); /* a group killed in mid-call left them */
    atomic_store(&P->sh->gen, 0);
    P->dead = 0;
    fflush(NULL);
    pid_t self = getpid();
    *t_fork = now_seconds();
    for (int k = 0; k < n; k++) {
        member_arg a = {k, P, self};
        if (child_start(&P->c[k].ch, CHILD_SOCKET, member_main, &a) < 0) {
            snprintf(err->msg, sizeof err->msg, "cannot start process %d of %d: %s", k + 1, n,
                     strerror(errno));
            kill_all(P);
            stop(P);
            return 1;
        }
    }
    /* the ready answers: prepare's outcome, and when each started and was ready */
    int rc = 0;
    for (int k = 0; k < n && !rc; k++) {
        procs_reply *r = &P->c[k].last;
        if (fd_read_all(P->c[k].ch.to, r, sizeof *r) < 0) {
            crashed(P, k, err);
            rc = 1;
        } else if (r->rc) {
            char msg[sizeof err->msg];
            size_t len = r->len < sizeof msg - 1 ? r->len : sizeof msg - 1;
            fd_read_all(P->c[k].ch.to, msg, len);
            msg[len] = '\0';
            snprintf(err->msg, sizeof err->msg, "process %d of %d: %.900s", k + 1, n, msg);
            rc = r->rc == 2 ? 2 : 1;
            kill_all(P);
        }
    }
    if (rc) {
        stop(P);
        return rc;
    }
    double up = 0, up_fork = 0;
    for (int k = 0; k < n; k++) {
        const procs_reply *r = &P->c[k].last;
        up = r->t1 - *t_fork > up ? r->t1 - *t_fork : up;
        up_fork = r->t0 - *t_fork > up_fork ? r->t0 - *t_fork : up_fork;
        if (spec.per_call)
            continue; /* new processes every call: no track of their own */
        char tn[48];
        snprintf(tn, sizeof tn, "process %d of %d (%d)", k + 1, n, (int)P->c[k].ch.pid);
        trace_track((int)P->c[k].ch.pid, tn);
        trace_span_on((int)P->c[k].ch.pid, "prepare", r->t0, r->t1);
    }
    push(&P->up, &P->nup, &P->cup, up);
    push(&P->up_fork, &P->nupf, &P->cupf, up_fork);
    return 0;
}

static int prepare(const rn_trial *t, void **state, rn_error *err)
{
    int n = spec.n;
    const char *split = spec.desc ? spec.desc->split : "size";
    const char *name = spec.desc ? spec.desc->name : t->workload;
    if (!spec.replicate) {
        long long total = split && !strcmp(split, "m") && rn_param_num(t, "m", -1) >= 0
                              ? (long long)rn_param_num(t, "m", -1)
                              : t->size;
        if (!split) {
            snprintf(err->msg, sizeof err->msg,
                     "share: split: %s has no work to divide (use share: replicate)", name);
            return 2;
        }
        if (total < 0) {
            snprintf(err->msg, sizeof err->msg, "share: split needs the trial's size");
            return 2;
        }
        if (total < n) {
            snprintf(err->msg, sizeof err->msg,
                     "share: split: %s %lld is fewer than the %d processes", split, total, n);
            return 2;
        }
    }
    procs *P = xcalloc(1, sizeof *P);
    P->n = n;
    P->t = t; /* the worker's trial: alive until release */
    P->c = xcalloc((size_t)n, sizeof *P->c);
    for (int k = 0; k < n; k++)
        P->c[k].ch = child_of(0, 0);
    P->sh = mmap(NULL, sizeof *P->sh, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (P->sh == MAP_FAILED) {
        P->sh = NULL;
        snprintf(err->msg, sizeof err->msg, "cannot map the barrier: %s", strerror(errno));
        release(P);
        return 1;
    }
    atomic_init(&P->sh->arrived, 0);
    atomic_init(&P->sh->gen, 0);
    cpu_set_t mine;
    P->cpus = sched_getaffinity(0, sizeof mine, &mine) == 0 ? CPU_COUNT(&mine) : host_cpus();
    /* spawn: per_call starts them in every call instead */
    double t_fork;
    int rc = spec.per_call ? 0 : start(P, &t_fork, err);
    if (rc) {
        release(P);
        return rc;
    }
    *state = P;
    return 0;
}

/* Whether two of the processes began or ended the call on one CPU while
 * the worker had a CPU for each: the OS placed them together (a wakeup on
 * the waker's CPU, a busy or preempted CPU passed over) and they took
 * turns; the balancer moves one away later, tens of milliseconds on
 * (doc/timing.md#processes-and-threads, shared_cpu_calls). */
static int crowded(const procs *P)
{
    if (P->n > P->cpus)
        return 0; /* sharing is what was asked for */
    for (int k = 0; k < P->n; k++)
        for (int j = k + 1; j < P->n; j++) {
            const procs_reply *a = &P->c[k].last, *b = &P->c[j].last;
            if ((a->cpu0 >= 0 && a->cpu0 == b->cpu0) || (a->cpu1 >= 0 && a->cpu1 == b->cpu1))
                return 1;
        }
    return 0;
}

/* One call: every process starts on the barrier; from the first start to
 * the last end. */
static int run(void *state, rn_sample *s, rn_error *err)
{
    procs *P = state;
    double t_fork = NAN;
    if (spec.per_call && start(P, &t_fork, err))
        return 1;
    if (round_trip(P, 'R', err))
        return 1;
    double s0 = INFINITY, s1 = -INFINITY, e0 = INFINITY, e1 = -INFINITY;
    for (int k = 0; k < P->n; k++) {
        const procs_reply *r = &P->c[k].last;
        s0 = r->t0 < s0 ? r->t0 : s0;
        s1 = r->t0 > s1 ? r->t0 : s1;
        e0 = r->t1 < e0 ? r->t1 : e0;
        e1 = r->t1 > e1 ? r->t1 : e1;
        if (!spec.per_call)
            trace_call_on(k, (int)P->c[k].ch.pid, r->t0, r->t1);
    }
    double call = e1 - s0;
    P->crowded = crowded(P);
    P->calls++;
    P->crowded_calls += P->crowded;
    /* a batch of calls: the harness divides the sum by the batch */
    s->seconds = (isnan(s->seconds) ? 0 : s->seconds) + call;
    push(&P->skew, &P->nskew, &P->cskew, s1 - s0);
    push(&P->overlap, &P->nover, &P->cover, call > 0 && e0 > s1 ? (e0 - s1) / call : 0);
    if (spec.per_call) { /* from the first fork; each call's processes check their result */
        s->seconds += s0 - t_fork;
        int bad = round_trip(P, 'C', err);
        /* and tear down: the first error fails the trial at its end */
        rn_error terr = {{0}};
        if (spec.impl->teardown && !P->dead && round_trip(P, 'T', &terr) && !P->torn_failed) {
            P->torn_failed = 1;
            P->torn = terr;
        }
        stop(P);
        return bad;
    }
    return 0;
}

static int check(void *state, rn_error *err)
{
    procs *P = state;
    return spec.per_call ? 0 : round_trip(P, 'C', err); /* per call: checked in run() */
}

/* The user's teardown in every process, before release (the worker's end
 * of a trial): the first error, "process K of N: ...", fails the trial, as
 * a teardown's error does in the worker (doc/timing.md#processes-and-threads).
 * Processes ended by a crash have nothing left to tear down. */
static int teardown(void *state, rn_error *err)
{
    procs *P = state;
    if (!spec.impl->teardown)
        return 0;
    if (spec.per_call) { /* torn down after each call, in run() */
        if (P->torn_failed)
            *err = P->torn;
        return P->torn_failed;
    }
    return P->dead ? 0 : round_trip(P, 'T', err);
}

/* flops and bytes per call: the processes' parts summed (NAN: not stated) */
static void work(void *state, double *flops, double *bytes)
{
    procs *P = state;
    rn_error err;
    *flops = *bytes = NAN;
    if (round_trip(P, 'F', &err))
        return;
    *flops = *bytes = 0;
    for (int k = 0; k < P->n; k++) {
        *flops += P->c[k].last.t0; /* NAN when not stated: stays NAN */
        *bytes += P->c[k].last.t1;
    }
}

static void extras(void *state, void *ctx, void (*cb)(void *, const char *, const char *))
{
    procs *P = state;
    char v[48];
    snprintf(v, sizeof v, "%d", P->n);
    cb(ctx, "processes", v);
    if (P->nup > 0) { /* spawn: per_call: the median over calls */
        snprintf(v, sizeof v, "%.6g", stats_median_copy(P->up, P->nup));
        cb(ctx, "startup_seconds", v);
        snprintf(v, sizeof v, "%.6g", stats_median_copy(P->up_fork, P->nupf));
        cb(ctx, "startup_fork_seconds", v);
    }
    if (P->calls > 0 && P->n <= P->cpus) {
        snprintf(v, sizeof v, "%ld", P->crowded_calls);
        cb(ctx, "shared_cpu_calls", v);
    }
    if (P->nskew > 0) {
        snprintf(v, sizeof v, "%.6g", stats_median_copy(P->skew, P->nskew));
        cb(ctx, "barrier_skew_seconds", v);
        snprintf(v, sizeof v, "%.4g", stats_median_copy(P->overlap, P->nover));
        cb(ctx, "overlap", v);
    }
}

/* timed_begin: shared_cpu_calls counts from here (the warmup's calls are
 * not the trial's). */
static void timed_begin(void *state)
{
    procs *P = state;
    P->calls = P->crowded_calls = 0;
}

/* unsettled: the last call had two processes on one CPU though the worker
 * had one for each (a warmup is not steady then). */
static int unsettled(const void *state)
{
    return ((const procs *)state)->crowded;
}

const rn_workload_impl core_processes = {
    .name = "processes", .prepare = prepare, .run = run, .check = check, .release = release,
    .extras = extras, .work = work, .teardown = teardown, .timed_begin = timed_begin,
    .unsettled = unsettled,
};
