/* submit.h - `runner submit` as library steps
 * (doc/slurm.md#running-on-a-slurm-cluster):
 *
 *   FILE.yaml        submit_prepare makes OUTPUT/<name>/<run-id>/ with the
 *                    experiment, job.sbatch (a job array: task K runs
 *                    `runner --shard K+1/N --run-dir RUN_DIR`), merge.sbatch
 *                    (`runner merge RUN_DIR`) and slurm-jobs.txt;
 *   --resume RUN_DIR submit_prepare_resume picks the shards that are missing
 *                    or did not finish (never one still queued or running);
 *   then             submit_send submits the array, then the merge with
 *                    --dependency=afterany:ARRAY, and notes both job ids in
 *                    slurm-jobs.txt.
 *
 * Library code: messages come back in strbufs, one a line, for
 * cli/cmd_submit.c to print; only sbatch's own stderr reaches the
 * terminal directly. */
#ifndef RUNNER_SUBMIT_H
#define RUNNER_SUBMIT_H
/* public header of runner/slurm/ */

#include "base/util.h"
#include "experiment/config.h"
#include "slurm/slurm.h"

/* A submission being made. */
typedef struct submission {
    char *run_dir;     /* absolute */
    char *name;        /* the jobs' name: the experiment's */
    int n;             /* shards of the run */
    int *todo;         /* the shards to submit, 0-based */
    int ntodo;         /* 0 after submit_prepare_resume: every shard has finished */
    int resumed;
    char *tasks;       /* todo as Slurm writes array indices: "0-3" */
    char *shards;      /* the same counted from 1, for messages: "1-4" */
    char array_id[32], merge_id[32];
} submission;

/* runner submit FILE.yaml (e loaded from `path`): `shards` shards, fewer
 * when e has fewer trials (a note says so).  notes gets lines to show
 * either way.  0, or -1 with the reason in err (a message, which may go on
 * over more lines). */
int submit_prepare(const experiment *e, const char *path, const char *output, int shards,
                   const slurm_opts *o, submission *s, strbuf *notes, char *err, size_t errlen);
/* runner submit --resume RUN_DIR.  0 (s->ntodo == 0: every shard has
 * finished, nothing to submit), or -1 with the reason in err. */
int submit_prepare_resume(const char *run_dir, submission *s, char *err, size_t errlen);

enum { SUBMIT_OK = 0, SUBMIT_REFUSED = -1, SUBMIT_MERGE_REFUSED = -2 };

/* Submits s->todo of job.sbatch (a resumed run: with --array and the
 * options of o on sbatch's command line), then merge.sbatch after it.
 * SUBMIT_OK; SUBMIT_REFUSED when sbatch refused the array (nothing is
 * queued); SUBMIT_MERGE_REFUSED when the array is queued but the merge
 * job is not.  msgs gets what went wrong, one message a line. */
int submit_send(submission *s, const slurm_opts *o, strbuf *msgs);

void submission_free(submission *s);

#endif
