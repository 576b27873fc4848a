/* plots.c - the charts of a run (README "Plots and reports"), drawn by gnuplot.
 *
 * For each chart the runner fills the template plots/TYPE.gp with the run's
 * data and writes RUN_DIR/plots/NAME.gp, a self-contained script (its data
 * in inline datablocks), then runs `gnuplot NAME.gp` in RUN_DIR/plots, which
 * writes NAME.png and NAME.svg.  A user can edit the script and re-run it.
 *
 * Which charts (no `plots` key):
 *   time        median vs the x key (size, else the first numeric swept key),
 *               log-log, min..max error bars, one curve per combination of
 *               the other swept keys (a linked axis counts once, by label)
 *   bar         instead of `time` when no swept key is numeric: median per
 *               value of the first swept key, clustered by series
 *   speedup     CPU time / time, against device=cpu trials matched on every
 *               other swept key, when ok CPU and CUDA trials both exist;
 *               each crossing of 1 is marked ("GPU faster from n = 512")
 *   throughput  GFLOP/s (or GB/s when only bytes are stated)
 *   breakdown   h2d / compute / d2h stacked, for trials that measured them
 *   warmup      the time of each of the first calls of a fresh worker, for
 *               trials with `warmup_curve` (plot_warmup.h)
 *
 * Safety: text from the experiment file or trials.csv reaches the script
 * only as gnuplot single-quoted strings (gp_quote) and only with the
 * `noenhanced` flag; datablocks hold numbers only. */
#include "report/plots.h"

#include "report/plot_crossover.h"
#include "report/plot_gp.h"
#include "report/plot_model.h"
#include "report/plot_warmup.h"
#include "report/plot_render.h"
#include "rundir/results.h"
#include "base/util.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define GP_TIMEOUT 120.0
#define LABEL_MAX 40
#define TITLE_MAX 100

/* Colours, point and dash types by a series' rank among the run's sorted
 * labels: the same series has the same look on every chart of a run. */
static const char *const colours[] = {"#4E79A7", "#F28E2B", "#59A14F", "#E15759", "#B07AA1",
                                      "#9C755F", "#FF9DA7", "#76B7B2", "#7F7F7F", "#EDC948"};
#define NCOLOURS 10
static const int points[] = {7, 5, 9, 11, 13, 15};
#define NPOINTS 6

typedef struct palette {
    char **labels;
    int n;
} palette;

static int cmp_str(const void *a, const void *b)
{
    return strverscmp(*(char *const *)a, *(char *const *)b);
}

static void palette_add(palette *p, const char *label)
{
    for (int i = 0; i < p->n; i++)
        if (!strcmp(p->labels[i], label))
            return;
    p->labels = xrealloc(p->labels, (size_t)(p->n + 1) * sizeof *p->labels);
    p->labels[p->n++] = xstrdup(label);
}

static int palette_index(const palette *p, const char *label)
{
    for (int i = 0; i < p->n; i++)
        if (!strcmp(p->labels[i], label))
            return i;
    return 0;
}

static void palette_free(palette *p)
{
    for (int i = 0; i < p->n; i++)
        free(p->labels[i]);
    free(p->labels);
}

/* " lc rgb '#...' pt N dt N" */
static void style_of(strbuf *b, const palette *p, const char *label, int points_too)
{
    int i = palette_index(p, label);
    sb_printf(b, " lc rgb '%s'", colours[i % NCOLOURS]);
    if (points_too)
        sb_printf(b, " pt %d", points[i % NPOINTS]);
    sb_printf(b, " dt %d", 1 + (i / NCOLOURS) % 5);
}

static const char *colour_of(const palette *p, const char *label)
{
    return colours[palette_index(p, label) % NCOLOURS];
}

static void num(strbuf *b, double v)
{
    if (!isfinite(v))
        sb_puts(b, "NaN");
    else
        sb_printf(b, "%.10g", v);
}

/* --- axes ------------------------------------------------------------- */

static int is_pow2(double v)
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

typedef struct yinfo {
    double scale; /* multiply data by this (linear time axes) */
    const char *unit;
} yinfo;

