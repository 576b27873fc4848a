/* cnn_model.h - the network of `cnn_forward` (doc/workloads.md#cnn_forward), shared
 * by the workload registry (flops, memory), the CPU backend, the CUDA
 * backend (nvcc compiles cnn_model.c as host code) and the tests.
 * C/C++-compatible, with no dependency on the runner beyond backend.h.
 *
 * The network is the CIFAR ResNet of He et al., "Deep Residual Learning for
 * Image Recognition" (2016), section 4.2, with projection shortcuts:
 *   stem    conv 3x3, channels -> width, stride 1, batch-norm, ReLU
 *   3 stages of `blocks` basic blocks each (depth = 6 blocks + 2 layers);
 *           stage s has width * 2^s channels; the first block of stages 1
 *           and 2 halves the image (stride 2) and its shortcut is a 1x1
 *           stride-2 convolution with batch-norm
 *   block   y = relu(bn2(conv2(relu(bn1(conv1(x))))) + shortcut(x))
 *   head    global average pooling, then a linear layer to `classes` logits
 * Convolutions are 3x3 with padding 1 (the shortcuts 1x1, no padding); an
 * image of side H becomes ceil(H / 2) at a stride of 2.
 *
 * Batch-norm is inference batch-norm folded into the convolution before it:
 * per output channel a scale (gamma / sqrt(var + eps)) multiplies the
 * weights and a shift (beta - mean * scale) becomes the bias, so a layer is
 * y = act(conv(x, W * scale) + shift [+ residual]).
 *
 * Every number comes from the trial's seed through Philox (philox.h):
 *   image element (b, c, y, x), NCHW order index i = ((b C + c) H + y) W + x:
 *     2 rn_uniform(seed, CNN_STREAM_IMAGES, i) - 1, in [-1, 1)
 *   parameter j of the flat array below (u = rn_uniform(seed, CNN_STREAM_PARAMS, j)):
 *     conv weight   (2u - 1) sqrt(6 / fan_in)   (He-uniform), then times the scale
 *     shift         0.2 u - 0.1 (the bias of output channel o, at index j)
 *     scale         of output channel o: with v = rn_uniform(seed,
 *                   CNN_STREAM_SCALES, j) at its bias's index j, 0.5 + 0.5 v,
 *                   but 0.2 + 0.2 v on a block's conv2, whose output is added
 *                   to the shortcut (a smaller residual branch keeps the
 *                   activations in range at any depth, as trained ResNets do)
 *     linear weight (2u - 1) sqrt(1 / features), linear bias 0.2 u - 0.1
 * Flat parameter array: for each convolution in run order (below), its
 * weights [cout][cin][k][k] then its cout biases; then the linear layer's
 * weights [classes][features] and its classes biases.
 *
 * Run order of the convolutions: the stem, then per block its shortcut
 * convolution (first blocks of stages 1 and 2 only), conv1, conv2.
 * Activations live in up to five buffers: 0 holds the images, 1..4 the
 * layers' outputs; cnn_next() says which buffer each convolution reads,
 * writes and adds.
 */
#ifndef BACKENDS_CNN_MODEL_H
#define BACKENDS_CNN_MODEL_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "philox.h"

#define CNN_STREAM_IMAGES 0u
#define CNN_STREAM_PARAMS 1u
#define CNN_STREAM_SCALES 2u

#define CNN_MAX_DEPTH 1202 /* ResNet-1202, the paper's deepest */
#define CNN_MAX_WIDTH 1024
#define CNN_MAX_IMAGE 1024
#define CNN_MAX_CHANNELS 64
#define CNN_MAX_CLASSES 100000

typedef struct cnn_cfg {
    int depth, blocks; /* depth = 6 blocks + 2 */
    int width, image, channels, classes;
    long long batch;
    rn_dtype dtype; /* storage of weights and activations */
    int amp;        /* doc/workloads.md#cnn_forward: what amp: true means */
} cnn_cfg;

/* One convolution (batch-norm folded) with its epilogue. */
typedef struct cnn_conv {
    int cin, cout, k, stride, pad;
    int hin, hout; /* square images: side in and out */
    int relu;
    int src, dst, add; /* buffers read, written, and added (-1: none) */
    size_t woff, boff; /* offsets of the weights and biases in the flat array */
    int scale_small;   /* conv2 of a block: the smaller scale (see above) */
} cnn_conv;

