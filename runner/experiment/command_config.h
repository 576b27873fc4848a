/* command_config.h - the keys of `workload: command` in an experiment file
 * (doc/own-code.md#the-experiment-file): command, protocol, env, cwd,
 * subtract_spawn, restart, prepare.  Internal to runner/experiment/. */
#ifndef RUNNER_COMMAND_CONFIG_H
#define RUNNER_COMMAND_CONFIG_H
/* internal header of runner/experiment/: other folders may not include it */

#include "experiment/loader.h"

/* A top-level key of command_key_names: checked and kept in the
 * experiment's command_spec; errors go to the loader's diagnostics. */
void command_key(loader *L, const yaml_node_t *k, const yaml_node_t *v);

/* Once the columns are known: `workload: command` has a `command`, the keys
 * are not set for nothing, every placeholder names a column (did you mean),
 * the program exists and may be run, and `cwd` is a folder. */
void command_finish(loader *L);

#endif
