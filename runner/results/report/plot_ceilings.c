/* plot_ceilings.c - see plot_ceilings.h.  A device's ceiling is the one
 * pct_of_peak measures against (experiment/machine/ceilings.h): the compute peak of
 * the trial's dtype on its threads, or the bandwidth (doc/ceilings.md). */
#include "results/report/plot_ceilings.h"

#include "experiment/machine/ceilings.h"
#include "results/report/plot_gp.h"
#include "results/rundir/rundir.h"
#include "experiment/trial.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the ceilings the run recorded, or NULL */
static ceilings *run_ceilings_of(const run_model *m)
{
    char *j = rundir_meta_ceilings(m->dir);
    ceilings *c = j ? ceilings_parse(j) : NULL;
    free(j);
    return c;
}

static const char *cell_or(const run_model *m, int row, const char *col, const char *dflt)
{
    int c = pm_col(m, col);
    const char *v = c >= 0 ? pm_cell(m, row, c) : "";
    return *v ? v : dflt;
}

/* A trial's device as the ceilings name it, and its threads. */
static void device_of(const run_model *m, int row, char *dev, size_t len, int *threads)
{
    const char *d = cell_or(m, row, "device", "cpu");
    snprintf(dev, len, "%s", !strcmp(d, "cuda") ? "cuda:0" : d);
    const char *t = cell_or(m, row, "threads", "all");
    *threads = !strcmp(t, "all") ? host_cpus() : atoi(t);
}

/* 118 GFLOP/s, 21.8 GB/s, 51.2 TFLOP/s */
static void fmt_rate(char *out, size_t n, double v, const char *unit)
{
    if (v >= 1e4)
        snprintf(out, n, "%.3g T%s", v / 1e3, unit + 1);
    else if (v >= 100)
        snprintf(out, n, "%.0f %s", v, unit);
    else
        snprintf(out, n, "%.3g %s", v, unit);
}

/* the CPU's ceilings scale with threads: say on how many */
static void cores_note(char *out, size_t n, const char *dev, int threads)
{
    if (strcmp(dev, "cpu"))
        out[0] = '\0';
    else
        snprintf(out, n, threads == 1 ? ", 1 core" : ", %d cores", threads);
}

int chart_ceiling_lines(const run_model *m, const chart_data *d, ceiling_line *out, int max)
{
    ceilings *c = run_ceilings_of(m);
    if (!c)
        return 0;
    int n = 0, bw = d->y == m->c_gbps;
    for (int k = 0; k < d->ncurves && n < max; k++) {
        if (d->curves[k].n == 0)
            continue;
        int row = d->curves[k].p[0].row, threads;
        char dev[32], what[16], label[96], rate[32], cores[32];
        device_of(m, row, dev, sizeof dev, &threads);
        double v = bw ? ceilings_bandwidth(c, dev, threads)
                      : ceilings_compute(c, dev, threads, cell_or(m, row, "dtype", "f32"),
                                         cell_or(m, row, "math", NULL), what, sizeof what);
        if (!isfinite(v))
            continue;
        fmt_rate(rate, sizeof rate, v, bw ? "GB/s" : "GFLOP/s");
        cores_note(cores, sizeof cores, dev, threads);
        snprintf(label, sizeof label, "%s %s ceiling%s: %s", dev, bw ? "bandwidth" : what, cores,
                 rate);
        int dup = 0; /* one line per figure: 1 and 2 threads may share it */
        for (int i = 0; i < n && !dup; i++)
            dup = !strcmp(out[i].label, label) || out[i].value == v;
        if (dup)
            continue;
        out[n].value = v;
        snprintf(out[n].label, sizeof out[n].label, "%s", label);
        /* dark shades, one per device kind: a ceiling is not a series */
        snprintf(out[n].colour, sizeof out[n].colour, "%s",
                 !strcmp(dev, "cpu") ? "#7f2704" : "#08306b");
        n++;
    }
    ceilings_free(c);
    return n;
}

/* A point's size label on the roofline: where, its text, its box, and the
 * last size of the run of points after it whose labels did not fit. */
typedef struct size_label {
    double ai, gf;
    char text[72], last[32];
    int box;
} size_label;

/* Whether box b (x0, y0, x1, y1) overlaps none of the n boxes but `self`. */
static int box_clear(double (*box)[4], int n, int self, const double *b)
{
    for (int j = 0; j < n; j++)
        if (j != self && !(b[2] < box[j][0] || b[0] > box[j][2] || b[3] < box[j][1] ||
                           b[1] > box[j][3]))
            return 0;
    return 1;
}

