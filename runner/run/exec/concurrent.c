/* concurrent.c - see concurrent.h.
 *
 * prepare() resolves and prepares every member.  Each call of run() is one
 * round: every member alone, one after the other, and the members together
 * (per `mode`), in an order that rotates from round to round (round k starts
 * at slot k mod (members + 1), the together call being the last slot), so
 * the solo baselines are interleaved with the calls they are compared to.
 * Issue 16: solo runs taken once in prepare, before the calls, gave speedups
 * of 1.31, 1.01 and 1.91 on three reruns as the machine drifted.  The sample
 * the harness records is the together call alone (run() sets s->seconds);
 * the rounds of the timed calls (timed_begin() drops those of
 * warmups and batch probes) give per-round speedups, sum of that round's solo
 * times / that round's call, whose median is `speedup`, with a bootstrap 95 %
 * CI over rounds (speedup_ci95_low/high).  `threads` and `streams` start one
 * host thread per member (CUDA members use their own non-blocking streams,
 * so members on one GPU overlap as streams do); `sequential` runs them in
 * turn.  Extra columns: each member's median time during the timed calls and
 * alone, the sums, and the speedup. */
#include "run/exec/concurrent.h"

#include "experiment/registry/backends.h"
#include "stats/stats.h"
#include "experiment/trial.h"
#include "base/util.h"
#include "experiment/registry/workloads.h"

#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_MEMBERS 16
#define CONC_BOOT 2000       /* bootstrap resamples of the speedup */

typedef struct member {
    rn_trial t;
    rn_param params[32];
    const rn_backend *b;
    const rn_workload_impl *impl;
    void *state;
    double *times;
    double *alone_t; /* the solo runs, one a round */
    int nalone, acap;
    int ntimes, cap;
    rn_error err;
    int rc;
} member;

typedef struct conc conc;

typedef struct member_arg {
    conc *c;
    member *m;
} member_arg;

struct conc {
    int n, sequential;
    /* threads / streams: one long-lived thread per member, released together
     * each call; threads made once are spread over the cores by the
     * scheduler, where fresh ones start on the caller's core */
    pthread_t th[MAX_MEMBERS];
    pthread_mutex_t mu;
    pthread_cond_t go, done;
    unsigned gen;      /* bumped to start a call */
    int pending, quit; /* members still running this call; shutting down */
    int nthreads;
    member_arg args[MAX_MEMBERS];
    char *text; /* the members' spec, cut in place: the trials point into it */
    double *calls;
    int ncalls, ccap;
    long round; /* rounds run, warmups included: rotates the order */
    member m[MAX_MEMBERS];
};

static void push(double **v, int *n, int *cap, double x)
{
    if (*n == *cap) {
        *cap = *cap ? *cap * 2 : 16;
        *v = xrealloc(*v, (size_t)*cap * sizeof **v);
    }
    (*v)[(*n)++] = x;
}

