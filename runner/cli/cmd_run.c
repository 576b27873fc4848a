/* cmd_run.c - `runner FILE.yaml ...`: every trial of each experiment, in a
 * supervised worker, saved as it finishes; then plots and the report. */
#include "cli/commands.h"
#include "cli/load.h"
#include "cli/notes.h"
#include "cli/trial_extras.h"
#include "experiment/config.h"
#include "lua/hookproc.h"
#include "lua/lua_engine.h"
#include "rundir/meta.h"
#include "report/plots.h"
#include "cli/progress.h"
#include "rundir/results.h"
#include "rundir/rundir.h"
#include "exec/supervisor.h"
#include "stats/stats.h"
#include "experiment/table.h"
#include "exec/trial.h"
#include "history/history_run.h"
#include "base/util.h"

#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


static volatile sig_atomic_t interrupted;

static void on_sigint(int sig)
{
    (void)sig;
    interrupted = 1;
}

static void catch_signals(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint; /* no SA_RESTART: poll() must wake up */
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
}

/* Skip reasons, counted, for the summary ("28 skipped: no CUDA driver"). */
typedef struct reasons {
    char *text[16];
    long long count[16];
    int n;
} reasons;

static void count_reason(reasons *r, const char *why)
{
    for (int i = 0; i < r->n; i++)
        if (!strcmp(r->text[i], why)) {
            r->count[i]++;
            return;
        }
    if (r->n < 16) {
        r->text[r->n] = xstrdup(why);
        r->count[r->n++] = 1;
    }
}

/* after_trial(trial, result), in the hooks process: its columns join the
 * trial's extras; an error, a crash or a hang there fails the trial. */
static int hooks_after(hookproc *H, long long t, trial_result *res)
{
    if (!hookproc_has(H, "after_trial"))
        return 0;
    double *x = xmalloc((size_t)(res->nsamples + 1) * sizeof *x);
    for (int i = 0; i < res->nsamples; i++)
        x[i] = res->samples[i].seconds;
    stats s = {0};
    s.min = s.median = s.mean = s.stddev = s.max = NAN;
    if (res->nsamples > 0)
        stats_compute(x, res->nsamples, &s);
    free(x);
    lua_result_view rv = {status_names[res->status], res->reason, res->nsamples, s.min, s.median,
                          s.mean, s.stddev, s.max,
                          res->flops > 0 && s.median > 0 ? res->flops / s.median / 1e9 : NAN,
                          res->bytes > 0 && s.median > 0 ? res->bytes / s.median / 1e9 : NAN};
    lua_extra xs;
    char err[1024];
    int rc = hookproc_after(H, t, &rv, &xs, err, sizeof err);
    if (rc == HOOKPROC_INTERRUPTED)
        return rc;
    if (rc != 0) {
        /* a Lua error fails the trial (README "Workloads in Lua"); its samples are kept */
        res->status = ST_FAILED;
        free(res->reason);
        res->reason = xstrdup(err);
        return 0;
    }
    for (int i = 0; i < xs.n; i++)
        trial_result_add_extra(res, xs.keys[i], xs.values[i]);
    lua_extra_free(&xs);
    return 0;
}

/* Where finished trials go, and the tallies of the run. */
typedef struct sink {
    const experiment *e;
    run_files *R;
    progress *pr;
    long long *counts;
    reasons *skipped;
    int *any_failed, *write_failed;
    hookproc *H; /* the experiment's hooks process, or NULL */
    trace_file *T; /* the run's timeline, or NULL */
} sink;

/* skip(trial) and before_trial(trial) decide before a worker is asked:
 * 0 run it; otherwise `res` is the trial's result (skipped or failed). */
static int hooks_before(sink *o, long long t, trial_result *res)
{
    if (!o->H)
        return 0;
    char why[1024];
    int traced = o->T && hookproc_has(o->H, "skip");
    if (traced)
        trace_file_begin(o->T, "hook skip", (long)o->e->ids[t]);
    int sk = hookproc_skip(o->H, t, why, sizeof why);
    if (traced)
        trace_file_end(o->T);
    traced = o->T && sk == 0 && hookproc_has(o->H, "before_trial");
    if (traced)
        trace_file_begin(o->T, "hook before_trial", (long)o->e->ids[t]);
    if (sk == 0)
        sk = hookproc_before(o->H, t, why, sizeof why);
    if (traced)
        trace_file_end(o->T);
    if (sk == 0)
        return 0;
    if (sk == HOOKPROC_INTERRUPTED) {
        memset(res, 0, sizeof *res);
        res->status = ST_INTERRUPTED;
        return 1;
    }
    memset(res, 0, sizeof *res);
    res->cold = res->flops = res->bytes = NAN;
    res->status = sk == 1 ? ST_SKIPPED : ST_FAILED;
    res->reason = xstrdup(why);
    return 1;
}

