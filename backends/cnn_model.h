/* cnn_model.h - the network of `cnn_forward` (doc/workloads.md#cnn_forward), shared
 * by the workload registry (flops, memory), the CPU backend, the CUDA
 * backend (nvcc compiles it as host code) and the tests.  Header-only,
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
static inline int cnn_config(const rn_trial *t, cnn_cfg *c, rn_error *err)
{
    memset(c, 0, sizeof *c);
    double depth = rn_param_num(t, "depth", 20), width = rn_param_num(t, "width", 16),
           image = rn_param_num(t, "image", 32), channels = rn_param_num(t, "channels", 3),
           classes = rn_param_num(t, "classes", 10);
    if (!(depth >= 0 && depth < 1e9) || cnn_depth_ok((long long)depth) || depth != floor(depth)) {
        snprintf(err->msg, sizeof err->msg,
                 "cnn_forward: depth %g is not 6n + 2 between 8 and %d (8, 14, 20, 26, 32, "
                 "44, 56, 110, ...)",
                 depth, CNN_MAX_DEPTH);
        return -1;
    }
    if (!(width >= 1 && width <= CNN_MAX_WIDTH) || !(image >= 1 && image <= CNN_MAX_IMAGE) ||
        !(channels >= 1 && channels <= CNN_MAX_CHANNELS) ||
        !(classes >= 1 && classes <= CNN_MAX_CLASSES)) {
        snprintf(err->msg, sizeof err->msg,
                 "cnn_forward: width %g, image %g, channels %g or classes %g is out of range",
                 width, image, channels, classes);
        return -1;
    }
    if (t->size < 1 || t->size > (1LL << 24)) {
        snprintf(err->msg, sizeof err->msg,
                 "cnn_forward: size (the batch) = %lld must be between 1 and %d", t->size,
                 1 << 24);
        return -1;
    }
    c->depth = (int)depth;
    c->blocks = (c->depth - 2) / 6;
    c->width = (int)width;
    c->image = (int)image;
    c->channels = (int)channels;
    c->classes = (int)classes;
    c->batch = t->size;
    c->dtype = t->dtype;
    c->amp = rn_param_num(t, "amp", 0) != 0;
    return 0;
}

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
static inline int cnn_next(const cnn_cfg *c, cnn_cursor *k, cnn_conv *v)
{
    if (k->done)
        return -1;
    memset(v, 0, sizeof *v);
    v->add = -1;
    if (!k->started) { /* the stem: images (buffer 0) -> buffer 1 */
        k->started = 1;
        *v = (cnn_conv){c->channels, c->width, 3, 1, 1, c->image, c->image, 1, 0, 1, -1,
                        0, 0, 0};
        v->boff = (size_t)c->width * (size_t)c->channels * 9;
        k->off = v->boff + (size_t)c->width;
        k->x = 1;
        k->c = c->width;
        k->side = c->image;
        k->part = 0;
        return 0;
    }
    for (;;) {
        if (k->stage >= 3) {
            k->done = 1;
            return -1;
        }
        int down = k->stage > 0 && k->block == 0;
        int cout = c->width << k->stage, stride = down ? 2 : 1;
        int side_out = cnn_out_side(k->side, stride);
        if (k->part == 0) {
            /* buffers for this block: the first three that are not x */
            int f[3], n = 0;
            for (int b = 1; b <= 4 && n < 3; b++)
                if (b != k->x)
                    f[n++] = b;
            k->h = f[0];
            k->y = f[1];
            k->s = f[2];
            k->part = 1;
            if (down) {
                *v = (cnn_conv){k->c, cout, 1, 2, 0, k->side, side_out, 0, k->x, k->s, -1,
                                0, 0, 0};
                break;
            }
            continue;
        }
        if (k->part == 1) {
            *v = (cnn_conv){k->c, cout, 3, stride, 1, k->side, side_out, 1, k->x, k->h, -1,
                            0, 0, 0};
            k->part = 2;
            break;
        }
        /* part 2: conv2 + shortcut, then on to the next block */
        *v = (cnn_conv){cout, cout, 3, 1, 1, side_out, side_out, 1, k->h, k->y,
                        down ? k->s : k->x, 0, 0, 1};
        k->x = k->y;
        k->c = cout;
        k->side = side_out;
        k->part = 0;
        if (++k->block == c->blocks) {
            k->block = 0;
            k->stage++;
        }
        break;
    }
    v->woff = k->off;
    v->boff = v->woff + (size_t)v->cout * (size_t)v->cin * (size_t)v->k * (size_t)v->k;
    k->off = v->boff + (size_t)v->cout;
    return 0;
}

