/* mlp_train.c - `mlp_train` on the CPU: an MLP (ReLU hidden layers, softmax
 * cross-entropy) trained with AdamW, in f32.
 *
 * One run() is a whole training from the same freshly initialised weights
 * (He init, computed once in prepare and copied in): `epochs` epochs, each a
 * fresh Philox shuffle and mini-batches of `size` rows (the last one partial),
 * so every sample is the same work.  Per batch: gather the rows, forward,
 * backward, AdamW step.  The layer products go through cblas_sgemm (OpenBLAS
 * threads: set by the backend's select() and here in prepare); the
 * element-wise loops run on t->threads OpenMP threads once they are large
 * enough to pay for a parallel region, else on one.
 *
 * Outside the timed call: the loss and accuracy on the full set, before
 * training (prepare) and after the last run (check / extras), through the
 * shared double-precision reference in mlp_data.h.  check() fails when the
 * final loss is not finite or not below the initial one.
 *
 * Parameters, data set, layout and random streams: backends/mlp_data.h.
 * Flops per call (for the registry): 6 * rows * epochs * sum over layers of
 * in * out (forward 2, backward 4 per weight and row; the first layer's
 * input gradient, which is not computed, is counted too).
 */
#include <cblas.h>
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frame.h"
#include "mlp.h"

#if defined(__SSE2__)
#include <immintrin.h>
#endif

/* Element-wise loops shorter than this stay on one thread. */
#define MLP_OMP_MIN 32768

typedef struct mlp_state {
    cpu_output out; /* first member (verify.h): the final loss, once evaluated */
    mlp_config cfg;
    int threads;
    float *init, *p, *g, *m, *v; /* nparams each */
    float *xb;                   /* the gathered batch, batch x features */
    int32_t *yb;
    uint32_t *perm;
    mlp_cpu_work work;
    double init_loss, init_acc;
    double final_loss, final_acc;
    int trained, evaluated;
} mlp_state;

static float *falloc(size_t n)
{
    return (float *)calloc(n ? n : 1, sizeof(float));
}

int mlp_cpu_work_init(mlp_cpu_work *w, const mlp_net *net, int max_batch, int threads,
                      rn_error *err)
{
    memset(w, 0, sizeof *w);
    w->max_batch = max_batch;
    w->threads = threads > 0 ? threads : 1;
    size_t b = (size_t)max_batch;
    int ok = 1;
    for (int l = 1; l < net->nw; l++)
        ok &= (w->act[l] = falloc(b * (size_t)net->width[l])) != NULL;
    for (int k = 0; k < 2; k++)
        ok &= (w->delta[k] = falloc(b * (size_t)net->maxw)) != NULL;
    if (!ok) {
        mlp_cpu_work_free(w);
        snprintf(err->msg, sizeof err->msg,
                 "mlp_train: cannot allocate the activations for batches of %d rows: out of "
                 "memory",
                 max_batch);
        return -1;
    }
    return 0;
}

void mlp_cpu_work_free(mlp_cpu_work *w)
{
    for (int l = 0; l < MLP_MAX_WIDTHS; l++)
        free(w->act[l]);
    free(w->delta[0]);
    free(w->delta[1]);
    memset(w, 0, sizeof *w);
}

/* d = 0 where the ReLU output a is 0; with d = a, the ReLU itself:
 * a = max(a, 0) */
static void relu_mask(float *d, const float *a, long n, int nt)
{
    if (nt > 1 && n >= MLP_OMP_MIN) {
#pragma omp parallel for simd num_threads(nt)
        for (long i = 0; i < n; i++)
            d[i] = a[i] > 0.0f ? d[i] : 0.0f;
    } else {
#pragma omp simd
        for (long i = 0; i < n; i++)
            d[i] = a[i] > 0.0f ? d[i] : 0.0f;
    }
}

/* Softmax cross-entropy of rows [r0, r1) of logits z; writes dZ when d is
 * not NULL.  Returns the summed loss. */
