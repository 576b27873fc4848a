/* blocks.c - see blocks.h.  Why blocks (doc/timing.md#blocks-across-processes-and-cpus):
 * on the 2-vCPU VM the two CPUs ran one-thread code 1.4-1.7x apart and a
 * worker stays on the CPU it started on, so every sample of a one-worker
 * trial shared one speed mode and two runs of the same code differed by the
 * gap between modes while each run's interval was narrow.  Blocks in fresh
 * workers, one-thread ones on the allowed CPUs in turn, put both modes and
 * process-to-process variation inside every run, and `runner compare` takes
 * the spread between blocks (of one CPU) as the trial's noise. */
#include "run/blocks.h"

#include "base/util.h"
#include "experiment/machine/cpuspeed.h"
#include "experiment/table.h"
#include "experiment/trial.h"
#include "run/trial_extras.h"
#include "stats/stats.h"

#include <math.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The CPUs this process may use, in order; how many (at most max). */
static int allowed_cpus(int *cpu, int max)
{
    cpu_set_t set;
    int n = 0;
    if (sched_getaffinity(0, sizeof set, &set) < 0)
        return 0;
    for (int c = 0; c < CPU_SETSIZE && n < max; c++)
        if (CPU_ISSET(c, &set))
            cpu[n++] = c;
    return n;
}

/* Whether trial t is placed on one CPU a block: one thread, in threads
 * (`threads: 1`, or a Lua workload without a `threads` key), no
 * `affinity` of its own. */
static int placed(const experiment *e, long long t, const resolved_trial *rt)
{
    int ac = experiment_column(e, "affinity"), tc = experiment_column(e, "threads");
    value av = ac >= 0 ? trial_value(e, t, ac) : (value){0};
    if (av.kind != VAL_NONE && av.text && strcmp(av.text, "none"))
        return 0;
    value tv = tc >= 0 ? trial_value(e, t, tc) : (value){0};
    if (tv.kind == VAL_INT)
        return tv.i == 1;
    return rt->lua;
}

int run_block_count(const experiment *e, long long t)
{
    static const experiment *seen;
    static int col, wcol;
    if (seen != e) {
        seen = e;
        col = experiment_column(e, "repeats");
        wcol = experiment_column(e, "workers");
    }
    value v = col >= 0 ? trial_value(e, t, col) : (value){0};
    value w = wcol >= 0 ? trial_value(e, t, wcol) : (value){0};
    /* absent: the default 5 (experiment/keys.c); auto: the stop rule's
     * own count, one worker */
    long long repeats = v.kind == VAL_INT ? v.i : v.kind == VAL_NONE ? 5 : 0;
    long long workers = w.kind == VAL_INT ? w.i : 0; /* 0: auto */
    /* decided from the two columns where it can be: every trial of a
     * sweep asks, most of them with the default 5 repeats */
    if (repeats < 2 || workers == 1 || (!workers && repeats < 2 * RUN_BLOCK_MIN))
        return 1;
    resolved_trial rt;
    trial_resolve(e, t, &rt);
    int one = rt.processes || rt.warmup_curve > 0 || rt.energy || rt.t.device != RN_DEV_CPU;
    trial_release(&rt);
    if (one)
        return 1;
    if (workers > 0) /* `workers:` as asked, never more than the samples */
        return workers > repeats ? (int)repeats : (int)workers;
    long long b = repeats / RUN_BLOCK_MIN;
    return b > RUN_BLOCKS_MAX ? RUN_BLOCKS_MAX : (int)b;
}

void run_blocks_begin(run_state *st, long long t, block_trial *bt)
{
    const experiment *e = st->e;
    memset(bt, 0, sizeof *bt);
    bt->t = t;
    bt->nb = run_block_count(e, t);
    resolved_trial rt;
    trial_resolve(e, t, &rt);
    bt->repeats = rt.repeats;
    bt->ncpu = placed(e, t, &rt) ? allowed_cpus(bt->cpu, RUN_BLOCK_CPUS) : 0;
    trial_release(&rt);
    if (bt->ncpu < 2)
        bt->ncpu = 0; /* one CPU: nothing to turn */
    /* the first block's CPU turns with the trials, so that no CPU always
     * takes the first block (a worker's first calls) */
    static long long turn;
    bt->first = bt->ncpu ? (int)(turn++ % bt->ncpu) : 0;
    bt->acc.cold = bt->acc.flops = bt->acc.bytes = NAN;
}

