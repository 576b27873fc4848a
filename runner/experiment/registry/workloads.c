/* workloads.c - the registry of built-in workloads (one entry each). */
#include "experiment/registry/workloads.h"

#include "cnn_model.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define END_PARAMS {NULL, PT_INT, NULL, 0, 0, NULL, NULL}

/* Shared by the CUDA workloads that copy (doc/workloads.md#built-in-workloads): the value
 * used is reported as the host_memory_used column. */
#define HOST_MEMORY_PARAM                                                                  \
    {"host_memory", PT_ENUM, "auto", 0, 0, "auto|pageable|pinned",                         \
     "host buffers of the copies (auto: pinned for io: overlap, else pageable)"}
/* doc/timing.md#how-a-trial-is-timed: hold the stream until a sample is enqueued (io:
 * without): device time without the host's launch gaps, wall time a few
 * microseconds longer.  Off by default: wall time is the headline. */
#define BLOCKING_KERNEL_PARAM                                                              \
    {"blocking_kernel", PT_BOOL, "false", 0, 0, NULL,                                      \
     "io: without: hold the stream until the sample is enqueued (device time without launch gaps)"}
/* A testing aid (doc/workloads.md#fault-injection): the check must fail. */
#define INJECT_PARAM(choices)                                                              \
    {"inject", PT_ENUM, "none", 0, 0, choices,                                             \
     "testing aid: skip the copies or the kernels; the check must then fail"}

static double dim(const rn_trial *t, const char *key)
{
    double v = rn_param_num(t, key, -1);
    return v >= 0 ? v : (double)t->size;
}

/* matmul: C[m x n] = A[m x k] B[k x n]; size is n (m, k default to n). */
static double matmul_flops(const rn_trial *t)
{
    return 2.0 * dim(t, "m") * (double)t->size * dim(t, "k");
}
/* the compulsory traffic of a call, A and B read once and C written once
 * (3 n^2 elements for a square product): the least a call moves, the
 * roofline's usual count for a GEMM (doc/ceilings.md#the-roofline); its
 * buffers are the same three matrices */
static double matmul_bytes(const rn_trial *t)
{
    double m = dim(t, "m"), n = (double)t->size, k = dim(t, "k");
    return (m * k + k * n + m * n) * (double)rn_dtype_size(t->dtype);
}
static const param_spec matmul_params[] = {
    /* at least 1: an empty product would reach cuBLAS as ld = 0 */
    {"m", PT_INT, NULL, 1, 1 << 20, NULL, "rows of A and C (default: size)"},
    {"k", PT_INT, NULL, 1, 1 << 20, NULL, "inner dimension (default: size)"},
    {"math", PT_ENUM, "default", 0, 0, "default|tf32|pedantic", "cuBLAS math mode"},
    HOST_MEMORY_PARAM,
    BLOCKING_KERNEL_PARAM,
    INJECT_PARAM("none|skip_copy|skip_kernel"),
    END_PARAMS,
};

/* nested_sin: y = sin(sin(...sin(x))) `depth` times over `size` elements. */
static double nested_sin_flops(const rn_trial *t)
{
    return (double)t->size * rn_param_num(t, "depth", 4);
}
static double nested_sin_bytes(const rn_trial *t)
{
    /* fused: read x once, write y once; unfused: one read + one write per pass */
    double passes = rn_param_num(t, "fused", 0) != 0 ? 1 : rn_param_num(t, "depth", 4);
    return 2.0 * passes * (double)t->size * (double)rn_dtype_size(t->dtype);
}
static double nested_sin_memory(const rn_trial *t)
{
    return 3.0 * (double)t->size * (double)rn_dtype_size(t->dtype);
}
static const param_spec nested_sin_params[] = {
    {"depth", PT_INT, "4", 1, 1024, NULL, "applications of sin"},
    {"fused", PT_BOOL, "false", 0, 0, NULL, "one pass in all (true) or one per sin (false)"},
    HOST_MEMORY_PARAM,
    BLOCKING_KERNEL_PARAM,
    INJECT_PARAM("none|skip_copy|skip_kernel"),
    END_PARAMS,
};

/* sumsq: `size` iterations of sum(rand(length)^2). */
static double sumsq_flops(const rn_trial *t)
{
    return 2.0 * (double)t->size * rn_param_num(t, "length", 1000);
}
static double sumsq_memory(const rn_trial *t)
{
    /* one saved sum per iteration (for the check) and a few draw buffers */
    return 8.0 * (double)t->size + rn_param_num(t, "length", 1000) * 8.0 * 64;
}
static const param_spec sumsq_params[] = {
    {"length", PT_INT, "1000", 1, 1 << 24, NULL, "numbers drawn per iteration"},
    INJECT_PARAM("none|skip_kernel"),
    END_PARAMS,
};

