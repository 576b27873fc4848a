/* queue.h - talking to a Slurm cluster
 * (doc/slurm.md#running-on-a-slurm-cluster): sbatch, squeue and scontrol, run through
 * base/spawn.h (an argument vector, never a shell; found on PATH, or named by $RUNNER_SBATCH,
 * $RUNNER_SQUEUE and $RUNNER_SCONTROL) and killed when they do not answer in time; and the job
 * log of a run folder, slurm-jobs.txt. Library code: nothing is printed (sbatch's own stderr is
 * the caller's). */
#ifndef RUNNER_QUEUE_H
#define RUNNER_QUEUE_H
/* internal header of runner/slurm/: other folders may not include it */

#include <stddef.h>

#define SBATCH_TIMEOUT 60.0 /* seconds: sbatch retries a busy controller */
#define QUERY_TIMEOUT 20.0  /* squeue, scontrol */

/* The program for `name`: $env when set, else the name (searched on PATH). */
const char *slurm_program(const char *env, const char *name);
/* Can `prog` be executed (a path, or a name on PATH)? */
int slurm_can_run(const char *prog);

/* The absolute path of the run folder `dir` names; NULL with the reason in
 * err when it is not a folder. */
char *slurm_run_dir(const char *dir, char *err, size_t len);

/* RUN_DIR/job.sbatch, RUN_DIR/merge.sbatch, RUN_DIR/slurm-jobs.txt. */
char *slurm_job_path(const char *run_dir);
char *slurm_merge_path(const char *run_dir);
/* Appends one line to RUN_DIR/slurm-jobs.txt: 0, or -1 with the reason in err. */
int slurm_log_append(const char *run_dir, char *err, size_t len, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* What RUN_DIR/slurm-jobs.txt says: the experiment file the shards run,
 * and every array job (with its task list) and merge job, oldest first. */
typedef struct job_log {
    char *experiment;
    int narr;
    char (*arr_id)[32];
    char **arr_tasks;
    char merge_id[32];
} job_log;

void slurm_log_read(const char *run_dir, job_log *L);
void slurm_log_free(job_log *L);

/* Slurm's view of the jobs of a run of n shards. */
typedef struct slurm_view {
    char **state;   /* per shard (0-based): Slurm's state of its newest task, or NULL */
    char **task;    /* "JOBID_K" of that task, or NULL (never submitted) */
    char *merge_state;
    int queried;    /* squeue could be asked */
    char *problem;  /* why not, or NULL */
} slurm_view;

/* Asks squeue (then scontrol, for tasks no longer queued) about the newest
 * array task of each shard, and about the newest merge job. */
void slurm_query(const job_log *L, int n, slurm_view *v);
void slurm_view_free(slurm_view *v, int n);

/* sbatch --parsable [args...] SCRIPT: the job id into id.  0, or -1 with
 * the reason in err. */
int slurm_sbatch(char **args, int nargs, const char *script, char *id, size_t idlen, char *err,
                 size_t errlen);

#endif
