/* cmd_run.c - `runner FILE.yaml ...`: every trial of each experiment, in a
 * supervised worker, saved as it finishes; then plots and the report. */
#include "commands.h"
#include "config.h"
#include "meta.h"
#include "plots.h"
#include "progress.h"
#include "results.h"
#include "supervisor.h"
#include "stats.h"
#include "table.h"
#include "trial.h"
#include "util.h"

#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

experiment *load_for_cli(const cli *c, const char *path); /* cmd_check.c */

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

/* A `noise` column for trials worth a second look: a coefficient of
 * variation above 5 %, or outliers beyond Tukey's fences. */
static void flag_noise(trial_result *r)
{
    if (r->status != ST_OK || r->nsamples < 3)
        return;
    double *x = xmalloc((size_t)r->nsamples * sizeof *x);
    for (int i = 0; i < r->nsamples; i++)
        x[i] = r->samples[i].seconds;
    stats s;
    stats_compute(x, r->nsamples, &s);
    int outliers = stats_outliers(x, r->nsamples);
    free(x);
    double cv = s.mean > 0 ? s.stddev / s.mean : 0;
    char text[96] = "";
    if (cv > 0.05)
        snprintf(text, sizeof text, "cv %.1f%%", 100 * cv);
    if (outliers)
        snprintf(text + strlen(text), sizeof text - strlen(text), "%s%d outlier%s",
                 *text ? "; " : "", outliers, outliers == 1 ? "" : "s");
    if (*text)
        trial_result_add_extra(r, "noise", text);
}

/* Where finished trials go, and the tallies of the run. */
typedef struct sink {
    const experiment *e;
    run_files *R;
    progress *pr;
    long long *counts;
    reasons *skipped;
    int *any_failed, *write_failed;
} sink;