/* axpb: x = -b / a for `size` equations a*x + b = 0. */
static double axpb_flops(const rn_trial *t)
{
    return 2.0 * (double)t->size;
}
static double axpb_bytes(const rn_trial *t)
{
    return 3.0 * (double)t->size * (double)rn_dtype_size(t->dtype);
}
static double axpb_memory(const rn_trial *t)
{
    return axpb_bytes(t);
}
static const param_spec axpb_params[] = {
    HOST_MEMORY_PARAM,
    BLOCKING_KERNEL_PARAM,
    INJECT_PARAM("none|skip_copy|skip_kernel"),
    END_PARAMS,
};

/* memcpy: `size` bytes in one direction.  d2d reads and writes device
 * memory: bytes read plus bytes written, as nvbench-style tools quote a
 * device-to-device bandwidth (doc/workloads.md#built-in-workloads). */
static double memcpy_bytes(const rn_trial *t)
{
    const char *d = rn_param_text(t, "direction", "h2d");
    return (strcmp(d, "d2d") == 0 ? 2.0 : 1.0) * (double)t->size;
}
static double memcpy_memory(const rn_trial *t)
{
    return 2.0 * (double)t->size;
}
static const param_spec memcpy_params[] = {
    {"direction", PT_ENUM, "h2d", 0, 0, "h2d|d2h|d2d", "copy direction"},
    {"pinned", PT_BOOL, "true", 0, 0, NULL,
     "page-locked host memory (the older spelling of host_memory, used when that is auto)"},
    {"host_memory", PT_ENUM, "auto", 0, 0, "auto|pageable|pinned",
     "host buffer of the copy (auto: as `pinned` says)"},
    INJECT_PARAM("none|skip_copy"),
    END_PARAMS,
};

/* mlp_train: size is the batch.  `layers` lists every width, input first
 * ("features" = the `features` parameter); see backends/mlp_data.h.
 * flops per call = 6 * rows * epochs * sum over layers of in * out (forward
 * 2, backward 4 per weight and row); unknown (NAN) with a `dataset`, whose
 * size only the backend reads. */
static int mlp_widths(const rn_trial *t, double features, double *w, int max)
{
    const char *s = rn_param_text(t, "layers", "features,32,16,2");
    int n = 0;
    while (*s && n < max) {
        while (*s == ' ' || *s == '[' || *s == ',')
            s++;
        if (!*s || *s == ']')
            break;
        char *end;
        if (strncmp(s, "features", 8) == 0) {
            w[n++] = features;
            s += 8;
        } else {
            double v = strtod(s, &end);
            if (end == s)
                return 0; /* the backend says what is wrong */
            w[n++] = v;
            s = end;
        }
        while (*s == ' ' || *s == ']')
            s++;
    }
    return n;
}
static int mlp_has_dataset(const rn_trial *t)
{
    const char *d = rn_param_text(t, "dataset", NULL);
    return d && *d;
}
static double mlp_train_flops(const rn_trial *t)
{
    double w[16], sum = 0;
    int n = mlp_widths(t, rn_param_num(t, "features", 13), w, 16);
    if (n < 2 || mlp_has_dataset(t))
        return NAN;
    for (int i = 0; i + 1 < n; i++)
        sum += w[i] * w[i + 1];
    return 6.0 * rn_param_num(t, "rows", 900) * rn_param_num(t, "epochs", 100) * sum;
}
/* The shape of a `dataset` CSV: data rows (lines after the header that hold
 * anything) and features (the header's fields less the label), 0; when the
 * file cannot be read (the backend then says why): -1. */
static int mlp_dataset_shape(const char *path, double *rows, double *feats)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    char buf[1 << 16];
    size_t got;
    double lines = 0, fields = 1;
    int in_header = 1, line_has_text = 0;
    while ((got = fread(buf, 1, sizeof buf, f)) > 0) {
        for (size_t i = 0; i < got; i++) {
            char c = buf[i];
            if (c == '\n') {
                if (!in_header && line_has_text)
                    lines++;
                in_header = 0;
                line_has_text = 0;
            } else if (in_header) {
                fields += c == ',';
            } else if (c != '\r' && c != ' ' && c != '\t') {
                line_has_text = 1;
            }
        }
    }
    if (!in_header && line_has_text)
        lines++;
    fclose(f);
    if (lines < 1 || fields < 2)
        return -1;
    *rows = lines;
    *feats = fields - 1;
    return 0;
}

