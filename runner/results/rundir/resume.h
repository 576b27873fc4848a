/* resume.h - the rows a run folder already holds: read back for --resume,
 * the late extra columns folded in at the end of a run, and the bookkeeping
 * of which trials are done.  Internal to runner/rundir/ (results.c, and
 * merge.c for a shard's late columns). */
#ifndef RUNNER_RESUME_H
#define RUNNER_RESUME_H
/* internal header of runner/results/rundir/: other folders may not include it */

#include "base/csv.h"
#include "experiment/experiment.h"
#include "results/rundir/run_files.h"

/* The trials header up to gbps: what every run of this experiment has. */
char *resume_header_base(const experiment *e);
int resume_extra_index(const run_files *R, const char *name);
void resume_add_extra(run_files *R, const char *name);
void resume_mark_done(run_files *R, long long id);
/* Reads back a run folder for --resume: checks it ran the same experiment,
 * trims torn lines and orphan samples, marks the finished trials done. */
int resume_load(run_files *R, const experiment *e, char *err, size_t len);
/* Folds trials.more.csv's cells into the trials table (one rewrite). */
int resume_fold_more(const char *dir, char *err, size_t len);
/* The trials table of dir as resume_fold_more would make it, read into t
 * and nothing written (trials.csv as it is when there is no
 * trials.more.csv); -1 with the reason in err. */
int resume_read_folded(const char *dir, csv_table *t, char *err, size_t len);

#endif
