/* plots.h - charts with gnuplot (doc/results.md#plots-and-reports) and report.md. */
#ifndef RUNNER_PLOTS_H
#define RUNNER_PLOTS_H
/* public header of runner/results/report/ */

#include "base/util.h"
#include "experiment/config.h"

/* Draws every chart of a finished run into RUN_DIR/plots/.  Returns the
 * number of charts drawn, or -1 when gnuplot is missing (results stay).
 * What the user should read (warnings, the charts drawn) goes to notes,
 * one line each (may be NULL); this module prints nothing. */
int plots_render_run(const char *run_dir, const experiment *e, int quiet, strbuf *notes);
/* Writes RUN_DIR/report.md and report.html from the saved results; 0, or
 * -1 with the reason in notes (may be NULL), where the lines to print go. */
int report_write(const char *run_dir, int quiet, strbuf *notes);

#endif
