/* chart_axes.c - see chart_axes.h. */
#include "results/report/chart_axes.h"

#include "results/report/plot_crossover.h"
#include "results/report/plot_gp.h"
#include "results/report/plot_model.h"
#include "results/report/plot_warmup.h"
#include "base/util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Colours, point and dash types by a series' rank among the run's sorted
 * labels: the same series has the same look on every chart of a run. */
static const char *const colours[] = {"#4E79A7", "#F28E2B", "#59A14F", "#E15759", "#B07AA1",
                                      "#9C755F", "#FF9DA7", "#76B7B2", "#7F7F7F", "#EDC948"};
#define NCOLOURS 10
static const int points[] = {7, 5, 9, 11, 13, 15};
#define NPOINTS 6


static int cmp_str(const void *a, const void *b)
{
    return strverscmp(*(char *const *)a, *(char *const *)b);
}

void palette_add(palette *p, const char *label)
{
    for (int i = 0; i < p->n; i++)
        if (!strcmp(p->labels[i], label))
            return;
    XGROW(p->labels, p->n);
    p->labels[p->n++] = xstrdup(label);
}

int palette_index(const palette *p, const char *label)
{
    for (int i = 0; i < p->n; i++)
        if (!strcmp(p->labels[i], label))
            return i;
    return 0;
}

void palette_sort(palette *p)
{
    if (p->n)
        xqsort(p->labels, (size_t)p->n, sizeof *p->labels, cmp_str);
}

void palette_free(palette *p)
{
    for (int i = 0; i < p->n; i++)
        free(p->labels[i]);
    free(p->labels);
}

/* " lc rgb '#...' pt N dt N" */
void palette_style(strbuf *b, const palette *p, const char *label, int points_too)
{
    int i = palette_index(p, label);
    sb_printf(b, " lc rgb '%s'", colours[i % NCOLOURS]);
    if (points_too)
        sb_printf(b, " pt %d", points[i % NPOINTS]);
    sb_printf(b, " dt %d", 1 + (i / NCOLOURS) % 5);
}

const char *palette_colour(const palette *p, const char *label)
{
    return colours[palette_index(p, label) % NCOLOURS];
}

void gp_num(strbuf *b, double v)
{
    if (!isfinite(v))
        sb_puts(b, "NaN");
    else
        sb_printf(b, "%.10g", v);
}

/* --- axes ------------------------------------------------------------- */

int gp_is_pow2(double v)
{
    if (!(v > 0) || v != floor(v) || v > 9.007199254740992e15)
        return 0;
    unsigned long long u = (unsigned long long)v;
    return (u & (u - 1)) == 0;
}

static void decade_label(char *out, size_t n, int e)
{
    static const char *const units[] = {"ns", "µs", "ms", "s"};
    if (e < -9 || e > 3) {
        snprintf(out, n, "1e%d s", e);
        return;
    }
    int u = e >= 0 ? 3 : (e + 9) / 3; /* -9..-7 ns, -6..-4 µs, -3..-1 ms */
    int p = e >= 0 ? e : (e + 9) % 3;
    snprintf(out, n, "%s %s", p == 0 ? "1" : p == 1 ? "10" : p == 2 ? "100" : "1000", units[u]);
}


