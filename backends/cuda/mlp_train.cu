/* mlp_train.cu - `mlp_train` on a CUDA device: the same MLP, data, initial
 * weights, shuffles and AdamW as the CPU backend (backends/mlp_data.h), in
 * f32, the way eager PyTorch trains it: per mini-batch a handful of cuBLAS
 * products (forward Z = A W, backward dW = A^T dZ, dA = dZ W^T, db = dZ^T 1
 * as a GEMV) and small kernels (bias + ReLU, softmax cross-entropy gradient,
 * ReLU mask, one fused AdamW over every parameter).  Nothing is read back
 * during training (no per-batch loss.item()): the loss and accuracy on the
 * full set are computed on the host, from the downloaded weights, outside
 * the timed call (check / extras).  One run() = the whole training from the
 * He-initialised weights (kept on the device since prepare).
 *
 * io (doc/workloads.md#built-in-workloads):
 *   without  the data set and every epoch's permutation are uploaded once in
 *            prepare; a kernel gathers each batch on the device.  Phases:
 *            compute only.
 *   with     as the documents' DataLoader: per batch the host gathers the
 *            shuffled rows (features, then the int32 labels) into a pinned
 *            staging buffer and copies them up (h2d), on the compute stream;
 *            the trained weights come back at the end (d2h).  h2d = the sum of
 *            the per-batch copy times (events around each copy), d2h = the
 *            weight download, compute = the rest of the device time (which
 *            includes any wait for the host).  MLP_STAGES staging buffers let
 *            the host run ahead of the device.
 *   overlap  as `with`, but the copies run on a second stream, each batch's
 *            upload overlapping the previous batch's compute; device_seconds
 *            only.
 * The staging buffers and the downloaded weights are pinned unless
 * `host_memory: pageable` (doc/workloads.md#built-in-workloads; `auto` = pinned here).
 * Device memory: 5 x nparams (weights, gradients, m, v, initial weights) +
 * batch x (sum of widths + 2 x widest + 1) + for io without rows x (features
 * + 1) + epochs x rows int32 permutations, for io with/overlap MLP_STAGES x
 * batch x (features + 1).
 */
#include "frame.h"
#include "mlp_data.h"
#include "mlp_kernels.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MLP_STAGES 4

/* the kernels: mlp_kernels.h */

/* --- state ------------------------------------------------------------------ */

typedef struct mlp_gpu {
    mlp_config cfg;
    rn_io io;
    cublasHandle_t h;
    cudaStream_t st, cst; /* compute; copies (overlap; else the compute stream) */
    phase_timer tm;
    /* device */
    float *dInit, *dP, *dG, *dM, *dV;
    float *dAct[MLP_MAX_WIDTHS]; /* dAct[l + 1]: output of layer l */
    float *dDelta[2];
    float *dOnes;
    float *dX;       /* io without: the data set */
    int *dY, *dPerm; /* io without: labels; every epoch's permutation */
    float *dXb;      /* io without: the gathered batch */
    int *dYb;
    char *dStage[MLP_STAGES]; /* io with/overlap: one uploaded batch each */
    /* host */
    char *hStage[MLP_STAGES]; /* pinned unless host_memory: pageable */
    int pinned;
    cudaEvent_t c0[MLP_STAGES], c1[MLP_STAGES], used[MLP_STAGES];
    int pending[MLP_STAGES];
    uint32_t *hPerm;
    float *hP; /* the trained weights */
    double init_loss, init_acc, final_loss, final_acc;
    int trained, evaluated, weights_on_host;
} mlp_gpu;

