/* run.c - see run.h: the run of one experiment, from its hooks process and
 * run folder to its charts and report. */
#include "run/run.h"

#include "base/util.h"
#include "run/exec/supervisor.h"
#include "experiment/table.h"
#include "results/history/history_run.h"
#include "experiment/lua/hookproc.h"
#include "experiment/lua/lua_engine.h"
#include "results/report/plots.h"
#include "run/blocks.h"
#include "run/finish.h"
#include "run/interleave.h"
#include "run/trial_peak.h"
#include "results/rundir/meta.h"
#include "results/rundir/results.h"
#include "results/rundir/rundir.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The experiment's hooks process (doc/lua.md#experiment-hooks), started before
 * the run folder is opened; NULL with *bad set when it cannot start. */
static hookproc *open_hooks(run_state *st, int *bad)
{
    const experiment *e = st->e;
    *bad = 0;
    if (!e->hooks)
        return NULL;
    char err[1024];
    char *hp = experiment_path(e, e->hooks);
    hookproc *H = hookproc_open(e, hp, st->o->interrupted, err, sizeof err);
    free(hp);
    if (!H) {
        run_say(st, "runner: %s\n", sanitize_text(err));
        *bad = 1;
    }
    return H;
}

/* The run folder: --run-dir DIR (a shard's own folder inside it), else a
 * new or resumed one under --output (doc/results.md#results). */
static int open_results(run_state *st)
{
    const run_opts *o = st->o;
    char err[1024];
    char *shard_dir = o->run_dir && o->shard_n
                          ? xasprintf("%s/shard-%d-of-%d", o->run_dir, o->shard_k, o->shard_n)
                          : NULL;
    int opened = o->run_dir ? results_open_dir(st->R, st->e, shard_dir ? shard_dir : o->run_dir,
                                               err, sizeof err)
                            : results_open(st->R, st->e, o->output, o->resume, err, sizeof err);
    free(shard_dir);
    if (opened < 0)
        run_say(st, "runner: %s\n", err);
    return opened;
}

/* The run's meta written at the start (its warnings said unless --quiet), and what a
 * resumed or damaged run folder means; -1 when it cannot be written. */
static int start_meta(run_state *st, meta *m)
{
    const run_files *R = st->R;
    strbuf notes = {0}; /* the ceilings (doc/ceilings.md): probed, or why not */
    st->C = run_ceilings(m, &notes);
    run_watch_start(st->W, m, st->C); /* its warnings are the meta's */
    if (notes.len && !st->o->quiet)
        run_say(st, "%s", notes.s);
    sb_free(&notes);
    const char **warn;
    int nw = meta_warnings(m, &warn);
    for (int i = 0; i < nw && !st->o->quiet; i++)
        run_say(st, "runner: warning: %s\n", warn[i]);
    free(warn);
    if (R->resumed) /* one run however often resumed (doc/history.md) */
        meta_resume(m, R->run_dir);
    if (meta_write(m, R->run_dir, 0, st->out->counts, 0) < 0) {
        run_say(st, "runner: cannot write %s/%s\n", R->run_dir, rundir_name(RD_META));
        return -1;
    }
    if (R->resumed && !st->o->quiet)
        run_say(st, "runner: resuming %s (%lld trials already done)\n", R->run_dir,
                R->ndone_here);
    if (R->damaged)
        run_say(st, "runner: warning: %s: %lld damaged row%s of %s dropped; "
                    "their trials run again\n",
                R->run_dir, R->damaged, R->damaged == 1 ? "" : "s", rundir_name(RD_TRIALS));
    return 0;
}

/* The timeline: --trace FILE (given), else RUN_DIR/trace.json with
 * `trace: true` (doc/results.md#a-timeline-of-a-run). */
static trace_file *open_trace(run_state *st)
{
    if (st->o->trace || !st->e->trace)
        return st->o->trace;
    char err[1024];
    char *tp = xasprintf("%s/trace.json", st->R->run_dir);
    trace_file *T = trace_file_open(tp, 1, err, sizeof err);
    free(tp);
    if (!T)
        run_say(st, "runner: warning: %s; the run goes on without it\n", err);
    return T;
}

/* Whether run_sequential gives trial t to the supervisor: the batches of
 * small trials look ahead with it (doc/timing.md#batches-of-small-trials). */
static int runs_next(void *ctx, long long t)
{
    const run_state *st = ctx;
    return !results_is_done(st->R, st->e->ids[t]) && !trial_interleaved(st->e, t) &&
           run_block_count(st->e, t) < 2; /* blocks are sent one by one */
}

/* Whether trial t takes its blocks in rounds with its neighbours: blocks,
 * and no hooks process (its before_trial and after_trial run around one
 * trial at a time, doc/lua.md#experiment-hooks). */
static int in_rounds(const run_state *st, long long t)
{
    return !st->H && !trial_interleaved(st->e, t) && run_block_count(st->e, t) >= 2;
}

/* The sequential trials one by one in trial order, those with blocks in
 * groups of at most RUN_ROUND_TRIALS taken in rounds (blocks.h); 1 when
 * interleaved ones wait (doc/timing.md#how-a-trial-is-timed). */
