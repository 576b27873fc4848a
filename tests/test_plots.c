/* test_plots.c - charts (gnuplot) from the hand-made run in
 * tests/fixtures/matmul_run (CPU and CUDA trials, one failed, one timed out,
 * two skipped, one noisy): the default charts, plot keys, device time, axes.
 * Each test works on its own copy of the fixture. */
#include "plots_fixture.h"
#include "runproc.h"
#include "experiment/config.h"
#include "results/report/plot_crossover.h"
#include "results/report/plot_gp.h"
#include "results/report/plot_model.h"
#include "results/report/plot_render.h"
#include "results/report/plots.h"

#include <criterion/criterion.h>
#include <dirent.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static experiment *parse(const char *text)
{
    diags d = {0};
    experiment *e = experiment_parse("test.yaml", text, strlen(text), &d);
    if (!e)
        diag_print(&d, stderr);
    diag_free(&d);
    cr_assert_not_null(e, "the test's experiment does not parse");
    return e;
}

static experiment *load_fixture_experiment(const char *dir)
{
    char p[4096];
    snprintf(p, sizeof p, "%s/experiment.yaml", dir);
    diags d = {0};
    experiment *e = experiment_load(p, &d);
    if (!e)
        diag_print(&d, stderr);
    diag_free(&d);
    cr_assert_not_null(e, "the fixture's experiment.yaml does not load");
    return e;
}

/* --- charts ------------------------------------------------------------ */

Test(plots, default_charts_from_the_fixture)
{
    char *d = fixture_copy(NULL);
    experiment *e = load_fixture_experiment(d);
    int n = plots_render_run(d, e, 1, NULL);
    cr_assert_eq(n, 4, "drew %d charts", n);
    assert_chart(d, "time");
    assert_chart(d, "speedup");
    assert_chart(d, "throughput");
    assert_chart(d, "breakdown");
    cr_assert(!exists(d, "plots/bar.png"));
    /* time: exactly the CPU / GPU / GPU no IO curves (a linked axis counts once) */
    char *gp = file_in(d, "plots/time.gp");
    cr_assert(strstr(gp, "title 'CPU'") && strstr(gp, "title 'GPU'") &&
              strstr(gp, "title 'GPU no IO'"));
    cr_assert_null(strstr(gp, "$s3"), "more curves than CPU / GPU / GPU no IO");
    cr_assert_null(strstr(gp, "device=cuda"));
    cr_assert(strstr(gp, "set logscale x 2") && strstr(gp, "set logscale y"), "not log-log");
    cr_assert(strstr(gp, "yerrorlines"), "no min..max error bars");
    free(gp);
    gp = file_in(d, "plots/speedup.gp");
    /* speedup: crossings marked, a line at 1, the CPU curve not drawn */
    cr_assert(strstr(gp, "'GPU faster from n = 256'"), "no crossover label:\n%s", gp);
    /* 1.01x faster at 64: within the minimum effect, marked from 128 */
    cr_assert(strstr(gp, "'GPU no IO faster from n = 128'"), "%s", gp);
    cr_assert(strstr(gp, "1 with lines"));
    cr_assert_null(strstr(gp, "title 'CPU'"));
    free(gp);
    /* failed and skipped trials are left out, not drawn as zeros: one data
     * line per ok trial (23 of 27) */
    gp = file_in(d, "plots/time.gp");
    int lines = 0, in = 0;
    for (char *l = strtok(gp, "\n"); l; l = strtok(NULL, "\n")) {
        if (strstr(l, " << EOD"))
            in = 1;
        else if (!strcmp(l, "EOD"))
            in = 0;
        else if (in) {
            lines++;
            cr_assert_null(strstr(l, " 0 "), "a zero in '%s'", l);
        }
    }
    cr_assert_eq(lines, 23);
    free(gp);
    experiment_free(e);
    free(d);
}