static void mlp_gpu_free(mlp_gpu *s)
{
    if (s->st)
        cudaStreamSynchronize(s->st);
    if (s->cst && s->cst != s->st)
        cudaStreamSynchronize(s->cst);
    float *dev[] = {s->dInit,     s->dP,        s->dG,    s->dM, s->dV,
                    s->dDelta[0], s->dDelta[1], s->dOnes, s->dX, s->dXb};
    for (size_t i = 0; i < sizeof dev / sizeof dev[0]; i++)
        cudaFree(dev[i]);
    for (int l = 0; l < MLP_MAX_WIDTHS; l++)
        cudaFree(s->dAct[l]);
    cudaFree(s->dY);
    cudaFree(s->dPerm);
    cudaFree(s->dYb);
    for (int k = 0; k < MLP_STAGES; k++) {
        cudaFree(s->dStage[k]);
        host_free(s->hStage[k], s->pinned);
        if (s->c0[k])
            cudaEventDestroy(s->c0[k]);
        if (s->c1[k])
            cudaEventDestroy(s->c1[k]);
        if (s->used[k])
            cudaEventDestroy(s->used[k]);
    }
    host_free(s->hP, s->pinned);
    free(s->hPerm);
    if (s->cst && s->cst != s->st)
        cudaStreamDestroy(s->cst);
    if (s->st)
        cudaStreamDestroy(s->st);
    timer_free(&s->tm);
    mlp_config_free(&s->cfg);
}

/* cudaMalloc of n elements of `size` bytes (at least one byte) */
#define MLP_DALLOC(ptr, n, size) CK(cudaMalloc((void **)&(ptr), (size_t)(n) * (size) + 1))

static int mlp_gpu_params(mlp_gpu *s, const rn_trial *t, rn_error *err)
{
    int rc = mlp_config_load(t, &s->cfg, err);
    if (rc)
        return rc;
    s->io = t->io;
    /* auto: pinned, as before host_memory existed (in every io mode) */
    s->pinned = !strcmp(rn_param_text(t, "host_memory", "auto"), "auto") || rn_host_pinned(t);
    return 0;
}

static int mlp_gpu_setup(mlp_gpu *s, const rn_trial *t, rn_error *err)
{
    (void)t;
    const mlp_config *c = &s->cfg;
    const mlp_net *net = &c->net;
    const size_t P = net->nparams, B = (size_t)c->batch, f = (size_t)c->data.features,
                 rows = (size_t)c->data.rows;
    CK(cudaStreamCreateWithFlags(&s->st, cudaStreamNonBlocking));
    if (s->io == RN_IO_OVERLAP)
        CK(cudaStreamCreateWithFlags(&s->cst, cudaStreamNonBlocking));
    else
        s->cst = s->st;
    if (timer_init(&s->tm, err))
        return 1;

    /* the initial weights: the CPU backend's, and the loss before training */
    float *init = (float *)malloc(P * sizeof(float) + 1);
    if (!init) {
        snprintf(err->msg, sizeof err->msg, "mlp_train: out of host memory");
        return 1;
    }
    mlp_init_params(net, c->seed, init);
    if (mlp_evaluate(net, init, &c->data, &s->init_loss, &s->init_acc)) {
        free(init);
        snprintf(err->msg, sizeof err->msg, "mlp_train: out of host memory");
        return 1;
    }
    cudaError_t e = cudaMalloc((void **)&s->dInit, P * sizeof(float) + 1);
    if (e == cudaSuccess)
        e = cudaMemcpy(s->dInit, init, P * sizeof(float), cudaMemcpyHostToDevice);
    free(init);
    if (e != cudaSuccess)
        return ck_fail(err, __FILE__, __LINE__, "upload of the initial weights", e);

    MLP_DALLOC(s->dP, P, sizeof(float));
    MLP_DALLOC(s->dG, P, sizeof(float));
    MLP_DALLOC(s->dM, P, sizeof(float));
    MLP_DALLOC(s->dV, P, sizeof(float));
    for (int l = 1; l < net->nw; l++)
        MLP_DALLOC(s->dAct[l], B * (size_t)net->width[l], sizeof(float));
    MLP_DALLOC(s->dDelta[0], B * (size_t)net->maxw, sizeof(float));
    MLP_DALLOC(s->dDelta[1], B * (size_t)net->maxw, sizeof(float));
    MLP_DALLOC(s->dOnes, B, sizeof(float));
    mlp_k_fill<<<grid_for(B), 256, 0, s->st>>>(s->dOnes, B, 1.0f);
    CK_LAUNCH("mlp_k_fill");
    s->hP = (float *)host_alloc(P * sizeof(float), s->pinned, err);
    if (!s->hP)
        return 1;

    if (s->io == RN_IO_WITHOUT) {
        /* resident: the data set and every epoch's order, uploaded once */
        MLP_DALLOC(s->dX, rows * f, sizeof(float));
        MLP_DALLOC(s->dY, rows, sizeof(int));
        MLP_DALLOC(s->dXb, B * f, sizeof(float));
        MLP_DALLOC(s->dYb, B, sizeof(int));
        MLP_DALLOC(s->dPerm, rows * (size_t)c->epochs, sizeof(int));
        CK(cudaMemcpy(s->dX, c->data.x, rows * f * sizeof(float), cudaMemcpyHostToDevice));
        CK(cudaMemcpy(s->dY, c->data.y, rows * sizeof(int), cudaMemcpyHostToDevice));
        uint32_t *perm = (uint32_t *)malloc(rows * sizeof(uint32_t) + 1);
        if (!perm) {
            snprintf(err->msg, sizeof err->msg, "mlp_train: out of host memory");
            return 1;
        }
        for (int ep = 0; ep < c->epochs; ep++) {
            mlp_shuffle(perm, (long)rows, c->seed, ep);
            e = cudaMemcpy(s->dPerm + (size_t)ep * rows, perm, rows * sizeof(int),
                           cudaMemcpyHostToDevice);
            if (e != cudaSuccess) {
                free(perm);
                return ck_fail(err, __FILE__, __LINE__, "upload of the permutations", e);
            }
        }
        free(perm);
    } else {
        size_t bytes = B * (f + 1) * 4;
        for (int k = 0; k < MLP_STAGES; k++) {
            s->hStage[k] = (char *)host_alloc(bytes, s->pinned, err);
            if (!s->hStage[k])
                return 1;
            MLP_DALLOC(s->dStage[k], bytes, 1);
            CK(cudaEventCreate(&s->c0[k]));
            CK(cudaEventCreate(&s->c1[k]));
            CK(cudaEventCreateWithFlags(&s->used[k], cudaEventDisableTiming));
        }
        s->hPerm = (uint32_t *)malloc(rows * sizeof(uint32_t) + 1);
        if (!s->hPerm) {
            snprintf(err->msg, sizeof err->msg, "mlp_train: out of host memory");
            return 1;
        }
    }
    /* every upload above, pageable ones included (they may return before
     * their DMA lands), is complete before the first run */
    CK(cudaDeviceSynchronize());
    return 0;
}

