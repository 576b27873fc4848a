/* plot_warmup.c - see plot_warmup.h. */
#include "results/report/plot_warmup.h"

#include "base/util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int curve_col(const run_model *m)
{
    return pm_col(m, "first_calls");
}

static int cmp_curve(const void *a, const void *b)
{
    return strverscmp(((const pm_curve *)a)->label, ((const pm_curve *)b)->label);
}

int pm_warmup_data(const run_model *m, const chart_spec *s, chart_data *d)
{
    memset(d, 0, sizeof *d);
    d->x = -1;
    d->y = m->c_median; /* a time axis */
    int c = curve_col(m);
    int *rows = xmalloc(((size_t)m->nrows + 1) * sizeof *rows), nr = 0;
    for (int r = 1; c >= 0 && r <= m->nrows; r++)
        if (pm_ok(m, r) && pm_match_row(m, r, s->where, s->nwhere) && *pm_cell(m, r, c))
            rows[nr++] = r;
    /* series: the file's, else every swept key whose value differs among them */
    int *keys = xmalloc(((size_t)m->ncols + 1) * sizeof *keys), nk = 0;
    if (s->series_given) {
        memcpy(keys, s->series, (size_t)s->nseries * sizeof *keys);
        nk = s->nseries;
    } else {
        int all = pm_default_series(m, -1, keys);
        for (int k = 0; k < all; k++) {
            int differs = 0;
            for (int i = 1; i < nr && !differs; i++)
                differs = strcmp(pm_cell(m, rows[i], keys[k]), pm_cell(m, rows[0], keys[k])) != 0;
            if (differs)
                keys[nk++] = keys[k];
        }
    }
    int total = 0;
    d->curves = xcalloc((size_t)nr + 1, sizeof *d->curves);
    for (int i = 0; i < nr; i++) {
        pm_curve *cv = &d->curves[d->ncurves++];
        char *label = nk ? pm_label(m, rows[i], keys, nk) : xstrdup(m->name);
        for (int j = 0; j < i; j++) /* one curve per trial, each named apart */
            if (!strcmp(d->curves[j].label, label)) {
                char *l = xasprintf("%s (trial %s)", label, pm_cell(m, rows[i], 0));
                free(label);
                label = l;
                break;
            }
        cv->label = label;
        const char *p = pm_cell(m, rows[i], c);
        for (int k = 1;; k++) {
            char *end;
            double v = strtod(p, &end);
            if (end == p)
                break;
            p = end;
            if (!(v > 0) || !isfinite(v))
                continue; /* a log axis: the clock's zero is left out */
            XGROW(cv->p, cv->n);
            cv->p[cv->n++] = (pm_point){.x = k, .y = v, .lo = NAN, .hi = NAN, .slo = NAN,
                                        .shi = NAN, .row = rows[i]};
        }
        total += cv->n;
    }
    xqsort(d->curves, (size_t)d->ncurves, sizeof *d->curves, cmp_curve);
    d->unlabelled = nk == 0 && d->ncurves == 1;
    free(rows);
    free(keys);
    return total;
}

char *pm_warmup_phases(const run_model *m, int row)
{
    static const struct {
        const char *col, *words;
    } named[] = {{"cold_context", "context creation"},
                 {"cold_module", "module load"},
                 {"cold_blas", "first cuBLAS call"}};
    strbuf b = {0};
    for (int c = 0; c < m->ncols; c++) {
        const char *name = m->t.rows[0][c];
        double v = pm_num(m, row, c);
        if (strncmp(name, "cold_", 5) || !strcmp(name, "cold_cache") || !isfinite(v))
            continue;
        const char *words = name + 5;
        for (size_t i = 0; i < sizeof named / sizeof named[0]; i++)
            if (!strcmp(named[i].col, name))
                words = named[i].words;
        char t[32];
        fmt_seconds(t, sizeof t, v);
        sb_printf(&b, "%s%s %s", b.len ? ", " : "", words, t);
    }
    return b.len ? sb_take(&b) : (sb_free(&b), NULL);
}
