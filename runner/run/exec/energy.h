/* energy.h - `energy: true` (doc/ceilings.md#energy-per-call): after a
 * trial's timed samples, its call repeated over windows long enough for the
 * device's energy counter (at least 1 s and 10 of the counter's updates),
 * the counter read at the windows' edges, and the joules of one call, the
 * power, the work per joule and the power at rest as columns. */
#ifndef RUNNER_EXEC_ENERGY_H
#define RUNNER_EXEC_ENERGY_H
/* internal header of runner/run/exec/: other folders may not include it */

#include "backend.h"

/* The windows over which the energy is measured. */
#define ENERGY_WINDOWS 3
#define ENERGY_MIN_WINDOW 1.0   /* seconds */
#define ENERGY_MIN_UPDATES 10   /* counter updates a window spans */

/* Joules between two readings of the same counters, each counter's wrap
 * undone (one wrap at most between readings: a window is far shorter than
 * the time a counter takes to wrap). */
double energy_delta(const rn_energy *a, const rn_energy *b);

/* Measures the energy of impl's call on device dev of backend b (NULL: the
 * core runs the workload, which has no counter) and reports the columns
 * through cb; flops and bytes of one call (NAN: unknown).  The calls run in
 * rounds of `batch`, the trial's sample batch, as the timed loop runs them
 * (batch_run): every figure is per call, not per round, also where one
 * run() carries a round's calls (a persistent program's request).
 * Returns 0, or non-zero when a call failed (err says why). */
int energy_measure(const rn_workload_impl *impl, void *state, int batch, const rn_backend *b,
                   int dev, double flops, double bytes, void (*cb)(void *ctx, const char *k, const char *v),
                   rn_error *err);

#endif
