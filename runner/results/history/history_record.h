/* history_record.h - a finished run folder written into the history
 * database (doc/history.md#what-is-recorded): one run row (the
 * experiment, a hash of its trial keys, the measured code's revision, the
 * machine), one trial row per trial, in one transaction.  Library code:
 * reasons come back in err; nothing is printed. */
#ifndef RUNNER_HISTORY_RECORD_H
#define RUNNER_HISTORY_RECORD_H
/* public header of runner/results/history/ */

#include "results/report/compare_load.h"

#include <json.h>
#include <sqlite3.h>
#include <stddef.h>

/* The machine a run ran on: a hash of what decides its speed (CPU model and
 * cores, GPU names and driver, BLAS core, governor) and those facts. */
typedef struct history_machine {
    char id[17];  /* the first 16 hex digits of the SHA-256 of the facts */
    char *facts;  /* the facts as a JSON object, malloc'd */
    char *cpu_model, *gpu, *gpu_driver, *blas_core, *governor;
    long long cores;
} history_machine;

/* The machine of a run's meta (NULL: all facts unknown). */
void history_machine_of(json_object *meta, history_machine *m);
void history_machine_free(history_machine *m);

/* The measured code's revision. */
typedef struct history_revision {
    char *text;          /* the commit (40 hex digits), the `revision:` key or --revision; NULL */
    int dirty;           /* the checkout had uncommitted changes (-1: unknown) */
    long long time;      /* the commit's time (Unix seconds), 0 when unknown */
} history_revision;

/* The commit of the checkout folder dir is in, its time and whether it has
 * uncommitted changes (base/gitrev.h: nothing the repository's
 * configuration names runs); r->text NULL when dir is not in a git
 * checkout. */
void history_git_revision(const char *dir, history_revision *r);
void history_revision_free(history_revision *r);

typedef struct history_record_opts {
    const char *revision; /* --revision TEXT, or NULL */
    int ask_git;          /* a run that just finished: ask git for the revision */
    int replace;          /* a run already recorded is recorded again (merge) */
} history_record_opts;

enum { HISTORY_RECORDED = 0, HISTORY_ALREADY = 1 };

/* The trial key of the trials table's key columns, the way `runner compare`
 * matches trials (not repeats, stop, batch, order): "size=64, threads=1". */
struct compare_run;
/* Every row's key, in row order (free each and the array: history_keys_free). */
char **history_trial_keys(const struct compare_run *R);
void history_keys_free(char **keys, int n);

/* Records the run folder run_dir.  HISTORY_RECORDED, HISTORY_ALREADY (the
 * run is in the database and o->replace is 0), or -1 with the reason in
 * err.  *run_row the run's row id (may be NULL). */
/* A finished run folder's meta (naming its experiment) and its trials, as
 * recording and the gate read it; NULL with err set when either is missing. */
json_object *history_load_run(const char *run_dir, compare_run *R, char *err, size_t len);

int history_record(sqlite3 *db, const char *run_dir, const history_record_opts *o,
                   long long *run_row, char *err, size_t len);

#endif
