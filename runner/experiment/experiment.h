/* experiment.h - an experiment as loaded: its columns, sweep axes,
 * exclusions, plot specs and expanded trials, and the questions the rest of
 * the runner asks of it.
 *
 * The trials are the cartesian product of the sweep's axes (first axis
 * outermost), less the `exclude`d ones.  Each trial is a vector of choices,
 * one element index per axis; trial_value() resolves any column of it. */
#ifndef RUNNER_EXPERIMENT_H
#define RUNNER_EXPERIMENT_H
/* public header of runner/experiment/ */

#include "backend.h"
#include "base/diag.h"
#include "base/value.h"
#include "experiment/command_spec.h"

#include <stdint.h>

/* The most trials a sweep expands to (doc/experiment-file.md#axes).  The
 * fuzzers build with a smaller one (Makefile FUZZ_DEFS): a million trials
 * take seconds under the sanitizers, and their timeout is 1 s. */
#ifndef MAX_TRIALS
#define MAX_TRIALS 1000000LL
#endif

/* What a column of the trial table holds. */
typedef enum { COL_RUNKEY, COL_PARAM, COL_AXIS } col_kind;

typedef struct column {
    char *name;
    col_kind kind;
    int runkey; /* index into the run-key table for COL_RUNKEY */
    int axis;   /* the axis that sets it, or -1 */
    value fixed; /* set at the top level / in params; VAL_NONE if not */
    int line, col; /* where it was set (0 if not) */
} column;

typedef struct axis_kv {
    int column;
    value v;
    int line, col; /* where the value is written */
} axis_kv;

typedef struct axis_elem {
    axis_kv *kv;
    int nkv;
    int line, col;
} axis_elem;

typedef struct axis {
    char *name;
    int linked; /* a list of mappings */
    int column; /* the column named after the axis */
    axis_elem *elems;
    int nelems, elems_cap; /* grown by doubling: a range may give 10^6 values */
    int line, col;
} axis;

typedef enum { MATCH_VALUES, MATCH_RANGE } match_kind;

typedef struct match {
    int column;
    match_kind kind;
    value *vals;
    int nvals;
    int has_min, has_max;
    double min, max;
} match;

typedef struct exclude_entry {
    match *m;
    int n;
} exclude_entry;

typedef struct plot_spec {
    char *name, *type, *x, *y, *title;
    char *xlabel, *ylabel, *legend; /* NULL: the default */
    char **series;
    int nseries, series_given;
    match *where;
    int nwhere;
    match *baseline;
    int nbaseline;
    int logx, logy; /* -1 = default */
    int line, col;
    int series_line, series_col; /* where `series` is given (0 if not) */
} plot_spec;

/* When `repeats: auto` stops sampling (doc/timing.md#measurement-quality). */
typedef struct stop_rule {
    double rse;      /* relative standard error of the mean to reach */
    int min_samples, max_samples;
    double min_time, max_time; /* seconds of samples measured */
} stop_rule;

typedef struct experiment {
    char *path;        /* as given */
    char *dir;         /* folder of the file (for lua:PATH, hooks) */
    char *text;        /* the file's bytes */
    size_t text_len;
    char *name, *description, *hooks;
    char *revision; /* revision: the measured code's revision (doc/history.md#what-is-recorded) */
    char *size_means; /* what size counts for command and plugin workloads, or NULL */
    int hooks_line, hooks_col; /* where `hooks` is set, for messages */
    column *cols;
    int ncols;
    axis *axes;
    int naxes;
    exclude_entry *excl;
    int nexcl;
    plot_spec *plots;
    int nplots, plots_given;
    /* expanded trials (after exclude): ntrials x naxes choices */
    uint32_t *choices;
    long long *ids;    /* each trial's index in the full (unfiltered) expansion */
    long long ntrials;
    stop_rule stop;
    int trace;       /* trace: true (doc/results.md#a-timeline-of-a-run) */
    /* warmup to steady state (doc/timing.md#how-a-trial-is-timed): the time a
     * trial warms at most (seconds), and how close two rounds must be */
    double warmup_time, warmup_tolerance;
    /* the least time of one sample with batch: auto (doc/timing.md#batching) */
    double sample_time;
    command_spec *command; /* workload: command (doc/own-code.md), or NULL */
    value *defaults;   /* [registry workload][column] default values */
    int ndefault_rows;
} experiment;

void experiment_free(experiment *e);
void plot_spec_free(plot_spec *p);

int experiment_column(const experiment *e, const char *name);
/* A path written in the file (hooks, lua:PATH): as it is when absolute,
 * else relative to the file's folder.  Malloc'd. */
char *experiment_path(const experiment *e, const char *rel);
/* Calls fn with every value column c is given in the file, and where: its
 * top-level value, then each sweep element that sets it. */
void experiment_each_value(const experiment *e, int c,
                           void (*fn)(const experiment *e, const value *v, int line, int col,
                                      void *ctx),
                           void *ctx);
/* Trials with `repeats: auto` whose `timeout` is shorter than stop's
 * max_time (doc/timing.md#measurement-quality): a steady trial still sampling
 * would be cut as `timeout`.  Returns their count; *first gets the first
 * one's index and *timeout its timeout in seconds. */
long long experiment_short_timeouts(const experiment *e, long long *first, double *timeout);
/* Value of column c for trial t, defaults applied (VAL_NONE: no value). */
value trial_value(const experiment *e, long long t, int c);
/* Where trial t's value of column c is written: the sweep element's value,
 * else the top-level one; 0, 0 for a default. */
void trial_value_where(const experiment *e, long long t, int c, int *line, int *col);
/* 1 when trial t has `order: interleaved` (doc/timing.md#how-a-trial-is-timed). */
int trial_interleaved(const experiment *e, long long t);
/* Keeps only the trials matching every KEY=GLOB filter (same key: any of).
 * Returns -1 with a message on an unknown key. */
int experiment_filter(experiment *e, char **filters, int nfilters, char *err, size_t errlen);

/* Keeps trial numbers (dry-run order, before --filter) equal to K-1 modulo
 * N: shard K of N.  The N shards are the whole sweep, each trial once, and a
 * trial's shard does not depend on --filter. */
void experiment_shard(experiment *e, int k, int n);

/* 1 when v is one of m's values or in its range. */
int match_value(value v, const match *m);
/* 1 when trial t's value of m->column is one of m's values or in its range. */
int match_trial(const experiment *e, long long t, const match *m);

#endif
