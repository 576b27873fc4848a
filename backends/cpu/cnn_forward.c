/* cnn_forward.c - `cnn_forward` on the CPU: the ResNet of cnn_model.h, one
 * forward pass over `size` images per call (doc/workloads.md#cnn_forward).
 *
 * Activations are stored channel-major over the batch, [C][B][H][W], so
 * that each convolution is one im2col and one GEMM over every image at once:
 *   col[(ci, ky, kx)][(b, oy, ox)] = x[ci][b][oy s + ky - p][ox s + kx - p] (0 outside)
 *   y[co][(b, oy, ox)] = act(W[co][:] col[:][(b, oy, ox)] + bias[co] (+ residual))
 * The images are split in chunks (a chunk's col within COL_BUDGET floats,
 * and at least one chunk per thread), and each of the trial's OpenMP threads
 * runs whole chunks: im2col, OpenBLAS's cblas_sgemm on one BLAS thread, and
 * the epilogue (bias, residual add, ReLU), so one parallel region covers a
 * layer and OpenBLAS's own pool never runs (its threads spin for a while
 * after each multi-threaded GEMM and would take the cores from the OpenMP
 * threads).
 *
 * dtype bf16 stores the activations as bf16 (round to nearest even after
 * the f32 epilogue) and the weights as bf16 values.  Debian's OpenBLAS has
 * no bf16 GEMM (cblas_sbgemm is declared but not built), so the GEMM is
 * sgemm on those values widened to f32, which im2col does while copying:
 * a product of two bf16 numbers is exact in f32, so this is a bf16 GEMM
 * with f32 accumulation.  amp: true keeps the f32 master weights and rounds
 * them to bf16 at the start of every call (timed), as autocast casts the
 * weights on entering its region.  dtype f16 does the same with f16 values
 * (11 significant bits: a product of two is exact in f32 too), converted
 * by cnn_f16_bits / cnn_f16_value (round to nearest even, subnormals,
 * overflow to infinity, as cnn_round emulates).
 *
 * check() compares the first, middle and last image's logits with the f32
 * model computed in double by direct convolution (cnn_reference), within
 * cnn_tolerance(dtype) of the image's largest |logit|.
 */
#include <cblas.h>
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cnn_model.h"
#include "frame.h"
#include "mem.h"

#define COL_BUDGET ((size_t)1 << 20) /* floats of one im2col chunk: 4 MiB */

typedef struct cnn_state {
    cpu_output out; /* logits, f32 [batch][classes]; first member, see verify.h */
    cnn_cfg cfg;
    int threads;
    rn_dtype half;   /* RN_BF16 or RN_F16: how activations are stored; RN_F32 */
    size_t nparams, fc_w, fc_b;
    float *master;   /* f32 parameters, batch-norm folded */
    float *wk;       /* the weights the GEMMs use: master, or 16-bit values */
    float *images;   /* NCHW, f32: the reference's input */
    void *act[5];    /* [C][B][H][W]: 0 the images, 1..4 the layers' outputs */
    float *col;      /* one im2col chunk per thread (col_cap floats each) */
    float *scratch;  /* 16-bit: the GEMM's f32 output of one chunk, per thread */
    float *pooled;   /* [batch][features] */
    float *logits;   /* [batch][classes] */
    size_t col_cap, scratch_cap; /* floats of col and scratch */
    double *ref;     /* reference logits of the checked images, once computed */
    double error;    /* largest error of the last check, of the image's largest |logit| */
    int checked;
} cnn_state;

static void cnn_release(void *st)
{
    cnn_state *s = st;
    if (!s)
        return;
    cpu_free_all(s->act, 5);
    cpu_free_all((void *[]){s->master, s->wk, s->images, s->col, s->scratch, s->pooled, s->logits},
                 7);
    free(s->ref);
    free(s);
}

/* --- 16-bit storage --------------------------------------------------------
 * Each loop that converts is written once, for a conversion passed as a
 * constant function: always_inline makes one copy per type, and each
 * stays vectorised. */
#define SPECIALISED static inline __attribute__((always_inline))

typedef uint16_t (*to_half_fn)(float);
typedef float (*from_half_fn)(uint16_t);

/* x rounded to the trial's storage type (itself for f32) */
static float stored(rn_dtype half, float x)
{
    return half == RN_BF16  ? cnn_bf16_value(cnn_bf16_bits(x))
           : half == RN_F16 ? cnn_f16_value(cnn_f16_bits(x))
                            : x;
}