/* Sets the y axis.  kind: 0 other, 1 time (seconds), 2 speedup. */
static yinfo y_axis(strbuf *ax, int kind, int log, double lo, double hi)
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
static void x_axis_numeric(strbuf *ax, int log, double lo, double hi, int pow2)
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
        num(ax, lo / pad);
        sb_puts(ax, ":");
        num(ax, hi * pad);
        sb_puts(ax, "]\n");
        if (pow2) {
            int span = (int)lround(log2(hi / lo));
            int step = span > 16 ? (span + 15) / 16 : 1;
            sb_puts(ax, "set xtics ");
            num(ax, lo);
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
static void x_axis_cats(strbuf *ax, char **cats, const double *pos, int n, double lo, double hi)
{
    size_t longest = 0;
    for (int i = 0; i < n; i++)
        if (strlen(cats[i]) > longest)
            longest = strlen(cats[i]);
    sb_puts(ax, "set xrange [");
    num(ax, lo);
    sb_puts(ax, ":");
    num(ax, hi);
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
        num(ax, pos ? pos[i] : i);
    }
    sb_puts(ax, ") noenhanced\n");
    if ((double)n * (double)(longest < 40 ? longest : 40) > 110 || n > 24)
        sb_puts(ax, "set xtics rotate by 35 right\n");
}

/* --- the script's parts ----------------------------------------------- */

typedef struct parts {
    strbuf data, axes, marks, plot, refline;
    char *title, *xlabel, *ylabel;
    const char *tmpl; /* template type */
} parts;

static void parts_free(parts *p)
{
    sb_free(&p->data);
    sb_free(&p->axes);
    sb_free(&p->marks);
    sb_free(&p->plot);
    sb_free(&p->refline);
    free(p->title);
    free(p->xlabel);
    free(p->ylabel);
}

static const char *col_name(const run_model *m, int c)
{
    return c >= 0 && c < m->ncols ? m->t.rows[0][c] : "";
}

/* "n" for sizes of matmul ("n of an n x n x n product"), else the key. */
static const char *x_short(const run_model *m, int x)
{
    if (x == m->c_size && m->size_means && !strncmp(m->size_means, "n ", 2))
        return "n";
    return col_name(m, x);
}

static char *x_label(const run_model *m, int x)
{
    if (x == m->c_size && m->size_means)
        return xasprintf("size (%s)", m->size_means);
    return xstrdup(col_name(m, x));
}

static char *quoted(const char *s, size_t max)
{
    strbuf b = {0};
    gp_quote(&b, s, max);
    return sb_take(&b);
}

static int y_kind(const run_model *m, const chart_spec *s, int y)
{
    if (s->type == CH_SPEEDUP)
        return 2;
    return pm_is_time_col(m, y) ? 1 : 0;
}

/* Which time a time column or chart shows (README "Plots and reports"):
 * "median wall time", "median device time (CUDA events)", or both. */
static char *time_words(const run_model *m, const chart_data *d, int y)
{
    const char *c = col_name(m, y);
    if (pm_is_device_col(m, y))
        return xasprintf("%s device time (CUDA events)", c + 7);
    if (y == m->c_h2d || y == m->c_compute || y == m->c_d2h)
        return xasprintf("%s time (CUDA events)", c);
    if (d && d->time_kind == 1)
        return xasprintf("%s device time (CUDA events)", c);
    if (d && d->time_kind == 2)
        return xasprintf("%s time: device (CUDA events) where measured, else wall", c);
    return xasprintf("%s wall time", c);
}

static char *y_label(const run_model *m, const chart_spec *s, const chart_data *d, int y, int log,
                     const yinfo *yi)
{
    if (s->type == CH_SPEEDUP && !s->ylabel) {
        if (d->time_kind == 0)
            return xstrdup("speedup (x), wall time");
        return xstrdup(d->time_kind == 1 ? "speedup (x), device time (CUDA events)"
                                         : "speedup (x), device time where measured, else wall");
    }
    if (y == m->c_gflops)
        return xstrdup("throughput (GFLOP/s)");
    if (y == m->c_gbps)
        return xstrdup("bandwidth (GB/s)");
    if (s->ylabel) /* the file's label; a time axis adds the unit it is drawn in */
        return s->type != CH_SPEEDUP && pm_is_time_col(m, y)
                   ? xasprintf("%s (%s)", s->ylabel, log ? "seconds" : yi->unit)
                   : xstrdup(s->ylabel);
    if (pm_is_time_col(m, y)) {
        char *w = time_words(m, d, y);
        char *l = xasprintf("%s (%s)", w, log ? "seconds" : yi->unit);
        free(w);
        return l;
    }
    return xstrdup(col_name(m, y));
}