/* "workload=matmul device=cpu size=2048" -> a trial */
static int parse_member(member *m, char *spec, const rn_trial *outer, rn_error *err)
{
    m->t = (rn_trial){.workload = "", .threads = outer->threads, .seed = outer->seed,
                      .dtype = outer->dtype, .io = RN_IO_WITH, .size = -1, .params = m->params};
    char *save = NULL;
    for (char *kv = strtok_r(spec, " ", &save); kv; kv = strtok_r(NULL, " ", &save)) {
        char *eq = strchr(kv, '=');
        if (!eq)
            continue;
        *eq = '\0';
        const char *k = kv, *v = eq + 1;
        if (!strcmp(k, "workload"))
            m->t.workload = v;
        else if (!strcmp(k, "device")) {
            m->t.device = strncmp(v, "cuda", 4) ? RN_DEV_CPU : RN_DEV_CUDA;
            /* v[4] exists only after "cuda" ("cpu" ends at v[3]) */
            m->t.device_index = m->t.device == RN_DEV_CUDA && v[4] == ':' ? atoi(v + 5) : 0;
        } else if (!strcmp(k, "threads"))
            m->t.threads = strcmp(v, "all") ? atoi(v) : host_cpus();
        else if (!strcmp(k, "io"))
            m->t.io = !strcmp(v, "without") ? RN_IO_WITHOUT
                      : !strcmp(v, "overlap") ? RN_IO_OVERLAP
                                              : RN_IO_WITH;
        else if (!strcmp(k, "dtype"))
            m->t.dtype = !strcmp(v, "f64") ? RN_F64 : !strcmp(v, "f16") ? RN_F16
                         : !strcmp(v, "bf16")                          ? RN_BF16
                                                                       : RN_F32;
        else if (!strcmp(k, "size"))
            m->t.size = atoll(v);
        else if (!strcmp(k, "seed"))
            m->t.seed = strtoull(v, NULL, 10);
        else if (m->t.nparams < 32)
            m->params[m->t.nparams++] = (rn_param){k, v, !strcmp(v, "true") ? 1 : atof(v)};
    }
    const workload_desc *d = workload_find(m->t.workload);
    if (!d) {
        snprintf(err->msg, sizeof err->msg, "concurrent: unknown member workload '%s'",
                 m->t.workload);
        return 1;
    }
    /* what a member does not set it takes from the concurrent trial: its
     * dtype (above), its size when it has one, and the parameters of the
     * member's workload (doc/workloads.md#concurrent: a swept batch or precision
     * reaches every member) */
    if (m->t.size < 0 && outer->size > 0)
        m->t.size = outer->size;
    if (m->t.size < 0)
        m->t.size = d->default_size;
    for (int i = 0; i < outer->nparams && m->t.nparams < 32; i++) {
        const rn_param *p = &outer->params[i];
        if (p->text && *p->text && workload_param(d, p->name) && !rn_trial_param(&m->t, p->name))
            m->params[m->t.nparams++] = *p;
    }
    return 0;
}

/* timed_begin: the rounds run so far (warmups, batch probes) are dropped
 * from the solo and call times that the speedup is computed from
 * (doc/workloads.md#concurrent). */
static void timed_begin(void *state)
{
    conc *c = state;
    c->ncalls = 0;
    for (int i = 0; i < c->n; i++)
        c->m[i].ntimes = c->m[i].nalone = 0;
}

static double run_member(member *m)
{
    rn_sample s;
    rn_sample_clear(&s);
    double t0 = now_seconds();
    m->rc = (m->b->select && m->b->select(&m->t, &m->err)) ||
            m->impl->run(m->state, &s, &m->err);
    return now_seconds() - t0;
}



static void *member_thread(void *p)
{
    member_arg *a = p;
    conc *c = a->c;
    unsigned seen = 0;
    pthread_mutex_lock(&c->mu);
    for (;;) {
        while (c->gen == seen && !c->quit)
            pthread_cond_wait(&c->go, &c->mu);
        if (c->quit)
            break;
        seen = c->gen;
        pthread_mutex_unlock(&c->mu);
        double x = run_member(a->m);
        pthread_mutex_lock(&c->mu);
        push(&a->m->times, &a->m->ntimes, &a->m->cap, x);
        if (--c->pending == 0)
            pthread_cond_signal(&c->done);
    }
    pthread_mutex_unlock(&c->mu);
    return NULL;
}

static int failed(conc *c, rn_error *err)
{
    for (int i = 0; i < c->n; i++)
        if (c->m[i].rc) {
            snprintf(err->msg, sizeof err->msg, "member %d (%s): %.900s", i + 1, c->m[i].t.workload,
                     c->m[i].err.msg);
            return 1;
        }
    return 0;
}

static void release(void *state)
{
    conc *c = state;
    if (!c->sequential) {
        pthread_mutex_lock(&c->mu);
        c->quit = 1;
        pthread_cond_broadcast(&c->go);
        pthread_mutex_unlock(&c->mu);
        for (int i = 0; i < c->nthreads; i++)
            pthread_join(c->th[i], NULL);
        pthread_mutex_destroy(&c->mu);
        pthread_cond_destroy(&c->go);
        pthread_cond_destroy(&c->done);
    }
    for (int i = 0; i < c->n; i++) {
        member *m = &c->m[i];
        if (m->impl && m->state)
            m->impl->release(m->state);
        free(m->times);
        free(m->alone_t);
    }
    free(c->calls);
    free(c->text);
    free(c);
}

