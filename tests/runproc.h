/* runproc.h - the runner started as a user starts it, for the tests that
 * drive bin/runner ($RUNNER_BIN): its exit status and output, and scratch
 * folders and files. */
#ifndef TESTS_RUNPROC_H
#define TESTS_RUNPROC_H

#include "base/csv.h"

#include <sys/types.h>

typedef struct proc_out {
    int status; /* exit code, or 128 + signal */
    char err[65536];
    char out[65536];
} proc_out;

/* $RUNNER_BIN (asserted set). */
const char *runner_bin(void);
/* A fresh folder under /tmp (malloc'd path). */
char *tmpdir(void);
/* DIR/NAME with TEXT. */
void write_text(const char *dir, const char *name, const char *text);
/* PATH with TEXT, executable when exec is set. */
void write_file(const char *path, const char *text, int exec);
/* Removes a folder and all it holds (rm -rf). */
void rm_rf(const char *dir);
/* Starts the runner with args (NULL-terminated); returns its pid. */
pid_t start(char *const args[], int *out_fd, int *err_fd);
/* The same in folder `cwd` (NULL: this one) with one more environment entry
 * "K=V" (NULL: none). */
pid_t start_in(const char *cwd, const char *env, char *const args[], int *out_fd, int *err_fd);
/* Reads a started runner's output and waits for it. */
void finish(pid_t pid, int ofd, int efd, proc_out *r);
/* start + finish. */
void run(char *const args[], proc_out *r);
/* Writes `yaml` as DIR/e.yaml and runs it into DIR/run (--quiet --no-plots
 * --run-dir) with the NULL-terminated extra arguments (NULL: none). */
void run_yaml_in(const char *d, const char *yaml, const char *const *extra, proc_out *r);
/* run_yaml_in with the charts and the report drawn (no --no-plots). */
void run_drawn_in(const char *d, const char *yaml, const char *const *extra, proc_out *r);
/* run_yaml_in a fresh tmpdir(); returns it (malloc'd). */
char *run_yaml(const char *yaml, const char *const *extra, proc_out *r);
/* DIR/run/trials.csv of run_yaml, read (asserted). */
void read_trials(const char *d, csv_table *t);
/* run(args) must exit with `status`, saying `msg` on stderr. */
void expect_exit(char *const args[], int status, const char *msg);
/* run_yaml_in DIR (run_trials: in a fresh tmpdir(), returned) with its exit
 * status asserted to be `want` (its stderr the message), and its
 * trials.csv read into t. */
void run_trials_in(const char *d, const char *yaml, int want, proc_out *r, csv_table *t);
char *run_trials(const char *yaml, int want, proc_out *r, csv_table *t);
/* Frees the table of a run_trials, removes its folder d and frees d. */
void trials_done(csv_table *t, char *d);
/* A fresh tmpdir() holding NAME with TEXT (malloc'd). */
char *dir_with(const char *name, const char *text);
/* A cell of a trials table by column name (the column and row asserted),
 * "" past the row's end; cell_num: its number, NaN when empty. */
const char *cell(const csv_table *t, int row, const char *col);
double cell_num(const csv_table *t, int row, const char *col);
/* Trial row `row` has status `status` (its reason the message) and, when
 * `reason` is not NULL, a reason that holds it. */
void expect_trial(const csv_table *t, int row, const char *status, const char *reason);
/* The table holds one trial per item of the '|'-separated `list`, row i
 * as its i-th item says: "STATUS" or "STATUS: PART OF ITS REASON", as
 * expect_trial checks them ("ok|failed: signal 11|ok"). */
void expect_statuses(const csv_table *t, const char *list);
/* `text` holds each of the NULL-ended `parts` (the text is the message). */
void expect_parts(const char *text, const char *const *parts);
/* Skips a timing test unless make test runs it alone (RUNNER_TIMING_TESTS):
 * timings need both cores to themselves. */
void skip_unless_timing(void);
/* Is process `pid` running (a zombie, left to a PID 1 that does not reap,
 * is not)? */
int proc_running(long pid);

#endif
