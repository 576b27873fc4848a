/* cnn_forward.cu - `cnn_forward` on a CUDA device: the ResNet of
 * backends/cnn_model.h, one forward pass over `size` images per call, with
 * cuDNN's convolutions (doc/workloads.md#cnn_forward).
 *
 * Activations are NHWC in the trial's dtype (f32, f16, bf16); the filters
 * KRSC (cuDNN's NHWC filter format).  Each convolution is
 * cudnnConvolutionForward (compute type f32; math FMA for f32, i.e. no TF32,
 * tensor cores for f16 / bf16; the algorithm cuDNN's heuristics rank first
 * among those within the workspace, cudnnGetConvolutionForwardAlgorithm_v7)
 * writing the layer's output buffer, then one kernel adds the bias and the
 * residual and applies the ReLU in f32, rounding once more to the dtype
 * (cuDNN rounds the convolution's output to the dtype first: its f16 / bf16
 * configurations take inputs and output of one type).  Pooling and the
 * linear layer are small kernels that sum in f32.  amp: true keeps the f32
 * master parameters on the device and casts them to the dtype at the start
 * of every call (timed), as autocast does on entering its region.
 *
 * The images are uploaded in prepare: `io` does not apply (the data set is
 * resident, as in the documents' study).  One non-blocking stream and one
 * cuDNN handle per trial, so `concurrent` members on one GPU overlap.
 * Without cuDNN (cudnn_api.h) the trial is skipped with the loader's reason.
 *
 * check() downloads the logits and compares the first, middle and last
 * image with the f32 model computed in double on the host (cnn_reference),
 * within cnn_tolerance(dtype).  Never run on a GPU at the time of writing.
 */
#include "cuda_backend.h" /* first: it defines RN_HD for philox.h */
#include "cnn_model.h"
#include "cudnn_api.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define WORKSPACE_MAX ((size_t)256 << 20)

/* --- element types ------------------------------------------------------------ */

template <typename T> __device__ __forceinline__ float to_f(T x);
template <> __device__ __forceinline__ float to_f<float>(float x) { return x; }
template <> __device__ __forceinline__ float to_f<__half>(__half x) { return __half2float(x); }
template <> __device__ __forceinline__ float to_f<__nv_bfloat16>(__nv_bfloat16 x)
{
    return __bfloat162float(x);
}

template <typename T> __device__ __forceinline__ T from_f(float x);
template <> __device__ __forceinline__ float from_f<float>(float x) { return x; }
template <> __device__ __forceinline__ __half from_f<__half>(float x) { return __float2half_rn(x); }
template <> __device__ __forceinline__ __nv_bfloat16 from_f<__nv_bfloat16>(float x)
{
    return __float2bfloat16_rn(x);
}

#define CNN_GRID_LOOP(i, n)                                                                 \
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < (n);                 \
         i += (size_t)gridDim.x * blockDim.x)

/* dst = src rounded to T (amp's cast, and the one-time cast of pure f16/bf16) */
template <typename T> __global__ void k_cast(T *dst, const float *src, size_t n)
{
    CNN_GRID_LOOP(i, n) dst[i] = from_f<T>(src[i]);
}

/* y = act(y + bias[c] (+ add)), NHWC: c = i % C */
template <typename T>
__global__ void k_epilogue(T *y, const T *bias, const T *add, size_t n, int C, int relu)
{
    CNN_GRID_LOOP(i, n)
    {
        float v = to_f<T>(y[i]) + to_f<T>(bias[i % (size_t)C]);
        if (add)
            v += to_f<T>(add[i]);
        if (relu && v < 0)
            v = 0;
        y[i] = from_f<T>(v);
    }
}

