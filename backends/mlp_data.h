/* mlp_data.h - what the CPU and CUDA implementations of `mlp_train` share:
 * the trial's parameters, the data set (a CSV file or a synthetic set), the
 * network's shape and parameter layout, the He initialisation, the per-epoch
 * shuffle, the AdamW constants, and a plain-loop evaluation of loss and
 * accuracy on the host.  C/C++-compatible: the code is in mlp_data.c, which
 * nvcc compiles into the CUDA backend as host code; no dependency on the
 * runner beyond runner/backend.h.
 *
 * Parameters (resolved by the runner; defaults in parentheses):
 *   size          the batch size; a batch larger than the set is the whole set
 *   layers        ("features,32,16,2") EVERY layer width, input first, output
 *                 last, as in doc/workloads.md#built-in-workloads:
 *                 [features, 32, 16, 2].  The first entry
 *                 is the word `features` or the data set's feature count; the
 *                 last must be at least the number of classes (max label + 1).
 *                 "13,2" (no hidden layer) is logistic regression.  Brackets
 *                 and spaces are allowed: "[13, 64, 2]".
 *   lr (0.001), epochs (100), weight_decay (0.0001: AdamW, decoupled,
 *                 weights only: w -= lr * wd * w; biases are not decayed)
 *   dataset       a CSV file: one header line, then rows of numeric features
 *                 with an integer class label >= 0 last.  A relative path is
 *                 relative to the current directory of the worker process
 *                 (where `runner` was started).  Features are used as they
 *                 are: standardise them beforehand.  Unset or empty: synthetic.
 *   rows (900), features (13)   the synthetic set (ignored with `dataset`)
 *
 * The synthetic set (two classes, learnable, about 10 % label noise), from the
 * trial's seed through Philox (philox.h), counter (i/4, i/4 >> 32, stream, sub):
 *   x[r][j] = N(0,1) number r*features + j of stream MLP_STREAM_X
 *   w[j]    = N(0,1) number j of stream MLP_STREAM_RULE
 *   y[r]    = (sum_j x[r][j] w[j] > 0), flipped where
 *             rn_uniform(seed, MLP_STREAM_NOISE, r) < 0.1
 * N(0,1) number i = Box-Muller of words 0 and 1 of block i (one block each).
 * Weights: He-normal, W_l[k] = N(0,1) number k of stream MLP_STREAM_INIT with
 * sub = l, times sqrt(2 / fan_in); biases 0.  Shuffle: a fresh Fisher-Yates
 * permutation of 0..rows-1 every epoch e, swap index for position i
 * (rows-1 down to 1) = floor(word * (i + 1) / 2^32), word = word i % 4 of the
 * block i / 4 of stream MLP_STREAM_SHUFFLE with sub = e.
 *
 * Parameter layout (one f32 array): every weight matrix, layer after layer,
 * then every bias vector (so AdamW decays exactly the first `nweights`).
 * W_l is row-major [in x out]: a layer computes Z = A W + b on row-major
 * activations A [batch x in].
 */
#ifndef BACKENDS_MLP_DATA_H
#define BACKENDS_MLP_DATA_H

#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "philox.h"

#define MLP_MAX_WIDTHS 16     /* input + hidden layers + output */
#define MLP_MAX_WIDTH 65536   /* units in one layer */
#define MLP_MAX_CLASSES 65536 /* labels 0 .. 65535 */
#define MLP_MAX_ROWS (1L << 28)
#define MLP_DEFAULT_LAYERS "features,32,16,2"

#define MLP_BETA1 0.9
#define MLP_BETA2 0.999
#define MLP_EPS 1e-8

#define MLP_STREAM_X 0x6d6c7000u
#define MLP_STREAM_RULE 0x6d6c7001u
#define MLP_STREAM_NOISE 0x6d6c7002u
#define MLP_STREAM_INIT 0x6d6c7003u
#define MLP_STREAM_SHUFFLE 0x6d6c7004u
#define MLP_LABEL_NOISE 0.1

/* The network: nw widths (nw - 1 layers) and where each layer's weights and
 * biases start in the parameter array. */
typedef struct mlp_net {
    int nw;
    int width[MLP_MAX_WIDTHS];
    size_t woff[MLP_MAX_WIDTHS], boff[MLP_MAX_WIDTHS];
    size_t nweights, nparams;
    int maxw; /* the widest layer, input included */
} mlp_net;