static char *default_title(const run_model *m, const chart_spec *s, const chart_data *d)
{
    const char *xn = col_name(m, d->x);
    switch (s->type) {
    case CH_SPEEDUP:
        return xasprintf("%s: speedup over %s (%s time / time)", m->name,
                         d->baseline_label ? d->baseline_label : "the baseline",
                         d->baseline_label ? d->baseline_label : "baseline");
    case CH_THROUGHPUT:
        return xasprintf("%s: %s vs %s", m->name,
                         d->y == m->c_gbps ? "bandwidth (GB/s)" : "throughput (GFLOP/s)", xn);
    case CH_BREAKDOWN:
        return xasprintf("%s: where the time goes, phase by phase", m->name);
    case CH_WARMUP:
        return xasprintf("%s: the first calls of a fresh worker", m->name);
    default: {
        char *w = pm_is_time_col(m, d->y) ? time_words(m, d, d->y) : xstrdup(col_name(m, d->y));
        char *t = xasprintf("%s: %s %s %s", m->name, w, s->type == CH_BAR ? "by" : "vs", xn);
        free(w);
        return t;
    }
    }
}

/* Range of y over the chart (with error bars), and whether all are > 0. */
static void y_range(const chart_data *d, double *lo, double *hi, int *positive)
{
    *lo = INFINITY;
    *hi = -INFINITY;
    *positive = 1;
    for (int c = 0; c < d->ncurves; c++)
        for (int i = 0; i < d->curves[c].n; i++) {
            const pm_point *p = &d->curves[c].p[i];
            double v[3] = {p->y, p->lo, p->hi};
            for (int k = 0; k < 3; k++) {
                if (!isfinite(v[k]))
                    continue;
                if (v[k] < *lo)
                    *lo = v[k];
                if (v[k] > *hi)
                    *hi = v[k];
                if (v[k] <= 0)
                    *positive = 0;
            }
        }
}

/* The key entry of a curve; none for the lone curve of a chart without
 * series keys. */
static void title_of(strbuf *b, const chart_data *d, const pm_curve *cv)
{
    if (d->unlabelled && d->ncurves == 1) {
        sb_puts(b, " notitle");
        return;
    }
    sb_puts(b, " title ");
    if (d->time_kind == 2) { /* the chart mixes them: each entry says which */
        char *l = xasprintf("%s (%s)", cv->label,
                            cv->ndevice == cv->n   ? "device time"
                            : cv->ndevice == 0     ? "wall time"
                                                   : "device time where measured");
        gp_quote(b, l, LABEL_MAX + 30);
        free(l);
    } else {
        gp_quote(b, cv->label, LABEL_MAX);
    }
    sb_puts(b, " noenhanced");
}