/* Saves a finished trial and reports it (after_trial's columns first). */
static void finish_trial(sink *o, long long t, trial_result *res, int ran)
{
    char err[1024];
    /* after_trial stopped by SIGINT: the trial is not saved, so that
     * --resume runs it again with its hook */
    int traced = o->T && o->H && ran && hookproc_has(o->H, "after_trial");
    if (traced)
        trace_file_begin(o->T, "hook after_trial", (long)o->e->ids[t]);
    int stopped = o->H && ran && hooks_after(o->H, t, res) == HOOKPROC_INTERRUPTED;
    if (traced)
        trace_file_end(o->T);
    if (stopped)
        return;
    trial_record_load(res);
    trial_flag_noise(res, o->e->stop.rse);
    /* what user code wrote reaches stderr and the CSV without control
     * characters (issue 14: escape sequences from a Lua error) */
    sanitize_text(res->reason);
    for (int i = 0; i < res->nextra; i++)
        sanitize_text(res->extra_vals[i]), sanitize_text(res->extra_keys[i]);
    if (results_write(o->R, o->e, t, res, err, sizeof err) < 0) {
        progress_clear(o->pr);
        fprintf(stderr, "runner: %s\n", err);
        *o->write_failed = 1;
        /* not saved, so not done: it is neither counted nor reported as its
         * status (--resume runs it again) */
        return;
    }
    o->counts[res->status]++;
    for (int i = 0; i < res->nextra; i++)
        if (!strcmp(res->extra_keys[i], "lua_warning")) {
            progress_clear(o->pr);
            fprintf(stderr, "runner: warning: trial %lld: %s\n", o->e->ids[t], res->extra_vals[i]);
        }
    if (res->status == ST_FAILED || res->status == ST_TIMEOUT) {
        strbuf desc = {0};
        table_describe(o->e, t, &desc);
        sanitize_text(desc.s); /* a label may hold a newline or an escape */
        *o->any_failed = 1;
        progress_clear(o->pr);
        fprintf(stderr, "runner: trial %lld (%s) %s: %s\n", o->e->ids[t], desc.s,
                res->status == ST_FAILED ? "failed" : "timed out", res->reason);
        sb_free(&desc);
    } else if (res->status == ST_SKIPPED) {
        count_reason(o->skipped, res->reason);
    }
}

static double trial_timeout(const experiment *e, long long t)
{
    static const experiment *seen;
    static int col;
    if (seen != e) {
        seen = e;
        col = experiment_column(e, "timeout");
    }
    value v = col >= 0 ? trial_value(e, t, col) : (value){0};
    return value_is_num(&v) ? v.f : 0;
}

/* The trials with `order: interleaved`, measured together after the
 * sequential ones (README "How a trial is timed").  Samples are taken
 * round-robin across them (one sample of each trial per round), so that
 * slow drift of a shared machine spreads over all of them evenly.  Each
 * round prepares the trial afresh (untimed) and warms it up as a sequential
 * trial is: a round without warmups would time a cold call (issue 15: 1.53
 * ms against 147 us for axpb n=1e6); `cold` is the first round's.  A trial
 * is saved once it has all its samples, or as soon as one round fails. */
