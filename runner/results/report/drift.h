/* drift.h - how far the machine moved during a run, as its interleaved
 * rounds show it (doc/results.md#plots-and-reports, Drift). */
#ifndef RUNNER_DRIFT_H
#define RUNNER_DRIFT_H
/* internal header of runner/results/report/: other folders may not include it */

#include "base/util.h"
#include "results/report/plot_model.h"

enum { DRIFT_MIN_TRIALS = 2, DRIFT_MIN_ROUNDS = 3 };
/* Rounds within this ratio (slowest over fastest): the machine held steady. */
#define DRIFT_STEADY 1.05
/* Rounds this far apart or more explain the spread of the run's
 * interleaved trials (the report's advice for them names the drift). */
#define DRIFT_NOISY 1.10

/* For each round of the run's ok interleaved trials, the median over them
 * of the round's sample over its trial's median. */
typedef struct drift {
    int trials;    /* ok interleaved trials */
    int rounds;    /* round[0..rounds-1]; NAN where fewer than DRIFT_MIN_TRIALS had it */
    int judged;    /* rounds with a value */
    int lo, hi;    /* the fastest and the slowest round */
    double *round;
} drift;

/* Measures run m's drift from its samples table (m->dir).  Nothing to say
 * (judged < DRIFT_MIN_ROUNDS) with fewer than DRIFT_MIN_TRIALS ok interleaved
 * trials, DRIFT_MIN_ROUNDS rounds, or a samples table that cannot be read:
 * the rest of the report stands. */
void drift_measure(const run_model *m, drift *d);
/* The slowest round over the fastest; NAN when there is nothing to say. */
double drift_spread(const drift *d);
/* Appends the Drift paragraph of the report to b (nothing when there is
 * nothing to say). */
void drift_write(strbuf *b, const drift *d);
void drift_free(drift *d);

#endif