Test(plots, same_colour_for_a_series_on_every_chart)
{
    char *d = fixture_copy(NULL);
    experiment *e = load_fixture_experiment(d);
    cr_assert_eq(plots_render_run(d, e, 1, NULL), 4);
    const char *charts[] = {"plots/time.gp", "plots/speedup.gp", "plots/throughput.gp"};
    char colour[3][16] = {{0}};
    for (int i = 0; i < 3; i++) {
        char *gp = file_in(d, charts[i]);
        /* the style of the 'GPU' curve: "... lc rgb '#XXXXXX' ... title 'GPU' noenhanced" */
        char *t = strstr(gp, "title 'GPU' noenhanced");
        cr_assert_not_null(t, "%s has no GPU curve", charts[i]);
        char *lc = NULL;
        for (char *p = gp; (p = strstr(p, "lc rgb '")) && p < t; p++)
            lc = p;
        cr_assert_not_null(lc);
        memcpy(colour[i], lc + 8, 7);
        free(gp);
    }
    cr_assert_str_eq(colour[0], colour[1]);
    cr_assert_str_eq(colour[0], colour[2]);
    experiment_free(e);
    free(d);
}

static const char every_type[] =
    "name: matmul\n"
    "workload: matmul\n"
    "params: {dtype: f32}\n" FIXTURE_SWEEP "plots:\n"
    "  - {name: l, type: line, x: size, y: mean, series: [target], where: {size: {min: 64}},\n"
    "     logx: true, logy: false, title: Mean time}\n"
    "  - {name: s, type: speedup, baseline: {device: cpu}, logy: true}\n"
    "  - {name: t, type: throughput, y: gflops}\n"
    "  - {name: b, type: breakdown}\n"
    "  - {name: c, type: bar, x: target, series: size, where: {size: [256, 1024]}}\n";

Test(plots, every_chart_type)
{
    char *d = fixture_copy(NULL);
    experiment *e = parse(every_type);
    cr_assert_eq(plots_render_run(d, e, 1, NULL), 5);
    const char *stems[] = {"l", "s", "t", "b", "c"};
    for (int i = 0; i < 5; i++)
        assert_chart(d, stems[i]);
    char *gp = file_in(d, "plots/l.gp");
    cr_assert(strstr(gp, "'Mean time'"));
    cr_assert_null(strstr(gp, "\n32 "), "where: size >= 64 kept size 32");
    cr_assert_null(strstr(gp, "set logscale y"), "logy: false ignored");
    free(gp);
    gp = file_in(d, "plots/c.gp");
    cr_assert(strstr(gp, "title 'size=256'") && strstr(gp, "title 'size=1024'"));
    cr_assert(strstr(gp, "'GPU no IO'"), "the categories are not the x tics");
    free(gp);
    experiment_free(e);
    free(d);
}

/* Keeps the fixture's rows of one size: no numeric swept key is left. */
Test(plots, bar_chart_when_x_is_categorical)
{
    char *d = fixture_copy(NULL);
    char p[4096];
    snprintf(p, sizeof p, "%s/trials.csv", d);
    char *all = slurp(p, NULL);
    FILE *f = fopen(p, "w");
    int line = 0;
    for (char *s = strtok(all, "\n"); s; s = strtok(NULL, "\n"), line++)
        if (line == 0 || strstr(s, ",256,matmul,"))
            fprintf(f, "%s\n", s);
    fclose(f);
    free(all);
    experiment *e = parse("name: matmul\n"
                          "workload: matmul\n"
                          "size: 256\n"
                          "sweep:\n" FIXTURE_TARGETS);
    int n = plots_render_run(d, e, 1, NULL);
    cr_assert(n >= 1);
    assert_chart(d, "bar");
    cr_assert(!exists(d, "plots/time.png"), "a time chart over a categorical x");
    experiment_free(e);
    free(d);
}

