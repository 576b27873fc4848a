/* plots_config.c - the `plots:` section: each chart's keys, checked against
 * the columns the run will have (unknown column -> file:line:col). */
#include "experiment/plots_config.h"

#include "experiment/sweep.h"
#include "experiment/keys.h"
#include "base/util.h"

#include <stdlib.h>
#include <string.h>

/* Columns of the trials table after the trial keys (doc/results.md#results), then the
 * device-time statistics of trials that measured device time
 * (doc/results.md#results). */
const char *const result_columns[] = {
    "status",      "reason",        "samples",     "cold",          "min",
    "median",      "mean",          "stddev",      "max",           "median_ci_low",
    "median_ci_high", "ci_level",   "h2d",         "compute",       "d2h",
    "gflops",      "gbps",          "device_min",  "device_median", "device_mean",
    "device_stddev", "device_max",  "device_median_ci_low", "device_median_ci_high",
    "device_ci_level", NULL};

static const char *const plot_keys[] = {"name",   "type",   "x",     "y",      "series",
                                        "where",  "logx",   "logy",  "title",  "xlabel",
                                        "ylabel", "legend", "baseline", "time", NULL};
/* `legend`: where the key goes (plots.c turns these into gnuplot's) */
static const char *const plot_legends[] = {"right", "below", "top left", "top right", "bottom left",
                                    "bottom right", "off", NULL};
static const char *const plot_types[] = {"line", "speedup", "throughput", "breakdown", "bar",
                                         "warmup", "roofline", NULL};

/* what `parallel: processes` adds to a trial (doc/timing.md#processes-and-threads) */
static const char *const processes_columns[] = {"processes", "startup_seconds",
                                                "startup_fork_seconds", "barrier_skew_seconds",
                                                "overlap", NULL};

static int is_processes_column(const experiment *e, const char *s)
{
    for (int i = 0; experiment_column(e, "parallel") >= 0 && processes_columns[i]; i++)
        if (!strcmp(processes_columns[i], s))
            return 1;
    return 0;
}

static int is_result_column(const char *s)
{
    for (int i = 0; result_columns[i]; i++)
        if (!strcmp(result_columns[i], s))
            return 1;
    return 0;
}

static void bad_column(diags *d, const experiment *e, const yaml_node_t *n, const char *key,
                       int results_too)
{
    const char *cands[256];
    int k = 0;
    for (int i = 0; i < e->ncols && k < 200; i++)
        cands[k++] = e->cols[i].name;
    for (int i = 0; results_too && result_columns[i]; i++)
        cands[k++] = result_columns[i];
    cands[k] = NULL;
    const char *s = closest_word(yml_text(n), cands);
    diag_add(d, yml_line(n), yml_col(n), "plot '%s': unknown column '%s'%s%s%s", key,
             yml_text(n), s ? "; did you mean '" : "", s ? s : "", s ? "'?" : "");
}

static char *text_of(loader *L, const yaml_node_t *v, const char *key)
{
    if (!yml_is_scalar(v) || yml_is_null(v)) {
        diag_add(loader_diags(L), yml_line(v), yml_col(v), "plot key '%s' must be text, not %s",
                 key, yml_kind(v));
        return NULL;
    }
    return xstrdup(yml_text(v));
}

static int bool_of(loader *L, const yaml_node_t *v, const char *key)
{
    value x;
    if (scalar_value(v, &x, key, loader_diags(L)) < 0)
        return -1;
    int r = x.kind == VAL_BOOL ? (int)x.i : -2;
    if (r == -2)
        diag_add(loader_diags(L), yml_line(v), yml_col(v), "'%s' must be true or false, not '%s'",
                 key, x.text);
    value_free(&x);
    return r < 0 ? -1 : r;
}

static void parse_matches(loader *L, const yaml_node_t *v, match **out, int *n, const char *what)
{
    if (v->type != YAML_MAPPING_NODE) {
        diag_add(loader_diags(L), yml_line(v), yml_col(v), "'%s' must be a mapping of keys to values",
                 what);
        return;
    }
    ypair *p;
    int np = yml_pairs(loader_yml(L), (yaml_node_t *)v, &p, loader_diags(L));
    *out = xcalloc((size_t)np + 1, sizeof **out);
    for (int i = 0; i < np; i++) {
        if (match_parse(L, p[i].key, p[i].val, &(*out)[*n], what) == 0) {
            (*n)++;
        } else {
            for (int q = 0; q < (*out)[*n].nvals; q++)
                value_free(&(*out)[*n].vals[q]);
            free((*out)[*n].vals);
            (*out)[*n] = (match){0};
        }
    }
    free(p);
}


