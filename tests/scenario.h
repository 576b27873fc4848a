/* scenario.h - the set-ups that the tests running bin/runner share: an
 * experiment file in a fresh folder, the newest run of an experiment and its
 * files, a trials table's cells.  runproc.h starts the runner itself. */
#ifndef TESTS_SCENARIO_H
#define TESTS_SCENARIO_H

#include "base/csv.h"
#include "runproc.h"

#include <stddef.h>

/* The size of the path buffers experiment_at fills. */
enum { SCENARIO_PATH = 4096 };

/* Writes DIR/FILE with `yaml`; sets exp to DIR/FILE and out to DIR/out, the
 * output folder (buffers of SCENARIO_PATH bytes). */
void experiment_at(const char *dir, const char *file, const char *yaml, char *exp, char *out);
/* Writes DIR/NAME with `text` and sets path (SCENARIO_PATH bytes) to it. */
void file_at(const char *dir, const char *name, const char *text, char *path);
/* experiment_at in a fresh tmpdir(), which it returns (malloc'd). */
char *experiment_in(const char *file, const char *yaml, char *exp, char *out);
/* experiment_in FILE (NAME.yaml) run by run_quiet, or run_with_fake of
 * fake-VARIANT.so when variant > 0, and the newest run of NAME's trials.csv
 * read into t (asserted).  Returns the folder (malloc'd). */
char *run_fresh(const char *file, const char *yaml, int variant, proc_out *r, csv_table *t);
/* Runs EXP as `runner --quiet --no-plots --output OUT EXP`; run_expect also
 * asserts its exit status is `want`. */
void run_quiet(const char *out, const char *exp, proc_out *r);
void run_expect(const char *out, const char *exp, int want, proc_out *r);
/* run_quiet with the fake CUDA backend fake-VARIANT.so of $RUNNER_FAKES. */
void run_with_fake(const char *out, const char *exp, int variant, proc_out *r);
/* Writes `yaml` as DIR/e.yaml, runs it as `runner --quiet --output DIR/res
 * DIR/e.yaml` (charts and report drawn), asserts exit 0, and sets run_dir
 * (SCENARIO_PATH bytes) to DIR/res/NAME/latest. */
void run_e_yaml(const char *dir, const char *yaml, const char *name, char *run_dir);
/* RUN_DIR/FILE's text (malloc'd; asserted). */
char *run_text(const char *run_dir, const char *file);
/* OUT/NAME/RUN/FILE of the newest run of experiment NAME (run ids sort by
 * time, "-K" suffixes by K): not OUT/NAME/latest, which only a finished run
 * with an ok trial earns (doc/results.md#results); the tests also look at
 * failed and cut runs. */
void newest_run_file(const char *out, const char *name, const char *file, char *path, size_t len);
/* Runs `runner --quiet --no-plots --resume --output out exp` and kills it
 * with SIGKILL after min_us plus up to span_us microseconds, again and
 * again (at most `rounds` starts and `most` kills, until a run finishes
 * first), then resumes it once more to the end into *r.  Returns the
 * number of kills. */
int kill_and_resume(const char *exp, const char *out, int rounds, int most, int min_us, int span_us,
                    proc_out *r);
/* The newest run's FILE read as a CSV table (asserted). */
void read_newest(const char *out, const char *name, const char *file, csv_table *t);
/* The lines of a file; -1 when it cannot be read. */
int count_lines(const char *path);
/* A file's text (its first 64 KiB; malloc'd), or NULL. */
char *read_all(const char *path);
/* CLOCK_MONOTONIC in seconds. */
double mono_now(void);
/* Row i of a trials table: none of the n columns `cols` holds a negative
 * duration, and the median lies in its interval. */
void assert_row_durations(const csv_table *t, int i, const char *const *cols, size_t n);

#endif