/* Titles and series labels reach gnuplot as data: nothing in them runs. */
Test(plots, injection_in_titles_and_labels_runs_nothing)
{
    char *d = fixture_copy(NULL);
    char yaml[8192];
    snprintf(yaml, sizeof yaml,
             "name: matmul\n"
             "workload: matmul\n" FIXTURE_SWEEP "plots:\n"
             "  - name: a\n"
             "    title: \"x' . system(\\\"touch %s/M1\\\") . '\"\n"
             "  - name: b\n"
             "    title: \"`touch %s/M2` @mac \\\\ \\\"; set output '/tmp/x'\\n"
             "EOD\\n"
             "system('touch %s/M3')\"\n"
             "  - name: c\n"
             "    type: speedup\n"
             "    baseline: {device: cpu}\n"
             "    title: \"'; system('touch %s/M4'); '\"\n",
             d, d, d, d);
    experiment *e = parse(yaml);
    /* a series label with the same tricks, through trials.csv */
    char p[4096];
    snprintf(p, sizeof p, "%s/trials.csv", d);
    char *csv = slurp(p, NULL);
    char label[2048];
    snprintf(label, sizeof label,
             "\"GPU' . system(\"\"touch %s/M5\"\") . '`touch %s/M6`;\nEOD\n@x \\\"", d, d);
    FILE *f = fopen(p, "w");
    for (char *s = csv; *s;) {
        if (!strncmp(s, "GPU no IO,", 10)) {
            fputs(label, f);
            s += 9;
        } else {
            fputc(*s++, f);
        }
    }
    fclose(f);
    free(csv);
    int n = plots_render_run(d, e, 1, NULL);
    cr_assert_eq(n, 3, "drew %d charts", n);
    assert_png(d, "a");
    assert_png(d, "b");
    assert_png(d, "c");
    static const char *const markers[] = {"M1", "M2", "M3", "M4", "M5", "M6"};
    for (int i = 0; i < 6; i++) {
        char m[64];
        cr_assert(!exists(d, markers[i]), "marker %s exists: a title ran a command", markers[i]);
        snprintf(m, sizeof m, "plots/%s", markers[i]);
        cr_assert(!exists(d, m), "marker %s exists: a title ran a command", markers[i]);
    }
    /* every datablock line "EOD" is one the runner wrote */
    char *gp = file_in(d, "plots/c.gp");
    int blocks = 0, ends = 0;
    for (char *s = gp; (s = strstr(s, " << EOD\n")); s++)
        blocks++;
    for (char *s = gp; (s = strstr(s, "\nEOD\n")); s++)
        ends++;
    cr_assert_eq(ends, blocks);
    free(gp);
    experiment_free(e);
    free(d);
}

Test(plots, missing_gnuplot_returns_cleanly)
{
    setenv("RUNNER_GNUPLOT", "/nonexistent/gnuplot", 1);
    char *d = fixture_copy(NULL);
    experiment *e = load_fixture_experiment(d);
    int n = plots_render_run(d, e, 1, NULL);
    unsetenv("RUNNER_GNUPLOT");
    cr_assert_eq(n, -1);
    cr_assert(exists(d, "plots/time.gp"), "the scripts should still be written");
    cr_assert(!exists(d, "plots/time.png"));
    cr_assert(exists(d, "trials.csv"));
    experiment_free(e);

    proc pr;
    run_bin(&pr, d, "RUNNER_GNUPLOT=/nonexistent/gnuplot", (char *[]){"plot", d, NULL});
    cr_assert_eq(pr.status, 1, "exit %d: %s", pr.status, pr.err);
    cr_assert(strstr(pr.err, "apt-get install gnuplot-nox"), "%s", pr.err);
    free(d);
}

static const char fixture_head[] = "name: matmul\n"
                                   "workload: matmul\n" FIXTURE_SWEEP;

/* The text of file_line_col errors for a file (NULL: it parsed). */
static char *parse_errors(const char *text)
{
    diags d = {0};
    experiment *e = experiment_parse("exp.yaml", text, strlen(text), &d);
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    diag_print(&d, m);
    fclose(m);
    diag_free(&d);
    if (e) {
        experiment_free(e);
        free(buf);
        return NULL;
    }
    return buf;
}

