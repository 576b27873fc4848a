/* roles.c - see roles.h. */
#include "experiment/roles.h"

#include <string.h>

/* run keys that choose how the work is done, and the others
 * (doc/results.md#plots-and-reports) */
static const char *const config_runkeys[] = {
    "workload", "device",   "threads",    "io",    "dtype", "batch",
    "affinity", "cold_cache", "parallel", "share", "spawn", NULL};
static const char *const work_runkeys[] = {"size", "repeats", "warmups", "timeout", "seed",
                                           "warmup_curve", "order", NULL};

/* the runner's own columns after gbps (doc/results.md#results) */
static const char *const runner_cols[] = {
    "throttled_samples", "throttled_kept", "throttle_check", "stop_reason", "batch_size",
    "noise",             "load_avg",       "steal",          "other_cpu",   "cpu_mhz",
    "cpu_max_mhz",       "cpus",           "warmup_calls",   "warmup_time", "warmup_unsteady",
    "lua_warning",       NULL};

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
    return strncmp(name, "device_", 7) && strncmp(name, "cold_", 5) && !in_list(runner_cols, name);
}
