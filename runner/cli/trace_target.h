/* trace_target.h - whether `--trace FILE` may be written: the timeline
 * never overwrites an input of the run or a file of a run folder
 * (doc/results.md#a-timeline-of-a-run).  Command-line code. */
#ifndef RUNNER_CLI_TRACE_TARGET_H
#define RUNNER_CLI_TRACE_TARGET_H
/* internal header of runner/cli/: other folders may not include it */

#include "experiment/experiment.h"

#include <stddef.h>

/* 0 when `path` may take the timeline; -1 with the reason in err when it is
 * an experiment file of es, its hooks file, a file one of its values names
 * (lua:FILE, a dataset), or sits in a run folder (or its plots/), or in
 * run_dir (--run-dir, may be NULL). */
int trace_target_check(const char *path, experiment *const *es, int n, const char *run_dir,
                       char *err, size_t errlen);

#endif
