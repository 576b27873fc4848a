/* compare_format.h - a comparison (compare.h) as text with aligned columns,
 * markdown, CSV or JSON (doc/compare.md#comparing-runs).  Library code: it
 * writes into a strbuf. */
#ifndef RUNNER_COMPARE_FORMAT_H
#define RUNNER_COMPARE_FORMAT_H
/* public header of runner/results/report/ */

#include "base/util.h"
#include "results/report/compare.h"

/* Appends R to out in opt->format: "text", "md", "csv" or "json"
 */
void compare_format(const compare_report *R, strbuf *out);

#endif