/* Walks the convolutions in run order. */
typedef struct cnn_cursor {
    int stage, block, part; /* part: 0 shortcut, 1 conv1, 2 conv2 */
    int x;                  /* buffer holding the block's input */
    int h, y, s;            /* buffers of conv1's output, the block's output, the shortcut */
    int c, side;            /* channels and side of the block's input */
    size_t off;             /* next free offset in the flat array */
    int started, done;
} cnn_cursor;

/* 0 when depth is 6n + 2 with n >= 1, else -1. */
static inline int cnn_depth_ok(long long depth)
{
    return depth >= 8 && depth <= CNN_MAX_DEPTH && (depth - 2) % 6 == 0 ? 0 : -1;
}

static inline int cnn_out_side(int side, int stride)
{
    return stride == 2 ? (side + 1) / 2 : side;
}

/* The parameters of a trial (defaults as in the registry); 0, or -1 with
 * err filled.  batch is t->size. */
int cnn_config(const rn_trial *t, cnn_cfg *c, rn_error *err);

/* The features of the linear layer: the last stage's channels. */
static inline int cnn_features(const cnn_cfg *c)
{
    return 4 * c->width;
}

/* The side of the last stage's images. */
static inline int cnn_final_side(const cnn_cfg *c)
{
    return cnn_out_side(cnn_out_side(c->image, 2), 2);
}

static inline void cnn_start(cnn_cursor *k)
{
    memset(k, 0, sizeof *k);
}

/* The next convolution into *v; 0 when there is one, -1 after the last. */
int cnn_next(const cnn_cfg *c, cnn_cursor *k, cnn_conv *v);

/* Where the network's output activations end up (after the last conv). */
int cnn_last_buffer(const cnn_cfg *c);

/* Convolutions in all (6 blocks + 1, plus 2 shortcuts). */
int cnn_conv_count(const cnn_cfg *c);

/* Offsets of the linear layer and the size of the flat array. */
void cnn_param_layout(const cnn_cfg *c, size_t *fc_w, size_t *fc_b, size_t *total);

/* Multiply-adds of one image (convolutions and the linear layer); flops
 * per call = 2 x this x batch. */
double cnn_macs_per_image(const cnn_cfg *c);

/* Elements of the largest activation of one image (channels x side^2). */
double cnn_max_activation(const cnn_cfg *c);

/* The f32 master parameters (batch-norm folded), as described above. */
void cnn_init_params(const cnn_cfg *c, uint64_t seed, float *p);

/* Image element i (NCHW order index, see above). */
static inline float cnn_image_value(uint64_t seed, uint64_t i)
{
    return 2.0f * rn_uniform(seed, CNN_STREAM_IMAGES, i) - 1.0f;
}

/* --- the storage types ---------------------------------------------------- */

/* f32 -> bf16 bits, round to nearest even (NaN stays a quiet NaN). */
static inline uint16_t cnn_bf16_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    if ((u & 0x7fffffffu) > 0x7f800000u)
        return (uint16_t)((u >> 16) | 0x40u);
    u += 0x7fffu + ((u >> 16) & 1u);
    return (uint16_t)(u >> 16);
}

static inline float cnn_bf16_value(uint16_t h)
{
    uint32_t u = (uint32_t)h << 16;
    float f;
    memcpy(&f, &u, 4);
    return f;
}

/* f32 -> f16 bits, round to nearest even: subnormals (units of 2^-24),
 * infinity from 65520 up (the tie above 65504 rounds to even), NaN stays a
 * quiet NaN.  Plain integer code, so that every compiler of the project
 * takes it and its loops vectorise (cnn_round(x, RN_F16) is the reference
 * tests/test_cnn.c holds it to). */
static inline uint16_t cnn_f16_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    uint32_t sign = (u >> 16) & 0x8000u, a = u & 0x7fffffffu;
    if (a > 0x7f800000u)
        return (uint16_t)(sign | 0x7e00u);
    if (a >= 0x477ff000u) /* 65520 and up, and infinity */
        return (uint16_t)(sign | 0x7c00u);
    if (a >= 0x38800000u) { /* 2^-14 and up: normal, exponent rebiased */
        uint32_t r = a - 0x38000000u;
        r += 0xfffu + ((r >> 13) & 1u);
        return (uint16_t)(sign | (r >> 13));
    }
    uint32_t e = a >> 23;
    if (e < 102) /* below 2^-25: 0 (2^-25 itself is a tie, to even: 0) */
        return (uint16_t)sign;
    uint32_t m = (a & 0x7fffffu) | 0x800000u, s = 126 - e; /* s in 14..24 */
    uint32_t q = m >> s, rem = m & ((1u << s) - 1), half = 1u << (s - 1);
    q += rem > half || (rem == half && (q & 1u));
    return (uint16_t)(sign | q);
}

