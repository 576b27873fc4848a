/* plot_roles.c - see plot_roles.h. */
#include "plot_roles.h"

#include "util.h"

#include <math.h>
#include <string.h>

/* run keys that choose how the work is done (README "Plots and reports") */
static const char *const config_runkeys[] = {"workload", "device", "batch", "threads", "io",
                                             "dtype",    "affinity", "cold_cache", NULL};

/* the runner's own columns after gbps (README "Results") */
static const char *const runner_cols[] = {
    "throttled_samples", "throttled_kept", "throttle_check", "stop_reason", "batch_size",
    "noise",             "load_avg",       "steal",          "other_cpu",   "cpu_mhz",
    "cpu_max_mhz",       "cpus",           "warmup_calls",   "warmup_time", "warmup_unsteady",
    "lua_warning",       NULL};

static int in_list(const char *const *list, const char *s)
{
    for (int i = 0; list[i]; i++)
        if (!strcmp(list[i], s))
            return 1;
    return 0;
}

int pm_is_config(const run_model *m, int col)
{
    if (!pm_is_key(m, col))
        return 0;
    if (m->group[col] >= 0)
        return 1;
    const char *name = m->t.rows[0][col];
    if (in_list(config_runkeys, name))
        return 1;
    if (runkey_index(name) >= 0)
        return 0; /* size, repeats, warmups, timeout, seed */
    return !m->numeric[col];
}

/* Does column `col` hold `want` and another value among the ok trials? */
static int has_value_and_another(const run_model *m, int col, const char *want)
{
    int with = 0, other = 0;
    for (int r = 1; r <= m->nrows; r++) {
        if (!pm_ok(m, r))
            continue;
        const char *v = pm_cell(m, r, col);
        double a, b;
        int same = pm_is_number(v, &a) && pm_is_number(want, &b) ? a == b : !strcmp(v, want);
        with |= same;
        other |= !same;
    }
    return with && other;
}

int pm_obvious_baselines(const run_model *m, chart_spec **out)
{
    static const char *const keys[] = {"threads", "fused"}, *const vals[] = {"1", "false"};
    chart_spec *v = xcalloc(3, sizeof *v);
    int n = 0;
    for (int i = 0; i < 2; i++) {
        int c = pm_col(m, keys[i]);
        if (c < 0 || !pm_is_key(m, c) || !m->swept[c] || !has_value_and_another(m, c, vals[i]))
            continue;
        int x = pm_default_x(m);
        chart_spec s = {.name = xasprintf("speedup-%s", keys[i]),
                        .type = CH_SPEEDUP,
                        .x = x >= 0 ? x : c,
                        .y = m->c_median,
                        .logx = -1,
                        .logy = -1,
                        .is_default = 1};
        s.baseline = xcalloc(1, sizeof *s.baseline);
        s.baseline[0] = (pm_match){.col = c, .kind = MATCH_VALUES, .nvals = 1};
        s.baseline[0].vals = xcalloc(2, sizeof(char *));
        s.baseline[0].vals[0] = xstrdup(vals[i]);
        s.nbaseline = 1;
        v[n++] = s;
    }
    *out = v;
    return n;
}

int pm_is_extra_col(const run_model *m, int col)
{
    if (m->c_gbps < 0 || col <= m->c_gbps || col >= m->ncols)
        return 0;
    const char *name = m->t.rows[0][col];
    return strncmp(name, "device_", 7) && strncmp(name, "cold_", 5) && !in_list(runner_cols, name);
}