/* pooled[b][c] = mean over the S x S pixels of x (NHWC), summed in f32 */
template <typename T> __global__ void k_pool(T *pooled, const T *x, int B, int SS, int C)
{
    CNN_GRID_LOOP(i, (size_t)B * C)
    {
        size_t b = i / (size_t)C, c = i % (size_t)C;
        float s = 0;
        for (int p = 0; p < SS; p++)
            s += to_f<T>(x[(b * (size_t)SS + (size_t)p) * (size_t)C + c]);
        pooled[i] = from_f<T>(s / (float)SS);
    }
}

/* logits[b][j] = W[j][:] pooled[b][:] + bias[j], f32 sums, rounded to T and
 * kept as f32 for the download */
template <typename T>
__global__ void k_linear(float *logits, const T *pooled, const T *W, const T *bias, int B, int F,
                         int classes)
{
    CNN_GRID_LOOP(i, (size_t)B * classes)
    {
        size_t b = i / (size_t)classes, j = i % (size_t)classes;
        float s = to_f<T>(bias[j]);
        for (int f = 0; f < F; f++)
            s += to_f<T>(W[j * (size_t)F + (size_t)f]) * to_f<T>(pooled[b * (size_t)F + (size_t)f]);
        logits[i] = to_f<T>(from_f<T>(s));
    }
}

/* --- the state ----------------------------------------------------------------- */

#if RN_HAVE_CUDNN

typedef struct layer {
    cnn_conv v;
    cudnnTensorDescriptor_t x, y;
    cudnnFilterDescriptor_t w;
    cudnnConvolutionDescriptor_t conv;
    cudnnConvolutionFwdAlgo_t algo;
} layer;

typedef struct cnn_gpu {
    cnn_cfg cfg;
    const cudnn_api *dnn;
    cudnnHandle_t h;
    cudaStream_t st;
    phase_timer tm;
    layer *layers;
    int nlayers;
    size_t nparams, fc_w, fc_b, es;
    float *master;    /* host: f32 parameters, KCRS (the reference's) */
    float *images;    /* host: NCHW f32 (the reference's) */
    float *dmaster;   /* device: f32 parameters, KRSC */
    void *dw;         /* device: the parameters in the dtype (dmaster itself for f32) */
    void *act[5];     /* device: NHWC activations, 0 = the images */
    void *pooled;     /* device: [B][F] */
    float *dlogits;   /* device: [B][classes] */
    void *workspace;
    size_t workspace_bytes;
    float *logits;    /* host copy, by check() */
    int ran;
    int checked;      /* check() passed: error is the logit_error column */
    double error;     /* check(): largest |got - ref| / the image's largest |ref| */
} cnn_gpu;

#define CKD(call)                                                                          \
    do {                                                                                   \
        cudnnStatus_t s_ = (call);                                                         \
        if (s_ != CUDNN_STATUS_SUCCESS) {                                                  \
            snprintf(err->msg, sizeof err->msg, "cnn_forward.cu:%d: %s: %s", __LINE__, #call, \
                     s->dnn->error_string(s_));                                            \
            return 1;                                                                      \
        }                                                                                  \
    } while (0)

static cudnnDataType_t dnn_type(rn_dtype d)
{
    return d == RN_F16 ? CUDNN_DATA_HALF : d == RN_BF16 ? CUDNN_DATA_BFLOAT16 : CUDNN_DATA_FLOAT;
}

static void cnn_gpu_release(void *state)
{
    cnn_gpu *s = (cnn_gpu *)state;
    if (!s)
        return;
    for (int i = 0; i < s->nlayers; i++) {
        layer *l = &s->layers[i];
        if (l->x)
            s->dnn->destroy_tensor(l->x);
        if (l->y)
            s->dnn->destroy_tensor(l->y);
        if (l->w)
            s->dnn->destroy_filter(l->w);
        if (l->conv)
            s->dnn->destroy_conv(l->conv);
    }
    free(s->layers);
    if (s->h)
        s->dnn->destroy(s->h);
    if (s->dw != s->dmaster)
        cudaFree(s->dw);
    cudaFree(s->dmaster);
    for (int i = 0; i < 5; i++)
        cudaFree(s->act[i]);
    cudaFree(s->pooled);
    cudaFree(s->dlogits);
    cudaFree(s->workspace);
    if (s->st)
        cudaStreamDestroy(s->st);
    timer_free(&s->tm);
    free(s->master);
    free(s->images);
    free(s->logits);
    free(s);
}

