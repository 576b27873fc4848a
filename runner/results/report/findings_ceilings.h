/* findings_ceilings.h - what report.md's findings say of the ceilings and
 * the energy (doc/ceilings.md): how close each series came to its ceiling,
 * and which device does the work for fewer joules. */
#ifndef RUNNER_REPORT_FINDINGS_CEILINGS_H
#define RUNNER_REPORT_FINDINGS_CEILINGS_H
/* internal header of runner/results/report/: other folders may not include it */

#include "base/util.h"
#include "results/report/plot_model.h"

/* Appends Markdown list items: per series its best pct_of_peak and from
 * where it holds; the devices' joules per call compared. */
void ceiling_findings(strbuf *b, const run_model *m);

#endif