/* --- one training step ------------------------------------------------------- */

/* Forward, backward and AdamW step t on batch xb (B x features), yb.
 * cuBLAS is column-major: a row-major R x C matrix is its C x R transpose,
 * so with every matrix row-major (activations B x width, W_l in x out):
 *   Z = A W          gemm(N, N, out, B, in,  W, out,  A, in,   Z, out)
 *   dW = A^T dZ      gemm(N, T, out, in, B,  dZ, out, A, in,   dW, out)
 *   dA = dZ W^T      gemm(T, N, in, B, out,  W, out,  dZ, out, dA, in)
 *   db = dZ^T 1      gemv(N, out, B,         dZ, out, ones,    db) */
static int mlp_gpu_step(mlp_gpu *s, const float *xb, const int *yb, int B, long t, rn_error *err)
{
    const mlp_net *net = &s->cfg.net;
    const int L = net->nw - 1;
    const float one = 1.0f, zero = 0.0f;
    cudaStream_t st = s->st;
    const float *a = xb;
    for (int l = 0; l < L; l++) {
        const int in = net->width[l], out = net->width[l + 1];
        float *z = s->dAct[l + 1];
        CKB(cublasSgemm(s->h, CUBLAS_OP_N, CUBLAS_OP_N, out, B, in, &one, s->dP + net->woff[l], out,
                        a, in, &zero, z, out));
        if (l + 1 < L) {
            size_t n = (size_t)B * out;
            mlp_k_bias_relu<<<grid_for(n), 256, 0, st>>>(z, s->dP + net->boff[l], B, out);
            CK_LAUNCH("mlp_k_bias_relu");
        }
        a = z;
    }
    float *dz = s->dDelta[0];
    mlp_k_softmax_xent<<<grid_for((size_t)B), 256, 0, st>>>(a, s->dP + net->boff[L - 1], yb, B,
                                                            net->width[L], dz);
    CK_LAUNCH("mlp_k_softmax_xent");
    int cur = 0;
    for (int l = L - 1; l >= 0; l--) {
        const int in = net->width[l], out = net->width[l + 1];
        const float *ain = l > 0 ? s->dAct[l] : xb;
        CKB(cublasSgemm(s->h, CUBLAS_OP_N, CUBLAS_OP_T, out, in, B, &one, dz, out, ain, in, &zero,
                        s->dG + net->woff[l], out));
        CKB(cublasSgemv(s->h, CUBLAS_OP_N, out, B, &one, dz, out, s->dOnes, 1, &zero,
                        s->dG + net->boff[l], 1));
        if (l > 0) {
            float *da = s->dDelta[1 - cur];
            CKB(cublasSgemm(s->h, CUBLAS_OP_T, CUBLAS_OP_N, in, B, out, &one, s->dP + net->woff[l],
                            out, dz, out, &zero, da, in));
            size_t n = (size_t)B * in;
            mlp_k_relu_mask<<<grid_for(n), 256, 0, st>>>(da, ain, n);
            CK_LAUNCH("mlp_k_relu_mask");
            dz = da;
            cur = 1 - cur;
        }
    }
    float step, bc2s;
    mlp_adam_coeffs(s->cfg.lr, t, &step, &bc2s);
    mlp_k_adamw<<<grid_for(net->nparams), 256, 0, st>>>(
        s->dP, s->dG, s->dM, s->dV, net->nparams, net->nweights,
        (float)(1.0 - s->cfg.lr * s->cfg.wd), step, 1.0f / bc2s);
    CK_LAUNCH("mlp_k_adamw");
    return 0;
}

