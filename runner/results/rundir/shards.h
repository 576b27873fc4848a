/* shards.h - the shards of a run folder
 * (doc/slurm.md#running-on-a-slurm-cluster): RUN_DIR/shard-K-of-N/, each a run folder of its
 * own written by `runner --shard K/N --run-dir RUN_DIR`.  Library code: nothing is printed. */
#ifndef RUNNER_SHARDS_H
#define RUNNER_SHARDS_H
/* public header of runner/results/rundir/ */

#include "base/csv.h"

/* RUN_DIR/shard-K-of-N, malloc'd. */
char *rundir_shard_dir(const char *run_dir, int k, int n);
/* 1 when `name` is a shard folder's name, "shard-K-of-N", with *k and *n
 * set (not checked against each other); else 0. */
int rundir_shard_name(const char *name, int *k, int *n);
/* N of the first shard-K-of-N folder in run_dir with 0 < N <= max; 0 when
 * there is none. */
int rundir_shard_count(const char *run_dir, int max);

/* 1 when the run folder's meta.json says "finished": true. */
int rundir_is_finished(const char *dir);
/* The trials its trials table holds (rundir_count_trials), 0 for a table
 * with none; -1 when it has no trials table, -2 when what it has is not one
 * (a header without `trial` and `status`, a damaged row before the last). */
long long rundir_trial_rows(const char *dir);

/* The trial rows of a trials table t read with its header
 * (doc/slurm.md#what-merge-verifies): a row is a trial when it is as
 * wide as the header, its first cell a trial number and its status one of
 * the runner's.  A damaged last row is a line cut short (a run killed while
 * writing it): not counted, and *torn set to 1.  -1 when the header is not a
 * trials table's or a row before the last is damaged; *bad_row is that row
 * (its line in the file), 0 for the header. */
long long rundir_count_trials(const csv_table *t, int *torn, int *bad_row);
/* Row r of t (with status column st) is a trial row, as above: its trial
 * number, or -1. */
long long rundir_trial_row_id(const csv_table *t, int r, int st);

#endif