/* Data rows "x y lo hi" of each curve as $s0, $s1, ...; lines or bars. */
static void build_xy(const run_model *m, const chart_spec *s, const chart_data *d,
                     const palette *pal, parts *P)
{
    double ylo, yhi;
    int positive;
    y_range(d, &ylo, &yhi, &positive);
    int kind = y_kind(m, s, d->y);
    double span = ylo > 0 ? yhi / ylo : 0;
    if (kind == 2 && positive) {
        double l = ylo < 1 ? ylo : 1, h = yhi > 1 ? yhi : 1;
        span = h / l;
    }
    int logy = s->logy >= 0 ? s->logy : positive && span >= (d->bars ? 100 : 10);
    if (!positive)
        logy = 0;
    yinfo yi = y_axis(&P->axes, kind, logy, ylo, yhi);
    P->ylabel = y_label(m, s, d, d->y, logy, &yi);
    P->xlabel = x_label(m, d->x);
    char scale[64] = "2";
    char scale3[64] = "3", scale4[64] = "4";
    if (yi.scale != 1.0) {
        snprintf(scale, sizeof scale, "($2*%g)", yi.scale);
        snprintf(scale3, sizeof scale3, "($3*%g)", yi.scale);
        snprintf(scale4, sizeof scale4, "($4*%g)", yi.scale);
    }

    if (d->bars) {
        P->tmpl = "bar";
        int nc = d->ncurves > 0 ? d->ncurves : 1;
        double w = 0.8 / nc;
        x_axis_cats(&P->axes, d->cats, NULL, d->ncats, -0.6, d->ncats - 0.4);
        sb_printf(&P->axes, "set boxwidth %g absolute\n", w * 0.95);
        for (int c = 0; c < d->ncurves; c++) {
            const pm_curve *cv = &d->curves[c];
            int err = 0;
            sb_printf(&P->data, "$s%d << EOD\n", c);
            for (int i = 0; i < cv->n; i++) {
                const pm_point *p = &cv->p[i];
                num(&P->data, p->x - 0.4 + w * (c + 0.5));
                sb_putc(&P->data, ' ');
                num(&P->data, p->y);
                sb_putc(&P->data, ' ');
                num(&P->data, isfinite(p->lo) ? p->lo : p->y);
                sb_putc(&P->data, ' ');
                num(&P->data, isfinite(p->hi) ? p->hi : p->y);
                sb_putc(&P->data, '\n');
                err |= isfinite(p->lo);
            }
            sb_puts(&P->data, "EOD\n");
            sb_printf(&P->plot, "%s$s%d using 1:%s with boxes", c ? ", \\\n     " : "", c, scale);
            style_of(&P->plot, pal, cv->label, 0);
            title_of(&P->plot, d, cv);
            if (err) /* whiskers min..max */
                sb_printf(&P->plot,
                          ", \\\n     $s%d using 1:($3*%g):(0):(($4-$3)*%g) with vectors nohead "
                          "lw 1.5 lc rgb '#333333' notitle",
                          c, yi.scale, yi.scale);
        }
    } else {
        P->tmpl = s->type == CH_SPEEDUP      ? "speedup"
                  : s->type == CH_THROUGHPUT ? "throughput"
                                             : "line";
        double xlo = INFINITY, xhi = -INFINITY;
        int pow2 = 1, xpos = 1;
        for (int c = 0; c < d->ncurves; c++)
            for (int i = 0; i < d->curves[c].n; i++) {
                double x = d->curves[c].p[i].x;
                xlo = x < xlo ? x : xlo;
                xhi = x > xhi ? x : xhi;
                pow2 &= is_pow2(x);
                xpos &= x > 0;
            }
        int logx = s->logx >= 0 ? s->logx : xpos && (xhi / xlo >= 8 || xhi == xlo);
        if (!xpos)
            logx = 0;
        if (d->xcat)
            x_axis_cats(&P->axes, d->cats, NULL, d->ncats, -0.5, d->ncats - 0.5);
        else
            x_axis_numeric(&P->axes, logx, xlo, xhi, pow2);
        for (int c = 0; c < d->ncurves; c++) {
            const pm_curve *cv = &d->curves[c];
            int err = 0;
            for (int i = 0; i < cv->n; i++)
                err |= isfinite(cv->p[i].lo);
            sb_printf(&P->data, "$s%d << EOD\n", c);
            for (int i = 0; i < cv->n; i++) {
                const pm_point *p = &cv->p[i];
                num(&P->data, p->x);
                sb_putc(&P->data, ' ');
                num(&P->data, p->y);
                if (err) {
                    sb_putc(&P->data, ' ');
                    num(&P->data, isfinite(p->lo) ? p->lo : p->y);
                    sb_putc(&P->data, ' ');
                    num(&P->data, isfinite(p->hi) ? p->hi : p->y);
                }
                sb_putc(&P->data, '\n');
            }
            sb_puts(&P->data, "EOD\n");
            /* a dense curve: points every n-th, error bars as a band */
            int every = cv->n > 60 ? (cv->n + 29) / 30 : 1;
            if (err && every > 1)
                sb_printf(&P->plot,
                          "%s$s%d using 1:%s:%s with filledcurves fs transparent solid 0.15 "
                          "noborder lc rgb '%s' notitle, \\\n     ",
                          c ? ", \\\n     " : "", c, scale3, scale4, colour_of(pal, cv->label));
            else if (c)
                sb_puts(&P->plot, ", \\\n     ");
            if (err && every == 1)
                sb_printf(&P->plot, "$s%d using 1:%s:%s:%s with yerrorlines lw 2", c, scale, scale3,
                          scale4);
            else
                sb_printf(&P->plot, "$s%d using 1:%s with linespoints lw 2 pi %d", c, scale, every);
            style_of(&P->plot, pal, cv->label, 1);
            title_of(&P->plot, d, cv);
        }
        /* speedup: where each curve crosses 1 -- a point on the line at 1,
         * a dotted line down to the axis, and a caption listed in the right
         * corner that the curves leave free (below 1 when they end above) */
        if (s->type == CH_SPEEDUP && !d->xcat) {
            int k = 0, above = 0;
            for (int c = 0; c < d->ncurves; c++)
                above += d->curves[c].n > 0 && d->curves[c].p[d->curves[c].n - 1].y > 1;
            int bottom = 2 * above >= d->ncurves;
            for (int c = 0; c < d->ncurves; c++) {
                const pm_curve *cv = &d->curves[c];
                double *xs = xmalloc(((size_t)cv->n + 1) * sizeof *xs);
                double *ys = xmalloc(((size_t)cv->n + 1) * sizeof *ys);
                double *lo = xmalloc(((size_t)cv->n + 1) * sizeof *lo);
                double *hi = xmalloc(((size_t)cv->n + 1) * sizeof *hi);
                for (int i = 0; i < cv->n; i++) {
                    xs[i] = cv->p[i].x;
                    ys[i] = cv->p[i].y;
                    lo[i] = cv->p[i].slo;
                    hi[i] = cv->p[i].shi;
                }
                /* marked only where the difference is clear (report.md's rule) */
                crossing cr[16];
                int n = find_clear_crossings(xs, ys, lo, hi, cv->n, CROSSOVER_MIN_EFFECT, cr, 16);
                free(lo);
                free(hi);
                const char *col = colour_of(pal, cv->label);
                for (int j = 0; j < n && j < 16; j++, k++) {
                    char *short_label = gp_clean(cv->label, LABEL_MAX);
                    char xt[32];
                    pm_fmt_num(xt, sizeof xt, cr[j].x);
                    char *text =
                        xasprintf("%s %s from %s = %s", short_label,
                                  cr[j].faster ? "faster" : "slower", x_short(m, d->x), xt);
                    free(short_label);
                    sb_puts(&P->marks, "set arrow from first ");
                    num(&P->marks, cr[j].x_cross);
                    sb_puts(&P->marks, ", graph 0 to first ");
                    num(&P->marks, cr[j].x_cross);
                    sb_printf(&P->marks, ", first 1 nohead dt 3 lw 1.5 lc rgb '%s' back\n", col);
                    sb_puts(&P->marks, "set label '' at ");
                    num(&P->marks, cr[j].x_cross);
                    sb_printf(&P->marks, ", 1 point pt 6 ps 2 lw 2 lc rgb '%s' front\n", col);
                    sb_puts(&P->marks, "set label ");
                    gp_quote(&P->marks, text, 0);
                    sb_printf(&P->marks,
                              " at graph 0.98, graph %.3f right tc rgb '%s' noenhanced front\n",
                              bottom ? 0.05 + 0.055 * k : 0.95 - 0.055 * k, col);
                    free(text);
                }
                free(xs);
                free(ys);
            }
        }
    }
    if (s->type == CH_SPEEDUP) {
        char *t =
            xasprintf("%s = 1 (baseline)", d->baseline_label ? d->baseline_label : "baseline");
        sb_puts(&P->refline, ", \\\n     1 with lines dt 2 lw 1.5 lc rgb '#555555' title ");
        gp_quote(&P->refline, t, LABEL_MAX + 20);
        sb_puts(&P->refline, " noenhanced");
        free(t);
    }
}

