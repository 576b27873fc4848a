/* plots.c - placeholder until the gnuplot module lands. */
#include "plots.h"

int plots_render_run(const char *run_dir, const experiment *e, int quiet)
{
    (void)run_dir;
    (void)e;
    (void)quiet;
    return 0;
}

int report_write(const char *run_dir, int quiet)
{
    (void)run_dir;
    (void)quiet;
    return 0;
}