static double softmax_xent(const float *z, const int32_t *y, int C, int r0, int r1, float *d,
                           float inv_b)
{
    double loss = 0;
    for (int r = r0; r < r1; r++) {
        const float *zr = z + (size_t)r * C;
        float mx = zr[0];
        for (int j = 1; j < C; j++)
            mx = zr[j] > mx ? zr[j] : mx;
        float s = 0;
        for (int j = 0; j < C; j++)
            s += expf(zr[j] - mx);
        loss += (double)mx + log((double)s) - (double)zr[y[r]];
        if (d) {
            float *dr = d + (size_t)r * C, inv_s = 1.0f / s;
            for (int j = 0; j < C; j++)
                dr[j] = (expf(zr[j] - mx) * inv_s - (j == y[r] ? 1.0f : 0.0f)) * inv_b;
        }
    }
    return loss;
}

double mlp_loss_grad(const mlp_net *net, const float *p, const float *x, const int32_t *y,
                     int batch, float *grad, mlp_cpu_work *w)
{
    const int L = net->nw - 1, nt = w->threads;
    /* forward: act[l + 1] = relu(act[l] W_l + b_l); the last layer: logits */
    const float *a = x;
    for (int l = 0; l < L; l++) {
        const int in = net->width[l], out = net->width[l + 1];
        const float *W = p + net->woff[l], *b = p + net->boff[l];
        float *z = w->act[l + 1];
        for (int r = 0; r < batch; r++)
            memcpy(z + (size_t)r * out, b, (size_t)out * sizeof(float));
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, batch, out, in, 1.0f, a, in, W, out,
                    1.0f, z, out);
        if (l + 1 < L)
            relu_mask(z, z, (long)batch * out, nt);
        a = z;
    }
    /* softmax cross-entropy; dZ_L = (softmax - onehot) / batch */
    const int C = net->width[L];
    float *dz = w->delta[0];
    const float inv_b = 1.0f / (float)batch;
    float *d = grad ? dz : NULL;
    double loss = 0;
    if (nt > 1 && (long)batch * C >= MLP_OMP_MIN) {
#pragma omp parallel for reduction(+ : loss) num_threads(nt)
        for (int r = 0; r < batch; r += 256)
            loss += softmax_xent(a, y, C, r, r + 256 < batch ? r + 256 : batch, d, inv_b);
    } else {
        loss = softmax_xent(a, y, C, 0, batch, d, inv_b);
    }
    loss /= (double)batch;
    if (!grad)
        return loss;
    /* backward */
    int cur = 0;
    for (int l = L - 1; l >= 0; l--) {
        const int in = net->width[l], out = net->width[l + 1];
        const float *ain = l > 0 ? w->act[l] : x;
        float *dW = grad + net->woff[l], *db = grad + net->boff[l];
        /* dW = A^T dZ, db = column sums of dZ */
        cblas_sgemm(CblasRowMajor, CblasTrans, CblasNoTrans, in, out, batch, 1.0f, ain, in, dz, out,
                    0.0f, dW, out);
        for (int j = 0; j < out; j++)
            db[j] = 0.0f;
        for (int r = 0; r < batch; r++) {
            const float *dr = dz + (size_t)r * out;
#pragma omp simd
            for (int j = 0; j < out; j++)
                db[j] += dr[j];
        }
        if (l > 0) {
            /* dA = dZ W^T, then through the ReLU of layer l - 1 */
            float *da = w->delta[1 - cur];
            cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, batch, in, out, 1.0f, dz, out,
                        p + net->woff[l], out, 0.0f, da, in);
            relu_mask(da, ain, (long)batch * in, nt);
            dz = da;
            cur = 1 - cur;
        }
    }
    return loss;
}

/* AdamW on [lo, hi) with the weight factor `decay` (1 for biases).  sqrtf()
 * may set errno, which keeps GCC (without -fno-math-errno) from vectorising
 * a loop that calls it, so the x86 path spells out sqrtps; elsewhere the
 * plain loop. */
