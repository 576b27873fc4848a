/* findings_ceilings.c - see findings_ceilings.h. */
#include "results/report/findings_ceilings.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the curves of the default throughput chart (one per series), or 0 */
static int series_of(const run_model *m, int y, chart_data *d)
{
    chart_spec *defs;
    int nd = pm_default_charts(m, &defs), n = 0;
    for (int i = 0; i < nd; i++) {
        if ((defs[i].type == CH_LINE || defs[i].type == CH_BAR) && !n) {
            chart_spec s = defs[i];
            s.y = y;
            n = pm_chart_data(m, &s, d) > 0;
            if (!n) /* no point: what it allocated (its categories) goes */
                chart_data_free(d);
        }
    }
    for (int i = 0; i < nd; i++)
        chart_spec_free(&defs[i]);
    free(defs);
    return n;
}

static const char *x_word(const run_model *m, int x)
{
    if (x == m->c_size && m->size_means && !strncmp(m->size_means, "n ", 2))
        return "n";
    return m->t.rows[0][x];
}

static void peak_findings(strbuf *b, const run_model *m)
{
    int pc = pm_col(m, "pct_of_peak"), bc = pm_col(m, "peak_bound");
    chart_data d = {0};
    if (pc < 0 || bc < 0 || !series_of(m, pc, &d))
        return;
    for (int c = 0; c < d.ncurves; c++) {
        const pm_curve *cv = &d.curves[c];
        int best = -1;
        for (int i = 0; i < cv->n; i++)
            if (isfinite(cv->p[i].y) && (best < 0 || cv->p[i].y > cv->p[best].y))
                best = i;
        if (best < 0)
            continue;
        /* from where it stays within 10 % of its best */
        int from = best;
        while (from > 0 && cv->p[from - 1].y >= 0.9 * cv->p[best].y)
            from--;
        char x1[32], x2[32];
        pm_fmt_num(x1, sizeof x1, cv->p[best].x);
        pm_fmt_num(x2, sizeof x2, cv->p[from].x);
        const char *bound = pm_cell(m, cv->p[best].row, bc);
        sb_printf(b, "- **%s** reaches %.0f %% of the %s ceiling at %s = %s", cv->label,
                  cv->p[best].y, !strcmp(bound, "bandwidth") ? "memory bandwidth" : bound,
                  x_word(m, d.x), x1);
        if (from != best)
            sb_printf(b, " (within 10 %% of that from %s = %s)", x_word(m, d.x), x2);
        /* the runner cannot see what a program or plugin computes in: the
         * file's dtype chose the ceiling (doc/own-code.md#the-experiment-file) */
        const char *w = m->c_workload >= 0 ? pm_cell(m, cv->p[best].row, m->c_workload) : "";
        int dc = pm_col(m, "dtype");
        if ((!strcmp(w, "command") || !strncmp(w, "plugin:", 7)) && dc >= 0 &&
            strcmp(bound, "bandwidth"))
            sb_printf(b, " (the file's `dtype`, %s, chose this ceiling: set it to the precision "
                         "the code computes in)",
                      pm_cell(m, cv->p[best].row, dc));
        if (cv->p[best].y > 105)
            sb_puts(b, "; above the measured ceiling: the probe ran slower than this trial "
                       "(a busy machine?), `runner machine --reprobe` measures it again");
        sb_puts(b, ".\n");
    }
    chart_data_free(&d);
}

static int is_cpu_curve(const run_model *m, const pm_curve *cv)
{
    return cv->n > 0 && m->c_device >= 0 && !strcmp(pm_cell(m, cv->p[0].row, m->c_device), "cpu");
}

/* y of curve cv at x, or NAN */
static double at_x(const pm_curve *cv, double x)
{
    for (int i = 0; i < cv->n; i++)
        if (cv->p[i].x == x)
            return cv->p[i].y;
    return NAN;
}

static void energy_findings(strbuf *b, const run_model *m)
{
    int jc = pm_col(m, "joules_per_call"), nc = pm_col(m, "energy_note");
    if (jc < 0 && nc < 0)
        return;
    chart_data d = {0};
    if (jc < 0 || !series_of(m, jc, &d)) {
        for (int r = 1; nc >= 0 && r <= m->nrows; r++)
            if (*pm_cell(m, r, nc)) {
                sb_printf(b, "- Energy was not measured: %s.\n", pm_cell(m, r, nc));
                return;
            }
        return;
    }
    /* the CPU curve and the GPU curve with the fewest joules at the
     * largest size both have */
    int cpu = -1, gpu = -1;
    double xmax = -INFINITY;
    for (int c = 0; c < d.ncurves; c++)
        for (int k = 0; k < d.ncurves; k++) {
            if (!is_cpu_curve(m, &d.curves[c]) || is_cpu_curve(m, &d.curves[k]) ||
                !d.curves[k].n)
                continue;
            for (int i = 0; i < d.curves[c].n; i++) {
                double x = d.curves[c].p[i].x;
                if (isfinite(at_x(&d.curves[k], x)) && isfinite(d.curves[c].p[i].y) && x >= xmax)
                    xmax = x, cpu = c, gpu = k;
            }
        }
    if (cpu < 0) { /* one kind of device: what a call costs at its largest size */
        for (int c = 0; c < d.ncurves; c++) {
            const pm_curve *cv = &d.curves[c];
            if (!cv->n)
                continue;
            const pm_point *p = &cv->p[cv->n - 1];
            char x[32];
            pm_fmt_num(x, sizeof x, p->x);
            int wc = pm_col(m, "watts"), sc = pm_col(m, "energy_scope");
            sb_printf(b, "- **%s** uses %.3g J a call", cv->label, p->y);
            if (!d.xcat)
                sb_printf(b, " at %s = %s", x_word(m, d.x), x);
            sb_printf(b, " (%s W, %s power)\n", wc >= 0 ? pm_cell(m, p->row, wc) : "?",
                      sc >= 0 ? pm_cell(m, p->row, sc) : "device");
        }
        chart_data_free(&d);
        return;
    }
    const pm_curve *C = &d.curves[cpu], *G = &d.curves[gpu];
    /* from where the GPU takes fewer joules at every larger common size */
    double from = NAN;
    for (int i = C->n - 1; i >= 0; i--) {
        double g = at_x(G, C->p[i].x);
        if (!isfinite(g))
            continue;
        if (!(g < C->p[i].y))
            break;
        from = C->p[i].x;
    }
    char x[32], f[32];
    pm_fmt_num(x, sizeof x, xmax);
    double r = at_x(C, xmax) / at_x(G, xmax);
    if (isfinite(from)) {
        pm_fmt_num(f, sizeof f, from);
        sb_printf(b, "- From %s = %s, **%s** does the work for fewer joules than **%s** "
                     "(%.2gx fewer at %s = %s; board power against package power).\n",
                  x_word(m, d.x), f, G->label, C->label, r, x_word(m, d.x), x);
    } else {
        sb_printf(b, "- **%s** does the work for fewer joules than **%s** at every size measured "
                     "(%.2gx fewer at %s = %s; package power against board power).\n",
                  C->label, G->label, 1 / r, x_word(m, d.x), x);
    }
    chart_data_free(&d);
}

void ceiling_findings(strbuf *b, const run_model *m)
{
    peak_findings(b, m);
    energy_findings(b, m);
}
