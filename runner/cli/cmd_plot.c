/* cmd_plot.c - `runner plot RUN_DIR ... [--config FILE]` and
 * `runner report RUN_DIR`: both work from the saved results only and run
 * no trial.
 *
 * A RUN_DIR is a run folder (it holds the trials table, README "Results").
 * A folder without one stands for the latest run of each experiment below
 * it: DIR/latest, or every DIR/<name>/latest (so `runner plot results/`
 * re-draws them all; rundir_find_runs). */
#include "cli/commands.h"
#include "cli/helpers.h"
#include "report/plots.h"

#include <stdio.h>

int cmd_plot(const cli *c)
{
    if (c->nfiles < 1) {
        fprintf(stderr, "runner plot: give a run folder (RUN_DIR), e.g. results/matmul/latest\n");
        return EXIT_INVALID;
    }
    char **runs = NULL;
    int nruns = 0, bad = 0;
    for (int i = 0; i < c->nfiles; i++)
        bad |= resolve_runs(c->files[i], &runs, &nruns) < 0;
    experiment *spec = NULL;
    if (!bad && c->config) {
        diags d = {0};
        spec = experiment_load(c->config, &d);
        if (!spec) {
            diag_print(&d, stderr);
            bad = 1;
        }
        diag_free(&d);
    }
    if (bad) {
        free_runs(runs, nruns);
        experiment_free(spec);
        return EXIT_INVALID;
    }
    int rc = EXIT_OK;
    for (int i = 0; i < nruns; i++)
        if (draw_run(runs[i], spec, c->quiet) != EXIT_OK)
            rc = EXIT_TRIALS_FAILED;
    free_runs(runs, nruns);
    experiment_free(spec);
    return rc;
}

int cmd_report(const cli *c)
{
    if (c->nfiles < 1) {
        fprintf(stderr, "runner report: give a run folder (RUN_DIR), e.g. results/matmul/latest\n");
        return EXIT_INVALID;
    }
    char **runs = NULL;
    int nruns = 0, bad = 0;
    for (int i = 0; i < c->nfiles; i++)
        bad |= resolve_runs(c->files[i], &runs, &nruns) < 0;
    if (bad) {
        free_runs(runs, nruns);
        return EXIT_INVALID;
    }
    int rc = EXIT_OK;
    for (int i = 0; i < nruns; i++)
        if (report_write(runs[i], c->quiet) < 0)
            rc = EXIT_TRIALS_FAILED;
    free_runs(runs, nruns);
    return rc;
}