static inline float cnn_f16_value(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16, e = (h >> 10) & 0x1fu, m = h & 0x3ffu, u;
    float f;
    if (e == 31)
        u = sign | 0x7f800000u | (m << 13);
    else if (e)
        u = sign | ((e + 112) << 23) | (m << 13);
    else {
        f = (float)m * 5.9604644775390625e-8f; /* 2^-24 */
        memcpy(&u, &f, 4);
        u |= sign;
    }
    memcpy(&f, &u, 4);
    return f;
}

/* x rounded to `bits` significant bits (round to nearest even), with the
 * smallest normal exponent emin and the largest finite value max (beyond
 * it: infinity): f16 is (11, -14, 65504), bf16 (8, -126, 3.39e38).  Used by
 * the reference to emulate a storage type. */
static inline double cnn_round_bits(double x, int bits, int emin, double max)
{
    if (x == 0 || x != x)
        return x;
    int e;
    frexp(x, &e); /* x = m 2^e, 0.5 <= |m| < 1 */
    e -= 1;       /* x = M 2^e, 1 <= |M| < 2 */
    if (e < emin)
        e = emin;
    double r = ldexp(nearbyint(ldexp(x, bits - 1 - e)), e - (bits - 1));
    if (fabs(r) > max)
        return r > 0 ? INFINITY : -INFINITY;
    return r;
}

/* x as the storage type d keeps it (f32 too: rounded to float). */
static inline double cnn_round(double x, rn_dtype d)
{
    switch (d) {
    case RN_F16:
        return cnn_round_bits(x, 11, -14, 65504.0);
    case RN_BF16:
        return cnn_round_bits(x, 8, -126, 3.3895313892515355e38);
    case RN_F32:
        return (double)(float)x;
    default:
        return x;
    }
}

/* --- the reference -------------------------------------------------------- */

/* The logits of image b, computed in double by direct convolution, a
 * different algorithm from either backend's (im2col + GEMM, cuDNN).  With
 * `emulate` = RN_F16 or RN_BF16, every weight and every stored activation
 * (each layer's output, the pooled features, the logits) is rounded to that
 * type as the backends store them, and the arithmetic stays exact, as with
 * f32 accumulation; RN_F64 rounds nothing.  The inputs are the f32 master
 * parameters p and the images in NCHW order.  0, or -1 when out of memory. */
int cnn_reference(const cnn_cfg *c, const float *p, const float *images,
                  long long b, rn_dtype emulate, double *logits);

/* --- the check ------------------------------------------------------------ */

/* How far the logits may be from the f32 model's (computed in double), as a
 * fraction of the image's largest |logit| (doc/workloads.md#cnn_forward):
 *   f32  1e-4: f32 rounding of sums of some thousand terms, over the layers
 *        (measured: below 1e-6);
 *   bf16 and f16: ten units of the type's rounding (2^-8 and 2^-11: every
 *        weight and stored activation is rounded), 4 to 5 times the largest
 *        error measured with the rounding emulated over depths 8 to 56 and
 *        four seeds (8.1e-3 bf16, 1.0e-3 f16) and the CPU's bf16 runs
 *        (tests/test_cnn.c). */
static inline double cnn_tolerance(rn_dtype d)
{
    switch (d) {
    case RN_BF16:
        return 0.04;
    case RN_F16:
        return 0.005;
    default:
        return 1e-4;
    }
}

/* Images checked: the first, the middle and the last (fewer for small
 * batches): a wrong batch split shows at its ends. */
int cnn_checked_images(long long batch, long long out[3]);

/* Compares the logits of image b (got, classes of them) with ref: 0, or
 * -1 with "cnn_forward: logit [b][j] = G but the reference is R (error E of
 * the image's largest |logit| M > TOL)".  *worst keeps the largest error
 * seen (NaN sticks): the logit_error column of both backends. */
int cnn_compare(const cnn_cfg *c, long long b, const double *got,
                const double *ref, double *worst, rn_error *err);

/* Bytes a trial needs on its device, roughly: parameters (f32 and the
 * storage copy), the images, five activation buffers, the CPU's im2col
 * chunk and its f32 scratch. */
double cnn_memory_bytes(const cnn_cfg *c);

#endif