/* The data: rows x features row-major, one label per row. */
typedef struct mlp_data {
    long rows;
    int features;
    int classes; /* max label + 1 */
    float *x;
    int32_t *y;
} mlp_data;

typedef struct mlp_config {
    mlp_data data;
    mlp_net net;
    int batch; /* min(size, rows) */
    int epochs;
    double lr, wd;
    uint64_t seed;
    char source[256]; /* "synthetic 900 x 13" or the CSV path, for messages */
} mlp_config;

/* --- random numbers -------------------------------------------------------- */

static inline rn_philox_out mlp_block(uint64_t seed, uint32_t stream, uint32_t sub, uint64_t blk)
{
    return rn_philox4x32((uint32_t)blk, (uint32_t)(blk >> 32), stream, sub, (uint32_t)seed,
                         (uint32_t)(seed >> 32));
}

/* Standard normal number i of (stream, sub): Box-Muller of block i. */
static inline double mlp_normal(uint64_t seed, uint32_t stream, uint32_t sub, uint64_t i)
{
    rn_philox_out o = mlp_block(seed, stream, sub, i);
    double u1 = ((double)(o.v[0] >> 8) + 0.5) * (1.0 / 16777216.0); /* (0, 1) */
    double u2 = (double)(o.v[1] >> 8) * (1.0 / 16777216.0);         /* [0, 1) */
    return sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2);
}

/* perm = a fresh random permutation of 0 .. n-1 for epoch `epoch`. */
void mlp_shuffle(uint32_t *perm, long n, uint64_t seed, int epoch);

/* --- the network ------------------------------------------------------------- */

/* Parses `layers` against the data (features, classes); fills net. */
int mlp_parse_layers(const char *text, int features, int classes, mlp_net *net,
                     rn_error *err);

/* He-normal weights, zero biases. */
void mlp_init_params(const mlp_net *net, uint64_t seed, float *p);

/* AdamW (PyTorch's formulation), step t >= 1:
 *   w *= 1 - lr * wd                 (weights only)
 *   m = b1 m + (1 - b1) g;  v = b2 v + (1 - b2) g^2
 *   w -= step_size * m / (sqrt(v) / bc2_sqrt + eps)
 * with step_size = lr / (1 - b1^t) and bc2_sqrt = sqrt(1 - b2^t). */
static inline void mlp_adam_coeffs(double lr, long t, float *step_size, float *bc2_sqrt)
{
    *step_size = (float)(lr / (1.0 - pow(MLP_BETA1, (double)t)));
    *bc2_sqrt = (float)sqrt(1.0 - pow(MLP_BETA2, (double)t));
}

/* --- the data ------------------------------------------------------------------ */

void mlp_data_free(mlp_data *d);

int mlp_data_alloc(mlp_data *d, long rows, int features, rn_error *err);

int mlp_synthesize(mlp_data *d, long rows, int features, uint64_t seed, rn_error *err);


/* Reads a CSV file (see the top of this file).  Errors name FILE:LINE
 * (1-based), e.g. "data.csv:7: expected 14 numbers, got 13". */
int mlp_load_csv(const char *path, mlp_data *d, rn_error *err);

/* --- the trial ------------------------------------------------------------------ */

void mlp_config_free(mlp_config *c);

/* Reads and checks the parameters and loads the data: RN_PREPARE_OK,
 * RN_PREPARE_SKIP (a dtype other than f32) or -1 (failed), with err
 * filled. */
int mlp_config_load(const rn_trial *t, mlp_config *c, rn_error *err);

/* --- evaluation ------------------------------------------------------------------- */

/* Mean softmax cross-entropy and accuracy of the network `p` on every row,
 * in plain double-precision loops (the reference both backends use for the
 * initial and the final loss).  Returns -1 when out of memory. */
int mlp_evaluate(const mlp_net *net, const float *p, const mlp_data *d, double *loss,
                 double *accuracy);

/* check(): the loss must be finite and below the loss before training. */
int mlp_check_loss(const mlp_config *c, double before, double after, rn_error *err);

/* extras(): the loss and accuracy columns. */
void mlp_report(double loss, double accuracy, void *ctx,
                void (*cb)(void *ctx, const char *k, const char *v));

#endif
