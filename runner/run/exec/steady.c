/* steady.c - see steady.h.
 *
 * After the `warmups` calls, untimed rounds (whole batches, at least
 * sample_target() long, so that the clock does not decide steadiness with
 * batch: 1) are run until one's time per call is within `warmup_tolerance`
 * (default 0.10) of the round before and of the fastest so far and is not
 * itself a new fastest, for at most `warmup_time` (default 0.2 s; 0: no
 * rounds) in all.  Calls still speeding up, even by steps within the
 * tolerance, would leave the speed-up to the timed samples and make the
 * first one the slowest.  A worker whose thread count changes (an OpenMP or
 * OpenBLAS pool to start or resize) warms at least SETTLE_TIME first; every
 * other trial at least MIN_WARM_TIME (at most `warmup_time`): two quick
 * rounds that agree after a millisecond are not yet steady (issue 15: with
 * rounds of ~1 ms the first timed sample was the slowest in 92 nested_sin
 * trials where chance predicts 77; warming 10 ms brought it to 35 against
 * 38).  A backend may ask for more (rn_backend.min_warm): on an H200 the
 * CUDA nested_sin trials that warmed under 20 ms still had the first sample
 * slowest, by 1-3 % on the device's own clock too, in 26 of 75 (15
 * expected); warming 50 ms brought two runs to 9 and 9 of 42 against 8.4.
 * It may also say how long a device stays warm (rn_backend.warm_carry): a
 * worker's next trial of the same workload on the same device, whose warmup
 * starts sooner than that after the last one's calls ended, warms the
 * core's floor only (`prev` below); the steady-state rule is unchanged.
 *
 * A plateau as long as the descent: the rounds also go on until the time
 * since the fastest round improved on the one before by more than
 * PLATEAU_MARGIN is at least the time it took to get there, and at least
 * two rounds (one slow round right after the first must not end it: a 1.3x
 * ramp stopped at its second round in a busy hour).  A ramp slower
 * than the noise between two rounds (a Lua trial on this 2-core VM: rounds
 * of 0.58, 0.44, 0.43, 0.38, 0.33 ms and then 0.335, a tie that ended the
 * warmup at 11 ms while its calls kept speeding up to 0.25 ms at 15 ms)
 * keeps making new fastest rounds, so it is warmed past; noise around a
 * steady speed makes a new fastest by more than 1 % ever more rarely, so it
 * ends soon after. */
#include "run/exec/steady.h"

#include "base/util.h"
#include "run/exec/batch.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define SETTLE_TIME 0.05
#define MIN_WARM_TIME 0.01
#define PLATEAU_MARGIN 0.01

static int last_threads = -1;

/* The worker's previous trial, for the warm carry: a GPU's clocks, risen
 * under one trial's calls, stay up for a while after them (how long the
 * backend says; CUDA's 0.1 s is not yet measured), so the next trial of the
 * same workload on the same device, started within that, need not wait out
 * min_warm again (a sweep of 200 small trials paid 200 x 0.05 s); another
 * workload may hold the device at other clocks. */
static struct {
    steady_key k; /* k.workload: a copy; k.b NULL: none */
    int warm;
    double end;
} prev;

double steady_carry_take(const steady_key *k)
{
    int same = prev.k.b && prev.k.b == k->b && k->b->warm_carry > 0 && prev.warm &&
               prev.k.device == k->device && prev.k.index == k->index &&
               !strcmp(prev.k.workload, k->workload);
    double end = same ? prev.end : NAN;
    free((char *)prev.k.workload);
    memset(&prev, 0, sizeof prev);
    return end;
}

int steady_carries(const rn_backend *b, double prev_end, double warm_start)
{
    return b && isfinite(prev_end) && warm_start - prev_end < b->warm_carry;
}

void steady_carry_keep(const steady_key *k, int warm, double end)
{
    free((char *)prev.k.workload);
    prev.k = *k;
    prev.k.workload = xstrdup(k->workload);
    prev.warm = warm;
    prev.end = end;
}

double steady_settle(int threads, double warmup_time, double min_warm, int carried)
{
    double least = fmin(carried ? MIN_WARM_TIME : fmax(MIN_WARM_TIME, min_warm), warmup_time);
    double settle = threads != last_threads ? fmax(SETTLE_TIME, least) : least;
    last_threads = threads;
    return settle;
}

int steady_warm(const rn_workload_impl *impl, void *state, int batch, const batch_announce *ann,
                double warm_start, double settle, double warmup_time, double tolerance,
                long *calls, int *steady, double *ratio, rn_error *err)
{
    double prev = NAN, best = INFINITY;
    int faster = 0; /* the last round was the fastest yet */
    int agreed = 0; /* a round was steady and no new fastest: what ended the rounds before the plateau rule */
    double first_el = NAN, best_el = NAN; /* when the rounds began; the last clear new fastest */
    int since_best = 0; /* rounds since that one */
    rn_sample s;
    *steady = 0;
    *ratio = NAN;
    for (int round = 0;; round++) {
        double el = now_seconds() - warm_start;
        int plateau = round == 0 || (since_best >= 2 && el - best_el >= best_el - first_el);
        if (el >= settle && ((*steady && !faster && plateau) || el >= warmup_time))
            break;
        if (round == 0)
            first_el = el;
        double target = sample_target(), t0 = now_seconds(), took = 0;
        long n = 0;
        int rc = 0;
        do {
            rn_sample_clear(&s);
            batch_announced(ann, batch);
            for (int j = 0; j < batch && rc == 0; j++)
                rc = impl->run(state, &s, err);
            n += batch;
            took = now_seconds() - t0;
        } while (rc == 0 && took < target);
        *calls += n;
        if (rc != 0)
            return rc;
        double per = took / (double)n;
        if (round > 0) {
            *ratio = per / best;
            *steady = fabs(per / prev - 1) <= tolerance && per <= (1 + tolerance) * best;
        }
        /* e.g. processes the OS put on one CPU agree with each other at
         * twice the time: not steady until it moves one (procs.c) */
        if (impl->unsettled && impl->unsettled(state))
            *steady = 0;
        agreed = agreed || (*steady && per >= best);
        prev = per;
        faster = per < best;
        since_best++;
        if (per < best * (1 - PLATEAU_MARGIN)) {
            best_el = now_seconds() - warm_start;
            since_best = 0;
        }
        best = fmin(best, per);
    }
    /* judged only when the time allowed two rounds (long calls: no); rounds
     * that agreed once and went on for the plateau are not unsteady for a
     * noisy last pair (doc/timing.md#how-a-trial-is-timed: warmup_unsteady is a
     * warmup_time spent without two rounds agreeing) */
    *steady = *steady || agreed || !isfinite(*ratio);
    return 0;
}
