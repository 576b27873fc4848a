/* compare.h - is the new code faster or slower than the old?  The engine of
 * `runner compare OLD NEW` / `runner compare OLD1 OLD2 ... -- NEW1 NEW2 ...`
 * (doc/compare.md#comparing-runs): runs loaded (compare_load.h), trials matched
 * by their parameters, each pair tested (stats/mannwhitney.h) and
 * judged; compare_format.h writes the verdicts as text, markdown, CSV or
 * JSON.  Library code: reasons come back in strbufs, nothing is printed
 * (cli/cmd_compare.c prints). */
#ifndef RUNNER_COMPARE_H
#define RUNNER_COMPARE_H
/* public header of runner/results/report/ */

#include "base/util.h"
#include "results/report/compare_load.h"
#include "results/report/compare_types.h"

/* Checks opt, loads the runs and compares them into R.  0, or -1 with the
 * reason in err (a bad option, a run folder that cannot be
 * read, naming its path); R is empty then.  opt must outlive R. */
int compare_build(const char *const *old_dirs, int nold, const char *const *new_dirs, int nnew,
                  const compare_opts *opt, compare_report *R, char *err, size_t errlen);
/* Whether trial key `key` says how a trial was measured, not what it ran
 * (repeats, stop, batch, order, workers): left out of matching runs, here
 * and in the history's trial keys (doc/compare.md#comparing-runs). */
int compare_key_measured_how(const char *key);
/* The value of parameter column i in row c. */
const char *compare_param(const compare_report *R, const compare_row *c, int i);
/* How many rows were matched (both sides, or busy or throttled), and how
 * many of them are slower. */
void compare_count(const compare_report *R, int *matched, int *slower);
/* How many rows are inconclusive: `busy` or `throttled`. */
int compare_inconclusive(const compare_report *R);
void compare_free(compare_report *R);

#endif