Test(plots, title_xlabel_ylabel_legend_reach_the_script)
{
    char *d = fixture_copy(NULL);
    char yaml[4096];
    snprintf(yaml, sizeof yaml,
             "%splots:\n"
             "  - {name: t, x: size, title: My title, xlabel: matrix side, ylabel: kernel time,\n"
             "     legend: top left}\n"
             "  - {name: s, type: speedup, baseline: {device: cpu}, ylabel: times faster,\n"
             "     legend: off}\n"
             "  - {name: g, type: throughput, legend: below}\n"
             "  - {name: plain}\n",
             fixture_head);
    experiment *e = parse(yaml);
    cr_assert_eq(plots_render_run(d, e, 1, NULL), 4);
    char *t = file_in(d, "plots/t.gp"), *sp = file_in(d, "plots/s.gp"),
         *g = file_in(d, "plots/g.gp"), *pl = file_in(d, "plots/plain.gp");
    cr_assert(strstr(t, "set title 'My title'"), "%s", t);
    cr_assert(strstr(t, "set xlabel 'matrix side'"), "%s", t);
    /* a time axis keeps the unit it is drawn in */
    cr_assert(strstr(t, "set ylabel 'kernel time (seconds)'") ||
                  strstr(t, "set ylabel 'kernel time (ms)'"), "%s", t);
    cr_assert(strstr(t, "set key inside left top noenhanced"), "%s", t);
    cr_assert(strstr(sp, "set ylabel 'times faster'"), "%s", sp);
    cr_assert(strstr(sp, "unset key"), "%s", sp);
    cr_assert(strstr(g, "set key below center horizontal noenhanced"), "%s", g);
    /* the defaults: outside right, labels from the columns */
    cr_assert_null(strstr(pl, "unset key"));
    cr_assert_null(strstr(pl, "set key inside"));
    cr_assert(strstr(pl, "set xlabel 'size (n of"), "%s", pl);
    free(t);
    free(sp);
    free(g);
    free(pl);
    experiment_free(e);
    free(d);
}

Test(plots, unknown_plot_key_has_a_did_you_mean)
{
    char yaml[4096];
    snprintf(yaml, sizeof yaml, "%splots:\n  - name: p\n    xlable: n\n    legnd: off\n",
             fixture_head);
    char *err = parse_errors(yaml);
    cr_assert_not_null(err);
    cr_assert(strstr(err, "exp.yaml:11:5: error: unknown key 'xlable' in a plot; did you mean "
                          "'xlabel'?"), "%s", err);
    cr_assert(strstr(err, "exp.yaml:12:5: error: unknown key 'legnd' in a plot; did you mean "
                          "'legend'?"), "%s", err);
    free(err);
}

Test(plots, legend_takes_a_position_or_off)
{
    char yaml[4096];
    snprintf(yaml, sizeof yaml, "%splots:\n  - {name: p, legend: top lef}\n", fixture_head);
    char *err = parse_errors(yaml);
    cr_assert_not_null(err);
    cr_assert(strstr(err, "exp.yaml:10:23: error: 'legend' must be right, below, top left, top "
                          "right, bottom left, bottom right or off, not 'top lef'; did you mean "
                          "'top left'?"), "%s", err);
    free(err);
    snprintf(yaml, sizeof yaml, "%splots:\n  - {name: p, legend: [a]}\n", fixture_head);
    err = parse_errors(yaml);
    cr_assert(err && strstr(err, "'legend' must be a position or off"), "%s", err);
    free(err);
    static const char *const ok[] = {"right", "below", "top left", "top right", "bottom left",
                                     "bottom right", "off", "\"off\""};
    for (int i = 0; i < 8; i++) {
        snprintf(yaml, sizeof yaml, "%splots:\n  - {name: p, legend: %s, xlabel: a, ylabel: b}\n",
                 fixture_head, ok[i]);
        err = parse_errors(yaml);
        cr_assert_null(err, "%s: %s", ok[i], err);
    }
    snprintf(yaml, sizeof yaml, "%splots:\n  - {name: p, xlabel: [a]}\n", fixture_head);
    err = parse_errors(yaml);
    cr_assert(err && strstr(err, "plot key 'xlabel' must be text"), "%s", err);
    free(err);
}

