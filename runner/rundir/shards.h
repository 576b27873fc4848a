/* shards.h - the shards of a run folder
 * (doc/slurm.md#running-on-a-slurm-cluster): RUN_DIR/shard-K-of-N/, each a run folder of its own written by
 * `runner --shard K/N --run-dir RUN_DIR`.  Library code: nothing is
 * printed. */
#ifndef RUNNER_SHARDS_H
#define RUNNER_SHARDS_H

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
/* The rows of its trials table (a torn last line is not one), 0 for an
 * empty file; -1 when it has none. */
long long rundir_trial_rows(const char *dir);

#endif