static double mlp_train_memory(const rn_trial *t)
{
    /* parameters x 5 (weights, gradients, m, v, initial), activations,
     * the resident set and every epoch's permutation (io: without); with a
     * dataset, its own rows and features (the parameters are ignored then) */
    double rows = rn_param_num(t, "rows", 900), feats = rn_param_num(t, "features", 13);
    double drows, dfeats;
    if (mlp_has_dataset(t) &&
        mlp_dataset_shape(rn_param_text(t, "dataset", ""), &drows, &dfeats) == 0) {
        rows = drows;
        feats = dfeats;
    }
    double w[16], params = 0, widths = 0, widest = 0;
    int n = mlp_widths(t, feats, w, 16);
    for (int i = 0; i < n; i++) {
        widths += w[i];
        widest = w[i] > widest ? w[i] : widest;
        if (i + 1 < n)
            params += w[i] * w[i + 1] + w[i + 1];
    }
    double batch = (double)t->size < rows ? (double)t->size : rows;
    return 4.0 * (5 * params + batch * (widths + 2 * widest + 4 * (feats + 1) + 1) +
                  rows * (feats + 1) + rows * rn_param_num(t, "epochs", 100));
}
static const param_spec mlp_train_params[] = {
    {"layers", PT_STR, "features,32,16,2", 0, 0, NULL,
     "every layer width, input first, output last; 'features' = the data's feature count"},
    {"lr", PT_FLOAT, "0.001", 1e-12, 1e6, NULL, "AdamW learning rate"},
    {"epochs", PT_INT, "100", 1, 10000000, NULL, "passes over the data per call"},
    {"weight_decay", PT_FLOAT, "0.0001", 0, 1e6, NULL,
     "AdamW decoupled weight decay (weights only, not biases)"},
    {"dataset", PT_STR, NULL, 0, 0, NULL,
     "CSV: header, numeric features, integer label last (relative to the working directory); "
     "unset: synthetic"},
    {"rows", PT_INT, "900", 1, 1 << 28, NULL, "rows of the synthetic set"},
    {"features", PT_INT, "13", 1, 65536, NULL, "features of the synthetic set"},
    {"host_memory", PT_ENUM, "auto", 0, 0, "auto|pageable|pinned",
     "staging buffers of io: with / overlap (auto: pinned)"},
    END_PARAMS,
};

/* cnn_forward: a ResNet's forward pass over `size` images (backends/cnn_model.h). */
static double cnn_forward_flops(const rn_trial *t)
{
    cnn_cfg c;
    rn_error err;
    if (cnn_config(t, &c, &err))
        return NAN;
    return 2.0 * cnn_macs_per_image(&c) * (double)c.batch;
}
static double cnn_forward_memory(const rn_trial *t)
{
    cnn_cfg c;
    rn_error err;
    return cnn_config(t, &c, &err) ? 0 : cnn_memory_bytes(&c);
}
static const char *cnn_forward_rule(const char *param, long long v)
{
    if (!strcmp(param, "depth") && cnn_depth_ok(v))
        return "6n + 2 (8, 14, 20, 26, 32, 44, 56, 110, ...)";
    return NULL;
}
static const param_spec cnn_forward_params[] = {
    {"depth", PT_INT, "20", 8, CNN_MAX_DEPTH, NULL,
     "layers: 6n + 2 (n basic blocks per stage; 20, 32, 56, 110 as in the ResNet paper)"},
    {"width", PT_INT, "16", 1, CNN_MAX_WIDTH, NULL, "channels of the first stage (x2, x4 after)"},
    {"image", PT_INT, "32", 1, CNN_MAX_IMAGE, NULL, "side of the square input images"},
    {"channels", PT_INT, "3", 1, CNN_MAX_CHANNELS, NULL, "channels of the input images"},
    {"classes", PT_INT, "10", 1, CNN_MAX_CLASSES, NULL, "outputs of the final linear layer"},
    {"amp", PT_BOOL, "false", 0, 0, NULL,
     "autocast: f32 master weights cast to dtype (f16, bf16) every call"},
    END_PARAMS,
};

static const param_spec no_params[] = {END_PARAMS};

static const param_spec selftest_params[] = {
    {"action", PT_ENUM, "none", 0, 0, "none|sleep|fail|wrong|skip|segfault|abort|exit|hang|fault|trap",
     "what each call does"},
    {"seconds", PT_FLOAT, "0.001", 0, 86400, NULL, "sleep per call (action: sleep)"},
    {"in_process", PT_INT, "0", 0, 4096, NULL,
     "parallel: processes: the action happens in process K only (0: in every one)"},
    END_PARAMS,
};

/* concurrent: members run together; the runner core implements it
 * (runner/concurrent.c), whatever their backends. */
