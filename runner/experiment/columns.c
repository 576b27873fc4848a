/* columns.c - see columns.h. */
#include "experiment/columns.h"

#include "experiment/experiment.h"

#include <stdio.h>
#include <string.h>

const char *const columns_measured[] = {
    "status", "reason",        "samples",        "cold",      "min", "median",  "mean",
    "stddev", "max",           "median_ci_low",  "median_ci_high",  "ci_level", "h2d",
    "compute", "d2h",          "gflops",         "gbps",      NULL};

/* the runner's own columns after gbps (doc/results.md#results,
 * doc/timing.md#measurement-quality, doc/timing.md#the-warmup-curve);
 * device_* and cold_* by their prefix */
static const char *const runner_cols[] = {
    "throttled_samples", "throttled_kept", "throttle_check", "stop_reason", "batch_size",
    "noise",             "load_avg",       "steal",          "other_cpu",   "cpu_mhz",
    "cpu_max_mhz",       "cpus",           "warmup_calls",   "warmup_time", "warmup_unsteady",
    "first_calls",       "lua_warning",    "blocks",         "clock_gflops",
    /* doc/ceilings.md#percent-of-peak, doc/ceilings.md#energy-per-call */
    "pct_of_peak", "peak_bound", "joules_per_call", "joules_per_call_err", "watts", "idle_watts",
    "energy_call_seconds", "gflops_per_joule", "gb_per_joule", "energy_scope", "energy_note",
    /* workload: command (doc/own-code.md#columns) */
    "spawn_seconds", "protocol_seconds", "round_trip_seconds", "program_start_seconds",
    "spawn_spread_seconds", "spawn_starts", NULL};
static const char *const prefixes[] = {"device_", "cold_", NULL};

static int in_list(const char *const *list, const char *s)
{
    for (int i = 0; list[i]; i++)
        if (!strcmp(list[i], s))
            return 1;
    return 0;
}

int columns_runner_extra(const char *name)
{
    for (int i = 0; prefixes[i]; i++)
        if (!strncmp(name, prefixes[i], strlen(prefixes[i])))
            return 1;
    return in_list(runner_cols, name);
}

int columns_reserved(const experiment *e, const char *name)
{
    return !strcmp(name, "trial") || in_list(columns_measured, name) ||
           columns_runner_extra(name) || (e && experiment_column(e, name) >= 0);
}

void columns_filter_cb(void *ctx, const char *k, const char *v)
{
    columns_filter *f = ctx;
    if (!columns_reserved(f->e, k))
        f->send(f->send_ctx, k, v);
    else if (!f->bad[0])
        snprintf(f->bad, sizeof f->bad, "%s", k);
}

/* Appends ", s" (or s first) while it fits; a list cut short ends in "...". */
static void put(char *buf, size_t len, size_t *used, const char *s)
{
    if (*used + 2 + strlen(s) + 5 >= len) {
        if (*used + 5 < len && strcmp(buf + (*used >= 3 ? *used - 3 : 0), "...")) {
            memcpy(buf + *used, ", ...", 6);
            *used += 5;
        }
        return;
    }
    *used += (size_t)snprintf(buf + *used, len - *used, "%s%s", *used ? ", " : "", s);
}

const char *columns_reserved_list(const experiment *e, char *buf, size_t len)
{
    size_t used = 0;
    if (!len)
        return buf;
    buf[0] = '\0';
    put(buf, len, &used, "trial");
    for (int c = 0; e && c < e->ncols; c++)
        put(buf, len, &used, e->cols[c].name);
    for (int i = 0; columns_measured[i]; i++)
        put(buf, len, &used, columns_measured[i]);
    for (int i = 0; runner_cols[i]; i++)
        put(buf, len, &used, runner_cols[i]);
    put(buf, len, &used, "device_*");
    put(buf, len, &used, "cold_*");
    return buf;
}
