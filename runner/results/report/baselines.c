/* baselines.c - see baselines.h. */
#include "results/report/baselines.h"

#include "base/util.h"

#include <string.h>

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