/* element i of an activation of the trial's storage type */
static float act_at(rn_dtype half, const void *x, size_t i)
{
    return half == RN_BF16  ? cnn_bf16_value(((const uint16_t *)x)[i])
           : half == RN_F16 ? cnn_f16_value(((const uint16_t *)x)[i])
                            : ((const float *)x)[i];
}

SPECIALISED void round_with(float *dst, const float *src, size_t n, int threads, to_half_fn to,
                            from_half_fn from)
{
#pragma omp parallel for simd num_threads(threads) if (threads > 1 && n > 65536)
    for (size_t i = 0; i < n; i++)
        dst[i] = from(to(src[i]));
}

/* the weights rounded to the storage type, kept as floats */
static void round_weights(rn_dtype half, float *dst, const float *src, size_t n, int threads)
{
    if (half == RN_BF16)
        round_with(dst, src, n, threads, cnn_bf16_bits, cnn_bf16_value);
    else
        round_with(dst, src, n, threads, cnn_f16_bits, cnn_f16_value);
}

static int cnn_prepare(const rn_trial *t, void **state, rn_error *err)
{
    *state = NULL;
    cnn_cfg c;
    if (cnn_config(t, &c, err))
        return -1;
    if (t->dtype != RN_F32 && t->dtype != RN_BF16 && t->dtype != RN_F16) {
        snprintf(err->msg, sizeof err->msg,
                 "dtype %s is not supported by the cpu backend (cnn_forward: f32, f16, bf16)",
                 rn_dtype_name(t->dtype));
        return RN_PREPARE_SKIP;
    }
    if (c.amp && t->dtype == RN_F32) {
        snprintf(err->msg, sizeof err->msg,
                 "cnn_forward: amp: true with dtype f32 has nothing to cast to (amp needs "
                 "dtype f16 or bf16)");
        return RN_PREPARE_SKIP;
    }
    cnn_state *s = cpu_state_new(sizeof *s, "cnn_forward", err);
    if (!s)
        return -1;
    s->cfg = c;
    s->threads = t->threads > 1 ? t->threads : 1;
    s->half = t->dtype;
    cnn_param_layout(&c, &s->fc_w, &s->fc_b, &s->nparams);
    size_t B = (size_t)c.batch, es = s->half != RN_F32 ? 2 : 4;
    size_t per_image = (size_t)c.channels * c.image * c.image;
    size_t most = (size_t)cnn_max_activation(&c);
    int F = cnn_features(&c);
    /* a chunk holds at least one image: col and scratch grow past
     * COL_BUDGET where one image's needs more */
    s->col_cap = s->scratch_cap = COL_BUDGET;
    cnn_cursor k;
    cnn_conv v;
    cnn_start(&k);
    while (cnn_next(&c, &k, &v) == 0) {
        size_t oo = (size_t)v.hout * v.hout, kk = (size_t)v.cin * v.k * v.k;
        s->col_cap = kk * oo > s->col_cap ? kk * oo : s->col_cap;
        s->scratch_cap = (size_t)v.cout * oo > s->scratch_cap ? (size_t)v.cout * oo : s->scratch_cap;
    }
    int ok = (s->master = cpu_alloc(s->nparams, 4, "cnn_forward", "the parameters", err)) &&
             (s->wk = cpu_alloc(s->nparams, 4, "cnn_forward", "the parameters", err)) &&
             (s->images = cpu_alloc(B * per_image, 4, "cnn_forward", "the images", err)) &&
             (s->act[0] = cpu_alloc(B * per_image, es, "cnn_forward", "the images", err)) &&
             (s->col = cpu_alloc(s->col_cap * (size_t)s->threads, 4, "cnn_forward", "the im2col buffer", err)) &&
             (s->pooled = cpu_alloc(B * (size_t)F, 4, "cnn_forward", "the pooled features",
                                    err)) &&
             (s->logits = cpu_alloc(B * (size_t)c.classes, 4, "cnn_forward", "the logits", err));
    for (int i = 1; ok && i < 5; i++)
        ok = (s->act[i] = cpu_alloc(B * most, es, "cnn_forward", "an activation", err)) != NULL;
    if (ok && s->half != RN_F32)
        ok = (s->scratch = cpu_alloc(s->scratch_cap * (size_t)s->threads, 4, "cnn_forward", "the GEMM output", err)) !=
             NULL;
    if (!ok) {
        cnn_release(s);
        return -1;
    }
    cnn_init_params(&c, t->seed, s->master);
    if (s->half != RN_F32)
        round_weights(s->half, s->wk, s->master, s->nparams, s->threads);
    else
        memcpy(s->wk, s->master, s->nparams * sizeof(float));
    /* images: NCHW values, stored [C][B][H][W] */
    size_t hw = (size_t)c.image * c.image;
#pragma omp parallel for num_threads(s->threads) if (s->threads > 1)
    for (size_t b = 0; b < B; b++)
        for (size_t ch = 0; ch < (size_t)c.channels; ch++)
            for (size_t i = 0; i < hw; i++) {
                size_t nchw = (b * (size_t)c.channels + ch) * hw + i;
                size_t cnhw = (ch * B + b) * hw + i;
                float v = cnn_image_value(t->seed, nchw);
                s->images[nchw] = v;
                if (s->half == RN_BF16)
                    ((uint16_t *)s->act[0])[cnhw] = cnn_bf16_bits(v);
                else if (s->half == RN_F16)
                    ((uint16_t *)s->act[0])[cnhw] = cnn_f16_bits(v);
                else
                    ((float *)s->act[0])[cnhw] = v;
            }
    s->out = (cpu_output){s->logits, B * (size_t)c.classes, RN_F32, 0};
    *state = s;
    return 0;
}

