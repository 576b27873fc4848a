/* gate.c - see gate.h (doc/history.md#runner-gate). */
#include "results/history/gate.h"

#include "results/history/changepoint.h"
#include "results/history/gate_stats.h"
#include "results/history/history_query.h"
#include "results/history/history_record.h"
#include "results/report/compare_load.h"
#include "results/report/compare_trial.h"
#include "results/report/report_text.h"
#include "results/rundir/rundir.h"
#include "stats/stats.h"

#include <libgen.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The series of key k among h, or NULL. */
static const history_series *series_of(const history_set *h, const char *key)
{
    for (int i = 0; i < h->n; i++)
        if (!strcmp(h->s[i].key, key))
            return &h->s[i];
    return NULL;
}

/* Whether point p is this run (recorded already) or was not before it. */
static int not_earlier(const history_point *p, const char *run_id, const char *start)
{
    if (!strcmp(p->run_id, run_id) && !strcmp(p->started, start))
        return 1;
    return *start && strcmp(p->started, start) >= 0;
}

/* This run: its id and start (not_earlier's arguments). */
typedef struct this_run {
    const char *run_id, *start;
} this_run;

static int skip_not_earlier(const history_point *p, const void *ctx)
{
    const this_run *r = ctx;
    return not_earlier(p, r->run_id, r->start);
}

/* The earlier runs' medians of s that count (history_series_window): not
 * this run, started before it; the last `window` of them, oldest first;
 * *floor the median of their intervals' noise (changepoint_interval_floor). */
static int window_of(const history_series *s, const char *run_id, const char *start, int window,
                     double *out, double *floor)
{
    double *lo = xmalloc(((size_t)window + 1) * sizeof *lo), *hi = xmalloc(((size_t)window + 1) * sizeof *hi);
    this_run r = {run_id, start};
    int n = history_series_window(s, window, skip_not_earlier, &r, out, lo, hi);
    *floor = changepoint_interval_floor(lo, hi, n);
    free(lo);
    free(hi);
    return n;
}

/* The row of the run db recorded last before this one (started before it),
 * among h's points; 0 when none. */
static long long last_earlier_run(const history_set *h, const char *run_id, const char *start)
{
    long long run = 0;
    const char *when = NULL;
    for (int i = 0; i < h->n; i++)
        for (int k = 0; k < h->s[i].npts; k++) {
            const history_point *p = &h->s[i].pts[k];
            if (not_earlier(p, run_id, start))
                continue;
            int c = when ? strcmp(p->started, when) : 1;
            if (c > 0 || (c == 0 && p->run > run))
                run = p->run, when = p->started;
        }
    return run;
}

/* Whether series s was ok in the run row `run`. */
static int ok_in(const history_series *s, long long run)
{
    for (int k = 0; k < s->npts; k++)
        if (s->pts[k].run == run)
            return !strcmp(s->pts[k].status, "ok");
    return 0;
}

static gate_row *new_row(gate_result *out, int *cap)
{
    if (out->n == *cap)
        out->rows = xrealloc(out->rows, (size_t)(*cap = *cap ? 2 * *cap : 16) * sizeof *out->rows);
    gate_row *g = &out->rows[out->n++];
    memset(g, 0, sizeof *g);
    g->base = g->noise = g->ratio = g->threshold = g->detectable = g->median = NAN;
    return g;
}

