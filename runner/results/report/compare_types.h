/* compare_types.h - what a comparison holds (compare.h): its options,
 * sides, rows and report, apart from the functions, so that the parts of
 * compare (compare_noise.h) can use them. */
#ifndef RUNNER_COMPARE_TYPES_H
#define RUNNER_COMPARE_TYPES_H
/* public header of runner/results/report/ */

#include "base/util.h"
#include "results/report/compare_load.h"

/* The noise assumed when each side has one run (doc/compare.md#comparing-runs;
 * calibrated with bench/aa.sh). */
#define COMPARE_NOISE_FLOOR 10.0
/* The q-value below which a pair can be faster or slower. */
#define COMPARE_ALPHA 0.05

struct compare_report;
struct compare_row;

typedef struct compare_opts {
    double threshold;          /* fixed effect threshold, %; NaN: derived */
    double noise_floor;        /* %, used with one run per side */
    const char *format;        /* text, md, csv, json */
    const char *const *ignore; /* keys left out of the matching */
    int nignore;
    int busy_ok; /* --busy-ok: judge trials run on a busy machine or a throttled CPU or GPU too */
    /* The run-to-run noise of row c's trial from earlier runs of it (the
     * history database's: cli/cmd_compare.c gives it, so that this folder
     * needs no database): 0 with *sd the sd of one run's log median, *df
     * its degrees of freedom and *n the runs, or -1 when too few; NULL:
     * none (doc/compare.md#what-one-run-can-show). */
    int (*history_noise)(void *ctx, const struct compare_report *R, const struct compare_row *c,
                         double *sd, double *df, int *n);
    void *history_ctx;
} compare_opts;

/* A trial on one side (OLD or NEW). */
typedef struct compare_side {
    int run, pos;       /* the first run of the side that has the trial, its position; -1 */
    const char *status; /* "ok" when ok in some run, else the first run's status */
    int nruns;          /* runs where it is ok */
    int n;              /* samples over those runs */
    double median;      /* median of their per-run medians */
    double spread;      /* max / min - 1 of the per-run medians; NaN with < 2 */
    double drift;       /* upper / lower quartile - 1 of the block medians of a run, the largest */
    int busy;           /* ok runs whose `noise` says the machine was busy */
    int throttled;      /* ok runs where the CPU or GPU was throttled (compare_trial.h) */
    double explains;    /* the most its ok runs' machine could slow it (compare_trial.h) */
    double clock;       /* median one-core speed of its ok runs, GFLOP/s; NaN: unknown */
    int noblocks;       /* ok runs without usable worker blocks (older or tampered) */
} compare_side;

typedef enum compare_kind {
    CMP_SAME,
    CMP_FASTER,
    CMP_SLOWER,
    CMP_NOT_COMPARED,
    CMP_ONLY_OLD,
    CMP_ONLY_NEW,
    CMP_BUSY,
    CMP_THROTTLED,
    CMP_INCONCLUSIVE, /* no change seen, but none as large as the threshold could be */
    CMP_NKINDS
} compare_kind;

/* One matched trial: a row of the comparison. */
typedef struct compare_row {
    int *pos; /* position in each run, -1: absent */
    int order;
    compare_side o, n;
    double ratio, u, p, q, thr;
    /* the smallest change it could have detected (0.12: +-12 %; INFINITY:
     * none), and on what the noise was measured; why: the reason of an
     * `inconclusive` verdict (doc/compare.md#what-one-run-can-show) */
    double detectable;
    const char *basis; /* blocks, runs, history (earlier runs' spread), cuts */
    int nhist;         /* the earlier runs whose spread was looked at; 0: none */
    char why[96];
    int exact, per_run, nrep_o, nrep_n;
    char verdict[96];
    compare_kind kind;
} compare_row;

/* A parameter column shown. */
typedef struct compare_column {
    const char *name;
    int *col; /* column in each run's trials table, -1 when absent */
} compare_column;

typedef struct compare_report {
    compare_run *runs;
    int nold, nruns; /* runs 0 .. nold-1 are OLD, the rest NEW */
    compare_column *cols; /* parameter columns shown */
    int ncols;
    compare_row *rows;
    int nrows, ntests;
    strbuf notes; /* lines for the text and markdown headers */
    const compare_opts *opt;
} compare_report;

#endif
