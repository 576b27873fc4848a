/* compare.h - is the new code faster or slower than the old?  The engine of
 * `runner compare OLD NEW` / `runner compare OLD1 OLD2 ... -- NEW1 NEW2 ...`
 * (README "Comparing runs"): runs loaded through rundir/rundir.h, trials
 * matched by their parameters, each pair tested (stats/mannwhitney.h) and
 * judged; compare_format writes the verdicts as text, markdown, CSV or
 * JSON.  Library code: reasons come back in strbufs, nothing is printed
 * (cli/cmd_compare.c prints). */
#ifndef RUNNER_COMPARE_H
#define RUNNER_COMPARE_H

#include "base/csv.h"
#include "base/util.h"

/* The noise assumed when each side has one run (README "Comparing runs";
 * calibrated with bench/aa.sh). */
#define COMPARE_NOISE_FLOOR 10.0
/* The q-value below which a pair can be faster or slower. */
#define COMPARE_ALPHA 0.05

typedef struct compare_opts {
    double threshold;          /* fixed effect threshold, %; NaN: derived */
    double noise_floor;        /* %, used with one run per side */
    const char *format;        /* text, md, csv, json */
    const char *const *ignore; /* keys left out of the matching */
    int nignore;
    int busy_ok; /* --busy-ok: judge trials run on a busy machine too */
} compare_opts;

/* One run, as loaded. */
typedef struct compare_run {
    const char *arg; /* the folder as given */
    char *dir;       /* the run folder used (arg, or the run arg/latest names) */
    csv_table t;     /* its trials table */
    int nkeys;      /* key columns: 1 .. nkeys of the header */
    int status_col, median_col, noise_col;
    int nrows;      /* trials, one row per trial id (the last one wins) */
    int *row;       /* row index in t, by trial order */
    long long *id;
    double **smp;   /* samples (seconds) of each trial */
    int *nsmp, *capsmp;
    char *host, *start; /* from its meta (README "Results"), or NULL */
} compare_run;

/* Loads the run `arg` names (a run folder, or an experiment folder: its
 * latest run): its trials table (one row per trial id, the last one
 * written wins, in trial order), the samples of each trial (a series that
 * starts again, a re-run, replaces the earlier one), host and start from
 * its meta.  0, or -1 with the reason in err (compare_load.c). */
int compare_run_load(compare_run *R, const char *arg, strbuf *err);
void compare_run_free(compare_run *R);
/* The cell of column col for the trial at position pos ("" when absent). */
const char *compare_cell(const compare_run *R, int pos, int col);
/* The name of key column k (0 .. nkeys-1). */
const char *compare_key(const compare_run *R, int k);

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
} compare_side;

typedef enum compare_kind {
    CMP_SAME,
    CMP_FASTER,
    CMP_SLOWER,
    CMP_NOT_COMPARED,
    CMP_ONLY_OLD,
    CMP_ONLY_NEW,
    CMP_BUSY,
    CMP_NKINDS
} compare_kind;

/* One matched trial: a row of the comparison. */
typedef struct compare_row {
    int *pos; /* position in each run, -1: absent */
    int order;
    compare_side o, n;
    double ratio, u, p, q, thr;
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

/* Checks opt, loads the runs and compares them into R.  0, or -1 with the
 * reasons in err, one a line (a bad option, a run folder that cannot be
 * read, naming its path); R is empty then.  opt must outlive R. */
int compare_build(const char *const *old_dirs, int nold, const char *const *new_dirs, int nnew,
                  const compare_opts *opt, compare_report *R, strbuf *err);
/* The value of parameter column i in row c. */
const char *compare_param(const compare_report *R, const compare_row *c, int i);
/* How many rows were matched (both sides, or busy), and how many of them
 * are slower. */
void compare_count(const compare_report *R, int *matched, int *slower);
void compare_free(compare_report *R);

/* Appends R to out in opt->format: "text", "md", "csv" or "json"
 * (compare_format.c). */
void compare_format(const compare_report *R, strbuf *out);

#endif