/* Where the network's output activations end up (after the last conv). */
static inline int cnn_last_buffer(const cnn_cfg *c)
{
    cnn_cursor k;
    cnn_conv v;
    int last = 1;
    cnn_start(&k);
    while (cnn_next(c, &k, &v) == 0)
        last = v.dst;
    return last;
}

/* Convolutions in all (6 blocks + 1, plus 2 shortcuts). */
static inline int cnn_conv_count(const cnn_cfg *c)
{
    return 6 * c->blocks + 3;
}

/* Offsets of the linear layer and the size of the flat array. */
static inline void cnn_param_layout(const cnn_cfg *c, size_t *fc_w, size_t *fc_b, size_t *total)
{
    cnn_cursor k;
    cnn_conv v;
    cnn_start(&k);
    while (cnn_next(c, &k, &v) == 0) {
    }
    *fc_w = k.off;
    *fc_b = *fc_w + (size_t)c->classes * (size_t)cnn_features(c);
    *total = *fc_b + (size_t)c->classes;
}

/* Multiply-adds of one image (convolutions and the linear layer); flops
 * per call = 2 x this x batch. */
static inline double cnn_macs_per_image(const cnn_cfg *c)
{
    cnn_cursor k;
    cnn_conv v;
    double macs = 0;
    cnn_start(&k);
    while (cnn_next(c, &k, &v) == 0)
        macs += (double)v.cout * v.cin * v.k * v.k * (double)v.hout * v.hout;
    return macs + (double)cnn_features(c) * c->classes;
}

/* Elements of the largest activation of one image (channels x side^2). */
static inline double cnn_max_activation(const cnn_cfg *c)
{
    cnn_cursor k;
    cnn_conv v;
    double m = (double)c->channels * c->image * c->image;
    cnn_start(&k);
    while (cnn_next(c, &k, &v) == 0) {
        double e = (double)v.cout * v.hout * v.hout;
        m = e > m ? e : m;
    }
    return m;
}

/* The f32 master parameters (batch-norm folded), as described above. */
static inline void cnn_init_params(const cnn_cfg *c, uint64_t seed, float *p)
{
    cnn_cursor k;
    cnn_conv v;
    cnn_start(&k);
    while (cnn_next(c, &k, &v) == 0) {
        size_t fan = (size_t)v.cin * v.k * v.k;
        double a = sqrt(6.0 / (double)fan);
        for (int o = 0; o < v.cout; o++) {
            double u = rn_uniform(seed, CNN_STREAM_PARAMS, v.boff + (size_t)o);
            double sv = rn_uniform(seed, CNN_STREAM_SCALES, v.boff + (size_t)o);
            double scale = v.scale_small ? 0.2 + 0.2 * sv : 0.5 + 0.5 * sv;
            for (size_t j = 0; j < fan; j++) {
                size_t i = v.woff + (size_t)o * fan + j;
                p[i] = (float)((2.0 * rn_uniform(seed, CNN_STREAM_PARAMS, i) - 1.0) * a * scale);
            }
            p[v.boff + (size_t)o] = (float)(0.2 * u - 0.1);
        }
    }
    size_t fw, fb, total;
    cnn_param_layout(c, &fw, &fb, &total);
    double a = sqrt(1.0 / (double)cnn_features(c));
    for (size_t i = fw; i < fb; i++)
        p[i] = (float)((2.0 * rn_uniform(seed, CNN_STREAM_PARAMS, i) - 1.0) * a);
    for (size_t i = fb; i < total; i++)
        p[i] = (float)(0.2 * rn_uniform(seed, CNN_STREAM_PARAMS, i) - 0.1);
}

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
static inline int cnn_reference(const cnn_cfg *c, const float *p, const float *images,
                                long long b, rn_dtype emulate, double *logits)
{
    int round = emulate == RN_F16 || emulate == RN_BF16;
    size_t most = (size_t)cnn_max_activation(c);
    double *buf[5];
    int ok = 1;
    for (int i = 0; i < 5; i++)
        ok &= (buf[i] = (double *)malloc(most * sizeof(double))) != NULL;
    double *w = NULL;
    size_t fw, fb, total;
    cnn_param_layout(c, &fw, &fb, &total);
    ok = ok && (w = (double *)malloc(total * sizeof(double))) != NULL;
    if (!ok) {
        for (int i = 0; i < 5; i++)
            free(buf[i]);
        free(w);
        return -1;
    }
    for (size_t i = 0; i < total; i++)
        w[i] = round ? cnn_round(p[i], emulate) : (double)p[i];
    size_t per = (size_t)c->channels * c->image * c->image;
    for (size_t i = 0; i < per; i++)
        buf[0][i] = round ? cnn_round(images[(size_t)b * per + i], emulate)
                          : (double)images[(size_t)b * per + i];
    cnn_cursor k;
    cnn_conv v;
    cnn_start(&k);
    while (cnn_next(c, &k, &v) == 0) {
        const double *x = buf[v.src], *add = v.add >= 0 ? buf[v.add] : NULL;
        double *y = buf[v.dst];
        int H = v.hin, O = v.hout;
        for (int o = 0; o < v.cout; o++) {
            double *yo = y + (size_t)o * O * O;
            for (int i = 0; i < O * O; i++)
                yo[i] = 0;
            for (int ci = 0; ci < v.cin; ci++) {
                const double *xc = x + (size_t)ci * H * H;
                for (int ky = 0; ky < v.k; ky++)
                    for (int kx = 0; kx < v.k; kx++) {
                        double wv = w[v.woff + (((size_t)o * v.cin + ci) * v.k + ky) * v.k + kx];
                        for (int oy = 0; oy < O; oy++) {
                            int iy = oy * v.stride + ky - v.pad;
                            if (iy < 0 || iy >= H)
                                continue;
                            for (int ox = 0; ox < O; ox++) {
                                int ix = ox * v.stride + kx - v.pad;
                                if (ix >= 0 && ix < H)
                                    yo[oy * O + ox] += wv * xc[iy * H + ix];
                            }
                        }
                    }
            }
            double bias = w[v.boff + (size_t)o];
            for (int i = 0; i < O * O; i++) {
                double r = yo[i] + bias;
                if (add)
                    r += add[(size_t)o * O * O + i];
                if (v.relu && r < 0)
                    r = 0;
                yo[i] = round ? cnn_round(r, emulate) : r;
            }
        }
    }
    const double *last = buf[cnn_last_buffer(c)];
    int F = cnn_features(c), S = cnn_final_side(c);
    double *pooled = buf[0]; /* the images are no longer needed */
    for (int f = 0; f < F; f++) {
        double s = 0;
        for (int i = 0; i < S * S; i++)
            s += last[(size_t)f * S * S + i];
        s /= (double)S * S;
        pooled[f] = round ? cnn_round(s, emulate) : s;
    }
    for (int j = 0; j < c->classes; j++) {
        double s = w[fb + (size_t)j];
        for (int f = 0; f < F; f++)
            s += w[fw + (size_t)j * F + f] * pooled[f];
        logits[j] = round ? cnn_round(s, emulate) : s;
    }
    for (int i = 0; i < 5; i++)
        free(buf[i]);
    free(w);
    return 0;
}

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
static inline int cnn_checked_images(long long batch, long long out[3])
{
    int n = 0;
    out[n++] = 0;
    if (batch > 2)
        out[n++] = batch / 2;
    if (batch > 1)
        out[n++] = batch - 1;
    return n;
}

