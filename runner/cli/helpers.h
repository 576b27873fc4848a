/* helpers.h - what several commands share, with its messages: loading an
 * experiment file, the run folders a RUN_DIR argument stands for, and
 * drawing a saved run again.  Command-line code: it prints to stderr. */
#ifndef RUNNER_HELPERS_H
#define RUNNER_HELPERS_H

#include "cli/cli.h"
#include "experiment/config.h"
#include "exec/load_file.h"

/* What --filter, --shard and --allow-unsafe-lua ask of the loading. */
load_opts cli_load_opts(const cli *c);
/* Loads an experiment file (experiment_load_file), printing its errors and
 * warnings; NULL on error. */
experiment *load_experiment(const char *path, const load_opts *o);

/* The run folders `arg` stands for (rundir_find_runs), appended to *runs
 * (free with free_runs); -1 with a message on stderr when none. */
int resolve_runs(const char *arg, char ***runs, int *nruns);
void free_runs(char **runs, int n);

/* Prints what a library module had to say (its notes) on stderr, and
 * empties them. */
void print_notes(strbuf *notes);

/* Draws the charts of a saved run again (README "Plots and reports"): with
 * the experiment the run saved, or from its trials table alone (said in a
 * note unless quiet); spec, when given, restyles them (plot --config).
 * An existing report.md is rewritten to match.  EXIT_OK, or
 * EXIT_TRIALS_FAILED when a chart was not drawn. */
int draw_run(const char *run_dir, const experiment *spec, int quiet);
/* The same with the charts of a plots-only file (plot --config, README
 * "Plots and reports") read against the run's saved experiment; EXIT_INVALID
 * (the errors printed) when that file is wrong or the run saved none. */
int draw_run_plots_file(const char *run_dir, const char *path, int quiet);

#endif
