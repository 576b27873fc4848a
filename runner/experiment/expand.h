/* expand.h - the sweep expanded into e->choices / e->ids (first axis
 * outermost, the last fastest), less the `exclude`d trials; a sweep over
 * MAX_TRIALS is an error in d. */
#ifndef RUNNER_EXPAND_H
#define RUNNER_EXPAND_H
/* internal header of runner/experiment/: other folders may not include it */

#include "experiment/experiment.h"

void sweep_expand(experiment *e, diags *d);

#endif
