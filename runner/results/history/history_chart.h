/* history_chart.h - trend charts of the history (doc/history.md#charts):
 * one chart per experiment, machine, workload and device, each trial key a
 * line of its medians over the runs divided by its own baseline (a linear
 * axis, the noise band around 1), labelled by the parts of its key that vary,
 * in numeric order, the change points marked; drawn with gnuplot through results/report/plot_gp.h (its quoting,
 * no shell).  Library code: reasons come back in err. */
#ifndef RUNNER_HISTORY_CHART_H
#define RUNNER_HISTORY_CHART_H
/* public header of runner/results/history/ */

#include "base/util.h"
#include "results/history/history_query.h"

/* Draws the charts of h into dir (created), NAME.png each; the file names
 * (relative to dir) are appended to names, one a line (may be NULL).
 * The number drawn, or -1 with the reason in err (gnuplot missing or
 * failing, dir not writable). */
int history_charts(const history_set *h, const char *dir, strbuf *names, char *err, size_t len);

#endif
