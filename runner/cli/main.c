/* main.c - `runner`: dispatches the commands of README "A worked example" (its command table). */
#include "cli/cli.h"
#include "cli/commands.h"
#include "cli/help.h"

#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
    cli_argc = argc;
    cli_argv = argv;
    /* compare parses its own options (--threshold, --noise-floor, --ignore, --busy-ok, --format) */
    if (argc > 1 && !strcmp(argv[1], "compare"))
        return cmd_compare_main(argc - 2, argv + 2);
    /* submit and status (Slurm) parse their own options too */
    if (argc > 1 && !strcmp(argv[1], "submit"))
        return cmd_submit_main(argc - 2, argv + 2);
    if (argc > 1 && !strcmp(argv[1], "status"))
        return cmd_status_main(argc - 2, argv + 2);
    cli c;
    if (cli_parse(argc, argv, &c) < 0) {
        cli_free(&c);
        return 2;
    }
    int rc = 0;
    switch (c.cmd) {
    case CMD_HELP:
        /* runner plot --help, runner help plot */
        if (!cli_command_help(c.help_of, c.help_of == CMD_RUN && c.nfiles ? c.files[0] : NULL,
                              stdout))
            cli_usage(stdout);
        break;
    case CMD_VERSION:
        printf("runner %s (%s)\n", RUNNER_VERSION, RUNNER_GIT_REV);
        break;
    case CMD_VALIDATE:
        rc = cmd_validate(&c);
        break;
    case CMD_DRYRUN:
        rc = cmd_dryrun(&c);
        break;
    case CMD_LIST:
        rc = cmd_list(&c);
        break;
    case CMD_RUN:
        rc = cmd_run(&c);
        break;
    case CMD_PLOT:
        rc = cmd_plot(&c);
        break;
    case CMD_REPORT:
        rc = cmd_report(&c);
        break;
    case CMD_MERGE:
        rc = cmd_merge(&c);
        break;
    case CMD_EXPORT:
        rc = cmd_export(&c);
        break;
    }
    cli_free(&c);
    return rc;
}