Test(plots, unknown_plot_column_is_a_file_line_col_error)
{
    const char *text = "name: m\nworkload: matmul\nsweep:\n  size: [1, 2]\n"
                       "plots:\n  - name: p\n    x: sizes\n";
    diags d = {0};
    experiment *e = experiment_parse("exp.yaml", text, strlen(text), &d);
    cr_assert_null(e);
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    diag_print(&d, m);
    fclose(m);
    cr_assert(strstr(buf, "exp.yaml:7:8: error: plot 'x': unknown column 'sizes'"), "%s", buf);
    free(buf);
    diag_free(&d);
}

/* --- device time ------------------------------------------------------- */

/* The fixture with device-time columns, as results.c writes them for CUDA
 * trials: device_median is a tenth of the wall median (empty for CPU rows). */
static void add_device_times(const char *dir)
{
    char p[4096];
    snprintf(p, sizeof p, "%s/trials.csv", dir);
    csv_table t;
    cr_assert_eq(csv_read(p, &t), 0);
    int dc = csv_col(&t, "device"), mc = csv_col(&t, "median");
    strbuf b = {0};
    for (int r = 0; r < t.nrows; r++) {
        for (int i = 0; i < t.nfields[r]; i++) {
            if (i)
                sb_putc(&b, ',');
            csv_field(&b, t.rows[r][i]);
        }
        if (r == 0)
            sb_puts(&b, ",device_min,device_median,device_max");
        else if (!strcmp(t.rows[r][dc], "cuda") && *t.rows[r][mc]) {
            double v = atof(t.rows[r][mc]) / 10;
            sb_printf(&b, ",%.9g,%.9g,%.9g", v * 0.9, v, v * 1.1);
        } else
            sb_puts(&b, ",,,");
        sb_putc(&b, '\n');
    }
    csv_free(&t);
    spit(p, b.s);
    sb_free(&b);
}

/* Charts say which time they show; `time: device` (or y: device_median)
 * draws CUDA trials with their device time and CPU trials with their wall
 * time, each legend entry saying which. */
Test(plots, device_time_charts_say_which_time_they_show)
{
    char *d = fixture_copy(NULL);
    add_device_times(d);
    experiment *e =
        parse("name: matmul\n"
              "workload: matmul\n"
              "params: {dtype: f32}\n" FIXTURE_SWEEP "plots:\n"
              "  - {name: wall, type: line}\n"
              "  - {name: dev, type: line, time: device}\n"
              "  - {name: sp, type: speedup, baseline: {device: cpu}, y: device_median}\n"
              "  - {name: gpu, type: line, time: device, where: {device: cuda}}\n");
    cr_assert_eq(plots_render_run(d, e, 1, NULL), 4);
    char *gp = file_in(d, "plots/wall.gp");
    cr_assert(strstr(gp, "'median wall time (seconds)'"), "%s", gp);
    cr_assert(strstr(gp, "title 'GPU no IO' noenhanced"));
    free(gp);
    gp = file_in(d, "plots/dev.gp");
    cr_assert(strstr(gp, "median time: device (CUDA events) where measured, else wall"), "%s", gp);
    cr_assert(strstr(gp, "title 'GPU no IO (device time)'") &&
              strstr(gp, "title 'CPU (wall time)'"), "%s", gp);
    free(gp);
    gp = file_in(d, "plots/gpu.gp");
    cr_assert(strstr(gp, "'median device time (CUDA events) (seconds)'"), "%s", gp);
    cr_assert(strstr(gp, "title 'GPU no IO' noenhanced"), "one kind of time: plain legend");
    free(gp);
    gp = file_in(d, "plots/sp.gp");
    cr_assert(strstr(gp, "speedup (x), device time where measured, else wall"), "%s", gp);
    free(gp);

    /* the values: a GPU no IO trial is drawn at its device median */
    run_model m;
    char err[256];
    cr_assert_eq(pm_load(&m, d, e, err, sizeof err), 0, "%s", err);
    chart_spec *cs;
    char warn[256];
    int n = pm_file_charts(&m, e, &cs, warn, sizeof warn);
    cr_assert_eq(n, 4, "%s", warn);
    cr_assert(cs[1].device_time && !cs[0].device_time && cs[2].device_time);
    chart_data cd;
    cr_assert_gt(pm_chart_data(&m, &cs[1], &cd), 0);
    cr_assert_eq(cd.time_kind, 2);
    int checked = 0;
    for (int c = 0; c < cd.ncurves; c++)
        for (int i = 0; i < cd.curves[c].n; i++) {
            const pm_point *p = &cd.curves[c].p[i];
            int dev = !strcmp(pm_cell(&m, p->row, m.c_device), "cuda");
            double want = pm_num(&m, p->row, dev ? m.c_dev_median : m.c_median);
            cr_assert_float_eq(p->y, want, 1e-12 * want, "row %d", p->row);
            if (dev)
                cr_assert_float_eq(p->hi, pm_num(&m, p->row, m.c_dev_max), 1e-15);
            checked++;
        }
    cr_assert_gt(checked, 10);
    chart_data_free(&cd);
    for (int i = 0; i < n; i++)
        chart_spec_free(&cs[i]);
    free(cs);
    pm_free(&m);
    experiment_free(e);
    free(d);
}

