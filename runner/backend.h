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
 * 8: ceilings, energy (doc/ceilings.md)
 * 9: batch_begin, warm_carry */
#define RN_BACKEND_ABI 9
#define RN_BACKEND_SYMBOL "runner_backend_entry"

/* A workload's part of the contract (rn_trial, rn_sample, rn_workload_impl,
 * ...) is the public header that plugins build against: one definition.  A
 * change there raises its RN_WORKLOAD_INTERFACE and RN_BACKEND_ABI both
 * (doc/own-code-plugins.md#the-version-rule).  Included by its path beside
 * this file, so every build of a backend (nvcc, the test fakes) finds it. */
#include "../include/runner/workload.h"

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
    /* optional, since version 9 (doc/timing.md#how-a-trial-is-timed, step
     * 6): the next `calls` run() calls of the trial's workload are one
     * sample's batch (or a discarded one's), called back to back; the
     * worker calls it outside the timed region, never for the warmup's
     * calls nor for the core's concurrent, processes and command workloads.
     * A backend may then let every call but the last return before its
     * device is idle, and time the batch as one: the last call reports the
     * batch's device time over `calls`, the others NAN */
    void (*batch_begin)(const rn_trial *t, int calls);
    /* optional, since version 9: the longest idle gap, in seconds, after
     * which a device's warm state is lost (doc/timing.md#how-a-trial-is-timed,
     * step 4).  A trial whose worker's previous trial ran the same workload
     * on the same device of this backend, warmed at least min_warm (or
     * carried), and whose calls ended less than this before the trial's
     * warmup starts warms the core's 0.01 s at least, not min_warm; 0: no
     * carry, every trial warms min_warm */
    double warm_carry;
} rn_backend;

typedef const rn_backend *(*rn_backend_entry_fn)(void);

#endif
