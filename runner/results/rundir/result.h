/* result.h - what a trial came to: its status, its samples and the columns
 * of its row (doc/results.md#results).  The supervisor fills it from what a
 * worker sends; the run folder saves it and the report names its status. */
#ifndef RUNNER_RESULT_H
#define RUNNER_RESULT_H
/* public header of runner/results/rundir/ */

#include "backend.h"
#include "experiment/machine/sysload.h"

typedef enum { ST_OK = 0, ST_FAILED, ST_TIMEOUT, ST_SKIPPED, ST_INTERRUPTED } trial_status;
#define ST_COUNT 5

/* "ok", "failed", "timeout", "skipped", "interrupted" */
extern const char *const status_names[ST_COUNT];

typedef struct trial_result {
    trial_status status;
    char *reason;
    rn_sample *samples;
    int nsamples, cap;
    double cold;         /* NaN if no warmup */
    double flops, bytes; /* per call; NaN if not stated */
    char **extra_keys, **extra_vals; /* extra columns of the trial's row */
    int nextra;
    int ran; /* a worker ran it (order: interleaved keeps this across rounds) */
    load_sum load; /* how busy the machine was while the worker ran it */
} trial_result;

/* Sets extra column `key` of r to val (a copy), replacing an earlier value. */
void trial_result_add_extra(trial_result *r, const char *key, const char *val);
void trial_result_free(trial_result *r);

#endif
