/* slurm.h - what `runner submit` and `runner status` say to Slurm: the job
 * scripts (job.sbatch: one array task per shard; merge.sbatch), quoting for
 * sh and for sbatch's own #SBATCH parser, the time-limit format, and the
 * parsing of what sbatch, squeue and scontrol print.  Pure functions, so the
 * tests need no Slurm; running the commands is in queue.h, the commands in
 * submit.h and status.h. */
#ifndef RUNNER_SLURM_H
#define RUNNER_SLURM_H
/* public header of runner/slurm/ */

#include "base/util.h"

#include <stddef.h>

/* What a submission asks of Slurm, besides the array. */
typedef struct slurm_opts {
    const char *partition; /* NULL: the cluster's default */
    const char *time;      /* NULL: the partition's default; checked by slurm_time_valid */
    int gpus;              /* per shard: --gres=gpu:G; 0: none */
    char **extra;          /* --sbatch-arg values, one #SBATCH line each */
    int nextra;
    int allow_unsafe_lua;  /* passed on to the shards */
} slurm_opts;

/* Appends s as one argument for an #SBATCH line, as sbatch's parser reads
 * it (old and new versions): bare when it holds only safe characters, else
 * in double quotes with \ " ' # escaped (and "packjob", "hetjob" broken up,
 * which some versions blank out of the line).  s must hold no newline. */
void sbatch_quote(strbuf *b, const char *s);
/* A path for --output/--error: '%' doubled (Slurm's filename patterns). */
void slurm_pattern_escape(strbuf *b, const char *s);

/* Slurm's time formats: M, M:S, H:M:S, D-H, D-H:M, D-H:M:S (also
 * "UNLIMITED" / "infinite").  1 when valid. */
int slurm_time_valid(const char *t);
/* An --sbatch-arg: one option ("-x..." / "--x..."), no newline, not one
 * that runner sets itself (--array).  0, or -1 with a message in err. */
int slurm_extra_valid(const char *arg, char *err, size_t len);
/* A path that can go into job.sbatch: absolute, no newline, no backslash
 * (a backslash turns off Slurm's %A/%a patterns).  0, or -1 with err. */
int slurm_path_valid(const char *path, char *err, size_t len);

/* RUN_DIR/job.sbatch: an array of n tasks (0..n-1), task i runs shard i+1
 * of n: `exec RUNNER --quiet --shard $((i+1))/n --run-dir RUN_DIR EXP`.
 * Paths absolute.  Returns a malloc'd script. */
char *slurm_job_script(const char *name, const char *run_dir, const char *runner,
                       const char *experiment, int n, const slurm_opts *o);
/* RUN_DIR/merge.sbatch: `exec RUNNER merge RUN_DIR` (submitted with
 * --dependency=afterany:ARRAY_JOB). */
char *slurm_merge_script(const char *name, const char *run_dir, const char *runner,
                         const slurm_opts *o);

/* The most shards `runner submit --shards N` writes; a job.sbatch that asks
 * for more was edited, and is refused rather than walked (issue 14). */
#define SLURM_MAX_SHARDS 100000

/* The shard count job.sbatch runs (its --shard .../N), 0 if it names none,
 * -1 if it names more than SLURM_MAX_SHARDS. */
int slurm_script_shards(const char *script);

/* sbatch --parsable prints "JOBID" or "JOBID;CLUSTER": the id (digits) is
 * copied to id.  0, or -1 when there is none. */
int slurm_parse_jobid(const char *out, char *id, size_t len);

/* Array indices as Slurm writes them: "0-3", "1,3", "0-2,5". */
void slurm_index_list(strbuf *b, const int *idx, int n);
/* Parses such a list (also "[0-3%2]" forms) into mark[0..n-1] (1 = listed).
 * -1 when it is not one. */
int slurm_parse_index_list(const char *s, unsigned char *mark, int n);

/* squeue -h -r -j JOBID -o '%i %T' output: each line about JOBID
 * ("JOBID_K STATE", "JOBID_[a-b,c%t] STATE", or "JOBID STATE" for all of
 * it) sets states[K] for the tasks K < n it names (malloc'd; an earlier
 * value is freed).  Other lines are ignored.  Returns how many were set. */
int slurm_parse_squeue(const char *out, const char *jobid, char **states, int n);
/* scontrol show job output: the value of the first JobState= (malloc'd),
 * or NULL. */
char *slurm_parse_jobstate(const char *out);
/* scontrol show job ARRAY_JOBID output (a record per task, or per group
 * of pending tasks, blank-line separated): for each record's
 * ArrayTaskId=LIST, sets states[K] (malloc'd) of the tasks K < n whose
 * states[K] is still NULL.  Returns how many were set. */
int slurm_parse_scontrol_tasks(const char *out, char **states, int n);
/* A job state in which the job is done with (COMPLETED, FAILED, ...):
 * 1; one in which it may still run (PENDING, RUNNING, ...): 0. */
int slurm_state_ended(const char *state);

#endif
