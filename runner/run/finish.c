/* finish.c - see finish.h. */
#include "run/finish.h"

#include "base/util.h"
#include "experiment/columns.h"
#include "experiment/table.h"
#include "experiment/lua/lua_engine.h"
#include "run/trial_extras.h"
#include "run/trial_peak.h"
#include "stats/stats.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void run_say(run_state *st, const char *fmt, ...)
{
    strbuf b = {0};
    va_list ap;
    va_start(ap, fmt);
    sb_vprintf(&b, fmt, ap);
    va_end(ap);
    st->h->say(st->h->ctx, b.s);
    sb_free(&b);
}

void run_progress_trial(run_state *st, const char *desc)
{
    st->h->trial(st->h->ctx, st->done, desc);
}

void run_progress_end(run_state *st, double seconds, int ran)
{
    st->done++;
    st->h->finished(st->h->ctx, seconds, ran);
}

/* Skip reasons, counted, for the summary ("28 skipped: no CUDA driver"). */
static void count_reason(run_outcome *r, const char *why)
{
    for (int i = 0; i < r->nreasons; i++)
        if (!strcmp(r->reason[i], why)) {
            r->nreason[i]++;
            return;
        }
    if (r->nreasons < RUN_MAX_REASONS) {
        r->reason[r->nreasons] = xstrdup(why);
        r->nreason[r->nreasons++] = 1;
    }
}

/* after_trial(trial, result), in the hooks process: its columns join the
 * trial's extras; an error, a crash or a hang there fails the trial.  A
 * column named as one the runner writes (columns.h), or as one the trial
 * has already (a workload's loss), is refused: its name goes to `refused`
 * for a warning, and no measured or identifying cell changes
 * (doc/results.md#reserved-column-names). */
static int hooks_after(const experiment *e, hookproc *H, long long t, trial_result *res,
                       strbuf *refused)
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
        /* a Lua error fails the trial (doc/lua.md#workloads-in-lua); its samples are kept */
        res->status = ST_FAILED;
        free(res->reason);
        res->reason = xstrdup(err);
        return 0;
    }
    for (int i = 0; i < xs.n; i++) {
        if (columns_reserved(e, xs.keys[i]) || trial_extra(res, xs.keys[i]))
            sb_printf(refused, "%s`%s`", refused->len ? ", " : "", xs.keys[i]);
        else
            trial_result_add_extra(res, xs.keys[i], xs.values[i]);
    }
    lua_extra_free(&xs);
    return 0;
}

int run_hooks_before(run_state *o, long long t, trial_result *res)
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

void run_finish_trial(run_state *o, long long t, trial_result *res, int ran)
{
    char err[1024];
    /* after_trial stopped by SIGINT: the trial is not saved, so that
     * --resume runs it again with its hook */
    int traced = o->T && o->H && ran && hookproc_has(o->H, "after_trial");
    if (traced)
        trace_file_begin(o->T, "hook after_trial", (long)o->e->ids[t]);
    strbuf refused = {0};
    int stopped = o->H && ran && hooks_after(o->e, o->H, t, res, &refused) == HOOKPROC_INTERRUPTED;
    if (traced)
        trace_file_end(o->T);
    if (refused.len) {
        char list[1536];
        sanitize_text(refused.s);
        run_say(o,
                "runner: warning: trial %lld: after_trial()'s %s not saved: the runner or the "
                "workload writes that column (reserved: %s)\n",
                o->e->ids[t], refused.s, columns_reserved_list(o->e, list, sizeof list));
    }
    sb_free(&refused);
    if (stopped)
        return;
    trial_record_load(res);
    trial_flag_noise(res, o->e->stop.rse);
    trial_add_peak(res, o->C, o->e, t);
    /* what user code wrote reaches stderr and the CSV without control
     * characters (issue 14: escape sequences from a Lua error) */
    sanitize_text(res->reason);
    for (int i = 0; i < res->nextra; i++)
        sanitize_text(res->extra_vals[i]), sanitize_text(res->extra_keys[i]);
    /* and as valid UTF-8, each bad byte U+FFFD as `runner export` writes
     * it: a program's stderr or extras in Latin-1 or cut mid-character
     * made the trials table and the reports unreadable to a strict reader
     * (doc/own-code.md#what-the-runner-guarantees) */
    res->reason = utf8_own(res->reason);
    for (int i = 0; i < res->nextra; i++) {
        res->extra_vals[i] = utf8_own(res->extra_vals[i]);
        res->extra_keys[i] = utf8_own(res->extra_keys[i]);
    }
    if (results_write(o->R, o->e, t, res, err, sizeof err) < 0) {
        run_say(o, "runner: %s\n", err);
        o->write_failed = 1;
        /* not saved, so not done: it is neither counted nor reported as its
         * status (--resume runs it again) */
        return;
    }
    o->out->counts[res->status]++;
    for (int i = 0; i < res->nextra; i++)
        if (!strcmp(res->extra_keys[i], "lua_warning"))
            run_say(o, "runner: warning: trial %lld: %s\n", o->e->ids[t], res->extra_vals[i]);
    if (res->status == ST_FAILED || res->status == ST_TIMEOUT) {
        strbuf desc = {0};
        table_describe(o->e, t, &desc);
        sanitize_text(desc.s); /* a label may hold a newline or an escape */
        o->out->any_failed = 1;
        run_say(o, "runner: trial %lld (%s) %s: %s\n", o->e->ids[t], desc.s,
                res->status == ST_FAILED ? "failed" : "timed out", res->reason);
        sb_free(&desc);
    } else if (res->status == ST_SKIPPED) {
        count_reason(o->out, res->reason);
    }
}

double run_trial_timeout(const experiment *e, long long t)
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
