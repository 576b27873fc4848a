/* compare_load.h - a run as `runner compare` reads it
 * (doc/compare.md#comparing-runs), through results/rundir/rundir.h: its trials, one row per trial id, the
 * samples of each trial, and where and when it ran.  Library code: the
 * reason for a failure comes back in err. */
#ifndef RUNNER_COMPARE_LOAD_H
#define RUNNER_COMPARE_LOAD_H
/* public header of runner/results/report/ */
/* (public: history/ reads a run folder as compare does) */

#include "base/csv.h"
#include "base/util.h"

/* One run, as loaded. */
typedef struct compare_run {
    const char *arg; /* the folder as given */
    char *dir;       /* the run folder used (arg, or the run arg/latest names) */
    csv_table t;     /* its trials table */
    int nkeys;      /* key columns: 1 .. nkeys of the header */
    int status_col, median_col, noise_col, throttled_kept_col; /* -1 when absent */
    int other_cpu_col, steal_col, mhz_col, max_mhz_col;        /* the load columns, or -1 */
    int threads_col; /* the `threads` key, or -1 */
    /* the worker blocks (doc/timing.md#blocks-across-processes-and-cpus) and
     * the CPUs' measured speed (clock_gflops), or -1 */
    int blocks_col, clock_col;
    double clock; /* the run's one-core speed from its meta (cpu_speed), GFLOP/s; NaN: unknown */
    int cores;       /* the host's online CPUs from its meta; 0 when unknown */
    int nrows;      /* trials, one row per trial id (the last one wins) */
    int *row;       /* row index in t, by trial order */
    long long *id;
    double **smp;   /* samples (seconds) of each trial */
    int *nsmp;
    char *host, *start; /* from its meta (doc/results.md#results), or NULL */
} compare_run;

/* Loads the run `arg` names (a run folder, or an experiment folder: its
 * latest run): its trials table (one row per trial id, the last one
 * written wins, in trial order), the samples of each trial (a series that
 * starts again, a re-run, replaces the earlier one), host and start from
 * its meta.  0, or -1 with the reason in err (compare_load.c). */
int compare_run_load(compare_run *R, const char *arg, char *err, size_t errlen);
void compare_run_free(compare_run *R);
/* The cell of column col for the trial at position pos ("" when absent). */
const char *compare_cell(const compare_run *R, int pos, int col);
/* The name of key column k (0 .. nkeys-1). */
const char *compare_key(const compare_run *R, int k);

#endif