/* One layer's descriptors and algorithm; adds its workspace need. */
static int setup_layer(cnn_gpu *s, layer *l, rn_error *err)
{
    const cnn_conv *v = &l->v;
    const int B = (int)s->cfg.batch;
    cudnnDataType_t dt = dnn_type(s->cfg.dtype);
    CKD(s->dnn->create_tensor(&l->x));
    CKD(s->dnn->create_tensor(&l->y));
    CKD(s->dnn->create_filter(&l->w));
    CKD(s->dnn->create_conv(&l->conv));
    CKD(s->dnn->set_tensor4d(l->x, CUDNN_TENSOR_NHWC, dt, B, v->cin, v->hin, v->hin));
    CKD(s->dnn->set_tensor4d(l->y, CUDNN_TENSOR_NHWC, dt, B, v->cout, v->hout, v->hout));
    CKD(s->dnn->set_filter4d(l->w, dt, CUDNN_TENSOR_NHWC, v->cout, v->cin, v->k, v->k));
    CKD(s->dnn->set_conv2d(l->conv, v->pad, v->pad, v->stride, v->stride, 1, 1,
                           CUDNN_CROSS_CORRELATION, CUDNN_DATA_FLOAT));
    CKD(s->dnn->set_math_type(l->conv, s->cfg.dtype == RN_F32 ? CUDNN_FMA_MATH
                                                               : CUDNN_TENSOR_OP_MATH));
    cudnnConvolutionFwdAlgoPerf_t perf[CUDNN_CONVOLUTION_FWD_ALGO_COUNT];
    int got = 0;
    CKD(s->dnn->get_forward_algorithm(s->h, l->x, l->w, l->conv, l->y,
                                      CUDNN_CONVOLUTION_FWD_ALGO_COUNT, &got, perf));
    for (int i = 0; i < got; i++)
        if (perf[i].status == CUDNN_STATUS_SUCCESS && perf[i].memory <= WORKSPACE_MAX) {
            l->algo = perf[i].algo;
            size_t ws = 0;
            CKD(s->dnn->forward_workspace_size(s->h, l->x, l->w, l->conv, l->y, l->algo, &ws));
            s->workspace_bytes = ws > s->workspace_bytes ? ws : s->workspace_bytes;
            return 0;
        }
    snprintf(err->msg, sizeof err->msg,
             "cnn_forward: cuDNN has no convolution algorithm for %dx%d, %d -> %d channels, "
             "stride %d, %s within %zu MiB of workspace",
             v->k, v->k, v->cin, v->cout, v->stride, rn_dtype_name(s->cfg.dtype),
             WORKSPACE_MAX >> 20);
    return 1;
}

template <typename T> static int launch_cast(cnn_gpu *s, rn_error *err)
{
    k_cast<T><<<grid_for(s->nparams), 256, 0, s->st>>>((T *)s->dw, s->dmaster, s->nparams);
    CK_LAUNCH("k_cast");
    return 0;
}

static int cast_params(cnn_gpu *s, rn_error *err)
{
    if (s->cfg.dtype == RN_F16)
        return launch_cast<__half>(s, err);
    if (s->cfg.dtype == RN_BF16)
        return launch_cast<__nv_bfloat16>(s, err);
    return 0; /* f32: dw is dmaster */
}

