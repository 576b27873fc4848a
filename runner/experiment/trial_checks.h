/* trial_checks.h - the checks across keys that are made trial by trial,
 * once the sweep is expanded (doc/experiment-file.md#top-level-keys):
 * `order: interleaved` needs a number of repeats, `workers: N` N repeats
 * at least.  Internal to runner/experiment/. */
#ifndef RUNNER_TRIAL_CHECKS_H
#define RUNNER_TRIAL_CHECKS_H
/* internal header of runner/experiment/: other folders may not include it */

#include "base/diag.h"
#include "experiment/experiment.h"

/* Each conflict said once, at the place that sets it, in d. */
void trial_checks(const experiment *e, diags *d);

#endif
