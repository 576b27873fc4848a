/* plot_ceilings.h - the hardware's limits on the charts (doc/ceilings.md):
 * a throughput chart's ceiling lines, one per device the chart shows, and
 * the roofline chart, each from the ceilings the run's the run's metadata (rundir) recorded. */
#ifndef RUNNER_REPORT_PLOT_CEILINGS_H
#define RUNNER_REPORT_PLOT_CEILINGS_H
/* internal header of runner/results/report/: other folders may not include it */

#include "base/util.h"
#include "results/report/chart_axes.h"
#include "results/report/plot_model.h"

#define CEILING_LINES_MAX 8

typedef struct ceiling_line {
    double value;   /* in the chart's unit: GFLOP/s or GB/s */
    char label[96]; /* "cpu fp32 ceiling (measured): 118 GFLOP/s" */
    char colour[16];
} ceiling_line;

/* The ceilings of the devices a throughput chart's curves ran on (y is
 * gflops or gbps); the count. */
int chart_ceiling_lines(const run_model *m, const chart_data *d, ceiling_line *out, int max);

/* The roofline (doc/ceilings.md#the-roofline): arithmetic intensity
 * (flops / bytes) against GFLOP/s, log-log, a roof per device, each trial a
 * point labelled by its size.  Fills the parts of the chart's script. */
void roofline_parts(const run_model *m, const chart_data *d, const palette *pal, strbuf *data,
                    strbuf *axes, strbuf *marks, strbuf *plot, char **xlabel, char **ylabel);

#endif
