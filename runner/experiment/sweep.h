/* sweep.h - parsing `sweep` (doc/experiment-file.md#axes), `exclude` and KEY: value
 * matches (also used by plot specs' `where` and `baseline`). */
#ifndef RUNNER_SWEEP_H
#define RUNNER_SWEEP_H
/* internal header of runner/experiment/: other folders may not include it */

#include "experiment/loader.h"

void sweep_parse(loader *L, const yaml_node_t *v);
void exclude_parse(loader *L, const yaml_node_t *v);
/* KEY: value | [values] | {min: X, max: Y}; `k` must name a column. */
int match_parse(loader *L, const yaml_node_t *k, const yaml_node_t *v, match *out,
                const char *where);

#endif
