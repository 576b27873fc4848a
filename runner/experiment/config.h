/* config.h - an experiment file, loaded and validated
 * (doc/experiment-file.md#the-experiment-file).  Every error is collected with file:line:col. */
#ifndef RUNNER_CONFIG_H
#define RUNNER_CONFIG_H
/* public header of runner/experiment/ */

#include "experiment/experiment.h"

/* Loads and validates `path`.  On errors, fills `d` and returns NULL. */
experiment *experiment_load(const char *path, diags *d);
/* The same from memory (tests, fuzzing); `path` names it in messages. */
experiment *experiment_parse(const char *path, const char *text, size_t len, diags *d);

#endif