static void adamw_range(float *p, const float *g, float *m, float *v, long lo, long hi, float decay,
                        float step, float inv_bc2s)
{
    const float b1 = (float)MLP_BETA1, b2 = (float)MLP_BETA2, eps = (float)MLP_EPS;
    long i = lo;
#if defined(__SSE2__)
    const __m128 vb1 = _mm_set1_ps(b1), vc1 = _mm_set1_ps(1.0f - b1), vb2 = _mm_set1_ps(b2),
                 vc2 = _mm_set1_ps(1.0f - b2), vdec = _mm_set1_ps(decay), vstep = _mm_set1_ps(step),
                 vinv = _mm_set1_ps(inv_bc2s), veps = _mm_set1_ps(eps);
    for (; i + 4 <= hi; i += 4) {
        __m128 gi = _mm_loadu_ps(g + i);
        __m128 mi = _mm_add_ps(_mm_mul_ps(vb1, _mm_loadu_ps(m + i)), _mm_mul_ps(vc1, gi));
        __m128 vi =
            _mm_add_ps(_mm_mul_ps(vb2, _mm_loadu_ps(v + i)), _mm_mul_ps(_mm_mul_ps(vc2, gi), gi));
        _mm_storeu_ps(m + i, mi);
        _mm_storeu_ps(v + i, vi);
        __m128 den = _mm_add_ps(_mm_mul_ps(_mm_sqrt_ps(vi), vinv), veps);
        __m128 pi = _mm_sub_ps(_mm_mul_ps(_mm_loadu_ps(p + i), vdec),
                               _mm_div_ps(_mm_mul_ps(vstep, mi), den));
        _mm_storeu_ps(p + i, pi);
    }
#endif
    for (; i < hi; i++) {
        float gi = g[i];
        float mi = b1 * m[i] + (1.0f - b1) * gi;
        float vi = b2 * v[i] + (1.0f - b2) * gi * gi;
        m[i] = mi;
        v[i] = vi;
        p[i] = p[i] * decay - step * mi / (sqrtf(vi) * inv_bc2s + eps);
    }
}

/* ... on `threads` threads where the vector is long enough */
static void adamw_part(float *p, const float *g, float *m, float *v, long lo, long hi, float decay,
                       float step, float inv_bc2s, int threads)
{
    if (threads > 1 && hi - lo >= MLP_OMP_MIN) {
#pragma omp parallel num_threads(threads)
        {
            int k = omp_get_thread_num(), nk = omp_get_num_threads();
            long n = hi - lo, a = lo + n * k / nk, b = lo + n * (k + 1) / nk;
            adamw_range(p, g, m, v, a, b, decay, step, inv_bc2s);
        }
    } else {
        adamw_range(p, g, m, v, lo, hi, decay, step, inv_bc2s);
    }
}

void mlp_adamw_step(float *p, const float *g, float *m, float *v, size_t n, size_t nweights,
                    double lr, double wd, long t, int threads)
{
    float step, bc2s;
    mlp_adam_coeffs(lr, t, &step, &bc2s);
    adamw_part(p, g, m, v, 0, (long)nweights, (float)(1.0 - lr * wd), step, 1.0f / bc2s, threads);
    adamw_part(p, g, m, v, (long)nweights, (long)n, 1.0f, step, 1.0f / bc2s, threads);
}

static void mlp_release(void *st)
{
    mlp_state *s = (mlp_state *)st;
    if (!s)
        return;
    mlp_config_free(&s->cfg);
    void *bufs[] = {s->init, s->p, s->g, s->m, s->v, s->xb, s->yb, s->perm};
    for (size_t i = 0; i < sizeof bufs / sizeof *bufs; i++)
        free(bufs[i]);
    mlp_cpu_work_free(&s->work);
    free(s);
}

