/* run_files.h - the state of a run folder being written: its files, which
 * trials are done, its extra columns, its lock.  Shared by results.c (which
 * writes) and resume.c (which reads a folder back); see results.h. */
#ifndef RUNNER_RUN_FILES_H
#define RUNNER_RUN_FILES_H
/* internal header of runner/results/rundir/: other folders may not include it */

#include "base/util.h"

#include <sys/types.h>

typedef struct run_files {
    char *exp_dir;  /* OUTPUT/<name> */
    char *run_id;
    char *run_dir;  /* OUTPUT/<name>/<run-id> */
    int trials_fd, samples_fd;
    off_t trials_size, samples_size; /* what the files hold: a failed append is cut back to it */
    unsigned char *done; /* by trial id */
    long long ndone_here; /* finished trials of this experiment already saved */
    long long max_id;
    int resumed;
    long long last_id; /* of the last row written: rows out of order are sorted at the end */
    int out_of_order;
    char **extra; /* extra columns after gbps, in file order */
    int nextra;
    int nhdr;     /* how many of them trials.csv's header holds: cells of the
                   * others go to trials.more.csv until results_close folds
                   * them in (one rewrite per run, not one per new column) */
    int more_fd;  /* trials.more.csv (trial,column,value), opened when needed */
    off_t more_size;
    int lock_fd;  /* RUN/.lock, locked (fcntl) for the whole run; -1: none */
    long long damaged; /* rows dropped by --resume as damaged (re-run) */
    int may_be_latest; /* opened by results_open: OUTPUT/<name>/latest may point here */
    int col_threads;   /* the experiment's `threads` column, or -1 */
    int has_rows;      /* trials.csv may hold rows (resumed, or one written) */
    int has_ok;        /* trials.csv holds an ok row: `latest` may point here */
    strbuf line;       /* results_write's buffer, kept for the next trial */
} run_files;

#endif
