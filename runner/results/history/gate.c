/* gate.c - see gate.h (doc/history.md#runner-gate). */
#include "results/history/gate.h"

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

double gate_probit(double p)
{
    static const double a[] = {-3.969683028665376e+01, 2.209460984245205e+02,
                               -2.759285104469687e+02, 1.383577518672690e+02,
                               -3.066479806614716e+01, 2.506628277459239e+00};
    static const double b[] = {-5.447609879822406e+01, 1.615858368580409e+02,
                               -1.556989798598866e+02, 6.680131188771972e+01,
                               -1.328068155288572e+01};
    static const double c[] = {-7.784894002430293e-03, -3.223964580411365e-01,
                               -2.400758277161838e+00, -2.549732539343734e+00,
                               4.374664141464968e+00, 2.938163982698783e+00};
    static const double d[] = {7.784695709041462e-03, 3.224671290700398e-01,
                               2.445134137142996e+00, 3.754408661907416e+00};
    if (p <= 0)
        return -INFINITY;
    if (p >= 1)
        return INFINITY;
    if (p < 0.02425 || p > 1 - 0.02425) {
        double q = sqrt(-2 * log(p < 0.5 ? p : 1 - p));
        double x = (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
                   ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
        return p < 0.5 ? x : -x;
    }
    double q = p - 0.5, r = q * q;
    return (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q /
           (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
}

/* The series of key k among h, or NULL. */
static const history_series *series_of(const history_set *h, const char *key)
{
    for (int i = 0; i < h->n; i++)
        if (!strcmp(h->s[i].key, key))
            return &h->s[i];
    return NULL;
}

/* The earlier runs' medians of s that count: ok, on a quiet machine, not
 * this run, started before it; the last `window` of them. */
static int window_of(const history_series *s, const char *run_id, const char *start, int window,
                     double *out)
{
    int n = 0;
    for (int k = s ? s->npts - 1 : -1; k >= 0 && n < window; k--) {
        const history_point *p = &s->pts[k];
        if (!isfinite(p->median) || p->busy || p->throttled || strcmp(p->status, "ok"))
            continue;
        if (!strcmp(p->run_id, run_id) && !strcmp(p->started ? p->started : "", start))
            continue;
        if (*start && p->started && strcmp(p->started, start) >= 0)
            continue;
        out[n++] = p->median;
    }
    return n;
}

int gate_judge(sqlite3 *db, const char *run_dir, int window, gate_result *out, char *err,
               size_t len)
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
    out->experiment = xstrdup(ename);
    out->machine = xstrdup(m.id);
    const char *st = report_jstr(meta, "start");
    char *start = xstrdup(st ? st : "");
    char *dircopy = xstrdup(R.dir), *run_id = xstrdup(basename(dircopy));
    history_query q = {.experiment = ename, .machine = m.id};
    history_set h;
    int rc = history_load(db, &q, &h, err, len);
    if (rc == 0) {
        double *w = xmalloc((size_t)(window + 1) * sizeof *w);
        out->rows = xcalloc((size_t)R.nrows + 1, sizeof *out->rows);
        char **keys = history_trial_keys(&R);
        for (int p = 0; p < R.nrows; p++) {
            gate_row *g = &out->rows[out->n++];
            g->key = keys[p]; /* the row owns it now */
            g->median = compare_trial_median(&R, p);
            g->base = g->noise = g->ratio = g->threshold = NAN;
            g->nhist = window_of(series_of(&h, g->key), run_id, start, window, w);
            if (g->nhist > 0) {
                g->base = stats_median_copy(w, g->nhist);
                for (int i = 0; i < g->nhist; i++)
                    w[i] = fabs(log(w[i] / g->base));
                /* 1.4826 MAD: the sd of normal noise, robust to a busy run */
                g->noise = 1.4826 * stats_median(w, g->nhist);
                g->ratio = g->median / g->base;
            }
            if (!compare_trial_ok(&R, p) || !isfinite(g->median))
                g->kind = GK_NOT_OK;
            else if (compare_trial_busy(&R, p))
                g->kind = GK_BUSY;
            else if (compare_trial_throttled(&R, p))
                g->kind = GK_THROTTLED;
            else if (g->nhist < GATE_MIN_HISTORY)
                g->kind = GK_NEW;
            else
                out->judged++;
            out->busy += g->kind == GK_BUSY || g->kind == GK_THROTTLED;
            out->too_little += g->kind == GK_NEW;
        }
        free(keys); /* the strings are the rows' */
        free(w);
        /* one-sided, Bonferroni over the judged trials; the noise of a new
         * value against the median of n: sqrt(1 + pi/(2n)) times its sd */
        out->z = gate_probit(1 - GATE_ALPHA / (out->judged ? out->judged : 1));
        for (int i = 0; i < out->n; i++) {
            gate_row *g = &out->rows[i];
            if (g->kind != GK_SAME)
                continue;
            /* a numerical floor only: history of equal values */
            double sd = fmax(g->noise, 1e-3) * sqrt(1 + M_PI / (2.0 * g->nhist));
            g->threshold = exp(out->z * sd);
            if (g->ratio > g->threshold)
                g->kind = GK_SLOWER, out->slower++;
            else if (g->ratio < 1 / g->threshold)
                g->kind = GK_FASTER;
        }
        out->verdict = out->slower ? GATE_SLOWER
                       : out->busy || !out->judged ? GATE_INCONCLUSIVE
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

static const char *kind_word(gate_kind k)
{
    static const char *const w[] = {"same", "slower", "faster", "too little history",
                                    "busy (inconclusive)", "throttled (inconclusive)", "not ok"};
    return w[k];
}

void gate_format(const gate_result *g, strbuf *b)
{
    sb_printf(b, "gate: %s on machine %s: %d trials judged against the last %d runs of its "
                 "history (threshold: %.2f x the history's run-to-run noise)\n",
              g->experiment, g->machine, g->judged, g->window, g->z);
    sb_printf(b, "%-44s %5s %12s %7s %12s %7s %9s  %s\n", "trial", "runs", "history", "noise",
              "this run", "ratio", "threshold", "verdict");
    for (int i = 0; i < g->n; i++) {
        const gate_row *r = &g->rows[i];
        char base[32] = "-", med[32] = "-", noise[16] = "-", ratio[16] = "-", thr[16] = "-";
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
        sb_printf(b, "%-44.44s %5d %12s %7s %12s %7s %9s  %s\n", r->key, r->nhist, base, noise,
                  med, ratio, thr, kind_word(r->kind));
    }
    sb_printf(b, "gate: %s: %d slower, %d inconclusive (busy or throttled), %d with too little "
                 "history (fewer than %d earlier ok runs)\n",
              g->verdict == GATE_SLOWER ? "slower"
              : g->verdict == GATE_INCONCLUSIVE ? "inconclusive"
                                                : "clean",
              g->slower, g->busy, g->too_little, GATE_MIN_HISTORY);
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
