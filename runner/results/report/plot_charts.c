/* plot_charts.c - see plot_model.h: which charts a run gets: the default
 * ones, or those its file's `plots` key asks for. */
#include "results/report/plot_model.h"

#include "results/rundir/rundir.h"
#include "base/util.h"
#include "experiment/roles.h"
#include "results/report/size_meaning.h"

#include <json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* --- defaults --------------------------------------------------------- */

int pm_default_x(const run_model *m)
{
    if (m->c_size >= 0 && m->swept[m->c_size] && m->numeric[m->c_size])
        return m->c_size;
    /* an amount of work before a configuration (doc/results.md#plots-and-reports) */
    for (int c = m->key_first; c <= m->key_last; c++)
        if (m->swept[c] && m->numeric[c] && !pm_is_config(m, c))
            return c;
    for (int pass = 0; pass < 2; pass++)
        for (int c = m->key_first; c <= m->key_last; c++) {
            int member = m->group[c] >= 0 && !m->is_label[c];
            if (m->swept[c] && m->numeric[c] && member == pass)
                return c;
        }
    return -1;
}

/* The x of a chart with none given: the default x, else the first swept
 * key (a category), else the workload. */
int pm_chart_x(const run_model *m)
{
    int x = pm_default_x(m);
    if (x >= 0)
        return x;
    for (int c = m->key_first; c <= m->key_last; c++)
        if (m->swept[c] && (m->group[c] < 0 || m->is_label[c]))
            return c;
    return m->c_workload >= 0 ? m->c_workload : m->key_first;
}

int pm_default_series(const run_model *m, int x, int *out)
{
    int n = 0;
    for (int c = m->key_first; c <= m->key_last; c++) {
        if (!m->swept[c] || c == x)
            continue;
        if (m->group[c] >= 0 && !m->is_label[c])
            continue; /* set by a linked axis: its label stands for it */
        if (x >= 0 && m->group[x] >= 0 && m->group[c] == m->group[x])
            continue;
        out[n++] = c;
    }
    return n;
}

char *pm_label(const run_model *m, int row, const int *keys, int nkeys)
{
    strbuf b = {0};
    for (int i = 0; i < nkeys; i++) {
        int c = keys[i];
        const char *v = pm_cell(m, row, c);
        if (i)
            sb_puts(&b, ", ");
        /* words speak for themselves (cpu, f16); numbers and true/false
         * need their key (size=4, fused=true) */
        int boolean = !strcmp(v, "true") || !strcmp(v, "false");
        if (m->is_label[c] || (!m->numeric[c] && *v && !boolean))
            sb_puts(&b, v);
        else
            sb_printf(&b, "%s=%s", m->t.rows[0][c], *v ? v : "(none)");
    }
    return sb_take(&b);
}

static int is_cuda(const char *dev)
{
    return !strncmp(dev, "cuda", 4);
}

/* Does an ok trial state both flops and bytes (doc/ceilings.md#the-roofline)? */
static int roofline_applies(const run_model *m)
{
    for (int r = 1; r <= m->nrows; r++)
        if (pm_ok(m, r) && isfinite(pm_num(m, r, m->c_gflops)) && pm_num(m, r, m->c_gbps) > 0)
            return 1;
    return 0;
}

static chart_spec new_default(const char *name, chart_type type, int x, int y)
{
    return (chart_spec){.name = xstrdup(name),
                        .type = type,
                        .x = x,
                        .y = y,
                        .logx = -1,
                        .logy = -1,
                        .is_default = 1};
}

int pm_default_charts(const run_model *m, chart_spec **out)
{
    chart_spec *v = xcalloc(8, sizeof *v);
    int n = 0;
    int x = pm_default_x(m);
    if (x >= 0)
        v[n++] = new_default("time", CH_LINE, x, m->c_median);
    else
        v[n++] = new_default("bar", CH_BAR, pm_chart_x(m), m->c_median);
    int xx = pm_chart_x(m);
    /* speedup against the CPU when ok CPU and CUDA trials both exist */
    int cpu = 0, cuda = 0;
    int any_flops = 0, any_bytes = 0, any_phase = 0;
    for (int r = 1; r <= m->nrows; r++) {
        if (!pm_ok(m, r))
            continue;
        if (m->c_device >= 0 && isfinite(pm_num(m, r, m->c_median))) {
            cpu |= !strcmp(pm_cell(m, r, m->c_device), "cpu");
            cuda |= is_cuda(pm_cell(m, r, m->c_device));
        }
        any_flops |= isfinite(pm_num(m, r, m->c_gflops));
        any_bytes |= isfinite(pm_num(m, r, m->c_gbps));
        any_phase |= isfinite(pm_num(m, r, m->c_compute)) &&
                     (isfinite(pm_num(m, r, m->c_h2d)) || isfinite(pm_num(m, r, m->c_d2h)));
    }
    /* (when the device sets x, as in a bar chart by target, each bar is
     * one configuration's speedup) */
    if (cpu && cuda) {
        chart_spec s = new_default("speedup", CH_SPEEDUP, xx, m->c_median);
        s.baseline = xcalloc(1, sizeof *s.baseline);
        s.baseline[0] = (pm_match){.col = m->c_device, .kind = MATCH_VALUES, .nvals = 1};
        s.baseline[0].vals = xcalloc(1, sizeof(char *));
        s.baseline[0].vals[0] = xstrdup("cpu");
        s.nbaseline = 1;
        v[n++] = s;
    }
    if (any_flops || any_bytes)
        v[n++] = new_default("throughput", CH_THROUGHPUT, xx, any_flops ? m->c_gflops : m->c_gbps);
    if (any_phase)
        v[n++] = new_default("breakdown", CH_BREAKDOWN, xx, -1);
    /* the roofline: trials that declare flops and bytes (doc/ceilings.md#the-roofline) */
    if (any_flops && any_bytes && roofline_applies(m))
        v[n++] = new_default("roofline", CH_ROOFLINE, xx, m->c_gflops);
    /* energy per call (doc/ceilings.md#energy-per-call) */
    int jc = pm_col(m, "joules_per_call");
    int any_j = 0;
    for (int r = 1; jc >= 0 && r <= m->nrows && !any_j; r++)
        any_j = pm_ok(m, r) && isfinite(pm_num(m, r, jc));
    if (any_j) {
        v[n] = new_default("energy", CH_LINE, xx, jc);
        v[n].ylabel = xstrdup("energy per call (J, the device's counter)");
        v[n++].title = xasprintf("%s: energy per call vs %s", m->name,
                                 xx >= 0 && xx < m->ncols ? m->t.rows[0][xx] : "trial");
    }
    int curve = pm_col(m, "first_calls"); /* warmup_curve (plot_warmup.h) */
    int any_curve = 0;
    for (int r = 1; curve >= 0 && r <= m->nrows && !any_curve; r++)
        any_curve = pm_ok(m, r) && *pm_cell(m, r, curve);
    if (any_curve) {
        v[n] = new_default("warmup", CH_WARMUP, -1, -1);
        v[n].logx = 0; /* call numbers */
        v[n++].logy = 1;
    }
    *out = v;
    return n;
}

