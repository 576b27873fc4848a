/* plots.h - charts with gnuplot (README "Plots and reports") and report.md. */
#ifndef RUNNER_PLOTS_H
#define RUNNER_PLOTS_H

#include "experiment/config.h"

/* Draws every chart of a finished run into RUN_DIR/plots/.  Returns the
 * number of charts drawn, or -1 when gnuplot is missing (results stay). */
int plots_render_run(const char *run_dir, const experiment *e, int quiet);
/* Writes RUN_DIR/report.md from the saved results. */
int report_write(const char *run_dir, int quiet);

#endif
