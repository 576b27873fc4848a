/* merge.h - joining the shards of a run
 * (doc/slurm.md#running-on-a-slurm-cluster): RUN_DIR/shard-K-of-N/ (shards.h) become one trials
 * table and one samples table in RUN_DIR, in dry-run order, with a meta.json that sums them up
 * and the experiment file.  Library code: the reasons come back in a diags (base/diag.h, one item
 * a reason, with no line and column: doc/contributing/architecture.md#errors), nothing is printed;
 * `runner merge` (cli/cmd_merge.c) prints them, then draws the plots and writes the report. */
#ifndef RUNNER_MERGE_H
#define RUNNER_MERGE_H
/* public header of runner/results/rundir/ */

#include "base/diag.h"
#include "base/util.h"

typedef struct merge_info {
    int shards;     /* shard folders joined */
    int n;          /* N of their shard-K-of-N */
    int missing;    /* shards of the N with no folder */
    int unfinished; /* joined shards whose meta.json does not say finished */
    long long missing_trials; /* trials of the experiment no shard holds a row of */
    strbuf missing_text; /* which, one line a shard: "shard-K-of-N: 2 of 5 trials
                          * missing: 1, 7"; free with sb_free */
} merge_info;

enum { MERGE_OK = 0, MERGE_INVALID = -1, MERGE_WRITE_FAILED = -2 };

/* Joins the shards of run_dir.  Each shard is checked against the trials
 * its number owns (shard K of N: the trials whose number is K - 1 modulo
 * N, of the experiment file the shards ran): the trials with no row are
 * counted and named in info (the merge is then incomplete, never
 * finished); a row cut short at the end of a shard's table (a shard killed
 * while writing it) is not a trial.  Each trial keeps the row of the first
 * shard that has it, and that shard's samples; a shard's trials table is
 * read with the cells of its late columns folded in (a shard killed before
 * its end left them aside: doc/results.md#results), nothing in the shard
 * rewritten; the header is the first shard's columns, then those only
 * later shards have.  MERGE_INVALID when they cannot be joined (no shard
 * folder, shards of two N or of two experiments, a shard without its
 * trials table or experiment file, one whose trials or samples table does
 * not parse (a header not theirs, a damaged row before the last), an
 * experiment file that does not load, or late cells that cannot be read):
 * nothing is written and err holds every reason, one an item.
 * MERGE_WRITE_FAILED when a file could not be written (the reason in err). */
int rundir_merge(const char *run_dir, merge_info *info, diags *err);

/* RUN_DIR/../latest moves to run_dir when runner submit made it (it holds
 * merge.sbatch) and its trials table has an ok trial: 1 if moved, 0 if not,
 * -1 when runner submit did not make it. */
int rundir_merge_earn_latest(const char *run_dir);

#endif
