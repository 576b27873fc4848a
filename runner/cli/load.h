/* load.h - loading what a command names, with its messages: an
 * experiment file, and the run folders a RUN_DIR argument stands for.
 * Command-line code: it prints to stderr. */
#ifndef RUNNER_CLI_LOAD_H
#define RUNNER_CLI_LOAD_H
/* internal header of runner/cli/: other folders may not include it */

#include "cli/cli.h"
#include "experiment/load_file.h"
#include "experiment/config.h"

/* What --filter, --shard and --allow-unsafe-lua ask of the loading. */
load_opts cli_load_opts(const cli *c);
/* Loads an experiment file (experiment_load_file), printing its errors and
 * warnings; NULL on error. */
experiment *load_experiment(const char *path, const load_opts *o);

/* The run folders `arg` stands for (rundir_find_runs), appended to *runs
 * (free with free_runs); -1 with a message on stderr when none. */
int resolve_runs(const char *arg, char ***runs, int *nruns);
void free_runs(char **runs, int n);

#endif
