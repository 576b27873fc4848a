/* history_query.c - see history_query.h (doc/history.md#runner-history). */
#include "results/history/history_query.h"

#include "base/util.h"

#include <fnmatch.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int history_series_window(const history_series *s, int window,
                          int (*skip)(const history_point *p, const void *ctx), const void *ctx,
                          double *med, double *lo, double *hi)
{
    int n = 0;
    for (int k = s ? s->npts - 1 : -1; k >= 0 && n < window; k--) {
        const history_point *p = &s->pts[k];
        if (!(p->median > 0) || !isfinite(p->median) || p->busy || p->throttled ||
            strcmp(p->status, "ok") || (skip && skip(p, ctx)))
            continue;
        med[n] = p->median, lo[n] = p->ci_low, hi[n] = p->ci_high;
        n++;
    }
    for (int i = 0; i < n / 2; i++) { /* oldest first */
        double *v[3] = {med, lo, hi};
        for (int j = 0; j < 3; j++) {
            double t = v[j][i];
            v[j][i] = v[j][n - 1 - i];
            v[j][n - 1 - i] = t;
        }
    }
    return n;
}

int history_key_matches(const char *key, const char *const *filters, int n)
{
    for (int i = 0; i < n; i++) {
        const char *eq = strchr(filters[i], '=');
        if (!eq)
            return 0;
        size_t kl = (size_t)(eq - filters[i]);
        int hit = 0;
        /* the parts are "name=value", joined by ", " */
        for (const char *p = key; p && *p && !hit;) {
            const char *end = strstr(p, ", ");
            size_t pl = end ? (size_t)(end - p) : strlen(p);
            if (pl > kl && !strncmp(p, filters[i], kl) && p[kl] == '=') {
                char *v = xasprintf("%.*s", (int)(pl - kl - 1), p + kl + 1);
                hit = fnmatch(eq + 1, v, 0) == 0;
                free(v);
            }
            p = end ? end + 2 : NULL;
        }
        if (!hit)
            return 0;
    }
    return 1;
}

static char *col_text(sqlite3_stmt *st, int i)
{
    const unsigned char *t = sqlite3_column_text(st, i);
    return t ? xstrdup((const char *)t) : NULL;
}

/* A number, or NaN when NULL or not a number (*bad set then, unless NULL). */
static double col_num(sqlite3_stmt *st, int i, int *bad)
{
    int t = sqlite3_column_type(st, i);
    if (t == SQLITE_INTEGER || t == SQLITE_FLOAT)
        return sqlite3_column_double(st, i);
    *bad |= t != SQLITE_NULL;
    return NAN;
}

static int cmp_ll(const void *a, const void *b)
{
    long long x = *(const long long *)a, y = *(const long long *)b;
    return (x > y) - (x < y);
}

static int same(const char *a, const char *b)
{
    return (!a && !b) || (a && b && !strcmp(a, b));
}

/* Keeps the last `last` points, then finds the change points among the ok ones. */
static void finish_series(history_series *s, int last)
{
    if (last > 0 && s->npts > last) {
        int drop = s->npts - last;
        for (int i = 0; i < drop; i++) {
            history_point *p = &s->pts[i];
            free(p->run_id), free(p->revision), free(p->started), free(p->status);
        }
        memmove(s->pts, s->pts + drop, (size_t)last * sizeof *s->pts);
        s->npts = last;
    }
    double *y = xmalloc((size_t)(s->npts + 1) * sizeof *y);
    double *lo = xmalloc((size_t)(s->npts + 1) * sizeof *lo), *hi = xmalloc((size_t)(s->npts + 1) * sizeof *hi);
    int *at = xmalloc((size_t)(s->npts + 1) * sizeof *at), n = 0, nq = 0;
    for (int i = 0; i < s->npts; i++)
        if (isfinite(s->pts[i].median) && s->pts[i].median > 0) {
            at[n] = i;
            y[n++] = s->pts[i].median;
            if (!s->pts[i].busy && !s->pts[i].throttled) /* a busy run's interval is wide */
                lo[nq] = s->pts[i].ci_low, hi[nq++] = s->pts[i].ci_high;
        }
    s->ncps = changepoints_find_floor(y, n, 0, changepoint_interval_floor(lo, hi, nq), &s->cps);
    free(lo);
    free(hi);
    for (int i = 0; i < s->ncps; i++)
        s->cps[i].at = at[s->cps[i].at];
    free(y);
    free(at);
}