/* ox in [lo, hi) reads inside the row: ox s + kx - p in [0, H) */
static void valid_range(long H, long O, long stride, long kx, long pad, long *lo, long *hi)
{
    long a = pad - kx, b = H + pad - kx; /* ox s in [a, b) */
    *lo = a <= 0 ? 0 : (a + stride - 1) / stride;
    *hi = b <= 0 ? 0 : (b + stride - 1) / stride;
    *hi = *hi > O ? O : *hi;
    *lo = *lo > *hi ? *hi : *lo;
}

/* o[ox] = x[off + ox st] for ox in [lo, hi), widened to f32 */
SPECIALISED void widen(float *o, const uint16_t *x, long off, long st, long lo, long hi,
                       from_half_fn from)
{
#pragma omp simd
    for (long ox = lo; ox < hi; ox++)
        o[ox] = from(x[off + ox * st]);
}

/* col[r][(b - b0, oy, ox)] for r = (ci, ky, kx), images [b0, b1). */
static void im2col(const cnn_state *s, const cnn_conv *v, const void *src, size_t b0, size_t b1,
                   float *col)
{
    const size_t B = (size_t)s->cfg.batch, H = (size_t)v->hin, O = (size_t)v->hout;
    const size_t nc = (b1 - b0) * O * O, rows = (size_t)v->cin * v->k * v->k;
    const rn_dtype half = s->half;
    const long st = v->stride;
    for (size_t r = 0; r < rows; r++)
        for (size_t b = b0; b < b1; b++) {
            size_t ci = r / (size_t)(v->k * v->k), ky = r / (size_t)v->k % (size_t)v->k,
                   kx = r % (size_t)v->k;
            float *out = col + r * nc + (b - b0) * O * O;
            size_t plane = (ci * B + b) * H * H;
            long lo, hi;
            valid_range((long)H, (long)O, st, (long)kx, v->pad, &lo, &hi);
            for (size_t oy = 0; oy < O; oy++) {
                long iy = (long)(oy * (size_t)st + ky) - v->pad;
                float *o = out + oy * O;
                if (iy < 0 || iy >= (long)H || lo == hi) {
                    memset(o, 0, O * sizeof(float));
                    continue;
                }
                long off = (long)(plane + (size_t)iy * H) + (long)kx - v->pad; /* ox = 0 */
                for (long ox = 0; ox < lo; ox++)
                    o[ox] = 0;
                if (half == RN_BF16) {
                    widen(o, (const uint16_t *)src, off, st, lo, hi, cnn_bf16_value);
                } else if (half == RN_F16) {
                    widen(o, (const uint16_t *)src, off, st, lo, hi, cnn_f16_value);
                } else {
                    const float *x = (const float *)src;
#pragma omp simd
                    for (long ox = lo; ox < hi; ox++)
                        o[ox] = x[off + ox * st];
                }
                for (long ox = hi; ox < (long)O; ox++)
                    o[ox] = 0;
            }
        }
}

