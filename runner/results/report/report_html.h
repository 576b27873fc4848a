/* report_html.h - RUN_DIR/report.html (doc/results.md#plots-and-reports): the
 * same environment and findings as report.md, every chart inlined as SVG,
 * and the trials with all their columns in a table sorted by a click on a
 * column's header.  One file: no network, no JavaScript framework. */
#ifndef RUNNER_REPORT_HTML_H
#define RUNNER_REPORT_HTML_H
/* internal header of runner/results/report/: other folders may not include it */

#include "plot_model.h"

#include <stddef.h>

/* The charts of RUN_DIR/plots (the stems of the NAME.png files), in the
 * order the reports show them: time, bar, speedup, throughput, breakdown,
 * warmup, then the others by name.  Returns their number; *out (malloc'd, each name
 * too) is NULL when there are none. */
int report_chart_names(const char *run_dir, char ***out);

/* Writes RUN_DIR/report.html: `md_head` (report.md's title, environment and
 * findings, Markdown) and `md_tail` (a closing note, Markdown, may be empty)
 * rendered as HTML around the charts and the trials table of `m`.  0, or -1
 * with the reason in err. */
int report_html_write(const char *run_dir, const run_model *m, const char *md_head,
                      const char *md_tail, char *err, size_t errlen);

#endif