/* Stacked h2d / compute / d2h, as shares of their sum; one group of bars
 * per series, one bar per x value. */
static void build_breakdown(const run_model *m, const chart_data *d, parts *P)
{
    P->tmpl = "breakdown";
    P->xlabel = x_label(m, d->x);
    P->ylabel = xstrdup("share of h2d + compute + d2h (%)");
    int total = 0;
    for (int c = 0; c < d->ncurves; c++)
        total += d->curves[c].n;
    char **tics = xcalloc((size_t)total + 1, sizeof *tics);
    double *pos = xcalloc((size_t)total + 1, sizeof *pos);
    int nt = 0;
    double at = 0;
    for (int c = 0; c < d->ncurves; c++) {
        const pm_curve *cv = &d->curves[c];
        double first = at;
        sb_printf(&P->data, "$b%d << EOD\n", c);
        for (int i = 0; i < cv->n; i++, at += 1) {
            const pm_point *p = &cv->p[i];
            double sum = p->ph[0] + p->ph[1] + p->ph[2];
            num(&P->data, at);
            for (int k = 0; k < 3; k++) {
                sb_putc(&P->data, ' ');
                num(&P->data, sum > 0 ? 100.0 * p->ph[k] / sum : 0);
            }
            for (int k = 0; k < 3; k++) {
                sb_putc(&P->data, ' ');
                num(&P->data, p->ph[k]);
            }
            sb_putc(&P->data, '\n');
            int ci = (int)p->x;
            tics[nt] = d->cats && ci >= 0 && ci < d->ncats ? d->cats[ci] : (char *)"";
            pos[nt++] = at;
        }
        sb_puts(&P->data, "EOD\n");
        double mid = (first + at - 1) / 2;
        if (!d->unlabelled) { /* the group's name under its bars */
            sb_puts(&P->marks, "set label ");
            gp_quote(&P->marks, cv->label, LABEL_MAX);
            sb_puts(&P->marks, " at first ");
            num(&P->marks, mid);
            sb_puts(&P->marks, ", graph 0 center offset 0, char -2.4 noenhanced font ',12'\n");
        }
        if (c + 1 < d->ncurves) {
            sb_puts(&P->marks, "set arrow from first ");
            num(&P->marks, at);
            sb_puts(&P->marks, ", graph 0 to first ");
            num(&P->marks, at);
            sb_puts(&P->marks, ", graph 1 nohead dt 2 lc rgb '#999999' back\n");
        }
        const char *sep = c ? ", \\\n     " : "";
        sb_printf(&P->plot,
                  "%s$b%d using 1:($2+$3+$4) with boxes lc rgb d2h_colour %s, \\\n"
                  "     $b%d using 1:($2+$3) with boxes lc rgb compute_colour %s, \\\n"
                  "     $b%d using 1:2 with boxes lc rgb h2d_colour %s",
                  sep, c, c ? "notitle" : "title 'd2h: device to host copy'", c,
                  c ? "notitle" : "title 'compute'", c,
                  c ? "notitle" : "title 'h2d: host to device copy'");
        at += 1; /* a gap between groups */
    }
    x_axis_cats(&P->axes, tics, pos, nt, -0.7, at - 1 - 0.3);
    sb_puts(&P->axes, "set boxwidth 0.8 absolute\nset yrange [0:100]\nset format y '%g%%'\n");
    free(tics);
    free(pos);
}

