/* chart_script.h - one chart as a self-contained gnuplot script
 * (doc/results.md#plots-and-reports): text from the experiment file or the trials table
 * reaches it only as gnuplot single-quoted strings (gp_quote), with
 * `noenhanced`; its datablocks hold numbers only. */
#ifndef RUNNER_CHART_SCRIPT_H
#define RUNNER_CHART_SCRIPT_H
/* internal header of runner/results/report/: other folders may not include it */

#include "results/report/chart_axes.h"
#include "results/report/plot_model.h"

char *chart_stem(const char *s);
char *chart_script(const run_model *m, const chart_spec *s, const chart_data *d,
                          const palette *pal, int *builtin);

#endif
