/* nested_sin.cu - `depth` applications of sin: one kernel per sin (unfused,
 * like eager PyTorch: each pass reads and writes the whole array, with
 * PyTorch's vectorised access, elementwise.h) or one
 * kernel in all (fused).  io: overlap splits the array into chunks, each
 * copied in, computed and copied out on its own stream (pinned memory by
 * default; doc/workloads.md#built-in-workloads). */
#include "cuda_backend.h"
#include "elementwise.h"
#include "verify_tol.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define NSTREAMS 3
#define CHUNKS 16

template <typename T> __device__ inline T dsin(T x);
template <> __device__ inline float dsin<float>(float x) { return sinf(x); }
template <> __device__ inline double dsin<double>(double x) { return sin(x); }

/* D nested sines (the fused kernel); D == 0 means `depth` of them (a run-time count).  A
 * compile-time count lets the compiler interleave the four independent
 * elements below; the run-time loop is the fallback for unusual depths. */
template <typename T, int D> __device__ inline T nest(T v, int depth)
{
    if (D > 0) {
#pragma unroll
        for (int d = 0; d < D; d++)
            v = dsin<T>(v);
    } else {
        for (int d = 0; d < depth; d++)
            v = dsin<T>(v);
    }
    return v;
}

/* One sine, for the unfused passes (elementwise.h's access pattern, as
 * PyTorch's torch.sin). */
template <typename T> struct sin_op {
    __device__ T operator()(T x) const { return dsin<T>(x); }
};

/* The fused kernel: each thread takes four elements one grid-stride apart: the loads of a warp
 * stay coalesced and four of them are in flight before the first sine. */
template <typename T, int D>
__global__ void sin_kernel(T *__restrict__ y, const T *__restrict__ x, size_t n, int depth)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    for (; i + 3 * stride < n; i += 4 * stride) {
        T v[4];
#pragma unroll
        for (int k = 0; k < 4; k++)
            v[k] = x[i + k * stride];
#pragma unroll
        for (int k = 0; k < 4; k++)
            v[k] = nest<T, D>(v[k], depth);
#pragma unroll
        for (int k = 0; k < 4; k++)
            y[i + k * stride] = v[k];
    }
    for (; i < n; i += stride)
        y[i] = nest<T, D>(x[i], depth);
}

static unsigned grid_for4(size_t n)
{
    return grid_for((n + 3) / 4);
}

/* One launch of `depth` nested sines over len elements. */
template <typename T>
static void launch_sin(T *y, const T *x, size_t len, int depth, cudaStream_t st)
{
    unsigned g = grid_for4(len);
    switch (depth) {
    case 1: sin_kernel<T, 1><<<g, 256, 0, st>>>(y, x, len, depth); break;
    case 2: sin_kernel<T, 2><<<g, 256, 0, st>>>(y, x, len, depth); break;
    case 3: sin_kernel<T, 3><<<g, 256, 0, st>>>(y, x, len, depth); break;
    case 4: sin_kernel<T, 4><<<g, 256, 0, st>>>(y, x, len, depth); break;
    default: sin_kernel<T, 0><<<g, 256, 0, st>>>(y, x, len, depth); break;
    }
}

typedef struct ns {
    size_t n, esz;
    int depth, fused, pinned, inject, hold; /* hold: blocking_kernel */
    rn_dtype dt;
    rn_io io;
    void *hx, *hy;
    void *dx, *d1, *d2; /* input, two buffers for the unfused passes */
    void *dout;         /* where the last pass wrote */
    cuda_lanes ln; /* NSTREAMS streams, their end events, the timer */
} ns;

static void ns_release(void *state)
{
    ns *s = (ns *)state;
    if (!s)
        return;
    cudaFree(s->dx);
    cudaFree(s->d1);
    cudaFree(s->d2);
    host_free(s->hx, s->pinned);
    host_free(s->hy, s->pinned);
    lanes_free(&s->ln);
    free(s);
}

