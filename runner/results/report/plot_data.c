/* plot_data.c - see plot_model.h: the points, curves and bars of one chart
 * from the trials of a run. */
#include "results/report/plot_model.h"

#include "base/util.h"
#include "experiment/roles.h"
#include "results/report/size_meaning.h"

#include <json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* --- chart data ------------------------------------------------------- */

void chart_data_free(chart_data *d)
{
    for (int i = 0; i < d->ncurves; i++) {
        free(d->curves[i].label);
        free(d->curves[i].p);
    }
    free(d->curves);
    for (int i = 0; i < d->ncats; i++)
        free(d->cats[i]);
    free(d->cats);
    free(d->baseline_label);
    memset(d, 0, sizeof *d);
}

static int cmp_label(const void *a, const void *b)
{
    return strverscmp(((const pm_curve *)a)->label, ((const pm_curve *)b)->label);
}

static int cmp_point(const void *a, const void *b)
{
    const pm_point *p = a, *q = b;
    if (p->x != q->x)
        return p->x < q->x ? -1 : 1;
    return p->row - q->row;
}

typedef struct cat_sort {
    char *text;
    double v;
} cat_sort;

static int cmp_cat(const void *a, const void *b)
{
    double x = ((const cat_sort *)a)->v, y = ((const cat_sort *)b)->v;
    return x < y ? -1 : x > y;
}

/* Keeps the keys whose value differs between the rows, and a speedup's
 * baseline keys (a curve of threads=2 against threads=1 says threads=2);
 * all of them when none does (so a lone curve is still called "CPU"). */
static int drop_constant(const run_model *m, const chart_spec *s, const int *rows, int nrows,
                         int *keys, int nkeys)
{
    int kept = 0;
    int *keep = xcalloc((size_t)nkeys + 1, sizeof *keep);
    for (int k = 0; k < nkeys; k++)
        for (int b = 0; s->type == CH_SPEEDUP && b < s->nbaseline; b++)
            keep[k] |= keys[k] == s->baseline[b].col;
    for (int k = 0; k < nkeys; k++)
        for (int i = 1; i < nrows && !keep[k]; i++)
            keep[k] = strcmp(pm_cell(m, rows[i], keys[k]), pm_cell(m, rows[0], keys[k])) != 0;
    for (int k = 0; k < nkeys; k++)
        kept += keep[k];
    if (kept > 0) {
        int j = 0;
        for (int k = 0; k < nkeys; k++)
            if (keep[k])
                keys[j++] = keys[k];
        nkeys = j;
    }
    free(keep);
    return nkeys;
}

static int throughput_y(const run_model *m)
{
    for (int r = 1; r <= m->nrows; r++)
        if (pm_ok(m, r) && isfinite(pm_num(m, r, m->c_gflops)))
            return m->c_gflops;
    return m->c_gbps >= 0 ? m->c_gbps : m->c_gflops;
}

/* The keys a speedup pairs a trial with its baseline on: every swept key
 * (and x) except the baseline's own keys and the linked groups they are in. */
static int speedup_keys(const run_model *m, const chart_spec *s, int x, int *out)
{
    int n = 0;
    for (int c = m->key_first; c <= m->key_last; c++) {
        if (!m->swept[c] && c != x)
            continue;
        int excluded = 0;
        for (int b = 0; b < s->nbaseline && !excluded; b++) {
            int bc = s->baseline[b].col;
            excluded = c == bc || (m->group[c] >= 0 && m->group[c] == m->group[bc]);
        }
        if (!excluded)
            out[n++] = c;
    }
    return n;
}

typedef struct base_key {
    char *key; /* the cells a trial and its baseline share, joined */
    double v;
    int row;
} base_key;

static int cmp_base_key(const void *a, const void *b)
{
    const base_key *p = a, *q = b;
    int c = strcmp(p->key, q->key);
    return c ? c : CMP_NUM(p->v, q->v);
}

static char *pair_key(const run_model *m, int row, const int *keys, int nk)
{
    strbuf b = {0};
    sb_puts(&b, "");
    for (int k = 0; k < nk; k++) {
        const char *cell = pm_cell(m, row, keys[k]);
        double v;
        /* numbers by value (1 and 1.0 pair), the rest by text */
        if (pm_is_number(cell, &v))
            sb_printf(&b, "%.17g", v);
        else
            sb_puts(&b, cell);
        sb_putc(&b, '\x1f');
    }
    return sb_take(&b);
}

