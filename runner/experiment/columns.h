/* columns.h - the columns of the trials table that the runner writes
 * itself, and so the names no user column may take
 * (doc/results.md#reserved-column-names).
 *
 * The one list of them: rundir/ writes its header from it, and every
 * source of user columns (a workload's extras, a hook's after_trial, a
 * command or plugin workload's replies) asks columns_reserved() before a
 * column joins a trial's row, so that no user column replaces a measured or
 * identifying cell. */
#ifndef RUNNER_COLUMNS_H
#define RUNNER_COLUMNS_H
/* public header of runner/experiment/ */

#include <stddef.h>

struct experiment;

/* The fixed columns after the experiment's keys, in the header's order:
 * "status", "reason", "samples", ..., "gbps"; NULL-terminated. */
extern const char *const columns_measured[];

/* 1 when `name` is a column the runner writes: `trial`, a column of
 * columns_measured, one of the runner's own columns after gbps (noise,
 * load_avg, stop_reason, warmup_calls, ...), a device_* or cold_* column,
 * or (e not NULL) one of e's key columns (size, threads, a parameter). */
int columns_reserved(const struct experiment *e, const char *name);

/* 1 when `name` is one of the runner's own columns after gbps (the
 * measurement-quality, warmup and device columns), which a workload or
 * hook does not write. */
int columns_runner_extra(const char *name);

/* A workload's extras() reports its columns through columns_filter_cb
 * with a columns_filter as its ctx: a column that is not reserved (for e)
 * goes on to send(send_ctx, k, v); the first that is lands in `bad`, and
 * the caller fails the trial naming it
 * (doc/results.md#reserved-column-names). */
typedef struct columns_filter {
    const struct experiment *e;
    void (*send)(void *ctx, const char *k, const char *v);
    void *send_ctx;
    char bad[128]; /* "" until a reserved name came */
} columns_filter;
void columns_filter_cb(void *ctx, const char *k, const char *v);

/* The reserved names for a message: "trial, <e's keys>, status, ...,
 * device_*, cold_*" (e may be NULL), written into buf. */
const char *columns_reserved_list(const struct experiment *e, char *buf, size_t len);

#endif
