/* results.h - a run's folder (doc/results.md#results): trials.csv, samples.csv,
 * meta.json, the experiment file, the `latest` link; resume. */
#ifndef RUNNER_RESULTS_H
#define RUNNER_RESULTS_H
/* public header of runner/results/rundir/ */

#include "experiment/config.h"
#include "results/rundir/result.h"
#include "results/rundir/run_files.h"

#include <stddef.h>
#include <sys/types.h>


/* Creates a new run folder, or with `resume` reopens the newest unfinished
 * one.  -1 with a message in err when the output cannot be used. */
int results_open(run_files *R, const experiment *e, const char *output, int resume, char *err,
                 size_t len);
/* The same into a given folder (created if need be; continued if it holds
 * this experiment's results already), for --run-dir and shards. */
int results_open_dir(run_files *R, const experiment *e, const char *dir, char *err, size_t len);
int results_is_done(const run_files *R, long long id);
/* Appends the trial's samples, then its row (the row commits the trial). */
int results_write(run_files *R, const experiment *e, long long t, const trial_result *r,
                  char *err, size_t len);
/* Rewrites trials.csv in trial order (atomically) and closes the files. */
int results_close(run_files *R, int finished, char *err, size_t len);
/* Points OUTPUT/<name>/latest at the run when it holds an ok trial (after
 * results_close of a finished run; not for --run-dir); 1 when it did. */
int results_earn_latest(const run_files *R);
/* The same for a run folder given by path (a merged Slurm run): its
 * experiment folder's `latest` moves to it when its trials.csv has an ok
 * trial; 1 if moved. */
int results_earn_latest_dir(const char *run_dir);
void results_free(run_files *R);

/* Writes `data` to `path` through a temporary file and rename(). */
int write_file_atomic(const char *path, const char *data, size_t len);
/* mkdir -p */
int make_dirs(const char *path);

#endif
