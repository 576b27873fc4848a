/* runner/workload.h - the workload interface of runner, public: what a
 * built-in workload, a backend's workload and a plugin (`workload:
 * plugin:PATH.so:NAME`) implement (doc/own-code-plugins.md).
 *
 * `make install` installs it as PREFIX/include/runner/workload.h with a
 * runner.pc for pkg-config; runner/backend.h includes it, so the runner and
 * its plugins share one definition.  Everything here is plain C data and
 * static inline helpers, so that a plugin compiled by another compiler (g++,
 * nvcc) shares it and never links against the runner.
 *
 * The interface version: RN_WORKLOAD_INTERFACE.  Any change to what this
 * file defines raises it (and the backend ABI of runner/backend.h), and the
 * runner runs a plugin built for its own version only: another version's
 * trials are skipped with a reason naming both
 * (doc/own-code-plugins.md#the-version-rule).
 *   1: the first public version (backend ABI 8) */
#ifndef RUNNER_WORKLOAD_H
#define RUNNER_WORKLOAD_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define RN_WORKLOAD_INTERFACE 1

#ifdef __cplusplus
extern "C" {
#endif

typedef enum { RN_DEV_CPU = 0, RN_DEV_CUDA = 1 } rn_device_kind;
typedef enum { RN_IO_WITH = 0, RN_IO_WITHOUT = 1, RN_IO_OVERLAP = 2 } rn_io;
typedef enum { RN_F32 = 0, RN_F64 = 1, RN_F16 = 2, RN_BF16 = 3 } rn_dtype;

/* A failure message, written by a workload or backend when a hook returns non-zero. */
typedef struct rn_error {
    char msg[1024];
} rn_error;

/* One workload parameter as a backend sees it: its resolved value. */
typedef struct rn_param {
    const char *name;
    const char *text; /* canonical text, e.g. "true", "4", "tf32" */
    double num;       /* numeric value where the text is a number or bool */
} rn_param;

/* Everything one trial runs with, resolved (defaults applied). */
typedef struct rn_trial {
    const char *workload;
    rn_device_kind device;
    int device_index;
    int threads; /* >= 1, "all" already resolved */
    rn_io io;
    rn_dtype dtype;
    long long size;
    uint64_t seed;
    int cold_cache;
    const rn_param *params;
    int nparams;
} rn_trial;

/* One timed call.  The harness fills `seconds` (host clock around run(),
 * which must return only once the device is idle; the core's `concurrent`
 * alone sets it, to its together call).  A backend fills the
 * rest where it measures them, and leaves NAN where it does not. */
typedef struct rn_sample {
    double seconds;
    double device_seconds;
    double h2d, compute, d2h;
} rn_sample;

static inline void rn_sample_clear(rn_sample *s)
{
    s->seconds = NAN;
    s->device_seconds = NAN;
    s->h2d = s->compute = s->d2h = NAN;
}

/* What prepare() returns (an int, so that C++ backends may return these
 * names or plain 0).  A skipped trial is not a failure: it cannot run here
 * (a dtype the backend lacks, a library that is absent) and err->msg says
 * why; it is saved as `skipped` with that reason.  Any other non-zero value
 * is a failure, as RN_PREPARE_FAIL. */
typedef enum rn_prepare_status {
    RN_PREPARE_OK = 0,   /* ready to run */
    RN_PREPARE_FAIL = 1, /* the trial failed; err->msg says why */
    RN_PREPARE_SKIP = 2, /* the trial is skipped; err->msg says why */
} rn_prepare_status;

/* A workload as one backend or plugin implements it (doc/own-code-plugins.md#the-functions).
 * Required: name, prepare, run, release.  prepare() allocates and fills
 * inputs (untimed); run() is one timed call, returning 0 or non-zero with
 * err->msg filled; release() frees everything.  Optional hooks are NULL
 * when absent. */
typedef struct rn_workload_impl {
    const char *name;
    int (*prepare)(const rn_trial *t, void **state, rn_error *err); /* rn_prepare_status */
    int (*run)(void *state, rn_sample *s, rn_error *err);
    /* optional: compares the output of the last run() with a reference:
     * 0 when right, non-zero with err->msg saying what differs */
    int (*check)(void *state, rn_error *err);
    void (*release)(void *state);
    /* optional: extra columns of the trial's row after the samples,
     * reported as cb(ctx, column, value) (e.g. "loss", "0.31") */
    void (*extras)(void *state, void *ctx, void (*cb)(void *ctx, const char *k, const char *v));
    /* optional: the work of one call as the prepared state knows it
     * (flops, bytes; NAN where unknown), when the registry's formulas do not
     * apply (Lua workloads state their own) */
    void (*work)(void *state, double *flops, double *bytes);
    /* optional: user code to run before release(), whose failure fails
     * the trial (a Lua workload's teardown); 0 or non-zero with err->msg */
    int (*teardown)(void *state, rn_error *err);
    /* optional: what went wrong in user code that did not fail the trial
     * (a Lua extras() that raised), or NULL; saved in the trial's
     * `<name>_warning` column (lua_warning) */
    const char *(*diagnostic)(void *state);
    /* optional: the timed calls start now (after the warmup and the
     * discarded batches): what the workload counts for the trial's columns
     * counts from here (doc/timing.md#how-a-trial-is-timed) */
    void (*timed_begin)(void *state);
    /* optional: non-zero when the last call ran under conditions that the
     * warmup must not call steady (processes the OS put on one CPU) */
    int (*unsettled)(const void *state);
} rn_workload_impl;

/* Parameter lookup: the trial's value of a parameter, or a default. */
static inline const rn_param *rn_trial_param(const rn_trial *t, const char *name)
{
    for (int i = 0; i < t->nparams; i++)
        if (strcmp(t->params[i].name, name) == 0)
            return &t->params[i];
    return NULL;
}

static inline double rn_param_num(const rn_trial *t, const char *name, double dflt)
{
    const rn_param *p = rn_trial_param(t, name);
    return p ? p->num : dflt;
}

static inline const char *rn_param_text(const rn_trial *t, const char *name, const char *dflt)
{
    const rn_param *p = rn_trial_param(t, name);
    return p ? p->text : dflt;
}

static inline size_t rn_dtype_size(rn_dtype d)
{
    return d == RN_F64 ? 8 : d == RN_F32 ? 4 : 2;
}

static inline const char *rn_dtype_name(rn_dtype d)
{
    static const char *const n[] = {"f32", "f64", "f16", "bf16"};
    return n[d];
}


/* ---- plugins (doc/own-code-plugins.md#a-plugin) --------------------------
 * A plugin is a shared library that exports one function, runner_plugin,
 * returning its table: the interface version it was built with (always the
 * first member, whatever later versions add) and its workloads.  Write
 *     RN_PLUGIN(&my_workload, &my_other_workload)
 * once in one file of the plugin.  The runner loads it in the worker process
 * that runs the trial (never in the runner itself), so a plugin that crashes
 * fails its trial only. */
#define RN_PLUGIN_SYMBOL "runner_plugin"

typedef struct rn_plugin {
    int interface;                            /* RN_WORKLOAD_INTERFACE */
    const rn_workload_impl *const *workloads; /* ends with NULL */
} rn_plugin;

typedef const rn_plugin *(*rn_plugin_fn)(void);

#ifdef __cplusplus
#define RN_PLUGIN_EXTERN_C extern "C"
#else
#define RN_PLUGIN_EXTERN_C
#endif

#define RN_PLUGIN(...)                                                                        \
    RN_PLUGIN_EXTERN_C __attribute__((visibility("default"))) const rn_plugin *runner_plugin(  \
        void);                                                                                \
    RN_PLUGIN_EXTERN_C __attribute__((visibility("default"))) const rn_plugin *runner_plugin(  \
        void)                                                                                 \
    {                                                                                         \
        static const rn_workload_impl *const rn_plugin_list_[] = {__VA_ARGS__, NULL};         \
        static const rn_plugin rn_plugin_table_ = {RN_WORKLOAD_INTERFACE, rn_plugin_list_};   \
        return &rn_plugin_table_;                                                             \
    }

#ifdef __cplusplus
}
#endif

#endif