static void parse_plot(loader *L, const yaml_node_t *m)
{
    experiment *e = loader_exp(L);
    diags *d = loader_diags(L);
    plot_spec *ps = &e->plots[e->nplots++];
    *ps = (plot_spec){.logx = -1, .logy = -1, .line = yml_line(m), .col = yml_col(m)};
    const yaml_node_t *time_node = NULL;
    char *time = NULL;
    ypair *p;
    int np = yml_pairs(loader_yml(L), (yaml_node_t *)m, &p, d);
    for (int i = 0; i < np; i++) {
        const char *k = yml_text(p[i].key);
        const yaml_node_t *v = p[i].val;
        if (!strcmp(k, "name")) {
            ps->name = text_of(L, v, k);
            if (ps->name && !valid_file_stem(ps->name))
                diag_add(d, yml_line(v), yml_col(v),
                         "plot name '%s' names files: use [A-Za-z0-9._-]+", ps->name);
        } else if (!strcmp(k, "type")) {
            ps->type = text_of(L, v, k);
            int ok = 0;
            for (int t = 0; ps->type && plot_types[t]; t++)
                ok |= !strcmp(plot_types[t], ps->type);
            if (ps->type && !ok) {
                const char *s = closest_word(ps->type, plot_types);
                diag_add(d, yml_line(v), yml_col(v),
                         "unknown plot type '%s'%s%s%s (line, speedup, throughput, breakdown, "
                         "bar, warmup)",
                         ps->type, s ? "; did you mean '" : "", s ? s : "", s ? "'?" : "");
            }
        } else if (!strcmp(k, "x")) {
            ps->x = text_of(L, v, k);
            if (ps->x && experiment_column(e, ps->x) < 0)
                bad_column(d, e, v, "x", 0);
        } else if (!strcmp(k, "y")) {
            ps->y = text_of(L, v, k);
            /* workloads and hooks may add columns: those the file's
             * workloads declare, any with hooks or a Lua workload */
            if (ps->y && !is_result_column(ps->y) && experiment_column(e, ps->y) < 0 &&
                !is_processes_column(e, ps->y) && !loader_extra_column(L, ps->y) && !e->hooks)
                bad_column(d, e, v, "y", 1);
        } else if (!strcmp(k, "series")) {
            ps->series_given = 1;
            ps->series_line = yml_line(p[i].key);
            ps->series_col = yml_col(p[i].key);
            if (yml_is_scalar(v) && !yml_is_null(v)) {
                ps->series = xcalloc(1, sizeof *ps->series);
                ps->series[ps->nseries++] = xstrdup(yml_text(v));
                if (experiment_column(e, yml_text(v)) < 0)
                    bad_column(d, e, v, "series", 0);
            } else if (v->type == YAML_SEQUENCE_NODE) {
                yaml_node_t **items;
                int n = yml_items(loader_yml(L), (yaml_node_t *)v, &items, d);
                ps->series = xcalloc((size_t)n + 1, sizeof *ps->series);
                for (int j = 0; j < n; j++) {
                    if (!yml_is_scalar(items[j]) || experiment_column(e, yml_text(items[j])) < 0) {
                        bad_column(d, e, items[j], "series", 0);
                        continue;
                    }
                    ps->series[ps->nseries++] = xstrdup(yml_text(items[j]));
                }
                free(items);
            } else {
                diag_add(d, yml_line(v), yml_col(v), "'series' must be a key or a list of keys");
            }
        } else if (!strcmp(k, "where")) {
            parse_matches(L, v, &ps->where, &ps->nwhere, "where");
        } else if (!strcmp(k, "baseline")) {
            parse_matches(L, v, &ps->baseline, &ps->nbaseline, "baseline");
        } else if (!strcmp(k, "logx")) {
            ps->logx = bool_of(L, v, k);
        } else if (!strcmp(k, "logy")) {
            ps->logy = bool_of(L, v, k);
        } else if (!strcmp(k, "title")) {
            ps->title = text_of(L, v, k);
        } else if (!strcmp(k, "xlabel")) {
            ps->xlabel = text_of(L, v, k);
        } else if (!strcmp(k, "ylabel")) {
            ps->ylabel = text_of(L, v, k);
        } else if (!strcmp(k, "legend")) {
            /* YAML reads a bare `off` as false */
            value x;
            int ok = 0;
            if (yml_is_scalar(v) && !yml_is_null(v) && scalar_value(v, &x, k, d) == 0) {
                const char *t = x.kind == VAL_BOOL ? (x.i ? "on" : "off") : x.text;
                for (int j = 0; plot_legends[j] && !ok; j++)
                    ok = !strcmp(plot_legends[j], t);
                if (ok) {
                    free(ps->legend);
                    ps->legend = xstrdup(t);
                } else {
                    const char *s = closest_word(t, plot_legends);
                    diag_add(d, yml_line(v), yml_col(v),
                             "'legend' must be right, below, top left, top right, bottom left, "
                             "bottom right or off, not '%s'%s%s%s",
                             t, s ? "; did you mean '" : "", s ? s : "", s ? "'?" : "");
                }
                value_free(&x);
            } else if (!yml_is_scalar(v) || yml_is_null(v)) {
                diag_add(d, yml_line(v), yml_col(v), "'legend' must be a position or off, not %s",
                         yml_kind(v));
            }
        } else if (!strcmp(k, "time")) {
            time_node = v;
            time = text_of(L, v, k);
            if (time && strcmp(time, "wall") && strcmp(time, "device")) {
                diag_add(d, yml_line(v), yml_col(v), "'time' must be wall or device, not '%s'",
                         time);
                free(time);
                time = NULL;
            }
        } else {
            const char *s = closest_word(k, plot_keys);
            diag_add(d, yml_line(p[i].key), yml_col(p[i].key), "unknown key '%s' in a plot%s%s%s",
                     k, s ? "; did you mean '" : "", s ? s : "", s ? "'?" : "");
        }
    }
    free(p);
    /* time: device is y: device_median (plot_model.c draws it as device
     * time where measured, wall time elsewhere); time: wall is the median */
    if (time) {
        int dev = !strcmp(time, "device");
        const char *want = dev ? "device_median" : "median";
        int timed = !ps->type || !strcmp(ps->type, "line") || !strcmp(ps->type, "bar") ||
                    !strcmp(ps->type, "speedup");
        if (!timed)
            diag_add(d, yml_line(time_node), yml_col(time_node),
                     "'time' is for line, bar and speedup charts, not %s", ps->type);
        else if (ps->y && strcmp(ps->y, want) && !(dev && !strcmp(ps->y, "median")))
            diag_add(d, yml_line(time_node), yml_col(time_node),
                     "'time: %s' draws the median; it cannot go with y: %s", time, ps->y);
        else {
            free(ps->y);
            ps->y = xstrdup(want);
        }
        free(time);
    }
    if (!ps->type)
        ps->type = xstrdup("line");
    if (!ps->name)
        ps->name = xasprintf("%s%d", ps->type, e->nplots);
    if (!strcmp(ps->type, "speedup") && ps->nbaseline == 0)
        diag_add(d, ps->line, ps->col, "a speedup plot needs 'baseline' (e.g. {device: cpu})");
    for (int j = 0; j < e->nplots - 1; j++)
        if (!strcmp(e->plots[j].name, ps->name))
            diag_add(d, ps->line, ps->col, "two plots are named '%s'", ps->name);
}

void plots_parse(loader *L, const yaml_node_t *v)
{
    experiment *e = loader_exp(L);
    diags *d = loader_diags(L);
    e->plots_given = 1;
    if (yml_is_null(v))
        return;
    if (v->type != YAML_SEQUENCE_NODE) {
        diag_add(d, yml_line(v), yml_col(v), "'plots' must be a list of plot specs, not %s",
                 yml_kind(v));
        return;
    }
    yaml_node_t **items;
    int n = yml_items(loader_yml(L), (yaml_node_t *)v, &items, d);
    e->plots = xcalloc((size_t)n + 1, sizeof *e->plots);
    for (int i = 0; i < n; i++) {
        if (!items[i] || items[i]->type != YAML_MAPPING_NODE) {
            diag_add(d, yml_line(items[i]), yml_col(items[i]),
                     "a plot spec must be a mapping (name, type, x, y, ...), not %s",
                     yml_kind(items[i]));
            continue;
        }
        parse_plot(L, items[i]);
    }
    free(items);
}
