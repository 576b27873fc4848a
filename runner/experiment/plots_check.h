/* plots_check.h - a chart of the file that would merge trials into one
 * point (doc/results.md#plots-and-reports): two trials drawn at the same x in the
 * same series that differ in a swept axis (a `bar` chart with `x: threads`
 * and `series: []` over seven sizes) would be drawn as one point with
 * min-max whiskers over all of them.  Checked once the sweep is expanded. */
#ifndef RUNNER_PLOTS_CHECK_H
#define RUNNER_PLOTS_CHECK_H
/* internal header of runner/experiment/: other folders may not include it */

#include "experiment/experiment.h"

/* Adds an error at the plot's `series` (or at the plot) for each chart of
 * e->plots that would merge the values of an axis that is not on x, in
 * series or kept to one value by where, naming that axis. */
void plots_check_merges(const experiment *e, diags *d);

#endif
