/* history_query.h - the series of the history database
 * (doc/history.md#runner-history): for each experiment, machine and trial
 * key, its medians over the runs, in revision order where known (the
 * commit's time), else by start time, with the change points found in each
 * (results/history/changepoint.h).  Library code: reasons come back in err. */
#ifndef RUNNER_HISTORY_QUERY_H
#define RUNNER_HISTORY_QUERY_H
/* public header of runner/results/history/ */

#include "results/history/changepoint.h"

#include <sqlite3.h>
#include <stddef.h>

typedef struct history_point {
    long long run;  /* the run's row */
    char *run_id, *revision, *started;
    int dirty;      /* -1: unknown */
    char *status;
    double median, ci_low, ci_high; /* seconds; NaN when not ok */
    int busy, throttled;
} history_point;

typedef struct history_series {
    char *experiment, *machine, *key, *workload, *device;
    history_point *pts;
    int npts;
    /* change points over the ok points; at is an index into pts */
    changepoint *cps;
    int ncps;
} history_series;

typedef struct history_query {
    const char *experiment;   /* NULL: every experiment */
    const char *machine;      /* an id or its prefix; NULL: every machine */
    const char *const *filters; /* KEY=GLOB on the trial key's parts */
    int nfilters;
    long long before_run;     /* > 0: only runs recorded before this run row */
    int last;                 /* > 0: only the last `last` runs of each series */
} history_query;

typedef struct history_set {
    history_series *s;
    int n;
    int nruns; /* distinct runs among the series */
    int bad_rows; /* rows left out or whose median was dropped: a NULL where a value must
                   * be, a text where a number must be, a median that is no positive time
                   * (a database written by another tool or edited by hand) */
} history_set;

/* The series q selects, with their change points.  0, or -1 with the
 * reason in err. */
int history_load(sqlite3 *db, const history_query *q, history_set *out, char *err, size_t len);
void history_set_free(history_set *h);
/* The runs of s a judgement takes (doc/history.md#runner-gate): ok, a
 * positive median, not busy or throttled, not left out by skip (NULL:
 * none); the last `window` of them, oldest first: their medians in med[],
 * their intervals in lo[] and hi[] (each of `window` places).  How many. */
int history_series_window(const history_series *s, int window,
                          int (*skip)(const history_point *p, const void *ctx), const void *ctx,
                          double *med, double *lo, double *hi);
/* Whether the trial key ("size=64, threads=1") matches each KEY=GLOB. */
int history_key_matches(const char *key, const char *const *filters, int n);
/* The machine's facts ("AMD EPYC, 2 cores, Haswell"), malloc'd; NULL when unknown. */
char *history_machine_summary(sqlite3 *db, const char *machine);

#endif
