/* history_run.h - the one call that records a finished run in the history
 * database (doc/history.md#what-is-recorded) and, when the database holds
 * earlier runs of the same experiment on the same machine, writes the run's
 * History section (RUN/history.md), which the report the caller writes
 * next takes in.  Nothing it meets (a locked, read-only or corrupt
 * database) fails the run: it becomes a warning in notes. */
#ifndef RUNNER_HISTORY_RUN_H
#define RUNNER_HISTORY_RUN_H
/* public header of runner/results/history/ */

#include "base/util.h"

typedef struct history_run_opts {
    const char *path;        /* --history PATH; NULL: $RUNNER_HISTORY, else the default */
    /* the default is RESULTS/history.sqlite; NULL: RUN/../.. (a run folder
     * RESULTS/<name>/<run-id>); "": none (a --run-dir run is recorded only
     * where --history or $RUNNER_HISTORY names a database) */
    const char *results_dir;
    const char *revision;    /* --revision TEXT, or NULL */
    int off;                 /* --no-history: nothing is done */
    int quiet, no_plots;
    int replace;             /* recorded again when already there (`runner merge`) */
} history_run_opts;

/* How many earlier runs the History section of a report shows. */
#define HISTORY_REPORT_RUNS 30

void history_record_run(const char *run_dir, const history_run_opts *o, strbuf *notes);

#endif
