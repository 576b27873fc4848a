/* redraw.h - drawing a saved run's charts again (runner plot, and runner
 * merge once the shards are joined), with its messages.  Command-line
 * code: it prints to stderr. */
#ifndef RUNNER_CLI_REDRAW_H
#define RUNNER_CLI_REDRAW_H
/* internal header of runner/cli/: other folders may not include it */

#include "experiment/experiment.h"

/* Draws the charts of a saved run again (doc/results.md#plots-and-reports): with
 * the experiment the run saved, or from its trials table alone (said in a
 * note unless quiet); spec, when given, restyles them (plot --config).
 * An existing report.md is rewritten to match.  EXIT_OK, or
 * EXIT_TRIALS_FAILED when a chart was not drawn. */
int draw_run(const char *run_dir, const experiment *spec, int quiet);
/* The same with the charts of a plots-only file (plot --config,
 * doc/results.md#plots-and-reports) read against the run's saved experiment; EXIT_INVALID
 * (the errors printed) when that file is wrong or the run saved none. */
int draw_run_plots_file(const char *run_dir, const char *path, int quiet);


#endif