static void run_interleaved(const experiment *e, supervisor *S, sink *o)
{
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
    for (int round = 0; left > 0 && !interrupted && !*o->write_failed; round++) {
        for (long long t = 0; t < n && !interrupted && !*o->write_failed; t++) {
            if (!open[t])
                continue;
            trial_result r;
            int ran = !(round == 0 && hooks_before(o, t, &r));
            if (ran)
                sup_run(S, t, trial_timeout(e, t), 1, -1, &r);
            acc[t].ran |= ran;
            if (r.status == ST_INTERRUPTED) {
                trial_result_free(&r);
                break;
            }
            trial_result *a = &acc[t];
            trial_add_round(a, &r, round);
            trial_result_free(&r);
            if (a->status != ST_OK || a->nsamples >= want[t]) {
                progress_trial(o->pr, o->pr->done, "interleaved");
                progress_finished(o->pr, 0, a->status != ST_SKIPPED);
                finish_trial(o, t, a, a->ran);
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

static int run_experiment(const cli *c, experiment *e, int argc, char **argv, int *any_failed,
                          trace_file *given)
{
    char err[1024];
    run_files R;
    char lua_dir[4096];
    lua_project_dir(lua_dir, sizeof lua_dir);
    lua_engine_configure(e->dir, lua_dir, c->allow_unsafe_lua); /* the worker inherits it */
    hookproc *H = NULL;
    if (e->hooks) {
        char hp[4096];
        snprintf(hp, sizeof hp, "%s%s%s", e->hooks[0] == '/' ? "" : e->dir,
                 e->hooks[0] == '/' ? "" : "/", e->hooks);
        H = hookproc_open(e, hp, &interrupted, err, sizeof err);
        if (!H) {
            fprintf(stderr, "runner: %s\n", sanitize_text(err));
            return EXIT_INVALID;
        }
    }
    char *shard_dir = c->run_dir && c->shard_n ? xasprintf("%s/shard-%d-of-%d", c->run_dir,
                                                           c->shard_k, c->shard_n)
                                               : NULL;
    int opened = c->run_dir ? results_open_dir(&R, e, shard_dir ? shard_dir : c->run_dir, err,
                                               sizeof err)
                            : results_open(&R, e, c->output, c->resume, err, sizeof err);
    free(shard_dir);
    if (opened < 0) {
        fprintf(stderr, "runner: %s\n", err);
        results_free(&R);
        hookproc_close(H);
        return EXIT_INVALID;
    }
    meta *m = meta_collect(e, argc, argv);
    const char **warn;
    int nw = meta_warnings(m, &warn);
    for (int i = 0; i < nw && !c->quiet; i++)
        fprintf(stderr, "runner: warning: %s\n", warn[i]);
    free(warn);
    long long counts[5] = {0};
    if (meta_write(m, R.run_dir, 0, counts, 0) < 0) {
        fprintf(stderr, "runner: cannot write %s/%s\n", R.run_dir, rundir_name(RD_META));
        meta_free(m);
        results_free(&R);
        hookproc_close(H);
        return EXIT_INVALID;
    }
    if (R.resumed && !c->quiet)
        fprintf(stderr, "runner: resuming %s (%lld trials already done)\n", R.run_dir,
                R.ndone_here);
    if (R.damaged)
        fprintf(stderr, "runner: warning: %s: %lld damaged row%s of %s dropped; "
                        "their trials run again\n",
                R.run_dir, R.damaged, R.damaged == 1 ? "" : "s", rundir_name(RD_TRIALS));

    long long todo = 0;
    for (long long t = 0; t < e->ntrials; t++)
        todo += !results_is_done(&R, e->ids[t]);
    progress pr;
    progress_init(&pr, todo, c->quiet);
    /* the timeline: --trace FILE (given), else RUN_DIR/trace.json with
     * `trace: true` (README "A timeline of a run") */
    trace_file *T = given;
    if (!T && e->trace) {
        char *tp = xasprintf("%s/trace.json", R.run_dir);
        T = trace_file_open(tp, 1, err, sizeof err);
        free(tp);
        if (!T)
            fprintf(stderr, "runner: warning: %s; the run goes on without it\n", err);
    }
    supervisor S;
    sup_init(&S, e, &interrupted);
    S.trace = T;
    reasons skipped = {0};
    double start = now_seconds();
    int write_failed = 0;
    long long seq = 0;
    sink out = {e, &R, &pr, counts, &skipped, any_failed, &write_failed, H, T};
    /* the sequential trials one by one in trial order, then the interleaved
     * ones together (README "How a trial is timed") */
    int any_interleaved = 0;
    for (long long t = 0; t < e->ntrials && !interrupted && !write_failed; t++) {
        if (results_is_done(&R, e->ids[t]))
            continue;
        if (trial_interleaved(e, t)) {
            any_interleaved = 1;
            continue;
        }
        if (pr.enabled) { /* not on the hot path of a quiet run */
            strbuf desc = {0};
            table_describe(e, t, &desc);
            progress_trial(&pr, seq, desc.s);
            sb_free(&desc);
        }
        seq++;
        double t0 = now_seconds();
        trial_result res;
        int ran = !hooks_before(&out, t, &res);
        if (ran)
            sup_run(&S, t, trial_timeout(e, t), -1, -1, &res);
        progress_finished(&pr, now_seconds() - t0, res.status != ST_SKIPPED);
        if (res.status != ST_INTERRUPTED)
            finish_trial(&out, t, &res, ran);
        trial_result_free(&res);
    }
    if (any_interleaved && !interrupted && !write_failed)
        run_interleaved(e, &S, &out);
    sup_stop(&S);
    if (T != given && trace_file_close(T, err, sizeof err) < 0) {
        fprintf(stderr, "runner: %s\n", err);
        write_failed = 1;
    }
    progress_clear(&pr);
    double wall = now_seconds() - start;
    int finished = !interrupted && !write_failed;
    if (results_close(&R, finished, err, sizeof err) < 0) {
        fprintf(stderr, "runner: %s\n", err);
        write_failed = 1;
        finished = 0;
    }
    if (meta_write(m, R.run_dir, finished, counts, wall) < 0 && !write_failed) {
        fprintf(stderr, "runner: cannot write %s/%s\n", R.run_dir, rundir_name(RD_META));
        write_failed = 1;
    }
    /* latest is earned: a finished run with an ok trial (README "Results") */
    if (finished && !write_failed && !results_earn_latest(&R) && !c->quiet && !c->run_dir)
        fprintf(stderr, "runner: %s/latest not moved: the run has no ok trial\n", R.exp_dir);
    /* a shard is a part: `runner merge` draws and reports the whole */
    strbuf notes = {0}; /* what the charts and the report have to say */
    if (finished && !c->no_plots && !c->shard_n)
        plots_render_run(R.run_dir, e, c->quiet, &notes);
    if (finished && !c->shard_n)
        report_write(R.run_dir, c->quiet, &notes);
    /* the run's results are final: recorded in the history (doc/history.md) */
    if (finished && !write_failed && !c->shard_n)
        history_record_run(R.run_dir,
                           &(history_run_opts){c->history, c->run_dir ? "" : c->output, c->revision, c->no_history,
                                               c->quiet, c->no_plots, 0},
                           &notes);
    print_notes(&notes);

    char w[32];
    fmt_seconds(w, sizeof w, wall);
    fprintf(stderr, "%s: %lld ok, %lld failed, %lld timeout, %lld skipped in %s; results in %s\n",
            e->name, counts[ST_OK], counts[ST_FAILED], counts[ST_TIMEOUT], counts[ST_SKIPPED], w,
            R.run_dir);
    for (int i = 0; i < skipped.n; i++) {
        if (!c->quiet)
            fprintf(stderr, "  skipped %lld: %s\n", skipped.count[i], skipped.text[i]);
        free(skipped.text[i]);
    }
    int rc = EXIT_OK;
    if (interrupted) {
        /* the command that continues this run folder (README "Results"):
         * a --run-dir run continues where it was written, not under --output,
         * with the options that chose the trials and allowed its Lua */
        strbuf more = {0};
        if (c->run_dir && c->shard_n)
            sb_printf(&more, " --shard %d/%d", c->shard_k, c->shard_n);
        for (int i = 0; i < c->nfilters; i++) {
            sb_puts(&more, " --filter ");
            sh_quote(&more, c->filters[i]);
        }
        if (c->allow_unsafe_lua)
            sb_puts(&more, " --allow-unsafe-lua");
        fprintf(stderr,
                "runner: interrupted; finished trials are saved. Continue with: runner %s %s%s %s\n",
                c->run_dir ? "--run-dir" : "--resume --output", c->run_dir ? c->run_dir : c->output,
                more.s ? more.s : "", e->path);
        sb_free(&more);
        rc = EXIT_INTERRUPTED;
    } else if (write_failed) {
        rc = EXIT_TRIALS_FAILED;
    }
    meta_free(m);
    results_free(&R);
    hookproc_close(H);
    return rc;
}

int cmd_run(const cli *c)
{
    /* every file is checked before anything runs */
    experiment **es = xcalloc((size_t)c->nfiles, sizeof *es);
    int bad = 0;
    load_opts o = cli_load_opts(c);
    for (int i = 0; i < c->nfiles; i++)
        if (!(es[i] = load_experiment(c->files[i], &o)))
            bad = 1;
    int rc = bad ? EXIT_INVALID : EXIT_OK, any_failed = 0;
    trace_file *T = NULL;
    char err[1024];
    if (!bad && c->trace && !(T = trace_file_open(c->trace, 0, err, sizeof err))) {
        fprintf(stderr, "runner: %s\n", err);
        rc = EXIT_INVALID;
    }
    if (rc == EXIT_OK) {
        catch_signals();
        for (int i = 0; i < c->nfiles && rc == EXIT_OK; i++)
            rc = run_experiment(c, es[i], cli_argc, cli_argv, &any_failed, T);
        if (rc == EXIT_OK && any_failed)
            rc = EXIT_TRIALS_FAILED;
    }
    if (T && trace_file_close(T, err, sizeof err) < 0) {
        fprintf(stderr, "runner: %s\n", err);
        if (rc == EXIT_OK)
            rc = EXIT_TRIALS_FAILED;
    }
    for (int i = 0; i < c->nfiles; i++)
        experiment_free(es[i]);
    free(es);
    return rc;
}
