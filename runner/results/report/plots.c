/* plots.c - the charts of a run (doc/results.md#plots-and-reports), drawn by gnuplot.
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
 * Safety: text from the experiment file or the trials table reaches the script
 * only as gnuplot single-quoted strings (gp_quote) and only with the
 * `noenhanced` flag; datablocks hold numbers only. */
#include "results/report/plots.h"

#include "results/report/chart_script.h"
#include "results/report/plot_crossover.h"
#include "results/report/plot_gp.h"
#include "results/report/plot_model.h"
#include "results/report/plot_warmup.h"
#include "results/report/plot_render.h"
#include "results/rundir/rundir.h"
#include "base/util.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define GP_TIMEOUT 120.0

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
                      int *failed, strbuf *notes)
{
    int nfailed = 0;
    if (failed)
        *failed = 0;
    run_model m;
    char err[1024];
    if (pm_load(&m, run_dir, e, err, sizeof err) < 0) {
        notes_printf(notes, "runner: %s\n", err);
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
            notes_printf(notes, "runner: %s\n", warn);
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
    palette_sort(&pal);

    char *dir = rundir_path(run_dir, RD_PLOTS);
    if (mkdir(dir, 0777) < 0 && errno != EEXIST) {
        notes_printf(notes, "runner: cannot create %s: %s\n", dir, strerror(errno));
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
                notes_printf(notes, "runner: chart '%s': no ok trials to draw; left out\n", s->name);
            if (!s->is_default)
                nfailed++;
            continue;
        }
        int builtin = 0;
        char *text = chart_script(&m, s, &data[i], &pal, &builtin);
        if (builtin && !warned_builtin++)
            notes_printf(notes,
                    "runner: the chart templates (plots/*.gp) were not found; using the built-in "
                    "style (set RUNNER_PLOT_TEMPLATES to their folder)\n");
        char *stem = chart_stem(s->name);
        char *gp = xasprintf("%s/%s.gp", dir, stem);
        char *gpname = xasprintf("%s.gp", stem);
        if (write_text(gp, text) < 0) {
            notes_printf(notes, "runner: cannot write %s: %s\n", gp, strerror(errno));
            nfailed++;
        } else if (prog) {
            char gerr[1024];
            char *png = xasprintf("%s/%s.png", dir, stem);
            char *svg = xasprintf("%s/%s.svg", dir, stem);
            clear_output(png);
            clear_output(svg);
            free(svg);
            if (gp_run(prog, dir, gpname, GP_TIMEOUT, gerr, sizeof gerr) < 0) {
                notes_printf(notes, "runner: chart '%s' (%s): %s\n", s->name, gp, gerr);
                nfailed++;
            } else if (!valid_png(png)) {
                notes_printf(notes, "runner: chart '%s': gnuplot wrote no PNG (%s)\n", s->name, png);
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
        notes_printf(notes,
                "runner: gnuplot not found (%s); the charts were not drawn, the results are "
                "saved.\n"
                "  install it (Debian/Ubuntu): apt-get install gnuplot-nox\n"
                "  then draw them with: runner plot %s   (scripts: %s/*.gp)\n",
                env && *env ? "RUNNER_GNUPLOT names no program" : "not on PATH", run_dir, dir);
        rc = -1;
    } else if (drawn > 0 && !quiet) {
        notes_printf(notes, "charts: %s in %s\n", names.s, dir);
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

int plots_render_run(const char *run_dir, const experiment *e, int quiet, strbuf *notes)
{
    return plots_render_spec(run_dir, e, NULL, quiet, NULL, notes);
}
