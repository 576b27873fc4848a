/* findings.h - the Findings section of report.md and report.html
 * (doc/results.md#plots-and-reports). */
#ifndef RUNNER_FINDINGS_H
#define RUNNER_FINDINGS_H
/* internal header of runner/results/report/: other folders may not include it */

#include "base/util.h"
#include "experiment/experiment.h"
#include "results/report/drift.h"
#include "results/report/plot_model.h"

/* Appends the findings of run m (e: its experiment, may be NULL; dr: its
 * drift over interleaved rounds, may be NULL) as Markdown list items and
 * sections. */
void report_findings(strbuf *b, const run_model *m, const experiment *e, const drift *dr);

#endif