static int cnn_gpu_prepare(const rn_trial *t, void **state, rn_error *err)
{
    *state = NULL;
    cnn_cfg c;
    if (cnn_config(t, &c, err))
        return 1;
    if (t->dtype == RN_F64) {
        snprintf(err->msg, sizeof err->msg, "dtype f64 is not supported by cnn_forward");
        return 2;
    }
    if (c.amp && t->dtype == RN_F32) {
        snprintf(err->msg, sizeof err->msg,
                 "cnn_forward: amp: true with dtype f32 has nothing to cast to (amp needs "
                 "dtype f16 or bf16)");
        return 2;
    }
    char why[512];
    const cudnn_api *dnn = cudnn_load(why, sizeof why);
    if (!dnn) {
        snprintf(err->msg, sizeof err->msg, "cnn_forward: %s", why);
        return 2;
    }
    cnn_gpu *s = (cnn_gpu *)state_calloc(sizeof *s, NULL, err);
    if (!s)
        return 1;
    s->cfg = c;
    s->dnn = dnn;
    s->es = rn_dtype_size(t->dtype);
    int rc = 1;
    cnn_param_layout(&c, &s->fc_w, &s->fc_b, &s->nparams);
    const size_t B = (size_t)c.batch, per = (size_t)c.channels * c.image * c.image;
    const size_t most = (size_t)cnn_max_activation(&c), F = (size_t)cnn_features(&c);
    s->master = (float *)malloc(s->nparams * sizeof(float));
    s->images = (float *)malloc(B * per * sizeof(float));
    float *krsc = (float *)malloc(s->nparams * sizeof(float));
    void *nhwc = malloc(B * per * s->es);
    s->logits = (float *)malloc(B * (size_t)c.classes * sizeof(float));
    s->layers = (layer *)calloc((size_t)cnn_conv_count(&c), sizeof(layer));
    if (!s->master || !s->images || !krsc || !nhwc || !s->logits || !s->layers) {
        snprintf(err->msg, sizeof err->msg, "cnn_forward: out of host memory");
        goto out;
    }
    {
        /* parameters: KCRS -> KRSC for the convolutions, the rest as it is */
        cnn_init_params(&c, t->seed, s->master);
        memcpy(krsc, s->master, s->nparams * sizeof(float));
        cnn_cursor k;
        cnn_conv v;
        cnn_start(&k);
        while (cnn_next(&c, &k, &v) == 0) {
            s->layers[s->nlayers++].v = v;
            for (int o = 0; o < v.cout; o++)
                for (int ci = 0; ci < v.cin; ci++)
                    for (int r = 0; r < v.k * v.k; r++)
                        krsc[v.woff + ((size_t)o * v.k * v.k + (size_t)r) * v.cin + (size_t)ci] =
                            s->master[v.woff + ((size_t)o * v.cin + (size_t)ci) * v.k * v.k +
                                      (size_t)r];
        }
        /* images: NCHW values, NHWC storage in the dtype */
        for (size_t b = 0; b < B; b++)
            for (size_t ch = 0; ch < (size_t)c.channels; ch++)
                for (size_t i = 0; i < (size_t)c.image * c.image; i++) {
                    size_t nchw = (b * (size_t)c.channels + ch) * c.image * c.image + i;
                    size_t at = (b * (size_t)c.image * c.image + i) * (size_t)c.channels + ch;
                    float x = cnn_image_value(t->seed, nchw);
                    s->images[nchw] = x;
                    if (t->dtype == RN_F32)
                        ((float *)nhwc)[at] = x;
                    else if (t->dtype == RN_BF16)
                        ((__nv_bfloat16 *)nhwc)[at] = __float2bfloat16_rn(x);
                    else
                        ((__half *)nhwc)[at] = __float2half_rn(x);
                }
        if (timer_init(&s->tm, err))
            goto out;
        cudaError_t e = cudaStreamCreateWithFlags(&s->st, cudaStreamNonBlocking);
        if (e != cudaSuccess) {
            ck_fail(err, __FILE__, __LINE__, "cudaStreamCreateWithFlags", e);
            goto out;
        }
        cudnnStatus_t ds = dnn->create(&s->h);
        if (ds == CUDNN_STATUS_SUCCESS)
            ds = dnn->set_stream(s->h, s->st);
        if (ds != CUDNN_STATUS_SUCCESS) {
            snprintf(err->msg, sizeof err->msg, "cnn_forward: cudnnCreate: %s",
                     dnn->error_string(ds));
            goto out;
        }
        for (int i = 0; i < s->nlayers; i++)
            if (setup_layer(s, &s->layers[i], err))
                goto out;
        e = cudaMalloc(&s->dmaster, s->nparams * sizeof(float));
        if (e == cudaSuccess)
            e = t->dtype == RN_F32 ? cudaSuccess : cudaMalloc(&s->dw, s->nparams * s->es);
        if (t->dtype == RN_F32)
            s->dw = s->dmaster;
        if (e == cudaSuccess)
            e = cudaMalloc(&s->act[0], B * per * s->es);
        for (int i = 1; e == cudaSuccess && i < 5; i++)
            e = cudaMalloc(&s->act[i], B * most * s->es);
        if (e == cudaSuccess)
            e = cudaMalloc(&s->pooled, B * F * s->es);
        if (e == cudaSuccess)
            e = cudaMalloc((void **)&s->dlogits, B * (size_t)c.classes * sizeof(float));
        if (e == cudaSuccess && s->workspace_bytes)
            e = cudaMalloc(&s->workspace, s->workspace_bytes);
        if (e == cudaSuccess)
            e = cudaMemcpy(s->dmaster, krsc, s->nparams * sizeof(float), cudaMemcpyHostToDevice);
        if (e == cudaSuccess)
            e = cudaMemcpy(s->act[0], nhwc, B * per * s->es, cudaMemcpyHostToDevice);
        if (e != cudaSuccess) {
            ck_fail(err, __FILE__, __LINE__, "cnn_forward: device buffers", e);
            goto out;
        }
        /* pure f16 / bf16: the parameters are cast once, here */
        if (!c.amp && cast_params(s, err))
            goto out;
        e = cudaDeviceSynchronize();
        if (e != cudaSuccess) {
            ck_fail(err, __FILE__, __LINE__, "cudaDeviceSynchronize", e);
            goto out;
        }
        rc = 0;
    }
out:
    free(krsc);
    free(nhwc);
    if (rc) {
        cnn_gpu_release(s);
        return rc;
    }
    *state = s;
    return 0;
}

