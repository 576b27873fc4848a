/* cli.h - the command line: commands, options, and their checks. */
#ifndef RUNNER_CLI_H
#define RUNNER_CLI_H
/* internal header of runner/cli/: other folders may not include it */

#include <stdio.h>

typedef enum {
    CMD_RUN,
    CMD_VALIDATE,
    CMD_DRYRUN,
    CMD_PLOT,
    CMD_REPORT,
    CMD_LIST,
    CMD_MERGE,
    CMD_EXPORT,
    CMD_HELP,
    CMD_VERSION,
    CMD_COMPARE,
    CMD_SUBMIT,
    CMD_STATUS,
    CMD_HISTORY,
    CMD_GATE,
    CMD_MACHINE,
    CMD_NEW,
    CMD_EXEC,
    CMD_NONE, /* ends cli_commands */
} command;

typedef struct cli {
    command cmd;
    char **files; /* experiment files, run dirs, or the list topic */
    int nfiles;
    const char *output; /* --output DIR */
    char **filters;     /* --filter KEY=GLOB */
    int nfilters;
    int resume, no_plots, quiet, allow_unsafe_lua;
    const char *config; /* plot --config FILE */
    int shard_k, shard_n; /* --shard K/N (0: none) */
    const char *run_dir;  /* --run-dir DIR */
    const char *format;   /* export --format json|csv */
    command help_of;      /* CMD_HELP: the command --help came after (CMD_RUN: none) */
    const char *trace;    /* --trace FILE.json (doc/results.md#a-timeline-of-a-run) */
    /* doc/history.md#what-is-recorded: --history PATH, --no-history, --revision TEXT */
    const char *history, *revision;
    int no_history;
} cli;

/* A row of the command table (main.c): a command, its word and the
 * function that runs it.  Most take the options of cli_parse (the word may
 * come after them); compare, submit and status parse their own and must
 * come first. */
typedef struct cli_command {
    const char *word; /* NULL: run and --dry-run, which have none */
    command cmd;
    int (*run)(const cli *c);           /* parsed by cli_parse */
    int (*own)(int nargs, char **args); /* or: the arguments after its word */
} cli_command;

/* The command line as given (set by main), for the run's meta
 * (doc/results.md#results). */
extern int cli_argc;
extern char **cli_argv;

/* Parses argv, the command's word found in `commands` (ends with CMD_NONE);
 * on error prints a message and returns -1 (exit 2). */
int cli_parse(int argc, char **argv, const cli_command *commands, cli *c);
void cli_free(cli *c);
void cli_usage(FILE *out);

#endif
