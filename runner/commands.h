/* commands.h - one function per command; each returns the exit status. */
#ifndef RUNNER_COMMANDS_H
#define RUNNER_COMMANDS_H

#include "cli.h"

/* Exit statuses (SPEC section 1). */
enum { EXIT_OK = 0, EXIT_TRIALS_FAILED = 1, EXIT_INVALID = 2, EXIT_INTERRUPTED = 130 };

int cmd_validate(const cli *c);
int cmd_dryrun(const cli *c);
int cmd_list(const cli *c);
int cmd_run(const cli *c);
int cmd_plot(const cli *c);
int cmd_report(const cli *c);

#endif
