/* cmd_plot.c - `runner plot RUN_DIR ...` and `runner report RUN_DIR`. */
#include "commands.h"
#include "plots.h"

#include <stdio.h>

int cmd_plot(const cli *c)
{
    (void)c;
    fprintf(stderr, "runner: plot is not available in this build yet\n");
    return EXIT_INVALID;
}

int cmd_report(const cli *c)
{
    (void)c;
    fprintf(stderr, "runner: report is not available in this build yet\n");
    return EXIT_INVALID;
}
