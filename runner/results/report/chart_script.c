/* chart_script.c - see chart_script.h: one chart's gnuplot script, its
 * data in inline datablocks, from the template plots/TYPE.gp. */
#include "results/report/chart_script.h"

#include "results/report/chart_axes.h"
#include "results/report/plot_ceilings.h"
#include "results/report/plot_crossover.h"
#include "results/report/plot_gp.h"
#include "results/report/plot_model.h"
#include "results/report/plot_warmup.h"
#include "base/util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LABEL_MAX 40
#define TITLE_MAX 100

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

/* Which time a time column or chart shows (doc/results.md#plots-and-reports):
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
    case CH_ROOFLINE:
        return xasprintf("%s: roofline (achieved GFLOP/s against arithmetic intensity)", m->name);
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
    /* a throughput chart's ceilings (doc/ceilings.md#the-ceilings): the
     * axis reaches them */
    ceiling_line cl[CEILING_LINES_MAX];
    int ncl = s->type == CH_THROUGHPUT && (d->y == m->c_gflops || d->y == m->c_gbps)
                  ? chart_ceiling_lines(m, d, cl, CEILING_LINES_MAX)
                  : 0;
    for (int i = 0; i < ncl; i++)
        yhi = cl[i].value > yhi ? cl[i].value : yhi;
    int kind = y_kind(m, s, d->y);
    double span = ylo > 0 ? yhi / ylo : 0;
    if (kind == 2 && positive) {
        double l = ylo < 1 ? ylo : 1, h = yhi > 1 ? yhi : 1;
        span = h / l;
    }
    int logy = s->logy >= 0 ? s->logy : positive && span >= (d->bars ? 100 : 10);
    if (!positive)
        logy = 0;
    yinfo yi = gp_y_axis(&P->axes, kind, logy, ylo, yhi);
    P->ylabel = y_label(m, s, d, d->y, logy, &yi);
    P->xlabel = x_label(m, d->x);
    char scale[64] = "2";
    char scale3[64] = "3", scale4[64] = "4";
    if (yi.scale != 1.0) {
        snprintf(scale, sizeof scale, "($2*%g)", yi.scale);
        snprintf(scale3, sizeof scale3, "($3*%g)", yi.scale);
        snprintf(scale4, sizeof scale4, "($4*%g)", yi.scale);
    }

    /* what the whiskers span, said on the chart (a band on a dense curve) */
    int whiskers = 0;
    for (int c = 0; c < d->ncurves; c++)
        for (int i = 0; i < d->curves[c].n; i++)
            whiskers |= isfinite(d->curves[c].p[i].lo);
    if (whiskers)
        sb_puts(&P->marks, "set label 'error bars: min to max of the samples' at screen 0.99, "
                           "screen 0.02 right font ',9' tc rgb '#555555'\n");
    if (d->bars) {
        P->tmpl = "bar";
        int nc = d->ncurves > 0 ? d->ncurves : 1;
        double w = 0.8 / nc;
        gp_x_axis_cats(&P->axes, d->cats, NULL, d->ncats, -0.6, d->ncats - 0.4);
        sb_printf(&P->axes, "set boxwidth %g absolute\n", w * 0.95);
        for (int c = 0; c < d->ncurves; c++) {
            const pm_curve *cv = &d->curves[c];
            int err = 0;
            sb_printf(&P->data, "$s%d << EOD\n", c);
            for (int i = 0; i < cv->n; i++) {
                const pm_point *p = &cv->p[i];
                gp_num(&P->data, p->x - 0.4 + w * (c + 0.5));
                sb_putc(&P->data, ' ');
                gp_num(&P->data, p->y);
                sb_putc(&P->data, ' ');
                gp_num(&P->data, isfinite(p->lo) ? p->lo : p->y);
                sb_putc(&P->data, ' ');
                gp_num(&P->data, isfinite(p->hi) ? p->hi : p->y);
                sb_putc(&P->data, '\n');
                err |= isfinite(p->lo);
            }
            sb_puts(&P->data, "EOD\n");
            sb_printf(&P->plot, "%s$s%d using 1:%s with boxes", c ? ", \\\n     " : "", c, scale);
            palette_style(&P->plot, pal, cv->label, 0);
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
                pow2 &= gp_is_pow2(x);
                xpos &= x > 0;
            }
        int logx = s->logx >= 0 ? s->logx : xpos && (xhi / xlo >= 8 || xhi == xlo);
        if (!xpos)
            logx = 0;
        if (d->xcat)
            gp_x_axis_cats(&P->axes, d->cats, NULL, d->ncats, -0.5, d->ncats - 0.5);
        else
            gp_x_axis_numeric(&P->axes, logx, xlo, xhi, pow2);
        for (int c = 0; c < d->ncurves; c++) {
            const pm_curve *cv = &d->curves[c];
            int err = 0;
            for (int i = 0; i < cv->n; i++)
                err |= isfinite(cv->p[i].lo);
            sb_printf(&P->data, "$s%d << EOD\n", c);
            for (int i = 0; i < cv->n; i++) {
                const pm_point *p = &cv->p[i];
                gp_num(&P->data, p->x);
                sb_putc(&P->data, ' ');
                gp_num(&P->data, p->y);
                if (err) {
                    sb_putc(&P->data, ' ');
                    gp_num(&P->data, isfinite(p->lo) ? p->lo : p->y);
                    sb_putc(&P->data, ' ');
                    gp_num(&P->data, isfinite(p->hi) ? p->hi : p->y);
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
                          c ? ", \\\n     " : "", c, scale3, scale4, palette_colour(pal, cv->label));
            else if (c)
                sb_puts(&P->plot, ", \\\n     ");
            if (err && every == 1)
                sb_printf(&P->plot, "$s%d using 1:%s:%s:%s with yerrorlines lw 2", c, scale, scale3,
                          scale4);
            else
                sb_printf(&P->plot, "$s%d using 1:%s with linespoints lw 2 pi %d", c, scale, every);
            palette_style(&P->plot, pal, cv->label, 1);
            title_of(&P->plot, d, cv);
        }
        /* speedup: where each curve crosses 1 -- a point on the line at 1,
         * a dotted line down to the axis, and a caption listed in the right
         * corner that the curves leave free (below 1 when they end above);
         * only along an amount of work (doc/results.md#plots-and-reports) */
        if (s->type == CH_SPEEDUP && !d->xcat && !pm_is_config(m, d->x)) {
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
                const char *col = palette_colour(pal, cv->label);
                for (int j = 0; j < n && j < 16; j++, k++) {
                    char *short_label = gp_clean(cv->label, LABEL_MAX);
                    char xt[32];
                    pm_fmt_num(xt, sizeof xt, cr[j].x);
                    char *text =
                        xasprintf("%s %s from %s = %s", short_label,
                                  cr[j].faster ? "faster" : "slower", x_short(m, d->x), xt);
                    free(short_label);
                    sb_puts(&P->marks, "set arrow from first ");
                    gp_num(&P->marks, cr[j].x_cross);
                    sb_puts(&P->marks, ", graph 0 to first ");
                    gp_num(&P->marks, cr[j].x_cross);
                    sb_printf(&P->marks, ", first 1 nohead dt 3 lw 1.5 lc rgb '%s' back\n", col);
                    sb_puts(&P->marks, "set label '' at ");
                    gp_num(&P->marks, cr[j].x_cross);
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
    for (int i = 0; i < ncl; i++) {
        sb_puts(&P->refline, ", \\\n     ");
        gp_num(&P->refline, cl[i].value * yi.scale);
        sb_printf(&P->refline, " with lines dt 2 lw 2 lc rgb '%s' title ", cl[i].colour);
        gp_quote(&P->refline, cl[i].label, LABEL_MAX + 40);
        sb_puts(&P->refline, " noenhanced");
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
            gp_num(&P->data, at);
            for (int k = 0; k < 3; k++) {
                sb_putc(&P->data, ' ');
                gp_num(&P->data, sum > 0 ? 100.0 * p->ph[k] / sum : 0);
            }
            for (int k = 0; k < 3; k++) {
                sb_putc(&P->data, ' ');
                gp_num(&P->data, p->ph[k]);
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
            gp_num(&P->marks, mid);
            sb_puts(&P->marks, ", graph 0 center offset 0, char -2.4 noenhanced font ',12'\n");
        }
        if (c + 1 < d->ncurves) {
            sb_puts(&P->marks, "set arrow from first ");
            gp_num(&P->marks, at);
            sb_puts(&P->marks, ", graph 0 to first ");
            gp_num(&P->marks, at);
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
    gp_x_axis_cats(&P->axes, tics, pos, nt, -0.7, at - 1 - 0.3);
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
                  0.95 - 0.055 * k++, palette_colour(pal, d->curves[c].label));
        free(text);
        free(ph);
    }
}

char *chart_stem(const char *s)
{
    char *t = xstrdup(s);
    for (char *p = t; *p; p++)
        if (!strchr("._-", *p) && !(*p >= 'a' && *p <= 'z') && !(*p >= 'A' && *p <= 'Z') &&
            !(*p >= '0' && *p <= '9'))
            *p = '_';
    return t;
}

/* Writes NAME.gp for one chart; returns its text. */
char *chart_script(const run_model *m, const chart_spec *s, const chart_data *d,
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
    else if (s->type == CH_ROOFLINE)
        P.tmpl = "roofline", roofline_parts(m, d, pal, &P.data, &P.axes, &P.marks, &P.plot,
                                            &P.xlabel, &P.ylabel);
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
    char *stem = chart_stem(s->name);
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
 * replaced, never written through (doc/results.md#guarantees). */
