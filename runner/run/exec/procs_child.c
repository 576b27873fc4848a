/* procs_child.c - see procs_child.h.  Commands: R (wait on the barrier,
 * run one call, answer its start and end and the CPUs it ran on), C
 * (check), F (its flops and bytes per call), T (the user's teardown,
 * answering its error), Q (exit; the teardown first if no T came). */
#include "run/exec/procs_child.h"

#include "base/util.h"

#include <errno.h>
#include <math.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <unistd.h>

#define SPIN 4096 /* barrier polls before each sched_yield() */

static void barrier_wait(procs_shared *sh, unsigned n)
{
    unsigned g = atomic_load_explicit(&sh->gen, memory_order_acquire);
    if (atomic_fetch_add_explicit(&sh->arrived, 1, memory_order_acq_rel) == n - 1) {
        atomic_store_explicit(&sh->arrived, 0, memory_order_relaxed);
        atomic_fetch_add_explicit(&sh->gen, 1, memory_order_release);
        return;
    }
    for (unsigned long i = 1; atomic_load_explicit(&sh->gen, memory_order_acquire) == g; i++)
        if (i % SPIN == 0)
            sched_yield();
}

static void answer(int fd, int rc, double t0, double t1, int cpu0, const char *msg)
{
    size_t len = rc && msg ? strlen(msg) : 0;
    procs_reply r = {rc, (uint32_t)len, t0, t1, cpu0, sched_getcpu()};
    if (send(fd, &r, sizeof r, MSG_NOSIGNAL) != (ssize_t)sizeof r ||
        (len && send(fd, msg, len, MSG_NOSIGNAL) != (ssize_t)len))
        _exit(3); /* the worker is gone */
}

/* The part of `total` that process k of n gets: as even as whole numbers allow. */
static long long part(long long total, int n, int k)
{
    return total / n + (k < total % n ? 1 : 0);
}

void procs_child_main(int k, const procs_spec *spec, const rn_trial *tr, int fd, procs_shared *sh,
                      pid_t parent)
{
    double started = now_seconds();
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent)
        _exit(0);
    /* only its own socket: the worker's pipes and the other processes'
     * sockets stay with their owners (a crash here is seen as their EOF) */
    if (fd != 3) {
        dup2(fd, 3);
        fd = 3;
    }
    close_range(4, ~0U, 0);

    rn_trial ct = *tr;
    ct.threads = 1;
    rn_param *ps = calloc((size_t)tr->nparams + 3, sizeof *ps);
    char m_text[32], idx_text[16], n_text[16];
    int np = 0;
    const char *split = spec->desc ? spec->desc->split : "size";
    for (int i = 0; ps && i < tr->nparams; i++)
        if (spec->replicate || !split || strcmp(tr->params[i].name, "m"))
            ps[np++] = tr->params[i];
    if (!ps)
        _exit(4);
    if (!spec->replicate && !strcmp(split, "size")) {
        ct.size = part(tr->size, spec->n, k);
    } else if (!spec->replicate && !strcmp(split, "m")) {
        double m = rn_param_num(tr, "m", -1);
        long long rows = part(m >= 0 ? (long long)m : tr->size, spec->n, k);
        snprintf(m_text, sizeof m_text, "%lld", rows);
        ps[np++] = (rn_param){"m", m_text, (double)rows};
    }
    snprintf(idx_text, sizeof idx_text, "%d", k + 1);
    snprintf(n_text, sizeof n_text, "%d", spec->n);
    ps[np++] = (rn_param){"process_index", idx_text, (double)(k + 1)};
    ps[np++] = (rn_param){"process_count", n_text, (double)spec->n};
    ct.params = ps;
    ct.nparams = np;

    rn_error err = {{0}};
    void *state = NULL;
    int torn = 0;
    int rc = spec->b && spec->b->select ? spec->b->select(&ct, &err) : 0;
    if (rc == 0)
        rc = spec->impl->prepare(&ct, &state, &err);
    answer(fd, rc, started, now_seconds(), -1, err.msg[0] ? err.msg : "prepare failed");
    if (rc != 0)
        _exit(0);
    for (;;) {
        char cmd;
        ssize_t got = read(fd, &cmd, 1);
        if (got < 0 && errno == EINTR)
            continue;
        if (got != 1 || cmd == 'Q')
            break;
        if (cmd == 'R') {
            rn_sample s;
            rn_sample_clear(&s);
            barrier_wait(sh, (unsigned)spec->n);
            double t0 = now_seconds();
            int cpu0 = sched_getcpu();
            rc = spec->impl->run(state, &s, &err);
            double t1 = now_seconds();
            answer(fd, rc, t0, t1, cpu0, err.msg[0] ? err.msg : "run failed");
        } else if (cmd == 'C') {
            rc = spec->impl->check ? spec->impl->check(state, &err) : 0;
            answer(fd, rc, 0, 0, -1, err.msg);
        } else if (cmd == 'F') { /* as the worker counts a call (doc/timing.md#how-a-trial-is-timed) */
            double f = spec->desc && spec->desc->flops ? spec->desc->flops(&ct) : NAN;
            double b = spec->desc && spec->desc->bytes ? spec->desc->bytes(&ct) : NAN;
            if (spec->impl->work)
                spec->impl->work(state, &f, &b);
            answer(fd, 0, f, b, -1, NULL);
        } else if (cmd == 'T') { /* its error fails the trial (doc/timing.md#processes-and-threads) */
            err = (rn_error){{0}};
            rc = spec->impl->teardown && !torn ? spec->impl->teardown(state, &err) : 0;
            torn = 1;
            answer(fd, rc, 0, 0, -1, err.msg[0] ? err.msg : "teardown failed");
        }
    }
    if (spec->impl->teardown && !torn) /* no T came: the worker is gone */
        spec->impl->teardown(state, &err);
    spec->impl->release(state);
    _exit(0);
}