/* The size labels of the roofline's points, as $lK blocks: a point's label
 * is drawn only where it clears every label drawn before it and every
 * point, at the chart's size (about 800 x 420 pixels of plot, log axes
 * spanning lx and ly from x0, y0); points of one intensity, as a sweep of
 * a memory-bound workload has, would print their sizes over each other. */
static void label_points(const run_model *m, const chart_data *d, strbuf *data, double lx,
                         double ly, double x0, double y0)
{
    enum { MAXBOX = 512 };
    static const double W = 800, H = 420, CH = 6.2; /* pixels; one character at font 8 */
    double box[MAXBOX][4];
    int nb = 0;
    /* every point's marker first: no label covers a point */
    for (int k = 0; k < d->ncurves; k++)
        for (int i = 0; i < d->curves[k].n && nb < MAXBOX; i++) {
            int r = d->curves[k].p[i].row;
            double gf = pm_num(m, r, m->c_gflops), gb = pm_num(m, r, m->c_gbps);
            if (!(gf > 0 && gb > 0))
                continue;
            double px = W * log(gf / gb / x0) / lx, py = H * log(gf / y0) / ly;
            double b[4] = {px - 6, py - 6, px + 6, py + 6};
            memcpy(box[nb++], b, sizeof b);
        }
    for (int k = 0; k < d->ncurves; k++) {
        const pm_curve *cv = &d->curves[k];
        /* this curve's labels */
        size_label *lab = xcalloc(MAXBOX, sizeof *lab);
        int nl = 0, run = 0;
        for (int i = 0; i < cv->n; i++) {
            double gf = pm_num(m, cv->p[i].row, m->c_gflops), gb = pm_num(m, cv->p[i].row, m->c_gbps);
            if (!(gf > 0 && gb > 0))
                continue;
            char sz[32];
            pm_fmt_num(sz, sizeof sz, cv->p[i].x);
            double px = W * log(gf / gb / x0) / lx, py = H * log(gf / y0) / ly;
            /* offset char 0.9, char 0.6, left-aligned: right of and above the point */
            double b[4] = {px + 7, py + 6.5, px + 9 + CH * (double)strlen(sz), py + 17};
            if (nb >= MAXBOX || !box_clear(box, nb, -1, b)) {
                /* "1024–2^16": the label before stands for the next sizes
                 * too while they sit right by it, one after another */
                double one[1][4];
                if (nl > 0)
                    memcpy(one[0], box[lab[nl - 1].box], sizeof one[0]);
                run = run && nl > 0 && !box_clear(one, 1, -1, b);
                if (run)
                    snprintf(lab[nl - 1].last, sizeof lab[0].last, "%s", sz);
                continue;
            }
            run = 1;
            memcpy(box[nb], b, sizeof b);
            lab[nl].ai = gf / gb, lab[nl].gf = gf, lab[nl].box = nb++;
            snprintf(lab[nl].text, sizeof lab[0].text, "%s", sz);
            lab[nl++].last[0] = '\0';
        }
        sb_printf(data, "$l%d << EOD\n", k);
        for (int i = 0; i < nl; i++) {
            if (lab[i].last[0]) { /* the range, where it fits too */
                char range[72];
                snprintf(range, sizeof range, "%s\u2013%s", lab[i].text, lab[i].last);
                double *b = box[lab[i].box], old = b[2];
                b[2] = b[0] + 2 + CH * (double)(strlen(range) - 2);
                if (box_clear(box, nb, lab[i].box, b))
                    snprintf(lab[i].text, sizeof lab[i].text, "%s", range);
                else
                    b[2] = old;
            }
            gp_num(data, lab[i].ai);
            sb_putc(data, ' ');
            gp_num(data, lab[i].gf);
            sb_printf(data, " %s\n", lab[i].text);
        }
        sb_puts(data, "EOD\n");
        free(lab);
    }
}