static int prepare(const rn_trial *t, void **state, rn_error *err)
{
    const char *spec = rn_param_text(t, "members", NULL);
    if (!spec || !*spec) {
        snprintf(err->msg, sizeof err->msg, "concurrent needs 'members' (a list of workload specs)");
        return 1;
    }
    conc *c = xcalloc(1, sizeof *c);
    c->sequential = !strcmp(rn_param_text(t, "mode", "threads"), "sequential");
    if (!c->sequential) {
        pthread_mutex_init(&c->mu, NULL);
        pthread_cond_init(&c->go, NULL);
        pthread_cond_init(&c->done, NULL);
    }
    c->text = xstrdup(spec);
    char *parts[MAX_MEMBERS], *save = NULL;
    int nparts = 0;
    for (char *one = strtok_r(c->text, ";", &save); one && nparts < MAX_MEMBERS;
         one = strtok_r(NULL, ";", &save))
        parts[nparts++] = one;
    int rc = 0;
    for (int i = 0; i < nparts && !rc; i++) {
        member *m = &c->m[c->n++];
        if ((rc = parse_member(m, parts[i], t, err)))
            break;
        char why[512];
        m->b = backend_for(m->t.device, why, sizeof why);
        if (!m->b) {
            snprintf(err->msg, sizeof err->msg, "member %d (%s): %s", i + 1, m->t.workload, why);
            rc = 2;
            break;
        }
        int ndev = m->b->device_count();
        if (m->t.device_index >= ndev) {
            snprintf(err->msg, sizeof err->msg,
                     "member %d needs %s:%d; this machine has %d %s device%s", i + 1, m->b->name,
                     m->t.device_index, ndev, m->b->name, ndev == 1 ? "" : "s");
            rc = 2;
            break;
        }
        m->impl = m->b->workload(m->t.workload);
        if (!m->impl) {
            snprintf(err->msg, sizeof err->msg, "member %d: workload %s does not run on %s", i + 1,
                     m->t.workload, m->b->name);
            rc = 2;
            break;
        }
        if (m->b->select && m->b->select(&m->t, err)) {
            rc = 1;
            break;
        }
        int prc = m->impl->prepare(&m->t, &m->state, err);
        if (prc) {
            m->state = NULL;
            m->impl = NULL;
            char inner[sizeof err->msg];
            snprintf(inner, sizeof inner, "%s", err->msg);
            snprintf(err->msg, sizeof err->msg, "member %d: %.900s", i + 1, inner);
            rc = prc;
            break;
        }
    }
    for (int i = 0; !rc && !c->sequential && i < c->n; i++) {
        c->args[i] = (member_arg){c, &c->m[i]};
        if (pthread_create(&c->th[i], NULL, member_thread, &c->args[i]) != 0) {
            snprintf(err->msg, sizeof err->msg, "concurrent: cannot start a thread");
            rc = 1;
        } else {
            c->nthreads++;
        }
    }
    if (rc) {
        release(c);
        return rc;
    }
    *state = c;
    return 0;
}

/* the members together: the time of the call */
static double together(conc *c)
{
    double t0 = now_seconds();
    if (c->sequential) {
        for (int i = 0; i < c->n; i++)
            push(&c->m[i].times, &c->m[i].ntimes, &c->m[i].cap, run_member(&c->m[i]));
        return now_seconds() - t0;
    }
    pthread_mutex_lock(&c->mu);
    c->pending = c->nthreads;
    c->gen++;
    pthread_cond_broadcast(&c->go); /* every member starts now */
    while (c->pending > 0)
        pthread_cond_wait(&c->done, &c->mu);
    pthread_mutex_unlock(&c->mu);
    return now_seconds() - t0;
}

/* One round: each member alone and the members together, the order rotated
 * each round; the sample is the together call only. */
static int run(void *state, rn_sample *s, rn_error *err)
{
    conc *c = state;
    int slots = c->n + 1, first = (int)(c->round++ % slots);
    for (int k = 0; k < slots; k++) {
        int j = (first + k) % slots;
        if (j == c->n) {
            double call = together(c);
            push(&c->calls, &c->ncalls, &c->ccap, call);
            /* a batch of calls: the harness divides the sum by the batch */
            s->seconds = (isnan(s->seconds) ? 0 : s->seconds) + call;
        } else {
            member *m = &c->m[j];
            push(&m->alone_t, &m->nalone, &m->acap, run_member(m));
        }
        if (failed(c, err))
            return 1;
    }
    return 0;
}

