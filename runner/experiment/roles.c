/* roles.c - see roles.h. */
#include "experiment/roles.h"

#include "experiment/columns.h"

#include <string.h>

/* run keys that choose how the work is done, and the others
 * (doc/results.md#plots-and-reports) */
static const char *const config_runkeys[] = {
    "workload", "device",   "threads",    "io",    "dtype", "batch",
    "affinity", "cold_cache", "parallel", "share", "spawn", NULL};
static const char *const work_runkeys[] = {"size", "repeats", "warmups", "timeout", "seed",
                                           "warmup_curve", "order", "energy", "workers",
                                           NULL};

static int in_list(const char *const *list, const char *s)
{
    for (int i = 0; list[i]; i++)
        if (!strcmp(list[i], s))
            return 1;
    return 0;
}

int column_is_config(const char *name, int numeric, int linked)
{
    if (linked || in_list(config_runkeys, name))
        return 1;
    if (in_list(work_runkeys, name))
        return 0;
    return !numeric;
}

int column_is_extra(const char *name)
{
    return !columns_runner_extra(name);
}