void roofline_parts(const run_model *m, const chart_data *d, const palette *pal, strbuf *data,
                    strbuf *axes, strbuf *marks, strbuf *plot, char **xlabel, char **ylabel)
{
    *xlabel = xstrdup("arithmetic intensity (flop/byte)");
    *ylabel = xstrdup("achieved throughput (GFLOP/s)");
    double xlo = INFINITY, xhi = -INFINITY, ylo = INFINITY, yhi = -INFINITY;
    int np = 0;
    for (int k = 0; k < d->ncurves; k++) {
        const pm_curve *cv = &d->curves[k];
        sb_printf(data, "$r%d << EOD\n", k);
        for (int i = 0; i < cv->n; i++) {
            double gf = pm_num(m, cv->p[i].row, m->c_gflops), gb = pm_num(m, cv->p[i].row, m->c_gbps);
            if (!(gf > 0 && gb > 0))
                continue;
            double ai = gf / gb;
            gp_num(data, ai);
            sb_putc(data, ' ');
            gp_num(data, gf);
            char sz[32];
            pm_fmt_num(sz, sizeof sz, cv->p[i].x);
            sb_printf(data, " %s\n", sz);
            xlo = fmin(xlo, ai), xhi = fmax(xhi, ai), ylo = fmin(ylo, gf), yhi = fmax(yhi, gf);
            np++;
        }
        sb_puts(data, "EOD\n");
    }
    /* one roof per device: min(peak, bandwidth x intensity), the ridge where they meet */
    ceilings *c = run_ceilings_of(m);
    strbuf roofs = {0};
    sb_puts(&roofs, "");
    char seen[8][64];
    int nseen = 0;
    for (int k = 0; c && k < d->ncurves && nseen < 8; k++) {
        if (d->curves[k].n == 0)
            continue;
        int row = d->curves[k].p[0].row, threads;
        char dev[32], what[16], key[64];
        device_of(m, row, dev, sizeof dev, &threads);
        double pc = ceilings_compute(c, dev, threads, cell_or(m, row, "dtype", "f32"),
                                     cell_or(m, row, "math", NULL), what, sizeof what);
        double pb = ceilings_bandwidth(c, dev, threads);
        if (!isfinite(pc) || !isfinite(pb))
            continue;
        snprintf(key, sizeof key, "%s/%s/%d", dev, what, threads);
        int dup = 0;
        for (int i = 0; i < nseen && !dup; i++)
            dup = !strcmp(seen[i], key);
        if (dup)
            continue;
        snprintf(seen[nseen++], sizeof seen[0], "%s", key);
        char r1[32], r2[32], cores[32];
        fmt_rate(r1, sizeof r1, pc, "GFLOP/s");
        fmt_rate(r2, sizeof r2, pb, "GB/s");
        cores_note(cores, sizeof cores, dev, threads);
        char *t = xasprintf("%s roof%s: %s %s, %s", dev, cores, what, r1, r2);
        sb_printf(&roofs, ", \\\n     (x * %.6g < %.6g ? x * %.6g : %.6g) with lines lw 2.5 dt %d "
                          "lc rgb '%s' title ",
                  pb, pc, pb, pc, nseen, !strcmp(dev, "cpu") ? "#7f2704" : "#08306b");
        gp_quote(&roofs, t, 80);
        sb_puts(&roofs, " noenhanced");
        free(t);
        double ridge = pc / pb;
        xlo = fmin(xlo, ridge), xhi = fmax(xhi, ridge), yhi = fmax(yhi, pc);
    }
    ceilings_free(c);
    if (np == 0)
        xlo = 0.1, xhi = 10, ylo = 1, yhi = 10;
    sb_puts(axes, "set logscale xy\nset samples 1000\nset xrange [");
    gp_num(axes, xlo / 4);
    sb_puts(axes, ":");
    gp_num(axes, xhi * 4);
    sb_puts(axes, "]\nset yrange [");
    gp_num(axes, ylo / 4);
    sb_puts(axes, ":");
    gp_num(axes, yhi * 2);
    sb_puts(axes, "]\nset format x '%g'\nset format y '%g'\n");
    label_points(m, d, data, log(xhi * 16 / xlo), log(yhi * 8 / ylo), xlo / 4, ylo / 4);
    (void)marks;
    for (int k = 0; k < d->ncurves; k++) {
        const pm_curve *cv = &d->curves[k];
        sb_printf(plot, "%s$r%d using 1:2 with points pt 7 ps 1.4 lc rgb '%s'", k ? ", \\\n     " : "",
                  k, palette_colour(pal, cv->label));
        if (d->unlabelled && d->ncurves == 1) {
            sb_puts(plot, " notitle");
        } else {
            sb_puts(plot, " title ");
            gp_quote(plot, cv->label, 40);
            sb_puts(plot, " noenhanced");
        }
        sb_printf(plot, ", \\\n     $l%d using 1:2:3 with labels offset char 0.9, char 0.6 left "
                        "font ',8' tc rgb '%s' noenhanced notitle",
                  k, palette_colour(pal, cv->label));
    }
    if (d->ncurves == 0)
        sb_puts(plot, "NaN notitle");
    sb_puts(plot, roofs.s);
    sb_free(&roofs);
}