/* The whole computation of elements [off, off+len) on stream st. */
static int compute(ns *s, size_t off, size_t len, cudaStream_t st, rn_error *err)
{
    if (len == 0 || s->inject == RN_INJECT_SKIP_KERNEL)
        return 0;
    char *x = (char *)s->dx + off * s->esz;
    if (s->fused) {
        char *y = (char *)s->d1 + off * s->esz;
        if (s->dt == RN_F64)
            launch_sin<double>((double *)y, (const double *)x, len, s->depth, st);
        else
            launch_sin<float>((float *)y, (const float *)x, len, s->depth, st);
        CK_LAUNCH("sin_kernel (fused)");
        s->dout = s->d1;
        return 0;
    }
    const char *src = x;
    void *bufs[2] = {s->d1, s->d2};
    for (int d = 0; d < s->depth; d++) {
        char *dst = (char *)bufs[d % 2] + off * s->esz;
        if (s->dt == RN_F64)
            rn_ew_map1((double *)dst, (const double *)src, len, sin_op<double>(), st);
        else
            rn_ew_map1((float *)dst, (const float *)src, len, sin_op<float>(), st);
        CK_LAUNCH("rn_ew (one sine)");
        src = dst;
        s->dout = bufs[d % 2];
    }
    return 0;
}

static int ns_setup(ns *s, const rn_trial *t, rn_error *err)
{
    size_t bytes = s->n * s->esz;
    s->hx = host_alloc(bytes, s->pinned, err);
    s->hy = host_alloc(bytes, s->pinned, err);
    if (!s->hx || !s->hy)
        return 1;
    if (s->dt == RN_F64) {
        float *tmp = (float *)malloc(s->n * sizeof(float) + 1);
        if (!tmp) {
            snprintf(err->msg, sizeof err->msg, "nested_sin: out of host memory");
            return 1;
        }
        host_fill_uniform(tmp, s->n, t->seed, 0, 0.0f, 1.0f);
        for (size_t i = 0; i < s->n; i++)
            ((double *)s->hx)[i] = tmp[i];
        free(tmp);
    } else {
        host_fill_uniform((float *)s->hx, s->n, t->seed, 0, 0.0f, 1.0f);
    }
    CK(cudaMalloc(&s->dx, bytes + 1));
    CK(cudaMalloc(&s->d1, bytes + 1));
    if (!s->fused && s->depth > 1)
        CK(cudaMalloc(&s->d2, bytes + 1));
    if (lanes_init(&s->ln, NSTREAMS, 1, err))
        return 1;
    /* where the last pass writes (compute() sets it too, but a skipped
     * kernel must still leave the check a buffer to read) */
    s->dout = s->fused || s->depth % 2 ? s->d1 : s->d2;
    /* poison (NaN in f32 and f64) where the run must write: a copy or a
     * kernel that never ran fails the check (doc/workloads.md#verification) */
    memset(s->hy, 0xff, bytes);
    CK(cudaMemset(s->d1, 0xff, bytes));
    if (s->d2)
        CK(cudaMemset(s->d2, 0xff, bytes));
    if (s->io == RN_IO_WITHOUT)
        CK(cudaMemcpy(s->dx, s->hx, bytes, cudaMemcpyHostToDevice));
    else
        CK(cudaMemset(s->dx, 0xff, bytes));
    /* a pageable cudaMemcpy may return before its DMA lands, and the memsets
     * run on the legacy stream: run()'s non-blocking streams wait for neither */
    CK(cudaDeviceSynchronize());
    return 0;
}

static int ns_prepare(const rn_trial *t, void **state, rn_error *err)
{
    ns *s = (ns *)state_calloc(sizeof *s, "nested_sin", err);
    if (!s)
        return 1;
    s->n = (size_t)t->size;
    s->dt = t->dtype;
    s->esz = rn_dtype_size(t->dtype);
    s->depth = (int)rn_param_num(t, "depth", 4);
    s->fused = rn_param_num(t, "fused", 0) != 0;
    s->io = t->io;
    s->pinned = rn_host_pinned(t);
    s->inject = rn_inject(t);
    s->hold = rn_param_num(t, "blocking_kernel", 0) != 0;
    return prepare_done(state, s, ns_setup(s, t, err), ns_release);
}

