/* plots_fixture.h - what the chart and report tests share: a copy of the
 * hand-made run tests/fixtures/matmul_run, files read and written, charts
 * checked on disk, and bin/runner run in a folder. */
#ifndef TESTS_PLOTS_FIXTURE_H
#define TESTS_PLOTS_FIXTURE_H

#include "experiment/config.h"
#include "runproc.h"

/* $RUNNER_ROOT, or "." */
const char *root(void);

/* A whole file (malloc'd; its length in *len when len is not NULL), or NULL. */
char *slurp(const char *path, size_t *len);

/* Writes `text` to `path` (asserted). */
void spit(const char *path, const char *text);

/* The targets and sizes the fixture run's experiment.yaml sweeps (YAML). */
#define FIXTURE_TARGETS                                                                            \
    "  target:\n    - {label: CPU, device: cpu}\n    - {label: GPU, device: cuda, io: with}\n"     \
    "    - {label: GPU no IO, device: cuda, io: without}\n"
#define FIXTURE_SWEEP "sweep:\n" FIXTURE_TARGETS "  size: {pow2: [4, 12]}\n"

/* A copy of the fixture run in a new folder (or in `dir` when given). */
char *fixture_copy(const char *dir);

/* unlink(DIR/NAME). */
int unlink_in(const char *dir, const char *name);

/* Whether DIR/NAME exists. */
int exists(const char *dir, const char *name);

/* DIR/plots/STEM.png is a PNG, .svg an SVG; assert_chart: both and the
 * chart's script STEM.gp. */
void assert_png(const char *dir, const char *stem);

void assert_svg(const char *dir, const char *stem);

void assert_chart(const char *dir, const char *stem);

/* DIR/NAME's text (malloc'd), or NULL. */
char *file_in(const char *dir, const char *name);

/* A finished runner: its exit status and stderr. */
typedef struct proc {
    int status;
    char err[65536];
} proc;

/* Runs the runner binary (RUNNER_BIN) in `cwd` with args; env: "K=V" or NULL. */
void run_bin(proc *p, const char *cwd, const char *env, char *const args[]);

#endif
