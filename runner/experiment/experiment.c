/* experiment.c - see experiment.h: questions asked of a loaded experiment
 * (a trial's values, --filter, --shard, matches) and freeing it. */
#include "experiment/experiment.h"

#include "experiment/keys.h"
#include "base/util.h"
#include "experiment/registry/workloads.h"

#include <fnmatch.h>
#include <math.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>

/* A trial's columns are looked up by name many times a trial (issue 38: the
 * strcmp of these scans were 6 % of a one-sample trial's cost): a hit in this
 * small cache, keyed by the name's address and checked by one strcmp,
 * stands for the scan (the names of an experiment's columns are unique). */
#define COLUMN_CACHE 64
static _Thread_local struct {
    const experiment *e;
    const char *name;
    int c;
} column_cache[COLUMN_CACHE];

int experiment_column(const experiment *e, const char *name)
{
    unsigned slot = (unsigned)(((uintptr_t)name >> 3) ^ ((uintptr_t)e >> 4)) % COLUMN_CACHE;
    int c = column_cache[slot].c;
    if (column_cache[slot].e == e && column_cache[slot].name == name && c < e->ncols &&
        !strcmp(e->cols[c].name, name))
        return c;
    for (int i = 0; i < e->ncols; i++)
        if (!strcmp(e->cols[i].name, name)) {
            column_cache[slot].e = e;
            column_cache[slot].name = name;
            column_cache[slot].c = i;
            return i;
        }
    return -1;
}

value trial_value(const experiment *e, long long t, int c)
{
    const column *col = &e->cols[c];
    if (col->axis >= 0) {
        const axis *a = &e->axes[col->axis];
        const axis_elem *el = &a->elems[e->choices[t * e->naxes + col->axis]];
        for (int i = 0; i < el->nkv; i++)
            if (el->kv[i].column == c)
                return el->kv[i].v;
    }
    if (col->fixed.kind != VAL_NONE)
        return col->fixed;
    if (!e->defaults)
        return (value){0};
    /* defaults depend on the trial's workload (size, parameters) */
    static const value none = {0};
    int wc = experiment_column(e, "workload");
    value w = wc >= 0 && wc != c ? trial_value(e, t, wc) : none;
    /* the registry row of the last workload looked up, checked by one
     * strcmp (its names are unique), else the scan */
    static _Thread_local int last_wi = -1;
    int wi = -1;
    if (w.text && last_wi >= 0 && last_wi < e->ndefault_rows &&
        !strcmp(workload_at(last_wi)->name, w.text))
        wi = last_wi;
    for (int i = 0; w.text && wi < 0 && i < e->ndefault_rows; i++)
        if (!strcmp(workload_at(i)->name, w.text))
            wi = last_wi = i;
    if (wi < 0) {
        /* lua workloads: only the workload-independent run-key defaults */
        if (col->kind == COL_RUNKEY && col->runkey != RK_SIZE && e->ndefault_rows > 0)
            return e->defaults[c];
        return none;
    }
    return e->defaults[wi * e->ncols + c];
}

void trial_value_where(const experiment *e, long long t, int c, int *line, int *col)
{
    const column *cl = &e->cols[c];
    *line = cl->line;
    *col = cl->col;
    if (cl->axis < 0)
        return;
    const axis_elem *el = &e->axes[cl->axis].elems[e->choices[t * e->naxes + cl->axis]];
    for (int i = 0; i < el->nkv; i++)
        if (el->kv[i].column == c) {
            *line = el->kv[i].line;
            *col = el->kv[i].col;
        }
}

int trial_interleaved(const experiment *e, long long t)
{
    int c = experiment_column(e, "order");
    if (c < 0)
        return 0;
    value v = trial_value(e, t, c);
    return v.text && !strcmp(v.text, "interleaved");
}

int match_value(value v, const match *m)
{
    if (v.kind == VAL_NONE)
        return 0;
    if (m->kind == MATCH_RANGE) {
        if (!value_is_num(&v))
            return 0;
        return (!m->has_min || v.f >= m->min) && (!m->has_max || v.f <= m->max);
    }
    for (int i = 0; i < m->nvals; i++)
        if (value_equal(&v, &m->vals[i]))
            return 1;
    return 0;
}

int match_trial(const experiment *e, long long t, const match *m)
{
    return match_value(trial_value(e, t, m->column), m);
}

void experiment_shard(experiment *e, int k, int n)
{
    long long kept = 0;
    int na = e->naxes;
    for (long long t = 0; t < e->ntrials; t++) {
        if (e->ids[t] % n != k - 1)
            continue;
        memmove(&e->choices[kept * na], &e->choices[t * na], (size_t)na * sizeof *e->choices);
        e->ids[kept++] = e->ids[t];
    }
    e->ntrials = kept;
}

