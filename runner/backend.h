/* backend.h - the interface between the runner and a compute backend.
 *
 * A backend (cpu, cuda) is a versioned table of function pointers, filled with
 * designated initialisers.  The runner checks `abi` and the required hooks
 * before using one (see backends.c), and says which hook is missing.  The CUDA
 * backend is a shared object loaded with dlopen(); it exports one symbol,
 * RN_BACKEND_SYMBOL, a function returning its table.
 *
 * Everything here is plain C data so that a backend compiled by another
 * compiler (nvcc) can share it.  Helpers are static inline for the same
 * reason: a backend never links against the runner executable.
 */
#ifndef RUNNER_BACKEND_H
#define RUNNER_BACKEND_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* 2: sample_begin, sample_check's "cannot tell" answer, cold_facts
 * 3: prepare()'s rn_prepare_status; a workload's optional work(),
 *    teardown() and diagnostic()
 * 4: range
 * 5: rn_tensor_ops.fuse_compile / fuse_run / fuse_free
 * 6: a workload's optional timed_begin() and unsettled()
 * 7: min_warm
 * 8: ceilings, energy (doc/ceilings.md) */
#define RN_BACKEND_ABI 8
#define RN_BACKEND_SYMBOL "runner_backend_entry"

typedef enum { RN_DEV_CPU = 0, RN_DEV_CUDA = 1 } rn_device_kind;
typedef enum { RN_IO_WITH = 0, RN_IO_WITHOUT = 1, RN_IO_OVERLAP = 2 } rn_io;
typedef enum { RN_F32 = 0, RN_F64 = 1, RN_F16 = 2, RN_BF16 = 3 } rn_dtype;

/* A failure message, written by a backend when a hook returns non-zero. */
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

/* A workload as one backend implements it
 * (doc/contributing/adding-a-workload.md#adding-a-workload). Required: name, prepare, run,
 * release.  prepare() allocates and fills inputs (untimed); run() is one timed call, returning
 * 0 or non-zero with err->msg filled; release() frees everything.  Optional hooks are NULL when
 * absent. */
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

/* A backend's workloads register themselves, one line at the end of each
 * workload's file, so that adding a workload touches no list of the
 * backend's (doc/contributing/adding-a-workload.md#adding-a-workload):
 *     RN_REGISTER_WORKLOAD(cpu_register_workload, cpu_matmul)
 * The function is the backend's own; it runs before main() (a constructor),
 * or when the backend's shared object is loaded. */
#define RN_REGISTER_WORKLOAD(register_fn, impl)                                                \
    __attribute__((constructor)) static void rn_register_##impl(void)                          \
    {                                                                                          \
        register_fn(&impl);                                                                    \
    }

typedef struct rn_device_info {
    char name[128];
    char detail[256];     /* capability, versions, ... */
    double memory_bytes;
    double free_bytes;
} rn_device_info;

/* Tensor operations for the Lua API (doc/lua.md#lua): f32 buffers that live
 * on the backend's device.  Every function returns 0, or non-zero with
 * err->msg filled.  `dev` is the device index.  Element-wise binary ops
 * broadcast an operand of one element.  Results may alias no input. */
typedef enum { RN_UN_NEG, RN_UN_SIN, RN_UN_POW, RN_UN_EXP, RN_UN_ABS } rn_unary_op;
typedef enum { RN_BIN_ADD, RN_BIN_SUB, RN_BIN_MUL, RN_BIN_DIV } rn_binary_op;
typedef enum { RN_FILL_UNIFORM, RN_FILL_NORMAL, RN_FILL_CONST } rn_fill_kind;

/* A fused element-wise expression (doc/lua.md#fused-expressions), built by the
 * Lua API's ctx:fuse(): nodes in topological order (operands before their
 * users), the last one the result.  Inputs are f32 tensors of n elements or
 * of one (broadcast); every operation is the tensor API's own, in f32. */
typedef enum {
    RN_FN_INPUT, /* argument `input` */
    RN_FN_CONST, /* the number k */
    RN_FN_NEG, RN_FN_SIN, RN_FN_EXP, RN_FN_ABS,
    RN_FN_POW,   /* a ^ k, as rn_tensor_ops.unary's RN_UN_POW */
    RN_FN_ADD, RN_FN_SUB, RN_FN_MUL, RN_FN_DIV
} rn_fuse_op;

typedef struct rn_fuse_node {
    rn_fuse_op op;
    int a, b;  /* operand nodes (b: binary ops only) */
    int input; /* RN_FN_INPUT: which argument, from 0 */
    double k;  /* RN_FN_CONST: the value; RN_FN_POW: the exponent */
} rn_fuse_node;

#define RN_FUSE_MAX_INPUTS 16
#define RN_FUSE_MAX_NODES 1024

typedef struct rn_fuse_expr {
    int ninputs, nnodes;
    const rn_fuse_node *nodes;
    const char *key; /* the nodes as text, one per line: equal keys, equal expressions */
} rn_fuse_expr;

