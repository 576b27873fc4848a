/* help.h - `runner COMMAND --help` and `runner help COMMAND`: one command's
 * usage and options (README.md#a-worked-example, its command table). */
#ifndef RUNNER_HELP_H
#define RUNNER_HELP_H
/* internal header of runner/cli/: other folders may not include it */

#include "cli/cli.h"

#include <stdio.h>

/* Prints the help of `cmd`, or of the command named `name` when it is not
 * NULL; returns 0 when there is none (then the general usage is the help). */
int cli_command_help(command cmd, const char *name, FILE *out);

#endif
