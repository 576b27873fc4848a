/* plot_warmup.h - the `warmup` chart (doc/timing.md#the-warmup-curve): the time
 * of each of the first K calls of a fresh worker (the trials table's
 * `first_calls`: K seconds separated by spaces), one curve per trial, call
 * number along x, time along a log y axis; the first-time phases a backend
 * named (`cold_context`, `cold_module`, `cold_blas`, ...) are written on
 * the chart beside its curve's name. */
#ifndef RUNNER_PLOT_WARMUP_H
#define RUNNER_PLOT_WARMUP_H
/* internal header of runner/results/report/: other folders may not include it */

#include "results/report/plot_model.h"

/* The chart's curves (pm_chart_data for CH_WARMUP); the number of points. */
int pm_warmup_data(const run_model *m, const chart_spec *s, chart_data *d);
/* "context creation 213 ms, module load 4.00 ms" for a row's cold_*
 * columns (malloc'd), or NULL when it has none. */
char *pm_warmup_phases(const run_model *m, int row);

#endif
