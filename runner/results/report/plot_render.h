/* plot_render.h - drawing a run's charts, with the plot specs taken from a
 * file other than the run's own (`runner plot RUN_DIR --config FILE`). */
#ifndef RUNNER_PLOT_RENDER_H
#define RUNNER_PLOT_RENDER_H
/* public header of runner/results/report/ */

#include "base/util.h"
#include "experiment/config.h"

/* Draws the charts of RUN_DIR into RUN_DIR/plots/.  `e` (may be NULL: then
 * inferred from the trials table) describes the run's columns; the charts are the
 * `plots` of `spec` (or of `e` when spec is NULL), or the default charts when
 * that file has none.  Returns the number of charts drawn, or -1 when
 * gnuplot is missing (the scripts are still written).  *failed (may be NULL)
 * counts the charts that could not be drawn or were left out.  The lines to
 * print go to notes (plots.h). */
int plots_render_spec(const char *run_dir, const experiment *e, const experiment *spec, int quiet,
                      int *failed, strbuf *notes);

#endif
