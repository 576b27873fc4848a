/* plots_config.h - parsing the `plots:` section
 * (doc/results.md#plots-and-reports): each chart's keys, checked against the experiment's
 * columns. */
#ifndef RUNNER_PLOTS_CONFIG_H
#define RUNNER_PLOTS_CONFIG_H
/* internal header of runner/experiment/: other folders may not include it */

#include "experiment/loader.h"

void plots_parse(loader *L, const yaml_node_t *v);

#endif