/* `time` is checked like every plot key. */
Test(plots, time_key_is_checked)
{
    const char *bad[] = {
        "workload: noop\nplots:\n  - {name: a, time: cpu}\n",
        "workload: noop\nplots:\n  - {name: a, type: throughput, time: device}\n",
        "workload: noop\nplots:\n  - {name: a, y: mean, time: device}\n",
        "workload: noop\nplots:\n  - {name: a, y: device_median, time: wall}\n",
    };
    const char *msg[] = {"'time' must be wall or device, not 'cpu'",
                         "'time' is for line, bar and speedup charts",
                         "'time: device' draws the median; it cannot go with y: mean",
                         "'time: wall' draws the median; it cannot go with y: device_median"};
    for (int i = 0; i < 4; i++) {
        diags dg = {0};
        experiment *e = experiment_parse("t.yaml", bad[i], strlen(bad[i]), &dg);
        cr_assert_null(e, "case %d parsed", i);
        int found = 0;
        for (int k = 0; k < dg.n; k++)
            found |= strstr(dg.items[k].msg, msg[i]) != NULL;
        cr_assert(found, "case %d: no '%s' (%s)", i, msg[i], dg.n ? dg.items[0].msg : "");
        diag_free(&dg);
    }
    experiment *e = parse("workload: noop\nplots:\n  - {name: a, y: device_median}\n"
                          "  - {name: b, time: device}\n  - {name: c, time: wall}\n");
    cr_assert_str_eq(e->plots[1].y, "device_median");
    cr_assert_str_eq(e->plots[2].y, "median");
    experiment_free(e);
}

/* logx and logy (doc/results.md#plots-and-reports): true forces a log axis, false
 * a linear one, whatever the default would be. */
Test(plots, logx_and_logy_force_the_axes)
{
    char *d = fixture_copy(NULL);
    experiment *e = parse("name: m\n"
                          "workload: matmul\n" FIXTURE_SWEEP "plots:\n"
                          "  - {name: loglog, x: size, logx: true, logy: true}\n"
                          "  - {name: linlin, x: size, logx: false, logy: false}\n"
                          "  - {name: auto, x: size}\n");
    cr_assert_eq(plots_render_run(d, e, 1, NULL), 3);
    char *gp = file_in(d, "plots/loglog.gp");
    cr_assert(strstr(gp, "set logscale x") && strstr(gp, "set logscale y"), "%s", gp);
    free(gp);
    gp = file_in(d, "plots/linlin.gp");
    cr_assert(!strstr(gp, "set logscale x") && !strstr(gp, "set logscale y"), "%s", gp);
    free(gp);
    /* the default: sizes 16..4096 and times over 10x apart are log-log */
    gp = file_in(d, "plots/auto.gp");
    cr_assert(strstr(gp, "set logscale x") && strstr(gp, "set logscale y"), "%s", gp);
    free(gp);
    experiment_free(e);
    free(d);
}
