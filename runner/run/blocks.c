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
#include "experiment/trial.h"
#include "run/trial_extras.h"

#include <math.h>
#include <sched.h>
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
    static int col;
    if (seen != e) {
        seen = e;
        col = experiment_column(e, "repeats");
    }
    value v = col >= 0 ? trial_value(e, t, col) : (value){0};
    /* absent: the default 5 (experiment/trial.c); auto: the stop rule's
     * own count, one worker */
    long long repeats = v.kind == VAL_INT ? v.i : v.kind == VAL_NONE ? 5 : 0;
    if (repeats < 2 * RUN_BLOCK_MIN)
        return 1;
    resolved_trial rt;
    trial_resolve(e, t, &rt);
    int one = rt.processes || rt.warmup_curve > 0 || rt.energy || rt.t.device != RN_DEV_CPU;
    trial_release(&rt);
    if (one)
        return 1;
    long long b = repeats / RUN_BLOCK_MIN;
    return b > RUN_BLOCKS_MAX ? RUN_BLOCKS_MAX : (int)b;
}

void run_trial_blocks(run_state *st, supervisor *S, long long t, double timeout,
                      trial_result *out)
{
    const experiment *e = st->e;
    int nb = run_block_count(e, t);
    if (nb < 2) {
        sup_run(S, t, timeout, -1, -1, out);
        return;
    }
    resolved_trial rt;
    trial_resolve(e, t, &rt);
    int repeats = rt.repeats;
    int cpu[64], ncpu = placed(e, t, &rt) ? allowed_cpus(cpu, 64) : 0;
    trial_release(&rt);
    if (ncpu < 2)
        ncpu = 0; /* one CPU: nothing to turn */
    /* the first block's CPU turns with the trials, so that no CPU always
     * takes the first block (a worker's first calls) */
    static long long turn;
    int first = ncpu ? (int)(turn++ % ncpu) : 0;
    trial_result acc;
    memset(&acc, 0, sizeof acc);
    acc.cold = acc.flops = acc.bytes = NAN;
    strbuf where = {0};
    double t0 = now_seconds(), log_clock = 0;
    int nclock = 0;
    for (int b = 0; b < nb; b++) {
        int want = (int)((long long)(b + 1) * repeats / nb - (long long)b * repeats / nb);
        char place[16];
        if (ncpu) {
            int c = cpu[(first + b) % ncpu];
            snprintf(place, sizeof place, "%d", c);
            S->place = place;
            /* the CPU's speed right before its block: a millisecond
             * (doc/timing.md#the-speed-of-each-cpu) */
            double g = cpu_speed_on(c, 3, CPU_SPEED_WINDOW / 2);
            if (g > 0) {
                log_clock += log(g);
                nclock++;
            }
        }
        double left = timeout;
        if (timeout > 0) {
            left = timeout - (now_seconds() - t0);
            left = left > 0.001 ? left : 0.001;
        }
        sup_stop(S); /* a fresh worker a block */
        trial_result r;
        sup_run(S, t, left, want, -1, &r);
        S->place = NULL;
        if (r.status == ST_INTERRUPTED) {
            trial_result_free(&acc);
            *out = r;
            sb_free(&where);
            return;
        }
        int got = r.nsamples;
        trial_add_round(&acc, &r, b);
        trial_result_free(&r);
        sb_printf(&where, "%s%s:%d", where.len ? " " : "", ncpu ? place : "?", got);
        if (acc.status != ST_OK)
            break;
    }
    sup_stop(S); /* the next trial starts afresh too, wherever it goes */
    if (where.len)
        trial_result_add_extra(&acc, "blocks", where.s);
    if (nclock) {
        char g[32];
        snprintf(g, sizeof g, "%.4g", exp(log_clock / nclock));
        trial_result_add_extra(&acc, "clock_gflops", g);
    }
    sb_free(&where);
    *out = acc;
}
