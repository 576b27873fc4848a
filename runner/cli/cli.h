/* cli.h - the command line: commands, options, and their checks. */
#ifndef RUNNER_CLI_H
#define RUNNER_CLI_H

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
    const char *trace;    /* --trace FILE.json (README "A timeline of a run") */
} cli;

/* The command line as given (set by main), for meta.json. */
extern int cli_argc;
extern char **cli_argv;

/* Parses argv; on error prints a message and returns -1 (exit 2). */
int cli_parse(int argc, char **argv, cli *c);
void cli_free(cli *c);
void cli_usage(FILE *out);

#endif