int history_load(sqlite3 *db, const history_query *q, history_set *out, char *err, size_t len)
{
    memset(out, 0, sizeof *out);
    sqlite3_stmt *st;
    /* revision order where known (the commit's time), else the start */
    const char *sql =
        "SELECT r.id, r.experiment, r.machine, r.run_id, r.revision, r.dirty, r.started,"
        " t.key, t.workload, t.device, t.status, t.median, t.ci_low, t.ci_high, t.busy,"
        " t.throttled FROM runs r JOIN trials t ON t.run = r.id"
        " WHERE (?1 IS NULL OR r.experiment = ?1)"
        " AND (?2 IS NULL OR substr(r.machine, 1, length(?2)) = ?2)"
        " AND (?3 <= 0 OR r.id < ?3)"
        " ORDER BY r.experiment, r.machine, t.key,"
        " coalesce(r.revision_time, CAST(strftime('%s', r.started) AS INTEGER)), r.started, r.id";
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) {
        snprintf(err, len, "%s", sqlite3_errmsg(db));
        return -1;
    }
    if (q->experiment)
        sqlite3_bind_text(st, 1, q->experiment, -1, SQLITE_STATIC);
    if (q->machine)
        sqlite3_bind_text(st, 2, q->machine, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 3, q->before_run);
    int cap = 0, rc;
    history_series *cur = NULL;
    long long *runs = NULL;
    int nruns = 0, runcap = 0;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        const char *exp = (const char *)sqlite3_column_text(st, 1);
        const char *mach = (const char *)sqlite3_column_text(st, 2);
        const char *key = (const char *)sqlite3_column_text(st, 7);
        /* a row another tool wrote without what every row has: left out */
        if (!exp || !mach || !key || sqlite3_column_type(st, 3) == SQLITE_NULL ||
            sqlite3_column_type(st, 6) == SQLITE_NULL ||
            sqlite3_column_type(st, 10) == SQLITE_NULL) {
            out->bad_rows++;
            continue;
        }
        if (!history_key_matches(key, q->filters, q->nfilters))
            continue;
        if (!cur || !same(cur->experiment, exp) || !same(cur->machine, mach) ||
            !same(cur->key, key)) {
            if (cur)
                finish_series(cur, q->last);
            if (out->n == cap) {
                cap = cap ? 2 * cap : 16;
                out->s = xrealloc(out->s, (size_t)cap * sizeof *out->s);
            }
            cur = &out->s[out->n++];
            memset(cur, 0, sizeof *cur);
            cur->experiment = col_text(st, 1);
            cur->machine = col_text(st, 2);
            cur->key = col_text(st, 7);
            cur->workload = col_text(st, 8);
            cur->device = col_text(st, 9);
        }
        if ((cur->npts & (cur->npts - 1)) == 0)
            cur->pts = xrealloc(cur->pts, (size_t)(cur->npts ? 2 * cur->npts : 1) * sizeof *cur->pts);
        history_point *p = &cur->pts[cur->npts++];
        p->run = sqlite3_column_int64(st, 0);
        p->run_id = col_text(st, 3);
        p->revision = col_text(st, 4);
        p->dirty = sqlite3_column_type(st, 5) == SQLITE_NULL ? -1 : sqlite3_column_int(st, 5);
        p->started = col_text(st, 6);
        p->status = col_text(st, 10);
        int bad = 0;
        p->median = col_num(st, 11, &bad);
        p->ci_low = col_num(st, 12, &bad);
        p->ci_high = col_num(st, 13, &bad);
        if (!isnan(p->median) && !(p->median > 0 && isfinite(p->median)))
            bad = 1; /* negative, 0 or infinite: no run takes that long */
        if (bad || !isfinite(p->median) || !(p->median > 0))
            p->median = NAN; /* no time to compare */
        out->bad_rows += bad;
        p->busy = sqlite3_column_int(st, 14);
        p->throttled = sqlite3_column_int(st, 15);
        int seen = 0;
        for (int i = nruns - 1; i >= 0 && i >= nruns - 4 && !seen; i--)
            seen = runs[i] == p->run;
        if (!seen) {
            if (nruns == runcap)
                runs = xrealloc(runs, (size_t)(runcap = runcap ? 2 * runcap : 64) * sizeof *runs);
            runs[nruns++] = p->run;
        }
    }
    if (cur)
        finish_series(cur, q->last);
    if (rc != SQLITE_DONE) {
        snprintf(err, len, "%s", sqlite3_errmsg(db));
        sqlite3_finalize(st);
        free(runs);
        history_set_free(out);
        return -1;
    }
    sqlite3_finalize(st);
    /* distinct runs: sorted, counted */
    long long *u = runs;
    xqsort(u, (size_t)nruns, sizeof *u, cmp_ll);
    for (int i = 0; i < nruns; i++)
        out->nruns += i == 0 || u[i] != u[i - 1];
    free(runs);
    return 0;
}

void history_set_free(history_set *h)
{
    for (int i = 0; i < h->n; i++) {
        history_series *s = &h->s[i];
        for (int k = 0; k < s->npts; k++) {
            history_point *p = &s->pts[k];
            free(p->run_id), free(p->revision), free(p->started), free(p->status);
        }
        free(s->pts);
        free(s->cps);
        free(s->experiment), free(s->machine), free(s->key), free(s->workload), free(s->device);
    }
    free(h->s);
    memset(h, 0, sizeof *h);
}

char *history_machine_summary(sqlite3 *db, const char *machine)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db,
                           "SELECT cpu_model, cores, gpu, gpu_driver, blas_core, governor FROM"
                           " machines WHERE id = ?",
                           -1, &st, NULL) != SQLITE_OK)
        return NULL;
    sqlite3_bind_text(st, 1, machine, -1, SQLITE_STATIC);
    char *out = NULL;
    if (sqlite3_step(st) == SQLITE_ROW) {
        strbuf b = {0};
        const char *cpu = (const char *)sqlite3_column_text(st, 0);
        sb_printf(&b, "%s, %d cores", cpu ? cpu : "unknown CPU", sqlite3_column_int(st, 1));
        const char *gpu = (const char *)sqlite3_column_text(st, 2);
        const char *drv = (const char *)sqlite3_column_text(st, 3);
        const char *blas = (const char *)sqlite3_column_text(st, 4);
        const char *gov = (const char *)sqlite3_column_text(st, 5);
        if (gpu)
            sb_printf(&b, ", %s (driver %s)", gpu, drv ? drv : "?");
        if (blas)
            sb_printf(&b, ", BLAS core %s", blas);
        if (gov)
            sb_printf(&b, ", governor %s", gov);
        out = sb_take(&b);
    }
    sqlite3_finalize(st);
    return out;
}