/* --- the timed call ------------------------------------------------------------- */

/* Adds the copy time of staging slot k (its copy must be complete). */
static int mlp_gpu_settle(mlp_gpu *s, int k, double *h2d, rn_error *err)
{
    if (!s->pending[k])
        return 0;
    CK(cudaEventSynchronize(s->c1[k]));
    float ms = 0;
    CK(cudaEventElapsedTime(&ms, s->c0[k], s->c1[k]));
    *h2d += ms * 1e-3;
    s->pending[k] = 0;
    return 0;
}

static int mlp_gpu_run(void *state, rn_sample *out, rn_error *err)
{
    mlp_gpu *s = (mlp_gpu *)state;
    const mlp_config *c = &s->cfg;
    const mlp_net *net = &c->net;
    const size_t P = net->nparams, f = (size_t)c->data.features;
    const long rows = c->data.rows;
    cudaStream_t st = s->st, cst = s->cst;
    cudaEvent_t *ev = s->tm.ev;
    s->trained = s->evaluated = s->weights_on_host = 0;
    /* this thread's handle for stream st, default math and host pointers */
    if (cuda_blas(&s->h, st, err))
        return 1;

    CK(cudaEventRecord(ev[0], st));
    CK(cudaMemcpyAsync(s->dP, s->dInit, P * sizeof(float), cudaMemcpyDeviceToDevice, st));
    CK(cudaMemsetAsync(s->dM, 0, P * sizeof(float), st));
    CK(cudaMemsetAsync(s->dV, 0, P * sizeof(float), st));
    double h2d = 0;
    long t = 0;
    int k = 0;
    for (int ep = 0; ep < c->epochs; ep++) {
        if (s->io != RN_IO_WITHOUT)
            mlp_shuffle(s->hPerm, rows, c->seed, ep);
        for (long start = 0; start < rows; start += c->batch) {
            int B = rows - start < c->batch ? (int)(rows - start) : c->batch;
            if (s->io == RN_IO_WITHOUT) {
                size_t n = (size_t)B * f;
                mlp_k_gather<<<grid_for(n), 256, 0, st>>>(
                    s->dX, s->dY, s->dPerm + (size_t)ep * rows + start, B, (int)f, s->dXb, s->dYb);
                CK_LAUNCH("mlp_k_gather");
                if (mlp_gpu_step(s, s->dXb, s->dYb, B, ++t, err))
                    return 1;
                continue;
            }
            /* the host gathers the batch into staging slot k once the slot's
             * previous upload has finished, then copies it up */
            if (mlp_gpu_settle(s, k, &h2d, err))
                return 1;
            float *hx = (float *)s->hStage[k];
            int32_t *hy = (int32_t *)(hx + (size_t)B * f);
            for (int r = 0; r < B; r++) {
                uint32_t src = s->hPerm[start + r];
                memcpy(hx + (size_t)r * f, c->data.x + (size_t)src * f, f * sizeof(float));
                hy[r] = c->data.y[src];
            }
            size_t bytes = (size_t)B * (f + 1) * 4;
            if (cst != st) /* the device buffer: free once its last step is done */
                CK(cudaStreamWaitEvent(cst, s->used[k], 0));
            CK(cudaEventRecord(s->c0[k], cst));
            CK(cudaMemcpyAsync(s->dStage[k], s->hStage[k], bytes, cudaMemcpyHostToDevice, cst));
            CK(cudaEventRecord(s->c1[k], cst));
            s->pending[k] = 1;
            if (cst != st)
                CK(cudaStreamWaitEvent(st, s->c1[k], 0));
            const float *xb = (const float *)s->dStage[k];
            if (mlp_gpu_step(s, xb, (const int *)(xb + (size_t)B * f), B, ++t, err))
                return 1;
            if (cst != st)
                CK(cudaEventRecord(s->used[k], st));
            k = (k + 1) % MLP_STAGES;
        }
    }
    CK(cudaEventRecord(ev[2], st));
    if (s->io != RN_IO_WITHOUT)
        CK(cudaMemcpyAsync(s->hP, s->dP, P * sizeof(float), cudaMemcpyDeviceToHost, st));
    CK(cudaEventRecord(ev[3], st));
    CK(cudaEventSynchronize(ev[3]));
    for (int j = 0; j < MLP_STAGES; j++)
        if (mlp_gpu_settle(s, j, &h2d, err))
            return 1;
    s->trained = 1;
    s->weights_on_host = s->io != RN_IO_WITHOUT;
    if (out) {
        out->device_seconds = timer_span(&s->tm, 0, 3);
        if (s->io == RN_IO_WITHOUT) {
            out->compute = out->device_seconds;
        } else if (s->io == RN_IO_WITH) {
            out->h2d = h2d;
            out->d2h = timer_span(&s->tm, 2, 3);
            out->compute = timer_span(&s->tm, 0, 2) - h2d;
        }
    }
    return 0;
}