/* y[j] = act(g[j] + bias (+ a[j])), stored in 16 bits */
SPECIALISED void narrow(uint16_t *y, const float *g, float bias, const uint16_t *a, size_t nc,
                        int relu, to_half_fn to, from_half_fn from)
{
    if (a) {
#pragma omp simd
        for (size_t j = 0; j < nc; j++) {
            float r = g[j] + bias + from(a[j]);
            y[j] = to(relu && r < 0 ? 0.0f : r);
        }
    } else {
#pragma omp simd
        for (size_t j = 0; j < nc; j++) {
            float r = g[j] + bias;
            y[j] = to(relu && r < 0 ? 0.0f : r);
        }
    }
}

/* y = act(g + bias (+ residual)) for output columns [c0, c0 + nc) of every
 * channel; g is the GEMM's output (ldg floats a row). */
static void epilogue(const cnn_state *s, const cnn_conv *v, const float *g, size_t ldg,
                     size_t c0, size_t nc)
{
    const size_t N = (size_t)s->cfg.batch * v->hout * v->hout;
    const float *bias = s->wk + v->boff;
    const int relu = v->relu;
    const rn_dtype half = s->half;
    const void *add = v->add >= 0 ? s->act[v->add] : NULL;
    void *dst = s->act[v->dst];
    for (int o = 0; o < v->cout; o++) {
        const float *go = g + (size_t)o * ldg;
        size_t base = (size_t)o * N + c0;
        float bo = bias[o];
        if (half != RN_F32) {
            uint16_t *y = (uint16_t *)dst + base;
            const uint16_t *a = add ? (const uint16_t *)add + base : NULL;
            if (half == RN_BF16)
                narrow(y, go, bo, a, nc, relu, cnn_bf16_bits, cnn_bf16_value);
            else
                narrow(y, go, bo, a, nc, relu, cnn_f16_bits, cnn_f16_value);
        } else {
            float *y = (float *)dst + base;
            const float *a = add ? (const float *)add + base : NULL;
            if (a) {
#pragma omp simd
                for (size_t j = 0; j < nc; j++) {
                    float r = go[j] + bo + a[j];
                    y[j] = relu && r < 0 ? 0.0f : r;
                }
            } else {
#pragma omp simd
                for (size_t j = 0; j < nc; j++) {
                    float r = go[j] + bo;
                    y[j] = relu && r < 0 ? 0.0f : r;
                }
            }
        }
    }
}

static void conv_layer(cnn_state *s, const cnn_conv *v)
{
    const size_t B = (size_t)s->cfg.batch, OO = (size_t)v->hout * v->hout;
    const size_t K = (size_t)v->cin * v->k * v->k, N = B * OO;
    size_t nb = s->col_cap / (K * OO), nb2 = s->scratch_cap / ((size_t)v->cout * OO);
    size_t per_thread = (B + (size_t)s->threads - 1) / (size_t)s->threads;
    nb = nb2 < nb ? nb2 : nb;
    nb = nb > per_thread ? per_thread : nb;
    nb = nb < 1 ? 1 : nb;
    const long chunks = (long)((B + nb - 1) / nb);
#pragma omp parallel num_threads(s->threads) if (s->threads > 1 && chunks > 1)
    {
        int tid = omp_get_thread_num(), nt = omp_get_num_threads();
        float *col = s->col + (size_t)tid * s->col_cap;
        float *scratch = s->scratch ? s->scratch + (size_t)tid * s->scratch_cap : NULL;
        for (long c = tid; c < chunks; c += nt) {
            size_t b0 = (size_t)c * nb, b1 = b0 + nb < B ? b0 + nb : B, nc = (b1 - b0) * OO;
            im2col(s, v, s->act[v->src], b0, b1, col);
            if (s->half != RN_F32) {
                cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, v->cout, (int)nc, (int)K,
                            1.0f, s->wk + v->woff, (int)K, col, (int)nc, 0.0f, scratch, (int)nc);
                epilogue(s, v, scratch, nc, b0 * OO, nc);
            } else {
                /* the GEMM writes the output in place, the epilogue finishes it */
                float *y = (float *)s->act[v->dst] + b0 * OO;
                cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, v->cout, (int)nc, (int)K,
                            1.0f, s->wk + v->woff, (int)K, col, (int)nc, 0.0f, y, (int)N);
                epilogue(s, v, y, N, b0 * OO, nc);
            }
        }
    }
}

