/* rundir.h - the run folder's layout and its readers (doc/results.md#results).
 *
 * rundir/ is the one owner of the run folder: only its files name the files
 * in it (trials.csv, samples.csv, trials.more.csv, meta.json, report.md,
 * `latest`, the lock).  The rest of the runner reaches them through this
 * header (reading) and results.h / meta.h (writing).  Library code: errors
 * come back in err; nothing is printed. */
#ifndef RUNNER_RUNDIR_H
#define RUNNER_RUNDIR_H
/* public header of runner/results/rundir/ */

#include "base/csv.h"

#include <json.h>
#include <stddef.h>

/* The files of a run folder. */
typedef enum rd_file {
    RD_TRIALS,  /* trials.csv: one row per trial */
    RD_SAMPLES, /* samples.csv: one row per timed sample */
    RD_MORE,    /* trials.more.csv: cells of late extra columns (trial,column,value) */
    RD_META,    /* meta.json: what ran, where, with what */
    RD_REPORT,  /* report.md */
    RD_REPORT_HTML, /* report.html */
    RD_LATEST,  /* OUTPUT/<name>/latest: the newest finished run with an ok trial */
    RD_PLOTS,   /* plots/: each chart's gnuplot script, PNG and SVG */
    RD_EXPERIMENT, /* experiment.yaml: the experiment file, as it was run */
    RD_HISTORY, /* history.md: the report's History section (doc/history.md#the-history-section-of-a-report) */
} rd_file;

/* The file's name ("trials.csv"), for messages and help text. */
const char *rundir_name(rd_file f);
/* DIR/<name of f>, malloc'd (RD_LATEST: DIR/latest, DIR an experiment folder). */
char *rundir_path(const char *dir, rd_file f);

/* 1 when dir holds a trials table (a run folder). */
int rundir_is_run(const char *dir);
/* The run folder that `arg` names: arg itself when it is a run folder, else
 * arg/latest when that is one (an experiment folder); NULL when neither. */
char *rundir_resolve(const char *arg);

/* The trials table: row 0 the header, which starts with `trial` and has a
 * `status` column; -1 with the reason in err otherwise. */
int rundir_read_trials(const char *dir, csv_table *t, char *err, size_t len);
/* The samples table (header `trial`, `sample`, `seconds`, ...).  A run with
 * no timed sample may have none: then *present is 0 and t is empty. */
int rundir_read_samples(const char *dir, csv_table *t, int *present, char *err, size_t len);
/* The samples table's rows grouped by trial number: rows[t] the row
 * indices of trial t, in file order (every row, a re-run's too).  Rows with
 * no trial number, or one past RUNDIR_MAX_TRIAL, are left out: no
 * experiment has more than MAX_TRIALS trials (doc/experiment-file.md#errors),
 * and a run folder's number past them would size this index (a tampered
 * samples.csv with trial 99999999 took 13 s and 1.6 GB here). */
typedef struct rundir_by_trial {
    int **rows;
    int *n;
    long ntrials; /* trial numbers 0 .. ntrials - 1 */
} rundir_by_trial;
enum { RUNDIR_MAX_TRIAL = 999999 }; /* MAX_TRIALS - 1: read.c checks it */
/* A trial number cell ("12"): the number, or -1 when it is none. */
long rundir_trial_no(const char *cell);
void rundir_group_samples(const csv_table *s, rundir_by_trial *g);
/* Trial t's rows from its last series on: a trial run again (after a crash,
 * or once more into the folder) starts its sample numbers again, and only
 * its last series stands (doc/results.md#results).  *n the count; NULL when the
 * trial has no row. */
const int *rundir_last_series(const csv_table *s, const rundir_by_trial *g, long t, int *n);
void rundir_by_trial_free(rundir_by_trial *g);
/* meta.json parsed; NULL when absent (*absent = 1) or unreadable (reason in err). */
json_object *rundir_read_meta(const char *dir, int *absent, char *err, size_t len);
/* What meta.json may hold: a run's is a few KiB. */
#define RUNDIR_META_MAX ((size_t)64 << 20)
/* rundir_read_meta of the meta.json at path: a regular file of at most
 * RUNDIR_META_MAX bytes, opened without blocking. */
json_object *rundir_meta_parse(const char *path, int *absent, char *err, size_t len);
/* A string of meta.json's "experiment" object ("name", "path"), malloc'd;
 * NULL when the file, the object or the string is absent. */
char *rundir_meta_experiment(const char *dir, const char *field);
/* meta.json's "ceilings" (the machine's, doc/ceilings.md#the-ceilings)
 * as JSON text, malloc'd; NULL when it has none. */
char *rundir_meta_ceilings(const char *dir);
/* meta.json written atomically from m. */
int rundir_write_meta(const char *dir, json_object *m, char *err, size_t len);
/* The same, but arg/latest is named by the run it points to, arg/<run-id>
 * (for messages that name the run itself) (find.c). */
char *rundir_resolve_named(const char *arg);
/* The run folders a RUN_DIR argument stands for: arg itself when it is a run
 * folder, else arg/latest when that is one, else every arg/<name>/latest
 * that is one, in name order; appended to *runs (free with
 * rundir_free_runs).  -1 with the reason in err when there is none (find.c). */
int rundir_find_runs(const char *arg, char ***runs, int *nruns, char *err, size_t len);
void rundir_free_runs(char **runs, int n);
/* --- the runs of an experiment folder (runs.c) --- */
/* A new run folder EXP/<UTC start time>[-k]: its path, *run_id its name. */
char *rundir_create(const char *exp_dir, char **run_id, char *err, size_t len);
/* The id of the newest unfinished run of EXP (its meta.json says not
 * finished, or it has none), or NULL. */
char *rundir_find_unfinished(const char *exp_dir);
/* Locks a run folder for writing (doc/results.md#results): *lock_fd holds it until
 * closed; -1 with "locked by pid N" in err when another runner holds it. */
int rundir_lock(const char *run_dir, int *lock_fd, char *err, size_t len);
/* EXP/latest -> run_id, replaced atomically. */
int rundir_point_latest(const char *exp_dir, const char *run_id);
/* Points RUN_DIR/../latest at RUN_DIR when it holds an ok trial: 1 if moved. */
int rundir_earn_latest(const char *run_dir);

/* The experiment of a run folder, from the copy of its file: as it loads;
 * else with the files it names taken beside the original file (meta.json
 * says where); else with empty stand-ins for them (charts need none).
 * NULL when none of that parses, with the first error in note. */
struct experiment;
struct experiment *rundir_read_experiment(const char *run_dir, char *note, size_t notelen);

/* 1 when the trials table holds an ok trial. */
int rundir_has_ok_trial(const char *dir);

#endif