int experiment_filter(experiment *e, char **filters, int nfilters, char *err, size_t errlen)
{
    if (nfilters == 0)
        return 0;
    int *cols = xmalloc((size_t)nfilters * sizeof *cols);
    const char **globs = xmalloc((size_t)nfilters * sizeof *globs);
    for (int i = 0; i < nfilters; i++) {
        char *eq = strchr(filters[i], '=');
        if (!eq || eq == filters[i]) {
            snprintf(err, errlen, "--filter takes KEY=GLOB, not '%s'", filters[i]);
            goto fail;
        }
        char key[128];
        snprintf(key, sizeof key, "%.*s", (int)(eq - filters[i]), filters[i]);
        cols[i] = experiment_column(e, key);
        globs[i] = eq + 1;
        if (cols[i] < 0) {
            const char **cands = xcalloc((size_t)e->ncols + 1, sizeof *cands);
            for (int c = 0; c < e->ncols; c++)
                cands[c] = e->cols[c].name;
            const char *s = closest_word(key, cands);
            snprintf(err, errlen, "--filter: unknown key '%s'%s%s%s", key,
                     s ? "; did you mean '" : "", s ? s : "", s ? "'?" : "");
            free(cands);
            goto fail;
        }
    }
    long long kept = 0;
    int na = e->naxes;
    for (long long t = 0; t < e->ntrials; t++) {
        int keep = 1;
        for (int i = 0; i < nfilters && keep; i++) {
            int any = 0, seen = 0;
            for (int j = 0; j < nfilters; j++) { /* same key: any glob may match */
                if (cols[j] != cols[i])
                    continue;
                seen = 1;
                value v = trial_value(e, t, cols[j]);
                any |= fnmatch(globs[j], v.text ? v.text : "", 0) == 0;
            }
            keep = seen && any;
        }
        if (keep) {
            memmove(&e->choices[kept * na], &e->choices[t * na], (size_t)na * sizeof *e->choices);
            e->ids[kept] = e->ids[t];
            kept++;
        }
    }
    long long before = e->ntrials;
    e->ntrials = kept;
    free(cols);
    free(globs);
    if (kept == 0 && before > 0) {
        /* issue 16: an empty run must not pass for a result; quote the filters */
        strbuf b = {0};
        for (int i = 0; i < nfilters; i++)
            sb_printf(&b, "%s'%s'", i ? ", " : "", filters[i]);
        snprintf(err, errlen, "--filter %s matches none of the %lld trials", b.s, before);
        sb_free(&b);
        return -1;
    }
    return 0;
fail:
    free(cols);
    free(globs);
    return -1;
}

static void free_matches(match *m, int n)
{
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < m[i].nvals; j++)
            value_free(&m[i].vals[j]);
        free(m[i].vals);
    }
    free(m);
}

void plot_spec_free(plot_spec *p)
{
    FREE_ALL(p->name, p->type, p->x, p->y, p->title, p->xlabel, p->ylabel, p->legend);
    for (int j = 0; j < p->nseries; j++)
        free(p->series[j]);
    free(p->series);
    free_matches(p->where, p->nwhere);
    free_matches(p->baseline, p->nbaseline);
    memset(p, 0, sizeof *p);
}

void experiment_free(experiment *e)
{
    if (!e)
        return;
    for (int c = 0; c < e->ncols; c++) {
        free(e->cols[c].name);
        value_free(&e->cols[c].fixed);
    }
    for (int a = 0; a < e->naxes; a++) {
        for (int j = 0; j < e->axes[a].nelems; j++) {
            for (int k = 0; k < e->axes[a].elems[j].nkv; k++)
                value_free(&e->axes[a].elems[j].kv[k].v);
            free(e->axes[a].elems[j].kv);
        }
        free(e->axes[a].elems);
        free(e->axes[a].name);
    }
    for (int i = 0; i < e->nexcl; i++)
        free_matches(e->excl[i].m, e->excl[i].n);
    for (int i = 0; i < e->nplots; i++)
        plot_spec_free(&e->plots[i]);
    if (e->defaults)
        for (int i = 0; i < e->ndefault_rows * e->ncols; i++)
            value_free(&e->defaults[i]);
    free(e->defaults);
    command_spec_free(e->command);
    FREE_ALL(e->plots, e->excl, e->axes, e->cols, e->choices, e->ids, e->path, e->dir, e->text,
             e->name, e->description, e->revision, e->size_means, e->hooks, e);
}

long long experiment_short_timeouts(const experiment *e, long long *first, double *timeout)
{
    int rc = experiment_column(e, "repeats"), tc = experiment_column(e, "timeout");
    long long n = 0;
    for (long long t = 0; rc >= 0 && tc >= 0 && t < e->ntrials; t++) {
        value r = trial_value(e, t, rc), to = trial_value(e, t, tc);
        if (r.kind != VAL_STR || !value_is_num(&to) || !(to.f > 0) || to.f >= e->stop.max_time)
            continue;
        if (!n++) {
            *first = t;
            *timeout = to.f;
        }
    }
    return n;
}

char *experiment_path(const experiment *e, const char *rel)
{
    if (rel[0] == '/')
        return xstrdup(rel);
    return xasprintf("%s/%s", e->dir, rel);
}

void experiment_each_value(const experiment *e, int c,
                           void (*fn)(const experiment *e, const value *v, int line, int col,
                                      void *ctx),
                           void *ctx)
{
    if (c < 0)
        return;
    fn(e, &e->cols[c].fixed, e->cols[c].line, e->cols[c].col, ctx);
    for (int a = 0; a < e->naxes; a++)
        for (int j = 0; j < e->axes[a].nelems; j++)
            for (int k = 0; k < e->axes[a].elems[j].nkv; k++)
                if (e->axes[a].elems[j].kv[k].column == c)
                    fn(e, &e->axes[a].elems[j].kv[k].v, e->axes[a].elems[j].line,
                       e->axes[a].elems[j].col, ctx);
}