static int cnn_run(void *st, rn_sample *smp, rn_error *err)
{
    (void)smp;
    (void)err;
    cnn_state *s = st;
    const cnn_cfg *c = &s->cfg;
    cpu_blas_threads(1); /* the GEMMs run inside the OpenMP threads */
    if (c->amp) /* autocast's weight cast, every call */
        round_weights(s->half, s->wk, s->master, s->nparams, s->threads);
    cnn_cursor k;
    cnn_conv v;
    cnn_start(&k);
    int last = 1;
    while (cnn_next(c, &k, &v) == 0) {
        conv_layer(s, &v);
        last = v.dst;
    }
    /* global average pooling, f32 sums, stored in the dtype */
    const size_t B = (size_t)c->batch, SS = (size_t)cnn_final_side(c) * cnn_final_side(c);
    const int F = cnn_features(c);
    const rn_dtype half = s->half;
    const void *x = s->act[last];
    float *pooled = s->pooled;
#pragma omp parallel for collapse(2) num_threads(s->threads) if (s->threads > 1)
    for (int f = 0; f < F; f++)
        for (size_t b = 0; b < B; b++) {
            size_t base = ((size_t)f * B + b) * SS;
            float sum = 0;
            for (size_t i = 0; i < SS; i++)
                sum += act_at(half, x, base + i);
            pooled[b * (size_t)F + (size_t)f] = stored(half, sum / (float)SS);
        }
    /* the linear layer: logits [B][classes] = pooled [B][F] W^T + bias */
    const int C = c->classes;
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, (int)B, C, F, 1.0f, pooled, F,
                s->wk + s->fc_w, F, 0.0f, s->logits, C);
    const float *bias = s->wk + s->fc_b;
    for (size_t b = 0; b < B; b++)
        for (int j = 0; j < C; j++) {
            float r = s->logits[b * (size_t)C + (size_t)j] + bias[j];
            s->logits[b * (size_t)C + (size_t)j] = stored(half, r);
        }
    s->checked = 0;
    return 0;
}

static int cnn_check(void *st, rn_error *err)
{
    cnn_state *s = st;
    const cnn_cfg *c = &s->cfg;
    long long imgs[3];
    int n = cnn_checked_images(c->batch, imgs);
    if (!s->ref) {
        s->ref = malloc((size_t)n * (size_t)c->classes * sizeof(double));
        int failed = !s->ref;
        for (int i = 0; !failed && i < n; i++)
            failed = cnn_reference(c, s->master, s->images, imgs[i], RN_F64,
                                   s->ref + (size_t)i * (size_t)c->classes) != 0;
        if (failed) {
            free(s->ref);
            s->ref = NULL;
            snprintf(err->msg, sizeof err->msg, "cnn_forward: out of memory for the reference");
            return -1;
        }
    }
    double *got = malloc((size_t)c->classes * sizeof(double));
    if (!got) {
        snprintf(err->msg, sizeof err->msg, "cnn_forward: out of memory");
        return -1;
    }
    int rc = 0;
    s->error = 0;
    for (int i = 0; i < n && rc == 0; i++) {
        const double *ref = s->ref + (size_t)i * (size_t)c->classes;
        for (int j = 0; j < c->classes; j++)
            got[j] = s->logits[(size_t)imgs[i] * (size_t)c->classes + (size_t)j];
        rc = cnn_compare(c, imgs[i], got, ref, &s->error, err);
    }
    free(got);
    s->checked = rc == 0;
    return rc;
}

/* logit_error: the check's largest error (of the image's largest |logit|) */
static void cnn_extras(void *st, void *ctx, void (*cb)(void *ctx, const char *k, const char *v))
{
    cnn_state *s = st;
    if (!s->checked)
        return;
    char buf[32];
    snprintf(buf, sizeof buf, "%.3g", s->error);
    cb(ctx, "logit_error", buf);
}

/* For the tests: a prepared state's f32 master parameters and its NCHW
 * images (the reference's inputs). */
void cpu_cnn_inputs(void *state, const float **params, const float **images)
{
    cnn_state *s = state;
    *params = s->master;
    *images = s->images;
}

CPU_WORKLOAD(cnn_forward, cnn_prepare, cnn_run, cnn_check, cnn_release, .extras = cnn_extras)
