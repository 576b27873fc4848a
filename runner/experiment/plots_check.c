/* plots_check.c - see plots_check.h.  The trials a chart draws (those that
 * match its `where`; for a speedup, not its `baseline`) are grouped by their
 * values of x and of the series keys, as the chart groups them; a group
 * whose trials chose different elements of an axis merges that axis. */
#include "experiment/plots_check.h"

#include "base/util.h"
#include "experiment/roles.h"

#include <stdlib.h>
#include <string.h>

/* Is every value the axis gives column c a number? */
static int axis_numeric(const experiment *e, int c)
{
    const axis *a = &e->axes[e->cols[c].axis];
    for (int j = 0; j < a->nelems; j++)
        for (int k = 0; k < a->elems[j].nkv; k++)
            if (a->elems[j].kv[k].column == c && !value_is_num(&a->elems[j].kv[k].v))
                return 0;
    return 1;
}

static int is_member(const experiment *e, int c)
{
    return e->cols[c].axis >= 0 && e->axes[e->cols[c].axis].linked &&
           e->axes[e->cols[c].axis].column != c;
}

/* The x a chart with none given draws on (plot_model.c's choice, from the
 * file instead of the results): a swept numeric size, else the first swept
 * numeric amount of work, else the first swept numeric key (not set by a
 * linked axis, then set by one), else the first swept key, else the
 * workload. */
static int default_x(const experiment *e)
{
    int size = experiment_column(e, "size");
    if (size >= 0 && e->cols[size].axis >= 0 && axis_numeric(e, size))
        return size;
    for (int c = 0; c < e->ncols; c++)
        if (e->cols[c].axis >= 0 && axis_numeric(e, c) &&
            !column_is_config(e->cols[c].name, 1, e->axes[e->cols[c].axis].linked))
            return c;
    for (int pass = 0; pass < 2; pass++)
        for (int c = 0; c < e->ncols; c++)
            if (e->cols[c].axis >= 0 && axis_numeric(e, c) && is_member(e, c) == pass)
                return c;
    for (int c = 0; c < e->ncols; c++)
        if (e->cols[c].axis >= 0 && !is_member(e, c))
            return c;
    return experiment_column(e, "workload");
}

/* qsort has no context argument in C11 */
static const char **g_cells; /* [trial index in the list][key] */
static int g_nkeys;

static int cmp_cells(const void *a, const void *b)
{
    const char **x = g_cells + (size_t)*(const long long *)a * (size_t)g_nkeys;
    const char **y = g_cells + (size_t)*(const long long *)b * (size_t)g_nkeys;
    for (int k = 0; k < g_nkeys; k++) {
        int c = strcmp(x[k], y[k]);
        if (c)
            return c;
    }
    return 0;
}

static const char *text_of(value v)
{
    return v.text ? v.text : "";
}

static void check_plot(const experiment *e, const plot_spec *p, diags *d)
{
    if (p->type && !strcmp(p->type, "warmup"))
        return; /* one curve per trial: nothing merges */
    int x = p->x ? experiment_column(e, p->x) : default_x(e);
    if (x < 0)
        return;
    int *keys = xmalloc(((size_t)e->ncols + 2) * sizeof *keys);
    int nk = 0;
    keys[nk++] = x;
    if (p->series_given) {
        for (int i = 0; i < p->nseries; i++) {
            int c = experiment_column(e, p->series[i]);
            if (c >= 0)
                keys[nk++] = c;
        }
    } else {
        /* every swept key but x: a linked axis by its label, not x's own */
        int xa = e->cols[x].axis;
        for (int c = 0; c < e->ncols; c++) {
            int a = e->cols[c].axis;
            if (a < 0 || c == x || is_member(e, c) || (xa >= 0 && a == xa && e->axes[a].linked))
                continue;
            keys[nk++] = c;
        }
    }
    /* the trials drawn, with their cells */
    long long n = 0;
    long long *idx = xmalloc(((size_t)e->ntrials + 1) * sizeof *idx);
    long long *trial = xmalloc(((size_t)e->ntrials + 1) * sizeof *trial);
    const char **cells = xmalloc(((size_t)e->ntrials * (size_t)nk + 1) * sizeof *cells);
    int speedup = p->type && !strcmp(p->type, "speedup");
    for (long long t = 0; t < e->ntrials; t++) {
        int keep = 1;
        for (int i = 0; i < p->nwhere && keep; i++)
            keep = match_trial(e, t, &p->where[i]);
        int base = speedup && p->nbaseline > 0;
        for (int i = 0; i < p->nbaseline && base; i++)
            base = match_trial(e, t, &p->baseline[i]);
        if (!keep || base)
            continue;
        for (int k = 0; k < nk; k++)
            cells[(size_t)n * (size_t)nk + (size_t)k] = text_of(trial_value(e, t, keys[k]));
        trial[n] = t;
        idx[n] = n;
        n++;
    }
    g_cells = cells;
    g_nkeys = nk;
    xqsort(idx, (size_t)n, sizeof *idx, cmp_cells);
    int merged = -1;
    long long ta = 0, tb = 0;
    for (long long i = 1; i < n && merged < 0; i++) {
        if (cmp_cells(&idx[i - 1], &idx[i]))
            continue;
        /* the same point of the chart: an axis they differ in is merged */
        ta = trial[idx[i - 1]];
        tb = trial[idx[i]];
        for (int a = 0; a < e->naxes && merged < 0; a++)
            if (e->choices[ta * e->naxes + a] != e->choices[tb * e->naxes + a])
                merged = a;
    }
    if (merged >= 0) {
        const axis *ax = &e->axes[merged];
        const char *va = text_of(trial_value(e, ta, ax->column));
        const char *vb = text_of(trial_value(e, tb, ax->column));
        diag_add(d, p->series_line ? p->series_line : p->line,
                 p->series_line ? p->series_col : p->col,
                 "plot '%s' would draw trials with %s: %s and %s: %s as one point at %s: %s; "
                 "put '%s' on x, in series, or keep one value with where (e.g. where: {%s: %s})",
                 p->name, ax->name, va, ax->name, vb, e->cols[x].name,
                 text_of(trial_value(e, ta, x)), ax->name, ax->name, va);
    }
    free(trial);
    free(cells);
    free(idx);
    free(keys);
}

void plots_check_merges(const experiment *e, diags *d)
{
    for (int i = 0; i < e->nplots; i++)
        check_plot(e, &e->plots[i], d);
}
