/* main.c - `runner`: the command table, and the dispatch through it
 * (README.md#a-worked-example lists the commands). */
#include "cli/cli.h"
#include "cli/commands.h"
#include "cli/help.h"

#include <stdio.h>
#include <string.h>

static int cmd_help(const cli *c)
{
    /* runner plot --help, runner help plot: that command's help */
    if (!cli_command_help(c->help_of, c->help_of == CMD_RUN && c->nfiles ? c->files[0] : NULL,
                          stdout))
        cli_usage(stdout);
    return EXIT_OK;
}

static int cmd_version(const cli *c)
{
    (void)c;
    printf("runner %s (%s)\n", RUNNER_VERSION, RUNNER_GIT_REV);
    /* the licence the tree's LICENSE file grants (README.md#licence) */
    printf("MIT License: free to use, copy, modify and distribute; see the file LICENSE\n");
    return EXIT_OK;
}

/* the commands cli_parse reads the options of (run), then those that read
 * their own (own) */
static const cli_command commands[] = {
    {NULL, CMD_RUN, cmd_run, NULL},           {NULL, CMD_DRYRUN, cmd_dryrun, NULL},
    {"validate", CMD_VALIDATE, cmd_validate, NULL}, {"plot", CMD_PLOT, cmd_plot, NULL},
    {"report", CMD_REPORT, cmd_report, NULL}, {"list", CMD_LIST, cmd_list, NULL},
    {"merge", CMD_MERGE, cmd_merge, NULL},    {"export", CMD_EXPORT, cmd_export, NULL},
    {"help", CMD_HELP, cmd_help, NULL},       {NULL, CMD_VERSION, cmd_version, NULL},
    {"compare", CMD_COMPARE, NULL, cmd_compare_main}, {"submit", CMD_SUBMIT, NULL, cmd_submit_main},
    {"status", CMD_STATUS, NULL, cmd_status_main},    {"history", CMD_HISTORY, NULL, cmd_history_main},
    {"gate", CMD_GATE, NULL, cmd_gate_main},          {"machine", CMD_MACHINE, NULL, cmd_machine_main},
    {"new", CMD_NEW, NULL, cmd_new_main},             {"exec", CMD_EXEC, NULL, cmd_exec_main},
    {NULL, CMD_NONE, NULL, NULL},
};

int main(int argc, char **argv)
{
    cli_argc = argc;
    cli_argv = argv;
    /* compare, submit, status, new and exec parse their own options */
    for (const cli_command *k = commands; argc > 1 && k->cmd != CMD_NONE; k++)
        if (k->own && !strcmp(argv[1], k->word))
            return k->own(argc - 2, argv + 2);
    cli c;
    if (cli_parse(argc, argv, commands, &c) < 0) {
        cli_free(&c);
        return EXIT_INVALID;
    }
    int rc = EXIT_OK;
    for (const cli_command *k = commands; k->cmd != CMD_NONE; k++)
        if (k->cmd == c.cmd && k->run) {
            rc = k->run(&c);
            break;
        }
    cli_free(&c);
    return rc;
}