static int ns_run(void *state, rn_sample *out, rn_error *err)
{
    ns *s = (ns *)state;
    size_t bytes = s->n * s->esz;
    cudaStream_t s0 = s->ln.st[0];
    cudaEvent_t *ev = s->ln.tm.ev;
    /* io: without is all asynchronous: it may hold the stream (blocking_kernel),
     * and a batch's calls run back to back, timed as one */
    if (s->io == RN_IO_WITHOUT)
        return timer_start_batch(&s->ln.tm, s0, s->hold, err) || compute(s, 0, s->n, s0, err) ||
               timer_stop(&s->ln.tm, s0, out, 1, err);
    if (timer_start(&s->ln.tm, s0, 0, err))
        return 1;
    int copies = s->inject != RN_INJECT_SKIP_COPY; /* fault injection */
    if (s->io == RN_IO_WITH) {
        if (copies)
            CK(cudaMemcpyAsync(s->dx, s->hx, bytes, cudaMemcpyHostToDevice, s0));
        CK(cudaEventRecord(ev[1], s0));
        if (compute(s, 0, s->n, s0, err))
            return 1;
        CK(cudaEventRecord(ev[2], s0));
        if (copies)
            CK(cudaMemcpyAsync(s->hy, s->dout, bytes, cudaMemcpyDeviceToHost, s0));
        CK(cudaEventRecord(ev[3], s0));
        return timer_phases(&s->ln.tm, out, err);
    }
    /* overlap: upload / compute / download of each chunk on its own stream */
    if (lanes_fork(&s->ln, NSTREAMS, ev[0], err))
        return 1;
    for (int c = 0; c < CHUNKS; c++) {
        size_t off, len = chunk_of(s->n, CHUNKS, c, &off);
        if (len == 0)
            break;
        cudaStream_t st = s->ln.st[c % NSTREAMS];
        if (copies)
            CK(cudaMemcpyAsync((char *)s->dx + off * s->esz, (char *)s->hx + off * s->esz,
                               len * s->esz, cudaMemcpyHostToDevice, st));
        if (compute(s, off, len, st, err))
            return 1;
        if (copies)
            CK(cudaMemcpyAsync((char *)s->hy + off * s->esz, (char *)s->dout + off * s->esz,
                               len * s->esz, cudaMemcpyDeviceToHost, st));
    }
    return join_streams(s->ln.st, s->ln.done, NSTREAMS, &s->ln.tm, out, err);
}

static int ns_check(void *state, rn_error *err)
{
    ns *s = (ns *)state;
    if (s->n == 0)
        return 0;
    /* io: with / overlap: the run's own download is what is checked (a
     * fresh download here would hide a skipped one); io: without: the
     * result stays on the device, so fetch it */
    if (s->io == RN_IO_WITHOUT)
        CK(cudaMemcpy(s->hy, s->dout, s->n * s->esz, cudaMemcpyDeviceToHost));
    double tol = rn_tol_nested_sin(s->dt, s->depth);
    int samples = check_count(s->n);
    for (int q = 0; q < samples; q++) {
        size_t i = check_index(s->n, q);
        double x = s->dt == RN_F64 ? ((double *)s->hx)[i] : ((float *)s->hx)[i];
        double got = s->dt == RN_F64 ? ((double *)s->hy)[i] : ((float *)s->hy)[i];
        for (int d = 0; d < s->depth; d++)
            x = sin(x);
        /* relative only: sin keeps the relative error of inputs near 0, and
         * an absolute floor of 1e-6 let an f64 result computed in f32 pass */
        if (check_close(got, x, tol, "nested_sin", err, "y[%zu]", i))
            return 1;
    }
    return 0;
}

CUDA_HOST_MEMORY_EXTRAS(ns_extras, ns)

const rn_workload_impl cuda_nested_sin = {
    .name = "nested_sin",
    .prepare = ns_prepare,
    .run = ns_run,
    .check = ns_check,
    .release = ns_release,
    .extras = ns_extras,
};

RN_REGISTER_WORKLOAD(cuda_register_workload, cuda_nested_sin)