static int run_sequential(run_state *st, supervisor *S)
{
    const experiment *e = st->e;
    int any_interleaved = 0;
    long long group[RUN_ROUND_TRIALS];
    for (long long t = 0; t < e->ntrials && !*st->o->interrupted && !st->write_failed; t++) {
        if (results_is_done(st->R, e->ids[t]))
            continue;
        if (trial_interleaved(e, t)) {
            any_interleaved = 1;
            continue;
        }
        if (in_rounds(st, t)) {
            /* this trial and the next ones with blocks, done and
             * interleaved ones passed over */
            int n = 0;
            long long u = t;
            for (; u < e->ntrials && n < RUN_ROUND_TRIALS; u++) {
                if (results_is_done(st->R, e->ids[u]))
                    continue;
                if (trial_interleaved(e, u)) {
                    any_interleaved = 1;
                    continue;
                }
                if (!in_rounds(st, u))
                    break;
                group[n++] = u;
            }
            run_block_rounds(st, S, group, n);
            t = u - 1;
            continue;
        }
        if (st->h->describe) { /* not on the hot path of a quiet run */
            strbuf desc = {0};
            table_describe(e, t, &desc);
            run_progress_trial(st, desc.s);
            sb_free(&desc);
        }
        double t0 = now_seconds();
        trial_result res;
        int ran = !run_hooks_before(st, t, &res);
        if (ran) {
            run_trial_blocks(st, S, t, run_trial_timeout(e, t), &res);
            run_watch_trial(st->W, S->pid, &res);
        }
        run_progress_end(st, now_seconds() - t0, res.status != ST_SKIPPED);
        if (res.status != ST_INTERRUPTED)
            run_finish_trial(st, t, &res, ran);
        trial_result_free(&res);
    }
    return any_interleaved;
}

/* The run folder closed, its meta final, `latest` earned; 1 when the run
 * finished (not interrupted, everything written). */
static int close_run(run_state *st, meta *m)
{
    const run_opts *o = st->o;
    char err[1024];
    int finished = !*o->interrupted && !st->write_failed;
    if (results_close(st->R, finished, err, sizeof err) < 0) {
        run_say(st, "runner: %s\n", err);
        st->write_failed = 1;
        finished = 0;
    }
    run_watch_end(st->W, m, 0);
    if (meta_write(m, st->R->run_dir, finished, st->out->counts, st->out->wall) < 0 &&
        !st->write_failed) {
        run_say(st, "runner: cannot write %s/%s\n", st->R->run_dir, rundir_name(RD_META));
        st->write_failed = 1;
    }
    /* latest is earned: a finished run with an ok trial (doc/results.md#results) */
    if (finished && !st->write_failed && !results_earn_latest(st->R) && !o->quiet && !o->run_dir)
        run_say(st, "runner: %s/latest not moved: the run has no ok trial\n", st->R->exp_dir);
    return finished && !st->write_failed;
}

run_end run_experiment(const experiment *e, const run_opts *o, const run_hand *h,
                       run_outcome *out)
{
    memset(out, 0, sizeof *out);
    run_files R;
    run_watch W;
    run_state st = {.e = e, .o = o, .h = h, .R = &R, .out = out, .W = &W};
    char lua_dir[4096], err[1024];
    lua_project_dir(lua_dir, sizeof lua_dir);
    lua_engine_configure(e->dir, lua_dir, o->allow_unsafe_lua); /* the worker inherits it */
    int bad;
    st.H = open_hooks(&st, &bad);
    if (bad)
        return RUN_INVALID;
    meta *m = NULL;
    if (open_results(&st) < 0 || start_meta(&st, m = meta_collect(e, o->argc, o->argv)) < 0) {
        meta_free(m);
        ceilings_free(st.C);
        results_free(&R);
        hookproc_close(st.H);
        return RUN_INVALID;
    }
    out->run_dir = xstrdup(R.run_dir);
    long long todo = 0;
    for (long long t = 0; t < e->ntrials; t++)
        todo += !results_is_done(&R, e->ids[t]);
    h->start(h->ctx, todo);
    st.T = open_trace(&st);
    supervisor S;
    sup_init(&S, e, o->interrupted);
    S.trace = st.T;
    /* batches only where nothing runs between two trials: no hooks, and
     * no timeline, whose spans are a trial's own */
    if (!st.H && !st.T) {
        S.will_run = runs_next;
        S.will_run_ctx = &st;
    }
    double start = now_seconds();
    int interleaved = run_sequential(&st, &S);
    S.will_run = NULL;
    if (interleaved && !*o->interrupted && !st.write_failed)
        run_interleaved(&st, &S);
    sup_free(&S);
    if (st.T != o->trace && trace_file_close(st.T, err, sizeof err) < 0) {
        run_say(&st, "runner: %s\n", err);
        st.write_failed = 1;
    }
    out->wall = now_seconds() - start;
    int finished = close_run(&st, m);
    /* a shard is a part: `runner merge` draws and reports the whole */
    strbuf notes = {0}; /* what the charts and the report have to say */
    if (finished && !o->no_plots && !o->shard_n)
        plots_render_run(R.run_dir, e, o->quiet, &notes);
    /* the run's results are final: recorded in the history (doc/history.md),
     * whose section (history.md) the report then takes in */
    if (finished && !o->shard_n)
        history_record_run(R.run_dir,
                           &(history_run_opts){o->history, o->run_dir ? "" : o->output,
                                               o->revision, o->no_history, o->quiet, o->no_plots,
                                               R.resumed},
                           &notes);
    /* report.md and report.html are results: one that cannot be written
     * is exit 1, as a full disk is (doc/results.md#guarantees) */
    if (finished && !o->shard_n && report_write(R.run_dir, o->quiet, &notes) < 0)
        st.write_failed = 1;
    if (notes.len)
        h->say(h->ctx, notes.s);
    sb_free(&notes);
    meta_free(m);
    ceilings_free(st.C);
    results_free(&R);
    hookproc_close(st.H);
    return *o->interrupted ? RUN_INTERRUPTED : st.write_failed ? RUN_WRITE_FAILED : RUN_DONE;
}

void run_outcome_free(run_outcome *out)
{
    free(out->run_dir);
    for (int i = 0; i < out->nreasons; i++)
        free(out->reason[i]);
    memset(out, 0, sizeof *out);
}