/* The warmup curve: a line chart of call number vs time, with each
 * curve's first-time phases (CUDA: context, module, cuBLAS) written in its
 * colour at the top left. */
static void build_warmup(const run_model *m, const chart_spec *s, const chart_data *d,
                         const palette *pal, parts *P)
{
    build_xy(m, s, d, pal, P);
    free(P->xlabel);
    P->xlabel = xstrdup("call of a fresh worker (1 = its first)");
    /* build_xy's label ends with the unit the axis is drawn in: "(ms)" */
    const char *unit = strrchr(P->ylabel, '(');
    char *yl = xasprintf("time of the call, host clock %s", unit ? unit : "(seconds)");
    free(P->ylabel);
    P->ylabel = yl;
    for (int c = 0, k = 0; c < d->ncurves; c++) {
        if (d->curves[c].n == 0)
            continue;
        char *ph = pm_warmup_phases(m, d->curves[c].p[0].row);
        if (!ph)
            continue;
        char *text = xasprintf("%s: %s", d->curves[c].label, ph);
        sb_puts(&P->marks, "set label ");
        gp_quote(&P->marks, text, 0);
        sb_printf(&P->marks, " at graph 0.02, graph %.3f left tc rgb '%s' noenhanced front\n",
                  0.95 - 0.055 * k++, colour_of(pal, d->curves[c].label));
        free(text);
        free(ph);
    }
}

static char *safe_stem(const char *s)
{
    char *t = xstrdup(s);
    for (char *p = t; *p; p++)
        if (!strchr("._-", *p) && !(*p >= 'a' && *p <= 'z') && !(*p >= 'A' && *p <= 'Z') &&
            !(*p >= '0' && *p <= '9'))
            *p = '_';
    return t;
}

