/* commands.h - one function per command; each returns the exit status. */
#ifndef RUNNER_COMMANDS_H
#define RUNNER_COMMANDS_H

#include "cli.h"

#include <stdio.h>

/* Exit statuses (SPEC section 1). */
enum { EXIT_OK = 0, EXIT_TRIALS_FAILED = 1, EXIT_INVALID = 2, EXIT_INTERRUPTED = 130 };

int cmd_validate(const cli *c);
int cmd_dryrun(const cli *c);
int cmd_list(const cli *c);
int cmd_run(const cli *c);
int cmd_plot(const cli *c);
int cmd_report(const cli *c);
int cmd_merge(const cli *c);
/* runner compare OLD_RUN NEW_RUN [--threshold PCT] [--format text|md|csv|json] */
int cmd_compare_main(int nargs, char **args);
/* runner submit FILE.yaml [...] | --resume RUN_DIR, runner status RUN_DIR (cmd_submit.c) */
int cmd_submit_main(int nargs, char **args);
int cmd_status_main(int nargs, char **args);
int compare_runs(const char *old_dir, const char *new_dir, double threshold, const char *format,
                 FILE *out, FILE *err);

#endif
