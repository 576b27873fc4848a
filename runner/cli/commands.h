/* commands.h - one function per command; each returns the exit status. */
#ifndef RUNNER_COMMANDS_H
#define RUNNER_COMMANDS_H
/* internal header of runner/cli/: other folders may not include it */

#include "cli/cli.h"
#include "cli/exit_status.h"
#include "results/report/compare.h"
#include "run/run_types.h"
#include "experiment/config.h"

#include <stdio.h>


int cmd_validate(const cli *c);
int cmd_dryrun(const cli *c);
int cmd_list(const cli *c);
int cmd_run(const cli *c);
/* SIGINT and SIGTERM stop a run, its finished trials saved (cmd_run.c). */
void cmd_run_catch_signals(void);
/* Runs e as `runner FILE.yaml` does, with c's options and the progress line
 * on stderr; fills *r (free with run_outcome_free) (cmd_run.c). */
run_end cmd_run_experiment(const cli *c, const experiment *e, trace_file *T, run_outcome *r);
/* runner exec [OPTIONS] -- PROGRAM [ARG...] | 'COMMAND'... (cmd_exec.c,
 * doc/own-code.md#one-line-mode) */
int cmd_exec_main(int nargs, char **args);
int cmd_plot(const cli *c);
int cmd_report(const cli *c);
int cmd_merge(const cli *c);
int cmd_export(const cli *c);
/* runner compare OLD_RUN NEW_RUN | OLD... -- NEW... [--threshold PCT] [--noise-floor PCT]
 * [--ignore KEY] [--busy-ok] [--format text|md|csv|json] */
int cmd_compare_main(int nargs, char **args);
/* runner submit FILE.yaml [...] | --resume RUN_DIR, runner status RUN_DIR (cmd_submit.c) */
int cmd_submit_main(int nargs, char **args);
int cmd_status_main(int nargs, char **args);
/* runner history [import RUN_DIR...] (cmd_history.c), runner gate RUN_DIR (cmd_gate.c):
 * doc/history.md */
int cmd_history_main(int nargs, char **args);
int cmd_gate_main(int nargs, char **args);
/* runner machine [--show] [--reprobe] [--json] (cmd_machine.c) */
int cmd_machine_main(int nargs, char **args);
/* runner new workload NAME [--cuda] [--dir DIR] (cmd_new.c) */
int cmd_new_main(int nargs, char **args);
/* Compares the runs (results/report/compare.h) and writes the result to out, the
 * reasons for exit 2 to err (cmd_compare.c). */
int compare_runs(const char *const *old_dirs, int nold, const char *const *new_dirs, int nnew,
                 const compare_opts *opt, FILE *out, FILE *err);

#endif