/* Writes NAME.gp for one chart; returns its text. */
static char *chart_script(const run_model *m, const chart_spec *s, const chart_data *d,
                          const palette *pal, int *builtin)
{
    parts P = {0};
    sb_puts(&P.data, "");
    sb_puts(&P.axes, "");
    sb_puts(&P.marks, "");
    sb_puts(&P.plot, "");
    sb_puts(&P.refline, "");
    if (s->type == CH_BREAKDOWN)
        build_breakdown(m, d, &P);
    else if (s->type == CH_WARMUP)
        build_warmup(m, s, d, pal, &P);
    else
        build_xy(m, s, d, pal, &P);
    if (s->xlabel) {
        free(P.xlabel);
        P.xlabel = xstrdup(s->xlabel);
    }
    if (s->ylabel && s->type == CH_BREAKDOWN) {
        free(P.ylabel);
        P.ylabel = xstrdup(s->ylabel);
    }
    /* `legend`: after the template's `set key` (AXES comes later) */
    static const char *const legend_gp[][2] = {
        {"right", "set key outside right top noenhanced"},
        {"below", "set key below center horizontal noenhanced"},
        {"top left", "set key inside left top noenhanced"},
        {"top right", "set key inside right top noenhanced"},
        {"bottom left", "set key inside left bottom noenhanced"},
        {"bottom right", "set key inside right bottom noenhanced"},
        {"off", "unset key"}};
    for (size_t i = 0; s->legend && i < sizeof legend_gp / sizeof *legend_gp; i++)
        if (!strcmp(s->legend, legend_gp[i][0]))
            sb_printf(&P.axes, "\n%s\n", legend_gp[i][1]);
    char *title = s->title ? xstrdup(s->title) : default_title(m, s, d);
    char *stem = safe_stem(s->name);
    char *png = xasprintf("%s.png", stem), *svg = xasprintf("%s.svg", stem);
    char *qtitle = quoted(title, TITLE_MAX), *qx = quoted(P.xlabel, TITLE_MAX),
         *qy = quoted(P.ylabel, TITLE_MAX), *qpng = quoted(png, 0), *qsvg = quoted(svg, 0);
    const char *keys[] = {"NAME",   "TYPE",   "DATA", "PNG",   "SVG",  "TITLE",
                          "XLABEL", "YLABEL", "AXES", "MARKS", "PLOT", "REFLINE"};
    const char *vals[] = {stem, P.tmpl, P.data.s, qpng,      qsvg,     qtitle,
                          qx,   qy,     P.axes.s, P.marks.s, P.plot.s, P.refline.s};
    char *tmpl = gp_template(P.tmpl, builtin);
    char *text = gp_fill(tmpl, keys, vals, (int)(sizeof keys / sizeof *keys));
    free(tmpl);
    free(title);
    free(stem);
    free(png);
    free(svg);
    free(qtitle);
    free(qx);
    free(qy);
    free(qpng);
    free(qsvg);
    parts_free(&P);
    return text;
}

/* Through a fresh temporary and rename(): a link planted at `path` is
 * replaced, never written through (README "Guarantees"). */
static int write_text(const char *path, const char *text)
{
    return write_file_atomic(path, text, strlen(text));
}

/* gnuplot opens its outputs by name: anything at them that is not a plain
 * file (a planted symbolic link) is removed first, so that it writes a
 * new file rather than through the link. */
static void clear_output(const char *path)
{
    struct stat st;
    if (lstat(path, &st) == 0 && !S_ISREG(st.st_mode))
        unlink(path);
}

static int valid_png(const char *path)
{
    static const unsigned char sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    unsigned char b[8];
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    size_t n = fread(b, 1, 8, f);
    fclose(f);
    return n == 8 && !memcmp(b, sig, 8);
}