int run_blocks_step(supervisor *S, block_trial *bt, double timeout)
{
    int b = bt->next++;
    int want = (int)((long long)(b + 1) * bt->repeats / bt->nb - (long long)b * bt->repeats / bt->nb);
    char place[16];
    if (bt->ncpu) {
        int c = bt->cpu[(bt->first + b) % bt->ncpu];
        snprintf(place, sizeof place, "%d", c);
        S->place = place;
        /* the CPU's speed right before its block: a millisecond
         * (doc/timing.md#the-speed-of-each-cpu) */
        double g = cpu_speed_on(c, 3, CPU_SPEED_WINDOW / 2);
        if (g > 0 && bt->nclock < RUN_BLOCK_CLOCKS)
            bt->clock[bt->nclock++] = g;
    }
    double left = timeout;
    if (timeout > 0) { /* the trial's timeout covers all its blocks */
        left = timeout - bt->spent;
        left = left > 0.001 ? left : 0.001;
    }
    double t0 = now_seconds();
    sup_stop(S); /* a fresh worker a block */
    trial_result r;
    sup_run(S, bt->t, left, want, -1, &r);
    S->place = NULL;
    bt->spent += now_seconds() - t0;
    if (r.status == ST_INTERRUPTED) {
        trial_result_free(&bt->acc);
        sb_free(&bt->where);
        bt->acc = r;
        return 1;
    }
    int got = r.nsamples;
    trial_add_round(&bt->acc, &r, b);
    trial_result_free(&r);
    if (bt->acc.status == ST_TIMEOUT && timeout > 0) {
        /* the trial's timeout and samples, not what was left to this block */
        char d[32];
        fmt_seconds(d, sizeof d, timeout);
        free(bt->acc.reason);
        bt->acc.reason =
            xasprintf("stopped at the %s timeout (%d samples taken)", d, bt->acc.nsamples);
    }
    sb_printf(&bt->where, "%s%s:%d", bt->where.len ? " " : "", bt->ncpu ? place : "?", got);
    return bt->acc.status != ST_OK || bt->next >= bt->nb;
}

void run_blocks_end(block_trial *bt, trial_result *out)
{
    if (bt->acc.status != ST_INTERRUPTED) {
        if (bt->where.len)
            trial_result_add_extra(&bt->acc, "blocks", bt->where.s);
        if (bt->nclock) {
            char g[32];
            /* the median: a probe that met a passing contention (a
             * millisecond read 58 against its neighbours' 95) moves it not */
            snprintf(g, sizeof g, "%.4g", stats_median(bt->clock, bt->nclock));
            trial_result_add_extra(&bt->acc, "clock_gflops", g);
        }
    }
    sb_free(&bt->where);
    *out = bt->acc;
    memset(&bt->acc, 0, sizeof bt->acc);
}

void run_trial_blocks(run_state *st, supervisor *S, long long t, double timeout,
                      trial_result *out)
{
    if (run_block_count(st->e, t) < 2) {
        sup_run(S, t, timeout, -1, -1, out);
        return;
    }
    block_trial bt;
    run_blocks_begin(st, t, &bt);
    while (!run_blocks_step(S, &bt, timeout))
        ;
    sup_stop(S); /* the next trial starts afresh too, wherever it goes */
    run_blocks_end(&bt, out);
}

void run_block_rounds(run_state *st, supervisor *S, const long long *ts, int n)
{
    const experiment *e = st->e;
    volatile sig_atomic_t *interrupted = st->o->interrupted;
    block_trial *bt = xcalloc((size_t)n + 1, sizeof *bt);
    char *open = xcalloc((size_t)n + 1, 1);
    int left = 0;
    for (int i = 0; i < n; i++) {
        run_blocks_begin(st, ts[i], &bt[i]);
        open[i] = 1;
        left++;
    }
    int stop = 0;
    for (int round = 0; left > 0 && !stop; round++)
        for (int i = 0; i < n && left > 0; i++) {
            if (!open[i])
                continue;
            if (*interrupted || st->write_failed) {
                stop = 1;
                break;
            }
            long long t = ts[i];
            if (st->h->describe) { /* not on the hot path of a quiet run */
                strbuf desc = {0};
                table_describe(e, t, &desc);
                sb_printf(&desc, " (block %d of %d)", bt[i].next + 1, bt[i].nb);
                run_progress_trial(st, desc.s);
                sb_free(&desc);
            }
            if (!run_blocks_step(S, &bt[i], run_trial_timeout(e, t)))
                continue;
            open[i] = 0;
            left--;
            if (bt[i].acc.status == ST_INTERRUPTED) {
                stop = 1;
                break;
            }
            trial_result res;
            run_blocks_end(&bt[i], &res);
            run_watch_trial(st->W, S->pid, &res);
            run_progress_end(st, bt[i].spent, res.status != ST_SKIPPED);
            run_finish_trial(st, t, &res, 1);
            trial_result_free(&res);
        }
    sup_stop(S); /* the next trial starts afresh too */
    for (int i = 0; i < n; i++) /* the trials an interruption left unfinished */
        if (open[i] || bt[i].acc.status == ST_INTERRUPTED) {
            trial_result_free(&bt[i].acc);
            sb_free(&bt[i].where);
        }
    free(bt);
    free(open);
}