static const param_spec concurrent_params[] = {
    {"mode", PT_ENUM, "threads", 0, 0, "threads|streams|sequential",
     "run members at once (threads, streams) or one after another"},
    {"members", PT_STR, NULL, 0, 0, NULL, "list of workload specs"},
    END_PARAMS,
};

static const workload_desc registry[] = {
    {.name = "matmul", .size_means = "n of an n x n x n product",
     .measures = "GEMM through the BLAS / cuBLAS", .default_size = 1024,
     .dtypes = "f32|f64|f16|bf16", .params = matmul_params, .flops = matmul_flops,
     .bytes = matmul_bytes, .memory = matmul_bytes, .split = "m", .blas = 1},
    {.name = "nested_sin", .size_means = "elements",
     .measures = "depth applications of sin, fused or one pass each", .default_size = 1 << 20,
     .dtypes = "f32|f64", .params = nested_sin_params, .flops = nested_sin_flops,
     .bytes = nested_sin_bytes, .memory = nested_sin_memory, .split = "size"},
    {.name = "sumsq", .size_means = "iterations",
     .measures = "draw, square, sum: many small operations", .default_size = 1000,
     .dtypes = "f32", .params = sumsq_params, .flops = sumsq_flops, .memory = sumsq_memory,
     .split = "size"},
    {.name = "axpb", .size_means = "equations", .measures = "x = -b / a, element-wise",
     .default_size = 1 << 20, .dtypes = "f32|f64", .params = axpb_params, .flops = axpb_flops,
     .bytes = axpb_bytes, .memory = axpb_memory, .split = "size"},
    {.name = "mlp_train", .size_means = "batch size",
     .measures = "MLP training with AdamW: one call = every epoch", .default_size = 10,
     .dtypes = "f32", .params = mlp_train_params, .flops = mlp_train_flops,
     .memory = mlp_train_memory, .extras = "loss|accuracy", .blas = 1},
    {.name = "cnn_forward", .size_means = "batch (images)",
     .measures = "a ResNet's forward pass: im2col + GEMM on the CPU, cuDNN on CUDA",
     .default_size = 64, .dtypes = "f32|f16|bf16", .params = cnn_forward_params,
     .flops = cnn_forward_flops, .memory = cnn_forward_memory, .extras = "logit_error",
     .rule = cnn_forward_rule, .blas = 1},
    {.name = "memcpy", .size_means = "bytes", .measures = "host<->device and device copies",
     .default_size = 1 << 20, .dtypes = "f32|f64|f16|bf16", .params = memcpy_params,
     .bytes = memcpy_bytes, .memory = memcpy_memory},
    {.name = "concurrent", .size_means = "-",
     .measures = "members at once on their devices: each one's time, the sum, the speedup",
     .default_size = 0, .dtypes = "f32|f64|f16|bf16", .params = concurrent_params,
     .extras = "members_sum_seconds|sequential_seconds|speedup|speedup_ci95_low|"
               "speedup_ci95_high", .core = 1},
    {.name = "noop", .size_means = "-", .measures = "nothing: the harness's own overhead",
     .default_size = 0, .dtypes = "f32|f64|f16|bf16", .params = no_params},
    {.name = "selftest", .size_means = "-", .measures = "misbehaves on purpose: checks the harness",
     .default_size = 0, .dtypes = "f32|f64|f16|bf16", .params = selftest_params},
};

const workload_desc *workload_at(int i)
{
    if (i < 0 || i >= (int)(sizeof registry / sizeof registry[0]))
        return NULL;
    return &registry[i];
}

const workload_desc *workload_find(const char *name)
{
    const workload_desc *w;
    for (int i = 0; (w = workload_at(i)); i++)
        if (strcmp(w->name, name) == 0)
            return w;
    return NULL;
}

const param_spec *workload_param(const workload_desc *w, const char *name)
{
    for (const param_spec *p = w->params; p->name; p++)
        if (strcmp(p->name, name) == 0)
            return p;
    return NULL;
}

int workload_supports_dtype(const workload_desc *w, const char *dtype)
{
    size_t n = strlen(dtype);
    for (const char *s = w->dtypes; *s;) {
        const char *e = strchr(s, '|');
        size_t len = e ? (size_t)(e - s) : strlen(s);
        if (len == n && strncmp(s, dtype, n) == 0)
            return 1;
        s += len + (e ? 1 : 0);
    }
    return 0;
}

const char *workload_param_rule(const param_spec *p, long long v)
{
    const workload_desc *w;
    for (int i = 0; (w = workload_at(i)); i++)
        for (const param_spec *q = w->params; q->name; q++)
            if (q == p)
                return w->rule ? w->rule(p->name, v) : NULL;
    return NULL;
}
