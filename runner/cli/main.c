/* main.c - `runner`: finds the command in the command table (cli.h) and
 * runs it (README "A worked example" lists the commands). */
#include "cli/cli.h"
#include "cli/commands.h"

#include <string.h>

int main(int argc, char **argv)
{
    cli_argc = argc;
    cli_argv = argv;
    /* compare, submit and status parse their own options */
    for (const cli_command *k = cli_commands; argc > 1 && k->cmd != CMD_NONE; k++)
        if (k->own && !strcmp(argv[1], k->word))
            return k->own(argc - 2, argv + 2);
    cli c;
    if (cli_parse(argc, argv, &c) < 0) {
        cli_free(&c);
        return EXIT_INVALID;
    }
    int rc = EXIT_OK;
    for (const cli_command *k = cli_commands; k->cmd != CMD_NONE; k++)
        if (k->cmd == c.cmd && k->run) {
            rc = k->run(&c);
            break;
        }
    cli_free(&c);
    return rc;
}
