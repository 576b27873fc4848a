/* run_types.h - what the caller of a run (run.h) gives it and gets back:
 * its options, the hand it reports to, and its outcome. */
#ifndef RUNNER_RUN_TYPES_H
#define RUNNER_RUN_TYPES_H
/* public header of runner/run/ */

#include "results/rundir/result.h"
#include "run/exec/trace_file.h"

#include <signal.h>

typedef struct run_opts {
    const char *output;   /* --output DIR: the run folder is made under it */
    const char *run_dir;  /* --run-dir DIR (written into; with a shard, its shard-K-of-N/), or NULL */
    int shard_k, shard_n; /* --shard K/N (shard_n 0: none): no charts, no report */
    int resume, no_plots, quiet, allow_unsafe_lua;
    int argc;   /* the command line, for the run's meta */
    char **argv;
    trace_file *trace; /* --trace FILE's timeline, shared by the experiments, or NULL */
    /* the history database (doc/history.md#what-is-recorded): --history PATH,
     * --revision TEXT, --no-history */
    const char *history, *revision;
    int no_history;
    volatile sig_atomic_t *interrupted; /* set on SIGINT or SIGTERM: the run stops */
} run_opts;

/* Where the run's messages and progress go (the caller prints). */
typedef struct run_hand {
    void *ctx;
    /* whole lines for stderr, to be shown at once */
    void (*say)(void *ctx, const char *lines);
    /* the trials left to run, before the first starts */
    void (*start)(void *ctx, long long todo);
    /* the i-th trial run (from 0) starts; desc names it (NULL unless `describe`) */
    void (*trial)(void *ctx, long long i, const char *desc);
    /* a trial ended after `seconds`; ran: 0 when it was skipped */
    void (*finished)(void *ctx, double seconds, int ran);
    int describe; /* the progress shows which trial runs */
} run_hand;

/* How a run ended. */
typedef enum {
    RUN_DONE,        /* every trial ran (some may have failed: run_outcome.any_failed) */
    RUN_INVALID,     /* nothing ran: the hooks or the run folder could not be opened */
    RUN_INTERRUPTED, /* stopped by a signal: finished trials are saved */
    RUN_WRITE_FAILED /* results could not be written */
} run_end;

#define RUN_MAX_REASONS 16

typedef struct run_outcome {
    char *run_dir; /* where the results are, or NULL when nothing ran */
    long long counts[ST_COUNT];
    double wall; /* seconds */
    int any_failed; /* a trial failed or timed out */
    /* skip reasons, counted ("28 skipped: no CUDA driver"), the first 16 */
    char *reason[RUN_MAX_REASONS];
    long long nreason[RUN_MAX_REASONS];
    int nreasons;
} run_outcome;

#endif