template <typename T> static int forward(cnn_gpu *s, rn_error *err)
{
    const cnn_cfg *c = &s->cfg;
    const float one = 1, zero = 0;
    const T *w = (const T *)s->dw;
    int last = 1;
    for (int i = 0; i < s->nlayers; i++) {
        layer *l = &s->layers[i];
        const cnn_conv *v = &l->v;
        CKD(s->dnn->convolution_forward(s->h, &one, l->x, s->act[v->src], l->w, w + v->woff,
                                        l->conv, l->algo, s->workspace, s->workspace_bytes,
                                        &zero, l->y, s->act[v->dst]));
        size_t n = (size_t)c->batch * v->cout * v->hout * v->hout;
        k_epilogue<T><<<grid_for(n), 256, 0, s->st>>>(
            (T *)s->act[v->dst], w + v->boff, v->add >= 0 ? (const T *)s->act[v->add] : NULL, n,
            v->cout, v->relu);
        CK_LAUNCH("k_epilogue");
        last = v->dst;
    }
    const int B = (int)c->batch, F = cnn_features(c), S = cnn_final_side(c);
    k_pool<T><<<grid_for((size_t)B * F), 256, 0, s->st>>>((T *)s->pooled,
                                                         (const T *)s->act[last], B, S * S, F);
    CK_LAUNCH("k_pool");
    k_linear<T><<<grid_for((size_t)B * c->classes), 256, 0, s->st>>>(
        s->dlogits, (const T *)s->pooled, w + s->fc_w, w + s->fc_b, B, F, c->classes);
    CK_LAUNCH("k_linear");
    return 0;
}