/* Sets the y axis.  kind: 0 other, 1 time (seconds), 2 speedup. */
yinfo gp_y_axis(strbuf *ax, int kind, int log, double lo, double hi)
{
    yinfo yi = {1.0, "seconds"};
    if (kind == 2) {
        if (lo > 1)
            lo = 1;
        if (hi < 1)
            hi = 1;
    }
    if (log && lo > 0 && hi > 0) {
        /* whole decades, with room around the data (and the line at 1) */
        double pad = kind == 2 ? 1.5 : 1.02;
        int e0 = (int)floor(log10(lo / pad)), e1 = (int)ceil(log10(hi * pad));
        if (e1 <= e0)
            e1 = e0 + 1;
        sb_puts(ax, "set logscale y 10\n");
        sb_printf(ax, "set yrange [1e%d:1e%d]\n", e0, e1);
        int step = (e1 - e0 + 11) / 12;
        if (kind == 1) {
            sb_puts(ax, "set ytics (");
            for (int e = e0, first = 1; e <= e1; e += step, first = 0) {
                char l[32];
                decade_label(l, sizeof l, e);
                sb_printf(ax, "%s'%s' 1e%d", first ? "" : ", ", l, e);
            }
            sb_puts(ax, ")\nset mytics 10\n");
        } else {
            sb_printf(ax, "set format y '%%g'\nset ytics %g\nset mytics 10\n", pow(10, step));
        }
        return yi;
    }
    if (kind == 1) {
        static const struct {
            double limit, scale;
            const char *unit;
        } u[] = {{1, 1, "s"}, {1e-3, 1e3, "ms"}, {1e-6, 1e6, "µs"}, {0, 1e9, "ns"}};
        for (int i = 0; i < 4; i++)
            if (hi >= u[i].limit || i == 3) {
                yi.scale = u[i].scale;
                yi.unit = u[i].unit;
                break;
            }
    }
    if (lo >= 0)
        sb_puts(ax, "set yrange [0:*]\n");
    sb_puts(ax, "set format y '%g'\n");
    return yi;
}

/* Sets a numeric x axis: log2 for powers of two, else log10 or linear. */
void gp_x_axis_numeric(strbuf *ax, int log, double lo, double hi, int pow2)
{
    if (log && lo > 0) {
        int base = pow2 ? 2 : 10;
        double pad = pow2 ? 1.3 : 1.25;
        if (hi <= lo) {
            lo /= base;
            hi *= base;
            pad = 1;
        }
        sb_printf(ax, "set logscale x %d\n", base);
        sb_puts(ax, "set xrange [");
        gp_num(ax, lo / pad);
        sb_puts(ax, ":");
        gp_num(ax, hi * pad);
        sb_puts(ax, "]\n");
        if (pow2) {
            int span = (int)lround(log2(hi / lo));
            int step = span > 16 ? (span + 15) / 16 : 1;
            sb_puts(ax, "set xtics ");
            gp_num(ax, lo);
            sb_printf(ax, ", %d\n", 1 << step);
            sb_printf(ax, "set format x '%s'\n", hi <= 4096 ? "%g" : "2^{%L}");
        } else {
            sb_printf(ax, "set format x '%s'\n", hi >= 1e6 ? "10^{%L}" : "%g");
        }
        return;
    }
    sb_puts(ax, "set offsets graph 0.03, graph 0.03, 0, 0\nset format x '%g'\n");
}

/* Categories along x at 0, 1, ...; tic labels quoted. */
void gp_x_axis_cats(strbuf *ax, char **cats, const double *pos, int n, double lo, double hi)
{
    size_t longest = 0;
    for (int i = 0; i < n; i++)
        if (strlen(cats[i]) > longest)
            longest = strlen(cats[i]);
    sb_puts(ax, "set xrange [");
    gp_num(ax, lo);
    sb_puts(ax, ":");
    gp_num(ax, hi);
    sb_puts(ax, "]\nset xtics (");
    int every = n > 40 ? (n + 29) / 30 : 1; /* at most ~40 labels */
    for (int i = 0, first = 1; i < n; i++) {
        if (i % every)
            continue;
        if (!first)
            sb_puts(ax, ", ");
        first = 0;
        gp_quote(ax, cats[i], 40);
        sb_putc(ax, ' ');
        gp_num(ax, pos ? pos[i] : i);
    }
    sb_puts(ax, ") noenhanced\n");
    if ((double)n * (double)(longest < 40 ? longest : 40) > 110 || n > 24)
        sb_puts(ax, "set xtics rotate by 35 right\n");
}
