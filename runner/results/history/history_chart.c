/* history_chart.c - see history_chart.h (doc/history.md#charts). */
#include "results/history/history_chart.h"

#include "results/history/changepoint.h"
#include "results/history/history_format.h"
#include "results/report/plot_gp.h"
#include "stats/stats.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A file name part: letters, digits, '.', '-', '_'; others become '_'. */
static void name_part(strbuf *b, const char *s)
{
    for (; s && *s; s++)
        sb_putc(b, (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
                           (*s >= '0' && *s <= '9') || *s == '-' || *s == '.' || *s == '_'
                       ? *s
                       : '_');
}

static int same(const char *a, const char *b)
{
    return (!a && !b) || (a && b && !strcmp(a, b));
}

/* Whether series i starts a new chart: another experiment, machine,
 * workload or device than series i-1. */
static int new_chart(const history_set *h, int i)
{
    const history_series *a = &h->s[i], *b = i ? &h->s[i - 1] : NULL;
    return !b || !same(a->experiment, b->experiment) || !same(a->machine, b->machine) ||
           !same(a->workload, b->workload) || !same(a->device, b->device);
}

/* Whether series i has a median to draw. */
static int drawable(const history_set *h, int i)
{
    for (int k = 0; k < h->s[i].npts; k++)
        if (isfinite(h->s[i].pts[k].median))
            return 1;
    return 0;
}

/* The baseline series s is divided by: the median of its ok medians before
 * its first change point, or, with none, before its newest one (all of
 * them when it has one). */
static double baseline(const history_series *s)
{
    double *v = xmalloc(((size_t)s->npts + 1) * sizeof *v);
    int n = 0, last = -1, end = s->ncps ? s->cps[0].at : s->npts;
    for (int k = 0; k < s->npts; k++)
        if (isfinite(s->pts[k].median) && s->pts[k].median > 0)
            last = k;
    for (int k = 0; k < end; k++)
        if ((s->ncps || k != last) && isfinite(s->pts[k].median) && s->pts[k].median > 0)
            v[n++] = s->pts[k].median;
    double b = n ? stats_median(v, n) : last >= 0 ? s->pts[last].median : NAN;
    free(v);
    return b;
}

/* The series' noise (changepoint_noise_robust of its ok medians but the newest,
 * as its baseline: a step in the newest run is no noise), NaN below 3. */
static double noise_of(const history_series *s)
{
    double *v = xmalloc(((size_t)s->npts + 1) * sizeof *v);
    int n = 0;
    for (int k = 0; k < s->npts; k++)
        if (isfinite(s->pts[k].median) && s->pts[k].median > 0)
            v[n++] = s->pts[k].median;
    double sd = n - 1 >= 3 ? changepoint_noise_robust(v, n - 1) : NAN;
    free(v);
    return sd;
}

typedef struct labelled {
    int series;
    char *label;
} labelled;

static int cmp_labelled(const void *x, const void *y)
{
    const labelled *a = x, *b = y;
    int c = history_key_cmp(a->label, b->label);
    return c ? c : (a->series > b->series) - (a->series < b->series);
}

/* Twenty colours told apart (then the point type changes too). */
static const char *const palette[] = {
    "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2",
    "#17becf", "#bcbd22", "#7f7f7f", "#393b79", "#ad494a", "#637939", "#e6550d",
    "#7b4173", "#3182bd", "#31a354", "#843c39", "#d6616b", "#000000"};

/* One chart: the drawable series of [from, to) of h, each divided by its
 * own baseline, into the script. */
static void chart(const history_set *h, int from, int to, const char *file, strbuf *sc)
{
    const history_series *f = &h->s[from];
    labelled *ls = xmalloc((size_t)(to - from + 1) * sizeof *ls);
    int nl = 0;
    double *noise = xmalloc((size_t)(to - from + 1) * sizeof *noise);
    int nn = 0;
    for (int i = from; i < to; i++) {
        if (!drawable(h, i))
            continue;
        const char **keys = xmalloc((size_t)(to - from + 1) * sizeof *keys);
        for (int j = from; j < to; j++)
            keys[j - from] = h->s[j].key;
        ls[nl++] = (labelled){i, history_key_varying(h->s[i].key, keys, to - from)};
        free(keys);
        double base = baseline(&h->s[i]), sd = noise_of(&h->s[i]);
        if (isfinite(sd))
            noise[nn++] = sd;
        sb_printf(sc, "$s%d << EOD\n", i);
        for (int k = 0; k < h->s[i].npts; k++) {
            const history_point *p = &h->s[i].pts[k];
            if (isfinite(p->median) && p->median > 0)
                sb_printf(sc, "%d %.9g\n", k + 1, p->median / base);
        }
        sb_puts(sc, "EOD\n");
    }
    qsort(ls, (size_t)nl, sizeof *ls, cmp_labelled);
    sb_puts(sc, "set output ");
    gp_quote(sc, file, 0);
    strbuf title = {0};
    sb_printf(&title, "%s: %s%s%s on machine %.8s", f->experiment, f->workload ? f->workload : "",
              f->device ? " on " : "", f->device ? f->device : "", f->machine);
    sb_puts(sc, "\nset title ");
    gp_quote(sc, title.s, 200);
    sb_free(&title);
    sb_puts(sc, "\nunset arrow\nunset label\nunset object\n");
    int most = 0;
    for (int i = from; i < to; i++)
        most = h->s[i].npts > most ? h->s[i].npts : most;
    /* a tick a run while they can be read, else gnuplot's, still whole */
    sb_puts(sc, most <= 30 ? "set xtics 1\n" : "set xtics autofreq\nset format x '%.0f'\n");
    /* the noise band: 2 sd of the series' run-to-run noise (their median)
     * either side of 1 */
    double sd = nn ? stats_median(noise, nn) : NAN;
    if (isfinite(sd) && sd > 0)
        sb_printf(sc, "set object 1 rect from graph 0, first %.6g to graph 1, first %.6g behind "
                      "fillcolor rgb '#e8e8e8' fillstyle solid 1.0 noborder\n"
                      "set label 1 'noise band (2 sd)' at graph 0.01, first %.6g left "
                      "font ',8' textcolor rgb '#707070'\n",
                  exp(-2 * sd), exp(2 * sd), exp(2 * sd));
    int a = 2;
    for (int i = from; i < to; i++)
        for (int k = 0; k < h->s[i].ncps; k++) {
            const changepoint *c = &h->s[i].cps[k];
            sb_printf(sc, "set arrow %d from %.1f, graph 0 to %.1f, graph 1 nohead dt 2 lc rgb "
                          "'#c00000'\n",
                      a, c->at + 0.5, c->at + 0.5);
            sb_printf(sc, "set label %d '%+.1f%%' at %.1f, graph 0.97 left textcolor rgb '#c00000'\n",
                      a++, 100 * c->step, c->at + 0.7);
        }
    /* one series: its key under the title, not a legend as wide as the chart */
    if (nl == 1) {
        sb_puts(sc, "set label 1000 ");
        gp_quote(sc, h->s[ls[0].series].key, 160);
        sb_puts(sc, " at screen 0.5, screen 0.93 center font ',8' noenhanced\n");
        free(ls[0].label);
        ls[0].label = xstrdup("median / baseline");
    }
    sb_puts(sc, "plot ");
    for (int j = 0; j < nl; j++) {
        sb_printf(sc, "%s$s%d using 1:2 with linespoints pt %d ps 0.7 lw 1.5 lc rgb '%s' title ",
                  j ? ", " : "", ls[j].series, 7 + (j / 20) % 6, palette[j % 20]);
        gp_quote(sc, ls[j].label, 200);
        free(ls[j].label);
    }
    sb_puts(sc, nl ? ", 1 with lines dt 3 lc rgb '#404040' notitle\n" : "1 notitle\n");
    free(ls);
    free(noise);
}

int history_charts(const history_set *h, const char *dir, strbuf *names, char *err, size_t len)
{
    if (h->n == 0)
        return 0;
    char *gp = gp_find();
    if (!gp) {
        snprintf(err, len, "gnuplot not found: no trend chart drawn");
        return -1;
    }
    if (make_dirs(dir) < 0) {
        snprintf(err, len, "cannot create %s", dir);
        free(gp);
        return -1;
    }
    strbuf sc = {0};
    sb_puts(&sc, "set terminal pngcairo size 1000,650 enhanced font 'DejaVu Sans,11'\n"
                 "set xlabel 'run (in revision order, else by start time)'\n"
                 /* whole runs on x; on y each series over its own baseline,
                  * on a linear axis: a 2x step is twice the height, whatever
                  * the series' time (doc/history.md#charts) */
                 "set format y '%.2f'\n"
                 "set ylabel 'median / baseline (the runs before its first change, else the earlier runs)' font ',9'\n"
                 "set key outside right top vertical font ',9' noenhanced\n"
                 "set grid ytics\nset title noenhanced\n");
    int drawn = 0;
    for (int i = 0; i < h->n;) {
        int j = i + 1, any = drawable(h, i);
        while (j < h->n && !new_chart(h, j))
            any |= drawable(h, j++);
        if (!any) { /* no ok trial in these runs: no chart */
            i = j;
            continue;
        }
        strbuf file = {0};
        name_part(&file, h->s[i].experiment);
        sb_puts(&file, "-");
        sb_printf(&file, "%.8s", h->s[i].machine);
        if (h->s[i].workload) {
            sb_puts(&file, "-");
            name_part(&file, h->s[i].workload);
        }
        if (h->s[i].device) {
            sb_puts(&file, "-");
            name_part(&file, h->s[i].device);
        }
        sb_puts(&file, ".png");
        chart(h, i, j, file.s, &sc);
        if (names)
            sb_printf(names, "%s\n", file.s);
        sb_free(&file);
        drawn++;
        i = j;
    }
    char *path = xasprintf("%s/history.gp", dir);
    int rc = write_file_atomic(path, sc.s, sc.len);
    if (rc < 0)
        snprintf(err, len, "cannot write %s", path);
    else if (gp_run(gp, dir, "history.gp", 120, err, len) < 0)
        rc = -1;
    free(path);
    sb_free(&sc);
    free(gp);
    return rc < 0 ? -1 : drawn;
}
