/* interleave.c - see interleave.h.  Samples are taken round-robin across
 * the interleaved trials (one sample of each trial per round), so that slow
 * drift of a shared machine spreads over all of them evenly.  Each round
 * prepares the trial afresh (untimed) and warms it up as a sequential trial
 * is: a round without warmups would time a cold call (issue 15: 1.53 ms
 * against 147 us for axpb n=1e6); `cold` is the first round's.  A trial is
 * saved once it has all its samples, or as soon as one round fails. */
#include "run/interleave.h"

#include "base/util.h"
#include "experiment/trial.h"
#include "run/trial_extras.h"

#include <math.h>
#include <stdlib.h>

void run_interleaved(run_state *o, supervisor *S)
{
    const experiment *e = o->e;
    volatile sig_atomic_t *interrupted = o->o->interrupted;
    long long n = e->ntrials;
    trial_result *acc = xcalloc((size_t)n + 1, sizeof *acc);
    int *want = xcalloc((size_t)n + 1, sizeof *want);
    char *open = xcalloc((size_t)n + 1, 1);
    long long left = 0;
    for (long long t = 0; t < n; t++) {
        if (!trial_interleaved(e, t) || results_is_done(o->R, e->ids[t]))
            continue;
        resolved_trial rt;
        trial_resolve(e, t, &rt);
        want[t] = rt.repeats > 0 ? rt.repeats : 1;
        trial_release(&rt);
        acc[t].cold = acc[t].flops = acc[t].bytes = NAN;
        open[t] = 1;
        left++;
    }
    for (int round = 0; left > 0 && !*interrupted && !o->write_failed; round++) {
        for (long long t = 0; t < n && !*interrupted && !o->write_failed; t++) {
            if (!open[t])
                continue;
            trial_result r;
            int ran = !(round == 0 && run_hooks_before(o, t, &r));
            if (ran)
                sup_run(S, t, run_trial_timeout(e, t), 1, -1, &r);
            acc[t].ran |= ran;
            if (r.status == ST_INTERRUPTED) {
                trial_result_free(&r);
                break;
            }
            trial_result *a = &acc[t];
            trial_add_round(a, &r, round);
            trial_result_free(&r);
            if (a->status != ST_OK || a->nsamples >= want[t]) {
                run_watch_trial(o->W, S->pid, a);
                run_progress_trial(o, "interleaved");
                run_progress_end(o, 0, a->status != ST_SKIPPED);
                run_finish_trial(o, t, a, a->ran);
                open[t] = 0;
                left--;
            }
        }
    }
    for (long long t = 0; t < n; t++)
        trial_result_free(&acc[t]);
    free(acc);
    free(want);
    free(open);
}
