/* workloads.h - what each built-in workload is, independent of any backend:
 * its parameters (with types, defaults and bounds, used to validate the
 * experiment file), what `size` means, the dtypes it supports, and its flop,
 * byte and memory counts.  The backends implement the computation. */
#ifndef RUNNER_WORKLOADS_H
#define RUNNER_WORKLOADS_H
/* public header of runner/experiment/registry/ */

#include "backend.h"

typedef enum { PT_INT, PT_FLOAT, PT_BOOL, PT_ENUM, PT_STR } param_type;

typedef struct param_spec {
    const char *name;
    param_type type;
    const char *dflt;    /* default, as text; NULL: no default (unset) */
    double min, max;     /* bounds for PT_INT / PT_FLOAT */
    const char *choices; /* PT_ENUM: "a|b|c" */
    const char *help;
} param_spec;

typedef struct workload_desc {
    const char *name;
    const char *size_means;
    const char *measures;
    long long default_size;
    const char *dtypes;                 /* "f32|f64|f16|bf16" */
    const param_spec *params;           /* NULL-name terminated */
    double (*flops)(const rn_trial *t); /* NULL: not stated */
    double (*bytes)(const rn_trial *t); /* NULL: not stated */
    double (*memory)(const rn_trial *t); /* buffers on its device, bytes */
    const char *extras;                  /* extra columns of the trial's row: "loss|accuracy" */
    int core; /* run by the runner itself (concurrent): on every backend there is */
    int blas; /* calls OpenBLAS on the CPU */
    /* what `share: split` divides among processes
     * (doc/timing.md#processes-and-threads): "size", or "m" (matmul's rows); NULL: nothing to
     * divide */
    const char *split;
    /* optional: for an integer parameter within its bounds, NULL when the
     * value is allowed, else what is, e.g. "6n + 2 (8, 14, 20, ...)" */
    const char *(*rule)(const char *param, long long v);
} workload_desc;

const workload_desc *workload_find(const char *name);
const workload_desc *workload_at(int i); /* NULL past the end */
const param_spec *workload_param(const workload_desc *w, const char *name);
int workload_supports_dtype(const workload_desc *w, const char *dtype);
/* The rule of the workload that owns p (see workload_desc.rule) for v:
 * NULL when v is allowed. */
const char *workload_param_rule(const param_spec *p, long long v);

#endif