static int check(void *state, rn_error *err)
{
    conc *c = state;
    for (int i = 0; i < c->n; i++) {
        member *m = &c->m[i];
        if (m->impl->check && m->impl->check(m->state, err)) {
            char inner[sizeof err->msg];
            snprintf(inner, sizeof inner, "%s", err->msg);
            snprintf(err->msg, sizeof err->msg, "member %d: %.900s", i + 1, inner);
            return 1;
        }
    }
    return 0;
}

static int cmp_double(const void *pa, const void *pb)
{
    double a = *(const double *)pa, b = *(const double *)pb;
    return (a > b) - (a < b);
}

/* xorshift64*: a fixed seed, so the same times give the same interval */
static uint64_t boot_next(uint64_t *x)
{
    *x ^= *x >> 12;
    *x ^= *x << 25;
    *x ^= *x >> 27;
    return *x * 2685821657736338717ULL;
}

/* round k's speedup: the sum of its solo times / its call; 0 when the
 * rounds are not whole (a failed call) */
static int round_ratios(const conc *c, double *r)
{
    int n = c->ncalls;
    for (int i = 0; i < c->n; i++)
        if (c->m[i].nalone < n)
            n = c->m[i].nalone;
    for (int k = 0; k < n; k++) {
        double seq = 0;
        for (int i = 0; i < c->n; i++)
            seq += c->m[i].alone_t[k];
        r[k] = c->calls[k] > 0 ? seq / c->calls[k] : 0;
    }
    return n;
}

/* Percentile bootstrap of the median per-round speedup: the rounds
 * resampled with replacement (a round keeps its solo times and its call
 * together), CONC_BOOT times, fixed seed. */
static int speedup_ci(const double *ratio, int n, double *lo, double *hi)
{
    if (n < 2)
        return -1;
    double *tmp = xmalloc((size_t)n * sizeof *tmp), *r = xmalloc(CONC_BOOT * sizeof *r);
    uint64_t rng = 0x9E3779B97F4A7C15ULL;
    for (int b = 0; b < CONC_BOOT; b++) {
        for (int i = 0; i < n; i++)
            tmp[i] = ratio[boot_next(&rng) % (uint64_t)n];
        r[b] = stats_median(tmp, n);
    }
    xqsort(r, CONC_BOOT, sizeof *r, cmp_double);
    *lo = r[(int)(0.025 * (CONC_BOOT - 1))];
    *hi = r[(int)(0.975 * (CONC_BOOT - 1) + 0.5)];
    free(tmp);
    free(r);
    return 0;
}

static double median_of(const double *v, int n)
{
    return n > 0 ? stats_median_copy(v, n) : 0;
}

static void extras(void *state, void *ctx, void (*cb)(void *, const char *, const char *))
{
    conc *c = state;
    double seq = 0, sum = 0;
    char k[48], v[48];
    for (int i = 0; i < c->n; i++) {
        member *m = &c->m[i];
        double alone = median_of(m->alone_t, m->nalone);
        double during = median_of(m->times, m->ntimes);
        seq += alone;
        sum += during;
        snprintf(k, sizeof k, "member%d_seconds", i + 1);
        format_number(v, sizeof v, during, 9);
        cb(ctx, k, v);
        snprintf(k, sizeof k, "member%d_alone_seconds", i + 1);
        format_number(v, sizeof v, alone, 9);
        cb(ctx, k, v);
    }
    format_number(v, sizeof v, sum, 9);
    cb(ctx, "members_sum_seconds", v);
    format_number(v, sizeof v, seq, 9);
    cb(ctx, "sequential_seconds", v);
    double *ratio = xmalloc((size_t)(c->ncalls > 0 ? c->ncalls : 1) * sizeof *ratio);
    int n = round_ratios(c, ratio);
    format_number(v, sizeof v, median_of(ratio, n), 4);
    cb(ctx, "speedup", v);
    double lo, hi;
    if (speedup_ci(ratio, n, &lo, &hi) == 0) {
        format_number(v, sizeof v, lo, 4);
        cb(ctx, "speedup_ci95_low", v);
        format_number(v, sizeof v, hi, 4);
        cb(ctx, "speedup_ci95_high", v);
    }
    free(ratio);
}

const rn_workload_impl core_concurrent = {
    .name = "concurrent", .prepare = prepare, .run = run, .check = check, .release = release,
    .extras = extras, .timed_begin = timed_begin,
};
