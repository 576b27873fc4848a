/* plots_file.h - the charts of `runner plot RUN_DIR --config FILE`
 * (doc/results.md#plots-and-reports): FILE is a whole experiment file, or a file with only
 * `plots:` (and `x-` / `.` keys holding anchors), whose charts are read
 * against the run's own experiment. */
#ifndef RUNNER_PLOTS_FILE_H
#define RUNNER_PLOTS_FILE_H
/* public header of runner/experiment/ */

#include "experiment/experiment.h"

/* 1 when the file at `path` is a mapping without a `workload` key (a plots
 * file), 0 otherwise (also when it cannot be read or parsed: loading it as
 * an experiment then says why). */
int plots_file_is_plots_only(const char *path);

/* Replaces e's charts with the `plots:` of the plots file at `path`, checked
 * against e's columns and trials as an experiment file's own are.  0, or -1
 * with the errors in d (e keeps its charts). */
int plots_file_apply(experiment *e, const char *path, diags *d);

#endif