/* Each trial of R against its series in h. */
static void judge_trials(const compare_run *R, const history_set *h, const char *run_id,
                         const char *start, gate_result *out)
{
    int window = out->window, cap = 0;
    double *w = xmalloc((size_t)(window + 1) * sizeof *w);
    double *floors = xcalloc((size_t)R->nrows + 1, sizeof *floors);
    char **keys = history_trial_keys(R);
    for (int p = 0; p < R->nrows; p++) {
        gate_row *g = new_row(out, &cap);
        g->key = keys[p]; /* the row owns it now */
        g->median = compare_trial_median(R, p);
        const history_series *s = series_of(h, g->key);
        g->nhist = window_of(s, run_id, start, window, w, &floors[p]);
        if (!compare_trial_ok(R, p))
            /* a trial that worked in its history and fails now is a regression */
            g->kind = g->nhist > 0 ? GK_FAILED : GK_NOT_OK;
        else if (!(g->median > 0) || !isfinite(g->median))
            g->kind = GK_UNTIMED; /* a median of 0 cannot be compared */
        else if (compare_trial_busy(R, p))
            g->kind = GK_BUSY;
        else if (compare_trial_throttled(R, p))
            g->kind = GK_THROTTLED;
        else if (g->nhist < GATE_MIN_HISTORY)
            g->kind = GK_NEW;
        else
            out->judged++;
        out->busy += g->kind == GK_BUSY || g->kind == GK_THROTTLED;
        out->too_little += g->kind == GK_NEW;
        out->failed += g->kind == GK_FAILED;
        out->untimed += g->kind == GK_UNTIMED;
    }
    free(keys); /* the strings are the rows' */
    /* one-sided, Bonferroni over the judged trials */
    for (int i = 0; i < out->n; i++) {
        gate_row *g = &out->rows[i];
        if (g->nhist < GATE_MIN_HISTORY || g->kind == GK_NOT_OK)
            continue;
        const history_series *s = series_of(h, g->key);
        window_of(s, run_id, start, window, w, &floors[i]);
        gate_stat st;
        gate_stat_compute(w, g->nhist, out->judged, GATE_ALPHA, floors[i], &st);
        g->base = st.base;
        g->noise = st.noise;
        g->threshold = st.threshold;
        g->detectable = st.detectable;
        if (isfinite(g->median) && g->median > 0)
            g->ratio = g->median / g->base;
        if (g->kind != GK_SAME)
            continue;
        int v = gate_stat_judge(&st, g->median);
        if (v > 0)
            g->kind = GK_SLOWER, out->slower++;
        else if (v < 0)
            g->kind = GK_FASTER;
        else if (g->detectable > out->threshold)
            g->kind = GK_BLIND, out->blind++; /* it could not have seen a change */
    }
    free(floors);
    free(w);
}

/* The trials ok in the last earlier run and absent from this one. */
static void judge_missing(const history_set *h, const char *run_id, const char *start,
                          gate_result *out)
{
    long long last = last_earlier_run(h, run_id, start);
    for (int i = 0; last && i < h->n; i++) {
        const history_series *s = &h->s[i];
        int here = 0;
        for (int k = 0; k < out->n && !here; k++)
            here = !strcmp(out->rows[k].key, s->key);
        if (here || !ok_in(s, last))
            continue;
        int cap = out->n; /* new_row grows the rows */
        gate_row *g = new_row(out, &cap);
        g->key = xstrdup(s->key);
        g->kind = GK_MISSING;
        out->missing++;
    }
}

int gate_judge(sqlite3 *db, const char *run_dir, int window, double threshold, gate_result *out,
               char *err, size_t len)
{
    memset(out, 0, sizeof *out);
    compare_run R;
    json_object *meta = history_load_run(run_dir, &R, err, len);
    if (!meta)
        return -1;
    const char *ename = report_jstr(meta, "experiment.name");
    history_machine m;
    history_machine_of(meta, &m);
    out->window = window;
    out->threshold = threshold;
    out->experiment = xstrdup(ename);
    out->machine = xstrdup(m.id);
    const char *st = report_jstr(meta, "start");
    char *start = xstrdup(st ? st : "");
    char *dircopy = xstrdup(R.dir), *run_id = xstrdup(basename(dircopy));
    history_query q = {.experiment = ename, .machine = m.id};
    history_set h;
    int rc = history_load(db, &q, &h, err, len);
    if (rc == 0) {
        out->bad_rows = h.bad_rows;
        judge_trials(&R, &h, run_id, start, out);
        judge_missing(&h, run_id, start, out);
        /* rows of this history that could not be read: what they held is unknown */
        int cannot = out->busy + out->missing + out->blind + out->untimed + out->bad_rows;
        out->verdict = out->slower || out->failed       ? GATE_SLOWER
                       : cannot || !out->judged         ? GATE_INCONCLUSIVE
                                                        : GATE_CLEAN;
        history_set_free(&h);
    }
    free(start);
    free(dircopy);
    free(run_id);
    history_machine_free(&m);
    compare_run_free(&R);
    json_object_put(meta);
    return rc;
}

