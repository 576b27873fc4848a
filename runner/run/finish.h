/* finish.h - the two ends of one trial in a run (run.h): the hooks that
 * decide before a worker is asked, and the trial finished after it (its
 * after_trial columns and the runner's own, saved, counted, reported).
 * Internal to runner/run/. */
#ifndef RUNNER_RUN_FINISH_H
#define RUNNER_RUN_FINISH_H
/* internal header of runner/run/: other folders may not include it */

#include "results/rundir/result.h"
#include "run/exec/trace_file.h"
#include "experiment/lua/hookproc.h"
#include "experiment/machine/ceilings.h"
#include "results/rundir/results.h"
#include "run/run_types.h"
#include "run/watch.h"

/* What a run holds while its trials go by. */
typedef struct run_state {
    const experiment *e;
    const run_opts *o;
    const run_hand *h;
    run_files *R;
    run_outcome *out;
    int write_failed;
    long long done; /* trials ended (the progress line counts them) */
    hookproc *H;  /* the experiment's hooks process, or NULL */
    trace_file *T; /* the run's timeline, or NULL */
    ceilings *C;   /* the machine's ceilings, or NULL (doc/ceilings.md) */
    run_watch *W;  /* the CPUs' speed and the load over the run (watch.h) */
} run_state;

/* skip(trial) and before_trial(trial): 0 run it; otherwise `res` is the
 * trial's result (skipped, failed, or interrupted). */
int run_hooks_before(run_state *st, long long t, trial_result *res);
/* after_trial, the runner's columns, the row saved; ran: a worker ran it. */
void run_finish_trial(run_state *st, long long t, trial_result *res, int ran);
/* The trial's `timeout` in seconds (0: none). */
double run_trial_timeout(const experiment *e, long long t);
/* The progress: trial number st->done starts (desc names it), it ended. */
void run_progress_trial(run_state *st, const char *desc);
void run_progress_end(run_state *st, double seconds, int ran);
/* Passes formatted lines to the hand. */
void run_say(run_state *st, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