/* Saves a finished trial and reports it. */
static void finish_trial(sink *o, long long t, trial_result *res)
{
    char err[1024];
    flag_noise(res);
    if (results_write(o->R, o->e, t, res, err, sizeof err) < 0) {
        progress_clear(o->pr);
        fprintf(stderr, "runner: %s\n", err);
        *o->write_failed = 1;
    }
    o->counts[res->status]++;
    if (res->status == ST_FAILED || res->status == ST_TIMEOUT) {
        strbuf desc = {0};
        table_describe(o->e, t, &desc);
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
    resolved_trial rt;
    trial_resolve(e, t, &rt);
    double timeout = rt.timeout;
    trial_release(&rt);
    return timeout;
}

/* order: interleaved.  Samples are taken round-robin across the trials (one
 * sample of each trial per round, warmups in the first round), so that slow
 * drift of a shared machine spreads over all of them evenly.  Each round
 * prepares the trial afresh (untimed); a trial is saved once it has all its
 * samples, or as soon as one round fails. */
static void run_interleaved(const experiment *e, supervisor *S, sink *o)
{
    long long n = e->ntrials;
    trial_result *acc = xcalloc((size_t)n + 1, sizeof *acc);
    int *want = xcalloc((size_t)n + 1, sizeof *want);
    char *open = xcalloc((size_t)n + 1, 1);
    long long left = 0;
    for (long long t = 0; t < n; t++) {
        if (results_is_done(o->R, e->ids[t]))
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
            sup_run(S, t, trial_timeout(e, t), 1, round == 0 ? -1 : 0, &r);
            if (r.status == ST_INTERRUPTED) {
                trial_result_free(&r);
                break;
            }
            trial_result *a = &acc[t];
            for (int i = 0; i < r.nsamples; i++) {
                if (a->nsamples == a->cap) {
                    a->cap = a->cap ? a->cap * 2 : 8;
                    a->samples = xrealloc(a->samples, (size_t)a->cap * sizeof *a->samples);
                }
                a->samples[a->nsamples++] = r.samples[i];
            }
            if (round == 0)
                a->cold = r.cold;
            a->flops = r.flops;
            a->bytes = r.bytes;
            for (int i = 0; i < r.nextra; i++)
                trial_result_add_extra(a, r.extra_keys[i], r.extra_vals[i]);
            a->status = r.status;
            free(a->reason);
            a->reason = r.reason ? xstrdup(r.reason) : NULL;
            trial_result_free(&r);
            if (a->status != ST_OK || a->nsamples >= want[t]) {
                progress_trial(o->pr, o->pr->done, "interleaved");
                progress_finished(o->pr, 0, a->status != ST_SKIPPED);
                finish_trial(o, t, a);
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

static int run_experiment(const cli *c, experiment *e, int argc, char **argv, int *any_failed)
{
    char err[1024];
    run_files R;
    (void)err;
    if (results_open(&R, e, c->output, c->resume, err, sizeof err) < 0) {
        fprintf(stderr, "runner: %s\n", err);
        results_free(&R);
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
        fprintf(stderr, "runner: cannot write %s/meta.json\n", R.run_dir);
        meta_free(m);
        results_free(&R);
        return EXIT_INVALID;
    }
    if (R.resumed && !c->quiet)
        fprintf(stderr, "runner: resuming %s (%lld trials already done)\n", R.run_dir,
                R.ndone_here);

    long long todo = 0;
    for (long long t = 0; t < e->ntrials; t++)
        todo += !results_is_done(&R, e->ids[t]);
    progress pr;
    progress_init(&pr, todo, c->quiet);
    supervisor S;
    sup_init(&S, e, &interrupted);
    reasons skipped = {0};
    double start = now_seconds();
    int write_failed = 0;
    long long seq = 0;
    sink out = {e, &R, &pr, counts, &skipped, any_failed, &write_failed};
    if (e->interleaved) {
        run_interleaved(e, &S, &out);
    } else {
        for (long long t = 0; t < e->ntrials && !interrupted && !write_failed; t++) {
            if (results_is_done(&R, e->ids[t]))
                continue;
            strbuf desc = {0};
            table_describe(e, t, &desc);
            progress_trial(&pr, seq++, desc.s);
            sb_free(&desc);
            double t0 = now_seconds();
            trial_result res;
            sup_run(&S, t, trial_timeout(e, t), -1, -1, &res);
            progress_finished(&pr, now_seconds() - t0, res.status != ST_SKIPPED);
            if (res.status != ST_INTERRUPTED)
                finish_trial(&out, t, &res);
            trial_result_free(&res);
        }
    }
    sup_stop(&S);
    progress_clear(&pr);
    double wall = now_seconds() - start;
    int finished = !interrupted && !write_failed;
    if (results_close(&R, finished, err, sizeof err) < 0) {
        fprintf(stderr, "runner: %s\n", err);
        write_failed = 1;
        finished = 0;
    }
    if (meta_write(m, R.run_dir, finished, counts, wall) < 0 && !write_failed) {
        fprintf(stderr, "runner: cannot write %s/meta.json\n", R.run_dir);
        write_failed = 1;
    }
    if (finished && !c->no_plots)
        plots_render_run(R.run_dir, e, c->quiet);
    if (finished)
        report_write(R.run_dir, c->quiet);

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
        fprintf(stderr,
                "runner: interrupted; finished trials are saved. Continue with: runner --resume "
                "--output %s %s\n",
                c->output, e->path);
        rc = EXIT_INTERRUPTED;
    } else if (write_failed) {
        rc = EXIT_TRIALS_FAILED;
    }
    meta_free(m);
    results_free(&R);
    return rc;
}

int cmd_run(const cli *c)
{
    /* every file is checked before anything runs */
    experiment **es = xcalloc((size_t)c->nfiles, sizeof *es);
    int bad = 0;
    for (int i = 0; i < c->nfiles; i++)
        if (!(es[i] = load_for_cli(c, c->files[i])))
            bad = 1;
    int rc = bad ? EXIT_INVALID : EXIT_OK, any_failed = 0;
    if (!bad) {
        catch_signals();
        for (int i = 0; i < c->nfiles && rc == EXIT_OK; i++)
            rc = run_experiment(c, es[i], cli_argc, cli_argv, &any_failed);
        if (rc == EXIT_OK && any_failed)
            rc = EXIT_TRIALS_FAILED;
    }
    for (int i = 0; i < c->nfiles; i++)
        experiment_free(es[i]);
    free(es);
    return rc;
}