int pm_chart_data(const run_model *m, const chart_spec *s, chart_data *d)
{
    memset(d, 0, sizeof *d);
    if (s->type == CH_WARMUP) /* its curves come from plot_warmup.h */
        return 0;
    int nc = m->ncols;
    d->x = s->x >= 0 ? s->x : pm_chart_x(m);
    d->y = s->y;
    if (s->type == CH_BREAKDOWN)
        d->y = -1;
    else if (d->y < 0)
        d->y = s->type == CH_THROUGHPUT ? throughput_y(m) : m->c_median;
    int x = d->x, y = d->y;
    d->xcat = s->type == CH_BAR || s->type == CH_BREAKDOWN || !m->numeric[x];
    d->bars = s->type == CH_BAR || (d->xcat && s->type != CH_BREAKDOWN);

    /* the rows: ok, matching `where`, with the value the chart needs */
    int *rows = xmalloc(((size_t)m->nrows + 1) * sizeof *rows);
    int *base = xmalloc(((size_t)m->nrows + 1) * sizeof *base);
    int nr = 0, nb = 0;
    for (int r = 1; r <= m->nrows; r++) {
        if (!pm_ok(m, r) || !pm_match_row(m, r, s->where, s->nwhere))
            continue;
        if (!*pm_cell(m, r, x))
            continue;
        if (s->type == CH_BREAKDOWN) {
            if (isfinite(pm_num(m, r, m->c_compute)) &&
                (isfinite(pm_num(m, r, m->c_h2d)) || isfinite(pm_num(m, r, m->c_d2h))))
                rows[nr++] = r;
            continue;
        }
        double v = pm_row_time(m, s, r, y, NULL);
        if (!isfinite(v))
            continue;
        if (s->type == CH_SPEEDUP && pm_match_row(m, r, s->baseline, s->nbaseline)) {
            if (v > 0)
                base[nb++] = r;
            continue;
        }
        if (s->type == CH_SPEEDUP && !(v > 0))
            continue;
        rows[nr++] = r;
    }

    /* speedup: pair each row with its (fastest) baseline, found by the
     * text of the keys they must share (sorted, then binary search) */
    double *val = xmalloc(((size_t)m->nrows + 2) * sizeof *val);
    int *brow = xmalloc(((size_t)m->nrows + 2) * sizeof *brow); /* speedup: the baseline row */
    if (s->type == CH_SPEEDUP) {
        int *keys = xmalloc(((size_t)nc + 1) * sizeof *keys);
        int nk = speedup_keys(m, s, x, keys);
        base_key *bk = xcalloc((size_t)nb + 1, sizeof *bk);
        for (int b = 0; b < nb; b++)
            bk[b] = (base_key){pair_key(m, base[b], keys, nk), pm_row_time(m, s, base[b], y, NULL),
                               base[b]};
        xqsort(bk, (size_t)nb, sizeof *bk, cmp_base_key);
        int j = 0;
        for (int i = 0; i < nr; i++) {
            base_key want = {pair_key(m, rows[i], keys, nk), -INFINITY, 0};
            /* the first entry not below `want` is the fastest with its key */
            int lo = 0, hi = nb;
            while (lo < hi) {
                int mid = lo + (hi - lo) / 2;
                if (cmp_base_key(&bk[mid], &want) < 0)
                    lo = mid + 1;
                else
                    hi = mid;
            }
            if (lo < nb && !strcmp(bk[lo].key, want.key)) {
                val[j] = bk[lo].v / pm_row_time(m, s, rows[i], y, NULL);
                brow[j] = bk[lo].row;
                rows[j++] = rows[i];
            }
            free(want.key);
        }
        nr = j;
        for (int b = 0; b < nb; b++)
            free(bk[b].key);
        free(bk);
        free(keys);
    } else {
        for (int i = 0; i < nr; i++)
            val[i] = s->type == CH_BREAKDOWN ? 0 : pm_row_time(m, s, rows[i], y, NULL);
    }

    /* series keys */
    int *keys = xmalloc(((size_t)nc + 1) * sizeof *keys);
    int nk;
    if (s->series_given) {
        nk = s->nseries;
        memcpy(keys, s->series, (size_t)nk * sizeof *keys);
    } else {
        nk = pm_default_series(m, x, keys);
        if (nr > 0)
            nk = drop_constant(m, s, rows, nr, keys, nk);
    }

    /* categories of x */
    if (d->xcat) {
        cat_sort *cs = xcalloc((size_t)nr + 1, sizeof *cs);
        int ncs = 0;
        for (int i = 0; i < nr; i++) {
            const char *t = pm_cell(m, rows[i], x);
            int found = 0;
            for (int k = 0; k < ncs && !found; k++)
                found = !strcmp(cs[k].text, t);
            if (!found) {
                cs[ncs].text = xstrdup(t);
                cs[ncs].v = pm_num(m, rows[i], x);
                ncs++;
            }
        }
        if (m->numeric[x])
            xqsort(cs, (size_t)ncs, sizeof *cs, cmp_cat);
        d->cats = xcalloc((size_t)ncs + 1, sizeof *d->cats);
        for (int k = 0; k < ncs; k++)
            d->cats[k] = cs[k].text;
        d->ncats = ncs;
        free(cs);
    }

    /* group into curves */
    for (int i = 0; i < nr; i++) {
        int r = rows[i];
        char *label = nk > 0 ? pm_label(m, r, keys, nk)
                             : xstrdup(s->type == CH_SPEEDUP ? "speedup" : m->name);
        int ci = -1;
        for (int k = 0; k < d->ncurves && ci < 0; k++)
            if (!strcmp(d->curves[k].label, label))
                ci = k;
        if (ci < 0) {
            XGROW(d->curves, d->ncurves);
            d->curves[d->ncurves] = (pm_curve){.label = label};
            ci = d->ncurves++;
        } else {
            free(label);
        }
        pm_curve *cv = &d->curves[ci];
        XGROW(cv->p, cv->n);
        pm_point pt = {.y = val[i], .lo = NAN, .hi = NAN, .slo = NAN, .shi = NAN, .row = r};
        if (d->xcat) {
            const char *t = pm_cell(m, r, x);
            for (int k = 0; k < d->ncats; k++)
                if (!strcmp(d->cats[k], t))
                    pt.x = k;
        } else {
            pt.x = pm_num(m, r, x);
        }
        int dev = 0;
        if (s->type != CH_BREAKDOWN)
            pm_row_time(m, s, r, y, &dev);
        cv->ndevice += dev;
        if (s->type == CH_SPEEDUP) {
            /* the intervals of the times divided (device time's where drawn) */
            int bdev = 0;
            pm_row_time(m, s, brow[i], y, &bdev);
            int tl = pm_col(m, dev ? "device_median_ci_low" : "median_ci_low"),
                th = pm_col(m, dev ? "device_median_ci_high" : "median_ci_high"),
                bl = pm_col(m, bdev ? "device_median_ci_low" : "median_ci_low"),
                bh = pm_col(m, bdev ? "device_median_ci_high" : "median_ci_high");
            double tlo = pm_num(m, r, tl), thi = pm_num(m, r, th);
            double blo = pm_num(m, brow[i], bl), bhi = pm_num(m, brow[i], bh);
            if (tl >= 0 && th >= 0 && bl >= 0 && bh >= 0 && tlo > 0 && thi > 0 && blo > 0 &&
                bhi > 0) {
                pt.slo = blo / thi;
                pt.shi = bhi / tlo;
            }
        }
        if (s->type != CH_SPEEDUP && y >= 0 && y == m->c_median) {
            /* error bars of the time drawn: device min..max for device time */
            pt.lo = pm_num(m, r, dev ? m->c_dev_min : m->c_min);
            pt.hi = pm_num(m, r, dev ? m->c_dev_max : m->c_max);
            if (!isfinite(pt.lo) || !isfinite(pt.hi))
                pt.lo = pt.hi = NAN;
        }
        if (s->type == CH_BREAKDOWN) {
            int ph[3] = {m->c_h2d, m->c_compute, m->c_d2h};
            for (int k = 0; k < 3; k++) {
                pt.ph[k] = pm_num(m, r, ph[k]);
                if (!isfinite(pt.ph[k]) || pt.ph[k] < 0)
                    pt.ph[k] = 0;
            }
            pt.y = pt.ph[0] + pt.ph[1] + pt.ph[2];
        }
        cv->p[cv->n++] = pt;
    }
    d->unlabelled = nk == 0;
    int npts = 0, ndev = 0;
    for (int k = 0; k < d->ncurves; k++) {
        npts += d->curves[k].n;
        ndev += d->curves[k].ndevice;
    }
    /* a speedup divides by its baselines' times: they count too */
    for (int k = 0; s->type == CH_SPEEDUP && s->device_time && k < nb; k++) {
        int dev = 0;
        pm_row_time(m, s, base[k], y, &dev);
        npts++;
        ndev += dev;
    }
    d->time_kind = ndev == 0 ? 0 : ndev == npts ? 1 : 2;
    for (int k = 0; k < d->ncurves; k++)
        xqsort(d->curves[k].p, (size_t)d->curves[k].n, sizeof(pm_point), cmp_point);
    xqsort(d->curves, (size_t)d->ncurves, sizeof *d->curves, cmp_label);

    if (s->type == CH_SPEEDUP) {
        /* what the line at 1 stands for: the baseline rows' common label */
        char *common = NULL;
        int same = nb > 0;
        int by_x = nk == 0; /* no series: the baseline may be one x value */
        for (int b = 0; b < nb && same; b++) {
            char *l = by_x ? pm_label(m, base[b], &x, 1) : pm_label(m, base[b], keys, nk);
            if (!common)
                common = l;
            else {
                same = !strcmp(common, l);
                free(l);
            }
        }
        if (same && common) {
            d->baseline_label = common;
        } else {
            free(common);
            strbuf b = {0};
            for (int i = 0; i < s->nbaseline; i++) {
                const pm_match *mt = &s->baseline[i];
                sb_printf(&b, "%s%s=", i ? ", " : "", m->t.rows[0][mt->col]);
                if (mt->kind == MATCH_RANGE) {
                    if (mt->has_min)
                        sb_printf(&b, ">=%g", mt->min);
                    if (mt->has_min && mt->has_max)
                        sb_puts(&b, " and ");
                    if (mt->has_max)
                        sb_printf(&b, "<=%g", mt->max);
                } else {
                    for (int k = 0; k < mt->nvals; k++)
                        sb_printf(&b, "%s%s", k ? "|" : "", mt->vals[k]);
                }
            }
            d->baseline_label = sb_take(&b);
        }
    }
    int total = 0;
    for (int k = 0; k < d->ncurves; k++)
        total += d->curves[k].n;
    free(rows);
    free(base);
    free(val);
    free(brow);
    free(keys);
    return total;
}
