/* history_noise.h - the run-to-run noise of a compared trial from the
 * history database (doc/compare.md#what-one-run-can-show): with one run a
 * side, `runner compare` sees only the spread inside each run; where the
 * database holds at least HISTORY_NOISE_MIN earlier ok runs of the trial
 * on the same machine (of the same experiment, quiet, not one of the runs
 * compared), their spread is the least a run's centre may vary.  Library
 * code: nothing is printed. */
#ifndef RUNNER_HISTORY_NOISE_H
#define RUNNER_HISTORY_NOISE_H
/* public header of runner/results/history/ */

#include "results/report/compare.h"

#include <sqlite3.h>

#define HISTORY_NOISE_MIN 3     /* the fewest earlier runs whose spread counts */
#define HISTORY_NOISE_WINDOW 10 /* the most recent ones looked at */

typedef struct history_noise history_noise;

/* A lookup over db (which must outlive it). */
history_noise *history_noise_new(sqlite3 *db);
void history_noise_free(history_noise *h);
/* compare_opts.history_noise, with ctx a history_noise: the trial of row c
 * in NEW's first run that has it, looked up by experiment, machine and key;
 * 0 with *sd (of one run's log median), *df and *n, or -1 when the
 * database holds fewer than HISTORY_NOISE_MIN such runs. */
int history_noise_of(void *ctx, const struct compare_report *R, const struct compare_row *c,
                     double *sd, double *df, int *n);

#endif