/* Compares the logits of image b (got, classes of them) with ref: 0, or
 * -1 with "cnn_forward: logit [b][j] = G but the reference is R (error E of
 * the image's largest |logit| M > TOL)".  *worst keeps the largest error
 * seen (NaN sticks): the logit_error column of both backends. */
static inline int cnn_compare(const cnn_cfg *c, long long b, const double *got,
                              const double *ref, double *worst, rn_error *err)
{
    double m = 0;
    for (int j = 0; j < c->classes; j++)
        m = fabs(ref[j]) > m ? fabs(ref[j]) : m;
    double tol = cnn_tolerance(c->dtype);
    for (int j = 0; j < c->classes; j++) {
        double e = m > 0 ? fabs(got[j] - ref[j]) / m : fabs(got[j] - ref[j]);
        *worst = e > *worst || e != e ? e : *worst;
        if (!(e <= tol)) { /* NaN fails */
            snprintf(err->msg, sizeof err->msg,
                     "cnn_forward: logit [%lld][%d] = %.9g but the reference is %.9g (error "
                     "%.2e of the image's largest |logit| %.4g > %.1e, %s%s)",
                     b, j, got[j], ref[j], e, m, tol, rn_dtype_name(c->dtype),
                     c->amp ? " amp" : "");
            return -1;
        }
    }
    return 0;
}

/* Bytes a trial needs on its device, roughly: parameters (f32 and the
 * storage copy), the images, five activation buffers, the CPU's im2col
 * chunk and its f32 scratch. */
static inline double cnn_memory_bytes(const cnn_cfg *c)
{
    size_t fw, fb, total;
    cnn_param_layout(c, &fw, &fb, &total);
    double es = (double)rn_dtype_size(c->dtype);
    double act = cnn_max_activation(c) * (double)c->batch;
    return 8.0 * (double)total + 5.0 * act * es + (double)(48u << 20) + act * 4.0;
}

#endif