int plots_render_spec(const char *run_dir, const experiment *e, const experiment *spec, int quiet,
                      int *failed)
{
    int nfailed = 0;
    if (failed)
        *failed = 0;
    run_model m;
    char err[1024];
    if (pm_load(&m, run_dir, e, err, sizeof err) < 0) {
        fprintf(stderr, "runner: %s\n", err);
        if (failed)
            *failed = 1;
        return 0;
    }
    if (!spec)
        spec = e;
    chart_spec *charts;
    int ncharts;
    char warn[512] = "";
    if (spec && spec->plots_given) {
        ncharts = pm_file_charts(&m, spec, &charts, warn, sizeof warn);
        if (warn[0]) {
            fprintf(stderr, "runner: %s\n", warn);
            nfailed++;
        }
    } else {
        ncharts = pm_default_charts(&m, &charts);
    }
    chart_data *data = xcalloc((size_t)ncharts + 1, sizeof *data);
    int *npts = xcalloc((size_t)ncharts + 1, sizeof *npts);
    palette pal = {0};
    for (int i = 0; i < ncharts; i++) {
        npts[i] = charts[i].type == CH_WARMUP ? pm_warmup_data(&m, &charts[i], &data[i])
                                              : pm_chart_data(&m, &charts[i], &data[i]);
        for (int c = 0;
             c < data[i].ncurves && charts[i].type != CH_BREAKDOWN && !data[i].unlabelled; c++)
            palette_add(&pal, data[i].curves[c].label);
    }
    if (pal.n)
        xqsort(pal.labels, (size_t)pal.n, sizeof *pal.labels, cmp_str);

    char *dir = xasprintf("%s/plots", run_dir);
    if (mkdir(dir, 0777) < 0 && errno != EEXIST) {
        fprintf(stderr, "runner: cannot create %s: %s\n", dir, strerror(errno));
        free(dir);
        dir = NULL;
    }
    char *prog = dir ? gp_find() : NULL;
    int drawn = 0, warned_builtin = 0;
    strbuf names = {0};
    sb_puts(&names, "");
    for (int i = 0; dir && i < ncharts; i++) {
        const chart_spec *s = &charts[i];
        if (npts[i] == 0) {
            if (!s->is_default || !quiet)
                fprintf(stderr, "runner: chart '%s': no ok trials to draw; left out\n", s->name);
            if (!s->is_default)
                nfailed++;
            continue;
        }
        int builtin = 0;
        char *text = chart_script(&m, s, &data[i], &pal, &builtin);
        if (builtin && !warned_builtin++)
            fprintf(stderr,
                    "runner: the chart templates (plots/*.gp) were not found; using the built-in "
                    "style (set RUNNER_PLOT_TEMPLATES to their folder)\n");
        char *stem = safe_stem(s->name);
        char *gp = xasprintf("%s/%s.gp", dir, stem);
        char *gpname = xasprintf("%s.gp", stem);
        if (write_text(gp, text) < 0) {
            fprintf(stderr, "runner: cannot write %s: %s\n", gp, strerror(errno));
            nfailed++;
        } else if (prog) {
            char gerr[1024];
            char *png = xasprintf("%s/%s.png", dir, stem);
            char *svg = xasprintf("%s/%s.svg", dir, stem);
            clear_output(png);
            clear_output(svg);
            free(svg);
            if (gp_run(prog, dir, gpname, GP_TIMEOUT, gerr, sizeof gerr) < 0) {
                fprintf(stderr, "runner: chart '%s' (%s): %s\n", s->name, gp, gerr);
                nfailed++;
            } else if (!valid_png(png)) {
                fprintf(stderr, "runner: chart '%s': gnuplot wrote no PNG (%s)\n", s->name, png);
                nfailed++;
            } else {
                drawn++;
                sb_printf(&names, "%s%s", names.len ? ", " : "", stem);
            }
            free(png);
        }
        free(gpname);
        free(gp);
        free(stem);
        free(text);
    }
    int rc = drawn;
    if (dir && !prog && ncharts > 0) {
        const char *env = getenv("RUNNER_GNUPLOT");
        fprintf(stderr,
                "runner: gnuplot not found (%s); the charts were not drawn, the results are "
                "saved.\n"
                "  install it (Debian/Ubuntu): apt-get install gnuplot-nox\n"
                "  then draw them with: runner plot %s   (scripts: %s/*.gp)\n",
                env && *env ? "RUNNER_GNUPLOT names no program" : "not on PATH", run_dir, dir);
        rc = -1;
    } else if (drawn > 0 && !quiet) {
        fprintf(stderr, "charts: %s in %s\n", names.s, dir);
    }
    sb_free(&names);
    free(prog);
    free(dir);
    for (int i = 0; i < ncharts; i++) {
        chart_data_free(&data[i]);
        chart_spec_free(&charts[i]);
    }
    free(charts);
    free(data);
    free(npts);
    palette_free(&pal);
    pm_free(&m);
    if (failed)
        *failed = nfailed;
    return rc;
}

int plots_render_run(const char *run_dir, const experiment *e, int quiet)
{
    return plots_render_spec(run_dir, e, NULL, quiet, NULL);
}