const char *gate_kind_word(gate_kind k)
{
    static const char *const w[] = {"same",
                                    "slower",
                                    "faster",
                                    "too little history",
                                    "busy (inconclusive)",
                                    "throttled (inconclusive)",
                                    "not ok",
                                    "failed (ok in its history)",
                                    "missing from this run (inconclusive)",
                                    "blind (inconclusive)",
                                    "no positive median (inconclusive)"};
    return w[k];
}

void gate_format(const gate_result *g, strbuf *b)
{
    sb_printf(b, "gate: %s on machine %s: %d trials judged against the last %d runs of its "
                 "history (5 %% chance of any false `slower`; a trial whose detectable change "
                 "is over %.0f %% is inconclusive)\n",
              g->experiment, g->machine, g->judged, g->window, 100 * g->threshold);
    if (g->bad_rows)
        sb_printf(b, "gate: warning: %d row%s of the history database left out (a NULL or a "
                     "wrong type where a run's trial needs a value, or a median that is no "
                     "positive time)\n",
                  g->bad_rows, g->bad_rows == 1 ? "" : "s");
    sb_printf(b, "%-44s %5s %12s %7s %12s %7s %9s %11s  %s\n", "trial", "runs", "history", "noise",
              "this run", "ratio", "threshold", "detectable", "verdict");
    for (int i = 0; i < g->n; i++) {
        const gate_row *r = &g->rows[i];
        char base[32] = "-", med[32] = "-", noise[16] = "-", ratio[16] = "-", thr[16] = "-",
             det[24] = "-";
        if (isfinite(r->base))
            fmt_seconds(base, sizeof base, r->base);
        if (isfinite(r->median))
            fmt_seconds(med, sizeof med, r->median);
        if (isfinite(r->noise))
            snprintf(noise, sizeof noise, "%.1f%%", 100 * r->noise);
        if (isfinite(r->ratio))
            snprintf(ratio, sizeof ratio, "%.3f", r->ratio);
        if (isfinite(r->threshold))
            snprintf(thr, sizeof thr, "%.3f", r->threshold);
        if (isfinite(r->detectable))
            snprintf(det, sizeof det, "±%.1f %%", 100 * r->detectable);
        sb_printf(b, "%-44.44s %5d %12s %7s %12s %7s %9s %11s  %s\n", r->key, r->nhist, base, noise,
                  med, ratio, thr, det, gate_kind_word(r->kind));
    }
    sb_printf(b, "gate: %s: %d slower, %d failed, %d inconclusive (busy or throttled), %d blind "
                 "(detectable change over %.0f %%), %d missing, %d with no positive median, %d "
                 "with too little history (fewer than %d earlier ok runs)\n",
              g->verdict == GATE_SLOWER ? "slower"
              : g->verdict == GATE_INCONCLUSIVE ? "inconclusive"
                                                : "clean",
              g->slower, g->failed, g->busy, g->blind, 100 * g->threshold, g->missing, g->untimed,
              g->too_little, GATE_MIN_HISTORY);
}

void gate_free(gate_result *g)
{
    for (int i = 0; i < g->n; i++)
        free(g->rows[i].key);
    free(g->rows);
    free(g->experiment);
    free(g->machine);
    memset(g, 0, sizeof *g);
}