/* --- loss and accuracy ---------------------------------------------------------- */

static int mlp_gpu_final(mlp_gpu *s, rn_error *err)
{
    if (!s->trained) {
        snprintf(err->msg, sizeof err->msg, "mlp_train: no training has run yet");
        return 1;
    }
    if (s->evaluated)
        return 0;
    if (!s->weights_on_host) {
        CK(cudaMemcpy(s->hP, s->dP, s->cfg.net.nparams * sizeof(float), cudaMemcpyDeviceToHost));
        s->weights_on_host = 1;
    }
    if (mlp_evaluate(&s->cfg.net, s->hP, &s->cfg.data, &s->final_loss, &s->final_acc)) {
        snprintf(err->msg, sizeof err->msg, "mlp_train: out of host memory");
        return 1;
    }
    s->evaluated = 1;
    return 0;
}

static int mlp_gpu_check(void *state, rn_error *err)
{
    mlp_gpu *s = (mlp_gpu *)state;
    if (mlp_gpu_final(s, err))
        return 1;
    return mlp_check_loss(&s->cfg, s->init_loss, s->final_loss, err) ? 1 : 0;
}

static void mlp_gpu_extras(void *state, void *ctx,
                           void (*cb)(void *ctx, const char *k, const char *v))
{
    mlp_gpu *s = (mlp_gpu *)state;
    rn_error err;
    if (mlp_gpu_final(s, &err) == 0)
        mlp_report(s->final_loss, s->final_acc, ctx, cb);
    cb(ctx, "host_memory_used", s->pinned ? "pinned" : "pageable");
}

/* declared first so that the definition has external linkage (a
 * namespace-scope const in C++ otherwise has none) */
extern const rn_workload_impl cuda_mlp_train;

CUDA_STATE_WORKLOAD(mlp_train, mlp_gpu, mlp_gpu, .extras = mlp_gpu_extras)
