/* keys.h - the run keys (those a trial runs with, and that may be swept):
 * one table row per key with its parser/validator, default and help. */
#ifndef RUNNER_KEYS_H
#define RUNNER_KEYS_H
/* public header of runner/experiment/ */

#include "base/diag.h"
#include "base/value.h"
#include "experiment/registry/workloads.h"
#include "experiment/yml.h"

/* Converts a YAML scalar to a generic value (int, float, bool, string).
 * Returns -1 (with a diagnostic) on a null, a non-scalar or a bad number. */
int scalar_value(const yaml_node_t *n, value *out, const char *what, diags *d);

/* Checks and normalises `v` for run key `k`; -1 with a diagnostic. */
typedef int (*key_check)(value *v, int line, int col, diags *d);

/* The most worker processes (blocks) `workers:` may ask of a trial. */
#define RUN_WORKERS_MOST 1000

typedef struct runkey {
    const char *name;
    key_check check;
    const char *dflt; /* NULL: none (size: the workload's own) */
    const char *help;
    /* a column only in files that name the key (doc/experiment-file.md#top-level-keys):
     * files without it keep their columns */
    int optional;
} runkey;

extern const runkey runkeys[];
extern const int nrunkeys;
enum { RK_WORKLOAD, RK_DEVICE, RK_THREADS, RK_IO, RK_DTYPE, RK_SIZE, RK_REPEATS, RK_WARMUPS,
       RK_TIMEOUT, RK_SEED, RK_COLD_CACHE, RK_BATCH, RK_AFFINITY, RK_PARALLEL, RK_SHARE,
       RK_SPAWN, RK_WARMUP_CURVE, RK_ORDER, RK_ENERGY, RK_WORKERS };

/* Checks a workload parameter against its spec (type, bounds, choices). */
int param_check(const param_spec *p, value *v, int line, int col, diags *d);

/* "90s", "5m", "1h", "250ms", "1h30m" or plain seconds -> seconds; -1 if bad. */
double parse_duration(const char *s);

/* Names of the run keys (device, threads, ...) in their canonical order. */
extern const char *const runkey_names[];
int runkey_index(const char *name);

#endif