static int cnn_gpu_run(void *state, rn_sample *out, rn_error *err)
{
    cnn_gpu *s = (cnn_gpu *)state;
    if (timer_start_batch(&s->tm, s->st, 0, err)) /* a batch's calls timed as one */
        return 1;
    if (s->cfg.amp && cast_params(s, err)) /* autocast's weight cast, every call */
        return 1;
    int rc = s->cfg.dtype == RN_F16    ? forward<__half>(s, err)
             : s->cfg.dtype == RN_BF16 ? forward<__nv_bfloat16>(s, err)
                                       : forward<float>(s, err);
    if (rc)
        return rc;
    s->ran = 1;
    return timer_stop(&s->tm, s->st, out, 1, err);
}

static int cnn_gpu_check(void *state, rn_error *err)
{
    cnn_gpu *s = (cnn_gpu *)state;
    const cnn_cfg *c = &s->cfg;
    if (!s->ran) {
        snprintf(err->msg, sizeof err->msg, "cnn_forward: no forward pass has run yet");
        return 1;
    }
    CK(cudaMemcpy(s->logits, s->dlogits, (size_t)c->batch * c->classes * sizeof(float),
                  cudaMemcpyDeviceToHost));
    long long imgs[3];
    int n = cnn_checked_images(c->batch, imgs);
    double *ref = (double *)malloc(2 * (size_t)c->classes * sizeof(double));
    if (!ref) {
        snprintf(err->msg, sizeof err->msg, "cnn_forward: out of host memory");
        return 1;
    }
    double *got = ref + c->classes;
    int rc = 0;
    s->error = 0;
    for (int i = 0; i < n && rc == 0; i++) {
        if (cnn_reference(c, s->master, s->images, imgs[i], RN_F64, ref)) {
            snprintf(err->msg, sizeof err->msg, "cnn_forward: out of memory for the reference");
            rc = 1;
            break;
        }
        for (int j = 0; j < c->classes; j++)
            got[j] = s->logits[(size_t)imgs[i] * c->classes + (size_t)j];
        rc = cnn_compare(c, imgs[i], got, ref, &s->error, err) ? 1 : 0;
    }
    free(ref);
    s->checked = rc == 0;
    return rc;
}

/* logit_error, as on the CPU (doc/workloads.md#cnn_forward): the check's largest
 * error, of the image's largest |logit| */
static void cnn_gpu_extras(void *state, void *ctx, void (*cb)(void *ctx, const char *k, const char *v))
{
    cnn_gpu *s = (cnn_gpu *)state;
    if (!s || !s->checked)
        return;
    char buf[32];
    snprintf(buf, sizeof buf, "%.3g", s->error);
    cb(ctx, "logit_error", buf);
}

#else /* no cudnn.h at build time */

static int cnn_gpu_prepare(const rn_trial *t, void **state, rn_error *err)
{
    (void)t;
    *state = NULL;
    char why[256];
    cudnn_load(why, sizeof why);
    snprintf(err->msg, sizeof err->msg, "cnn_forward: %s", why);
    return 2;
}

static int cnn_gpu_run(void *state, rn_sample *out, rn_error *err)
{
    (void)state;
    (void)out;
    snprintf(err->msg, sizeof err->msg, "cnn_forward: built without cuDNN");
    return 1;
}

static int cnn_gpu_check(void *state, rn_error *err)
{
    return cnn_gpu_run(state, NULL, err);
}

static void cnn_gpu_release(void *state)
{
    (void)state;
}

static void cnn_gpu_extras(void *state, void *ctx, void (*cb)(void *ctx, const char *k, const char *v))
{
    (void)state;
    (void)ctx;
    (void)cb;
}

#endif

const rn_workload_impl cuda_cnn_forward = {
    .name = "cnn_forward",
    .prepare = cnn_gpu_prepare,
    .run = cnn_gpu_run,
    .check = cnn_gpu_check,
    .release = cnn_gpu_release,
    .extras = cnn_gpu_extras,
};

RN_REGISTER_WORKLOAD(cuda_register_workload, cuda_cnn_forward)
