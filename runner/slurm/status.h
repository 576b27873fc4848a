/* status.h - `runner status RUN_DIR` as a library step
 * (doc/slurm.md#running-on-a-slurm-cluster): trials done per shard, finished or not, Slurm's state
 * of each array task and of the merge job, and whether the run was merged.
 * Library code: cli/cmd_submit.c prints the table. */
#ifndef RUNNER_STATUS_H
#define RUNNER_STATUS_H
/* public header of runner/slurm/ */

#include "base/util.h"
#include "slurm/queue.h"

typedef struct run_status {
    char *run_dir;     /* absolute */
    int n;             /* shards */
    long long *rows;   /* trials saved per shard (0-based); -1: not started */
    int *finished;     /* per shard: its meta says finished */
    long long *total;  /* trials per shard; NULL when the experiment could not be loaded */
    job_log log;       /* slurm-jobs.txt */
    slurm_view view;   /* Slurm's states */
    int merged;        /* 0: not yet, 1: complete, 2: incomplete */
    int has_job;       /* the run holds job.sbatch (made by runner submit) */
} run_status;

/* 0, or -1 with the reason in err (not a folder; no job.sbatch of runner
 * submit and no shard folders; a job.sbatch with more shards than runner
 * submit writes). */
int slurm_status(const char *target, run_status *st, char *err, size_t errlen);
void run_status_free(run_status *st);

#endif
