/* cmd_export.c - `runner export RUN_DIR --format json|csv`: the trials of
 * one run with their samples on stdout (doc/results.md#results).  RUN_DIR is
 * resolved as `runner plot` and `report` do (an experiment folder stands for
 * its latest run). */
#include "cli/commands.h"
#include "cli/load.h"
#include "results/rundir/export.h"

#include <stdio.h>
#include <stdlib.h>

int cmd_export(const cli *c)
{
    char **runs = NULL;
    int nruns = 0;
    if (resolve_runs(c->files[0], &runs, &nruns) < 0) {
        free_runs(runs, nruns);
        return EXIT_INVALID;
    }
    if (nruns != 1) {
        fprintf(stderr, "runner: export: %s stands for %d runs; give one run folder\n", c->files[0],
                nruns);
        free_runs(runs, nruns);
        return EXIT_INVALID;
    }
    char err[4096];
    char *text = export_run(runs[0], c->format, err, sizeof err);
    free_runs(runs, nruns);
    if (!text) {
        fprintf(stderr, "runner: export: %s\n", err);
        return EXIT_INVALID;
    }
    int rc = fputs(text, stdout) < 0 || fflush(stdout) != 0 ? EXIT_TRIALS_FAILED : EXIT_OK;
    if (rc)
        fprintf(stderr, "runner: export: cannot write the output\n");
    free(text);
    return rc;
}