static int convert_matches(const run_model *m, const experiment *e, const match *src, int n,
                           pm_match **out, const char **missing)
{
    *out = xcalloc((size_t)n + 1, sizeof **out);
    for (int i = 0; i < n; i++) {
        const char *name = e->cols[src[i].column].name;
        pm_match *d = &(*out)[i];
        d->col = pm_col(m, name);
        d->kind = src[i].kind;
        d->has_min = src[i].has_min;
        d->has_max = src[i].has_max;
        d->min = src[i].min;
        d->max = src[i].max;
        d->vals = xcalloc((size_t)src[i].nvals + 1, sizeof *d->vals);
        for (int k = 0; k < src[i].nvals; k++)
            d->vals[d->nvals++] = xstrdup(src[i].vals[k].text ? src[i].vals[k].text : "");
        if (d->col < 0 && !*missing)
            *missing = name;
    }
    return n;
}

int pm_file_charts(const run_model *m, const experiment *e, chart_spec **out, char *warn,
                   size_t warnlen)
{
    chart_spec *v = xcalloc((size_t)e->nplots + 1, sizeof *v);
    int n = 0;
    if (warn && warnlen)
        warn[0] = '\0';
    for (int i = 0; i < e->nplots; i++) {
        const plot_spec *p = &e->plots[i];
        chart_spec s = {.name = xstrdup(p->name),
                        .x = -1,
                        .y = -1,
                        .logx = p->logx,
                        .logy = p->logy,
                        .title = p->title ? xstrdup(p->title) : NULL,
                        .xlabel = p->xlabel ? xstrdup(p->xlabel) : NULL,
                        .ylabel = p->ylabel ? xstrdup(p->ylabel) : NULL,
                        .legend = p->legend ? xstrdup(p->legend) : NULL,
                        .series_given = p->series_given};
        for (int t = 0; chart_type_names[t]; t++)
            if (p->type && !strcmp(p->type, chart_type_names[t]))
                s.type = (chart_type)t;
        if (s.type == CH_WARMUP && s.logy < 0) /* the first calls are 10-1000x the rest */
            s.logy = 1;
        if (s.type == CH_WARMUP && s.logx < 0) /* call numbers */
            s.logx = 0;
        const char *missing = NULL;
        if (p->x && (s.x = pm_col(m, p->x)) < 0)
            missing = p->x;
        /* device_median (also `time: device`): device time where measured,
         * wall time elsewhere, so a run with no device times still draws */
        if (p->y && !strcmp(p->y, "device_median") && s.type != CH_THROUGHPUT &&
            s.type != CH_BREAKDOWN) {
            s.y = m->c_median;
            s.device_time = 1;
        } else if (p->y && (s.y = pm_col(m, p->y)) < 0 && !missing) {
            missing = p->y;
        }
        s.series = xcalloc((size_t)p->nseries + 1, sizeof *s.series);
        for (int k = 0; k < p->nseries; k++)
            if ((s.series[s.nseries++] = pm_col(m, p->series[k])) < 0 && !missing)
                missing = p->series[k];
        s.nwhere = convert_matches(m, e, p->where, p->nwhere, &s.where, &missing);
        s.nbaseline = convert_matches(m, e, p->baseline, p->nbaseline, &s.baseline, &missing);
        if (s.x < 0)
            s.x = pm_chart_x(m);
        if (missing) {
            if (warn && warnlen && !warn[0])
                snprintf(warn, warnlen, "plot '%s': %s has no column '%s'; chart left out",
                         p->name, rundir_name(RD_TRIALS), missing);
            chart_spec_free(&s);
            continue;
        }
        v[n++] = s;
    }
    *out = v;
    return n;
}
