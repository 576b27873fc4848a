/* redraw.c - see redraw.h. */
#include "cli/redraw.h"

#include "cli/commands.h"
#include "cli/notes.h"
#include "experiment/plots_file.h"
#include "results/report/plot_model.h"
#include "results/report/plot_render.h"
#include "results/report/plots.h"
#include "results/rundir/rundir.h"

#include <stdio.h>
#include <unistd.h>

/* Draws run_dir's charts with its experiment e (may be NULL), restyled by
 * spec (may be NULL); frees e. */
static int draw(const char *run_dir, experiment *e, const experiment *spec, int quiet)
{
    int failed = 0;
    strbuf notes = {0};
    int n = plots_render_spec(run_dir, e, spec, quiet, &failed, &notes);
    print_notes(&notes);
    /* keep an existing report in step with the charts */
    char *report = rundir_path(run_dir, RD_REPORT);
    if (n >= 0 && access(report, F_OK) == 0) {
        if (report_write(run_dir, 1, &notes) < 0)
            failed = 1; /* a report that cannot be written: exit 1 */
        print_notes(&notes);
    }
    free(report);
    experiment_free(e);
    return n < 0 || failed ? EXIT_TRIALS_FAILED : EXIT_OK;
}

static experiment *saved_experiment(const char *run_dir, int quiet)
{
    char note[1024];
    experiment *e = rundir_read_experiment(run_dir, note, sizeof note);
    if (!e && note[0] && !quiet)
        fprintf(stderr, "runner: note: %s; drawing from %s alone\n", note,
                rundir_name(RD_TRIALS));
    return e;
}

int draw_run(const char *run_dir, const experiment *spec, int quiet)
{
    return draw(run_dir, saved_experiment(run_dir, quiet), spec, quiet);
}

int draw_run_plots_file(const char *run_dir, const char *path, int quiet)
{
    experiment *e = saved_experiment(run_dir, 1);
    if (!e) {
        fprintf(stderr, "runner: %s: the plots file %s needs the run's saved experiment\n",
                run_dir, path);
        return EXIT_INVALID;
    }
    diags d = {0};
    int ok = plots_file_apply(e, path, &d) == 0;
    if (!ok) {
        diag_print(&d, stderr);
        experiment_free(e);
    }
    diag_free(&d);
    return ok ? draw(run_dir, e, NULL, quiet) : EXIT_INVALID;
}
