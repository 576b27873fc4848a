/* history_chart.c - see history_chart.h (doc/history.md#charts). */
#include "results/history/history_chart.h"

#include "results/report/plot_gp.h"

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

/* One chart: the drawable series of [from, to) of h, into the script. */
static void chart(const history_set *h, int from, int to, const char *file, strbuf *sc)
{
    const history_series *f = &h->s[from];
    for (int i = from; i < to; i++) {
        if (!drawable(h, i))
            continue;
        sb_printf(sc, "$s%d << EOD\n", i);
        for (int k = 0; k < h->s[i].npts; k++) {
            const history_point *p = &h->s[i].pts[k];
            if (!isfinite(p->median))
                continue;
            double lo = isfinite(p->ci_low) ? p->ci_low : p->median;
            double hi = isfinite(p->ci_high) ? p->ci_high : p->median;
            sb_printf(sc, "%d %.9g %.9g %.9g\n", k + 1, p->median, lo, hi);
        }
        sb_puts(sc, "EOD\n");
    }
    sb_puts(sc, "set output ");
    gp_quote(sc, file, 0);
    strbuf title = {0};
    sb_printf(&title, "%s: %s%s%s on machine %.8s", f->experiment, f->workload ? f->workload : "",
              f->device ? " on " : "", f->device ? f->device : "", f->machine);
    sb_puts(sc, "\nset title ");
    gp_quote(sc, title.s, 200);
    sb_free(&title);
    sb_puts(sc, "\nunset arrow\nunset label\n");
    int a = 1;
    for (int i = from; i < to; i++)
        for (int k = 0; k < h->s[i].ncps; k++) {
            const changepoint *c = &h->s[i].cps[k];
            sb_printf(sc, "set arrow %d from %.1f, graph 0 to %.1f, graph 1 nohead dt 2 lc rgb "
                          "'#c00000'\n",
                      a, c->at + 0.5, c->at + 0.5);
            sb_printf(sc, "set label %d '%+.1f%%' at %.1f, graph 0.97 left textcolor rgb '#c00000'\n",
                      a++, 100 * c->step, c->at + 0.7);
        }
    sb_puts(sc, "plot ");
    for (int i = from, first = 1; i < to; i++) {
        if (!drawable(h, i))
            continue;
        int lc = (i - from) % 8 + 1;
        sb_printf(sc, "%s$s%d using 1:3:4 with filledcurves fs transparent solid 0.15 lc %d "
                      "notitle, $s%d using 1:2 with linespoints pt 7 ps 0.6 lc %d title ",
                  first ? "" : ", ", i, lc, i, lc);
        first = 0;
        gp_quote(sc, h->s[i].key, 60);
    }
    sb_puts(sc, "\n");
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
                 /* whole runs on x; times in their unit on y, as the run's
                  * own charts show them (not 0.00000010) */
                 "set xtics 1\nset format y '%.0s %cs'\n"
                 "set ylabel 'median time, 95 % CI band'\nset logscale y\n"
                 "set key outside bottom center horizontal font ',9' noenhanced\n"
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
