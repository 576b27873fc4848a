/* nested_sin.cu - `depth` applications of sin: one kernel per sin (unfused,
 * like eager PyTorch: each pass reads and writes the whole array, with
 * PyTorch's vectorised access, elementwise.h) or one
 * kernel in all (fused).  io: overlap splits the array into chunks, each
 * copied in, computed and copied out on its own stream (cuda_array_run,
 * frame.h; pinned memory by default; doc/workloads.md#built-in-workloads). */
#include "ew_kernels.h"
#include "frame.h"
#include "verify_tol.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct ns {
    size_t n, esz;
    int depth, fused, pinned, inject, hold; /* hold: blocking_kernel */
    rn_dtype dt;
    rn_io io;
    void *hx, *hy;
    void *dx, *d1, *d2; /* input, two buffers for the unfused passes */
    void *dout;         /* where the last pass wrote */
    cuda_lanes ln; /* CUDA_ARRAY_LANES streams, their end events, the timer */
} ns;

static void ns_free(ns *s)
{
    cuda_free_all({s->dx, s->d1, s->d2});
    host_free_all({s->hx, s->hy}, s->pinned);
    lanes_free(&s->ln);
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

static int ns_params(ns *s, const rn_trial *t, rn_error *err)
{
    (void)err;
    cuda_array_params(s, t);
    s->depth = (int)rn_param_num(t, "depth", 4);
    s->fused = rn_param_num(t, "fused", 0) != 0;
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
    if (lanes_init(&s->ln, CUDA_ARRAY_LANES, 1, err))
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

static int ns_run(void *state, rn_sample *out, rn_error *err)
{
    ns *s = (ns *)state;
    cuda_array_io a = {1, {s->hx}, {s->dx}, s->hy, &s->dout};
    return cuda_array_run(s, a, compute, out, err);
}

/* relative only: sin keeps the relative error of inputs near 0, and an
 * absolute floor of 1e-6 let an f64 result computed in f32 pass */
static double ns_want(const ns *s, size_t i)
{
    double x = cuda_at(s->hx, s->dt, i);
    for (int d = 0; d < s->depth; d++)
        x = sin(x);
    return x;
}

static int ns_check(void *state, rn_error *err)
{
    ns *s = (ns *)state;
    return cuda_array_check(s, s->hy, s->dout, rn_tol_nested_sin(s->dt, s->depth), "nested_sin",
                            "y[%zu]", ns_want, err);
}

CUDA_HOST_MEMORY_EXTRAS(ns_extras, ns)

CUDA_STATE_WORKLOAD(nested_sin, ns, ns, .extras = ns_extras)
