/* cmd_plot.c - `runner plot RUN_DIR ... [--config FILE]` and
 * `runner report RUN_DIR`: both work from the saved results only and run
 * no trial.
 *
 * A RUN_DIR is a run folder (it holds the trials table, doc/results.md#results).
 * A folder without one stands for the latest run of each experiment below
 * it: DIR/latest, or every DIR/<name>/latest (so `runner plot results/`
 * re-draws them all; rundir_find_runs). */
#include "cli/commands.h"
#include "cli/load.h"
#include "cli/notes.h"
#include "cli/redraw.h"
#include "experiment/plots_file.h"
#include "results/report/plots.h"

#include <stdio.h>

/* The run folders the command's RUN_DIRs stand for: 0, or -1 with the
 * messages printed (none given, one that stands for none). */
static int runs_of(const cli *c, const char *cmd, char ***runs, int *nruns)
{
    *runs = NULL;
    *nruns = 0;
    if (c->nfiles < 1) {
        fprintf(stderr, "runner %s: give a run folder (RUN_DIR), e.g. results/matmul/latest\n",
                cmd);
        return -1;
    }
    int bad = 0;
    for (int i = 0; i < c->nfiles; i++)
        bad |= resolve_runs(c->files[i], runs, nruns) < 0;
    return bad ? -1 : 0;
}

int cmd_plot(const cli *c)
{
    char **runs;
    int nruns;
    int bad = runs_of(c, "plot", &runs, &nruns) < 0;
    experiment *spec = NULL;
    /* a file with only `plots:` is read against each run's own experiment */
    int plots_only = !bad && c->config && plots_file_is_plots_only(c->config);
    if (!bad && c->config && !plots_only) {
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
    for (int i = 0; i < nruns; i++) {
        int r = plots_only ? draw_run_plots_file(runs[i], c->config, c->quiet)
                           : draw_run(runs[i], spec, c->quiet);
        if (r == EXIT_INVALID || (r != EXIT_OK && rc == EXIT_OK))
            rc = r;
    }
    free_runs(runs, nruns);
    experiment_free(spec);
    return rc;
}

int cmd_report(const cli *c)
{
    char **runs;
    int nruns;
    if (runs_of(c, "report", &runs, &nruns) < 0) {
        free_runs(runs, nruns);
        return EXIT_INVALID;
    }
    int rc = EXIT_OK;
    for (int i = 0; i < nruns; i++) {
        strbuf notes = {0};
        if (report_write(runs[i], c->quiet, &notes) < 0)
            rc = EXIT_TRIALS_FAILED;
        print_notes(&notes);
    }
    free_runs(runs, nruns);
    return rc;
}