typedef struct rn_tensor_ops {
    void *(*alloc)(int dev, size_t n, rn_error *err); /* n f32 elements */
    void (*release)(int dev, void *p);
    int (*upload)(int dev, float *dst, const float *host, size_t n, rn_error *err);
    int (*download)(int dev, float *host, const float *src, size_t n, rn_error *err);
    /* uniform: rn_uniform(seed, stream, offset + i); normal: Box-Muller of
     * two such draws; const: `value` */
    int (*fill)(int dev, float *dst, size_t n, rn_fill_kind kind, double value, uint64_t seed,
                uint32_t stream, uint64_t offset, rn_error *err);
    int (*unary)(int dev, rn_unary_op op, float *dst, const float *src, size_t n, double arg,
                 rn_error *err);
    int (*binary)(int dev, rn_binary_op op, float *dst, const float *a, size_t na,
                  const float *b, size_t nb, rn_error *err);
    int (*sum)(int dev, float *dst1, const float *src, size_t n, rn_error *err);
    /* row-major C[m x n] = A[m x k] B[k x n] */
    int (*matmul)(int dev, float *c, const float *a, const float *b, int m, int n, int k,
                  rn_error *err);
    int (*sync)(int dev, rn_error *err);
    /* optional (all three or none): fused expressions.  fuse_compile()
     * makes a kernel of e for device dev (*seconds: the time it took; 0 for
     * one cached before); fuse_run() computes dst[i] = e(in[0][i], ...) for
     * i < n, an input of nin[j] == 1 element standing for every i; fuse_free()
     * releases what fuse_compile() returned. */
    int (*fuse_compile)(int dev, const rn_fuse_expr *e, void **kernel, double *seconds,
                        rn_error *err);
    int (*fuse_run)(int dev, const void *kernel, float *dst, const float *const *in,
                    const size_t *nin, size_t n, rn_error *err);
    void (*fuse_free)(int dev, void *kernel);
} rn_tensor_ops;

/* Called by env_info() once per fact, e.g. ("cublas_version", "12.9.1"). */
typedef void (*rn_fact_cb)(void *ctx, const char *key, const char *value);

/* Called by ceilings() once per figure (doc/ceilings.md#the-ceilings):
 * what ("fp32", "tf32", "fp16", "bf16" in GFLOP/s; "bandwidth", "h2d",
 * "d2h" in GB/s), the measured figure and the nominal one (NAN: none). */
typedef void (*rn_ceiling_cb)(void *ctx, const char *what, double measured, double nominal,
                              const char *unit);

/* A device's energy counters as read now (doc/ceilings.md#energy-per-call):
 * n counters (RAPL: one per package; NVML: one per GPU) whose sum is the
 * device's energy; each counts joules up to wrap[i], where it restarts
 * from 0 (0: it never wraps).  resolution: joules of one step; update:
 * seconds between the counter's updates; scope: what it measures
 * ("board", "package"). */
#define RN_ENERGY_COUNTERS 8
typedef struct rn_energy {
    int n;
    double joules[RN_ENERGY_COUNTERS];
    double wrap[RN_ENERGY_COUNTERS];
    double resolution;
    double update;
    const char *scope;
} rn_energy;

typedef struct rn_backend {
    int abi;               /* RN_BACKEND_ABI */
    const char *name;      /* "cpu", "cuda" */
    /* required */
    int (*probe)(char *why, size_t len); /* 0 = usable; else the reason */
    int (*device_count)(void);
    int (*device_info)(int index, rn_device_info *out);
    const rn_workload_impl *(*workload)(const char *name); /* NULL: not here */
    /* optional */
    int (*select)(const rn_trial *t, rn_error *err); /* device + threads */
    /* cold_cache: evict the caches before a sample (untimed) */
    int (*flush_caches)(const rn_trial *t, rn_error *err);
    int (*free_memory)(int index, double *bytes);    /* for the fit check */
    void (*env_info)(void *ctx, rn_fact_cb cb);
    void (*shutdown)(void);
    const rn_tensor_ops *tensor; /* for the Lua tensor API; NULL: none */
    /* optional, right before each timed sample, outside the timed region:
     * starts what sample_check judges (the CUDA backend reads the SM clock
     * and the device's nanosecond timer, so the check sees the mean clock
     * over the sample, not one instant after it) */
    void (*sample_begin)(const rn_trial *t);
    /* optional, after each timed sample: 1 when the sample must be discarded
     * and retaken (the device was throttled during it), with the reason;
     * 0 when it was not; -1 when it cannot tell (why says why) */
    int (*sample_check)(const rn_trial *t, char *why, size_t len);
    /* optional, before a trial: text for a `device_warning` column (e.g.
     * other processes on the same GPU), or 0 when there is nothing to say */
    int (*device_warning)(const rn_trial *t, char *out, size_t len);
    /* optional, after the first warmup: first-time costs this trial paid, in
     * seconds, as cb(ctx, column, value), e.g. ("cold_context", "0.213") for
     * creating the device context, ("cold_module", "0.0042") for loading the
     * kernels' code; nothing for costs an earlier trial of the worker paid */
    void (*cold_facts)(const rn_trial *t, void *ctx,
                       void (*cb)(void *ctx, const char *k, const char *v));
    /* optional, when the run records a trace
     * (doc/results.md#a-timeline-of-a-run): begins (begin 1) or ends (0, the innermost) a named
     * range of the backend's own profiling tools around what the trace records (CUDA: NVTX), so
     * a profiler's timeline carries the same names */
    void (*range)(const char *name, int begin);
    /* optional: the least seconds a trial on this backend warms before the
     * steady-state rule may end its warmup (doc/timing.md#how-a-trial-is-timed,
     * step 4), at most its `warmup_time`; 0: the core's 0.01 s.  For
     * devices that speed up under load slower than their calls settle (a
     * GPU's clocks) */
    double min_warm;
    /* optional, since version 8: measures device dev's ceilings
     * (doc/ceilings.md#the-ceilings), one cb() per figure; 0, or non-zero
     * with err saying why not */
    int (*ceilings)(int dev, void *ctx, rn_ceiling_cb cb, char *err, size_t len);
    /* optional, since version 8: reads device dev's energy counters
     * (doc/ceilings.md#energy-per-call); 0, or non-zero with why saying why
     * there are none ("no RAPL on this machine") */
    int (*energy)(int dev, rn_energy *e, char *why, size_t len);
} rn_backend;

typedef const rn_backend *(*rn_backend_entry_fn)(void);

/* Parameter lookup for backends. */
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

#endif