static int mlp_prepare(const rn_trial *t, void **state, rn_error *err)
{
    *state = NULL;
    mlp_state *s = cpu_state_new(sizeof *s, "mlp_train", err);
    if (!s)
        return -1;
    int rc = mlp_config_load(t, &s->cfg, err);
    if (rc) {
        free(s);
        return rc;
    }
    s->threads = t->threads > 0 ? t->threads : 1;
    const mlp_net *net = &s->cfg.net;
    size_t P = net->nparams, B = (size_t)s->cfg.batch;
    if (!(s->init = falloc(P)) || !(s->p = falloc(P)) || !(s->g = falloc(P)) ||
        !(s->m = falloc(P)) || !(s->v = falloc(P)) ||
        !(s->xb = falloc(B * (size_t)s->cfg.data.features)) ||
        !(s->yb = (int32_t *)calloc(B, sizeof(int32_t))) ||
        !(s->perm = (uint32_t *)calloc((size_t)s->cfg.data.rows, sizeof(uint32_t)))) {
        snprintf(err->msg, sizeof err->msg, "mlp_train: out of memory (%zu parameters)", P);
        mlp_release(s);
        return -1;
    }
    if (mlp_cpu_work_init(&s->work, net, s->cfg.batch, s->threads, err)) {
        mlp_release(s);
        return -1;
    }
    mlp_init_params(net, s->cfg.seed, s->init);
    if (mlp_evaluate(net, s->init, &s->cfg.data, &s->init_loss, &s->init_acc)) {
        snprintf(err->msg, sizeof err->msg, "mlp_train: out of memory");
        mlp_release(s);
        return -1;
    }
    *state = s;
    return 0;
}

static int mlp_run(void *st, rn_sample *smp, rn_error *err)
{
    (void)smp;
    (void)err;
    mlp_state *s = (mlp_state *)st;
    /* here, not in prepare (which calls no BLAS) or select() (see
     * cpu_backend.c); every run, as a concurrent member may change it */
    cpu_blas_threads(s->threads);
    const mlp_config *c = &s->cfg;
    const mlp_net *net = &c->net;
    const size_t P = net->nparams, f = (size_t)c->data.features;
    const long rows = c->data.rows;
    memcpy(s->p, s->init, P * sizeof(float));
    memset(s->m, 0, P * sizeof(float));
    memset(s->v, 0, P * sizeof(float));
    s->trained = s->evaluated = 0;
    s->out.data = NULL;
    s->out.count = 0;
    long step = 0;
    for (int e = 0; e < c->epochs; e++) {
        mlp_shuffle(s->perm, rows, c->seed, e);
        for (long start = 0; start < rows; start += c->batch) {
            int B = rows - start < c->batch ? (int)(rows - start) : c->batch;
            for (int r = 0; r < B; r++) {
                uint32_t src = s->perm[start + r];
                memcpy(s->xb + (size_t)r * f, c->data.x + (size_t)src * f, f * sizeof(float));
                s->yb[r] = c->data.y[src];
            }
            mlp_loss_grad(net, s->p, s->xb, s->yb, B, s->g, &s->work);
            mlp_adamw_step(s->p, s->g, s->m, s->v, P, net->nweights, c->lr, c->wd, ++step,
                           s->threads);
        }
    }
    s->trained = 1;
    return 0;
}

/* The full-set loss and accuracy after the last run (once). */
static int mlp_final(mlp_state *s, rn_error *err)
{
    if (!s->trained) {
        snprintf(err->msg, sizeof err->msg, "mlp_train: no training has run yet");
        return -1;
    }
    if (!s->evaluated) {
        if (mlp_evaluate(&s->cfg.net, s->p, &s->cfg.data, &s->final_loss, &s->final_acc)) {
            snprintf(err->msg, sizeof err->msg, "mlp_train: out of memory");
            return -1;
        }
        s->evaluated = 1;
        s->out.data = &s->final_loss;
        s->out.count = 1;
        s->out.dtype = RN_F64;
    }
    return 0;
}

static int mlp_check(void *st, rn_error *err)
{
    mlp_state *s = (mlp_state *)st;
    if (mlp_final(s, err))
        return -1;
    return mlp_check_loss(&s->cfg, s->init_loss, s->final_loss, err);
}

static void mlp_extras(void *st, void *ctx, void (*cb)(void *ctx, const char *k, const char *v))
{
    mlp_state *s = (mlp_state *)st;
    rn_error err;
    if (mlp_final(s, &err) == 0)
        mlp_report(s->final_loss, s->final_acc, ctx, cb);
}

CPU_WORKLOAD(mlp_train, mlp_prepare, mlp_run, mlp_check, mlp_release, .extras = mlp_extras)
