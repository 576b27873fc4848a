/* axpb.cu - x = -b / a for `size` equations a*x + b = 0. */
#include "cuda_backend.h"

#include <math.h>
#include <stdlib.h>

template <typename T>
__global__ void solve(T *__restrict__ x, const T *__restrict__ a, const T *__restrict__ b, size_t n)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x)
        x[i] = -b[i] / a[i];
}

typedef struct ax {
    size_t n, esz;
    rn_dtype dt;
    rn_io io;
    void *ha, *hb, *hx, *da, *db, *dx;
    cudaStream_t st;
    phase_timer tm;
} ax;

static void ax_release(void *state)
{
    ax *s = (ax *)state;
    if (!s)
        return;
    cudaFree(s->da);
    cudaFree(s->db);
    cudaFree(s->dx);
    host_free(s->ha, 0);
    host_free(s->hb, 0);
    host_free(s->hx, 0);
    if (s->st)
        cudaStreamDestroy(s->st);
    timer_free(&s->tm);
    free(s);
}

static int ax_setup(ax *s, const rn_trial *t, rn_error *err)
{
    size_t bytes = s->n * s->esz;
    s->ha = host_alloc(bytes, 0, err);
    s->hb = host_alloc(bytes, 0, err);
    s->hx = host_alloc(bytes, 0, err);
    float *u = (float *)malloc(s->n * sizeof(float) + 1);
    if (!s->ha || !s->hb || !s->hx || !u) {
        free(u);
        snprintf(err->msg, sizeof err->msg, "axpb: out of host memory");
        return 1;
    }
    /* a = 1 + u(stream 0), b = u(stream 1), as on the CPU */
    host_fill_uniform(u, s->n, t->seed, 0, 0.0f, 1.0f);
    for (size_t i = 0; i < s->n; i++) {
        if (s->dt == RN_F64)
            ((double *)s->ha)[i] = 1.0 + (double)u[i];
        else
            ((float *)s->ha)[i] = 1.0f + u[i];
    }
    host_fill_uniform(u, s->n, t->seed, 1, 0.0f, 1.0f);
    for (size_t i = 0; i < s->n; i++) {
        if (s->dt == RN_F64)
            ((double *)s->hb)[i] = u[i];
        else
            ((float *)s->hb)[i] = u[i];
    }
    free(u);
    CK(cudaMalloc(&s->da, bytes + 1));
    CK(cudaMalloc(&s->db, bytes + 1));
    CK(cudaMalloc(&s->dx, bytes + 1));
    CK(cudaStreamCreateWithFlags(&s->st, cudaStreamNonBlocking));
    if (timer_init(&s->tm, err))
        return 1;
    if (s->io != RN_IO_WITH) {
        CK(cudaMemcpy(s->da, s->ha, bytes, cudaMemcpyHostToDevice));
        CK(cudaMemcpy(s->db, s->hb, bytes, cudaMemcpyHostToDevice));
    }
    return 0;
}

static int ax_prepare(const rn_trial *t, void **state, rn_error *err)
{
    ax *s = (ax *)calloc(1, sizeof *s);
    if (!s) {
        snprintf(err->msg, sizeof err->msg, "axpb: out of host memory");
        return 1;
    }
    s->n = (size_t)t->size;
    s->dt = t->dtype;
    s->esz = rn_dtype_size(t->dtype);
    /* overlap is not pipelined for this one-pass kernel: timed as `with` */
    s->io = t->io == RN_IO_WITHOUT ? RN_IO_WITHOUT : RN_IO_WITH;
    if (ax_setup(s, t, err)) {
        ax_release(s);
        return 1;
    }
    *state = s;
    return 0;
}

static int launch(ax *s, rn_error *err)
{
    if (s->n == 0)
        return 0;
    if (s->dt == RN_F64)
        solve<double><<<grid_for(s->n), 256, 0, s->st>>>((double *)s->dx, (const double *)s->da,
                                                         (const double *)s->db, s->n);
    else
        solve<float><<<grid_for(s->n), 256, 0, s->st>>>((float *)s->dx, (const float *)s->da,
                                                        (const float *)s->db, s->n);
    CK_LAUNCH("solve");
    return 0;
}

static int ax_run(void *state, rn_sample *out, rn_error *err)
{
    ax *s = (ax *)state;
    size_t bytes = s->n * s->esz;
    cudaEvent_t *ev = s->tm.ev;
    CK(cudaEventRecord(ev[0], s->st));
    if (s->io == RN_IO_WITH) {
        CK(cudaMemcpyAsync(s->da, s->ha, bytes, cudaMemcpyHostToDevice, s->st));
        CK(cudaMemcpyAsync(s->db, s->hb, bytes, cudaMemcpyHostToDevice, s->st));
    }
    CK(cudaEventRecord(ev[1], s->st));
    if (launch(s, err))
        return 1;
    CK(cudaEventRecord(ev[2], s->st));
    if (s->io == RN_IO_WITH)
        CK(cudaMemcpyAsync(s->hx, s->dx, bytes, cudaMemcpyDeviceToHost, s->st));
    CK(cudaEventRecord(ev[3], s->st));
    CK(cudaEventSynchronize(ev[3]));
    out->compute = timer_span(&s->tm, 1, 2);
    if (s->io == RN_IO_WITH) {
        out->h2d = timer_span(&s->tm, 0, 1);
        out->d2h = timer_span(&s->tm, 2, 3);
    }
    out->device_seconds = timer_span(&s->tm, 0, 3);
    return 0;
}

static int ax_check(void *state, rn_error *err)
{
    ax *s = (ax *)state;
    if (s->n == 0)
        return 0;
    CK(cudaMemcpy(s->hx, s->dx, s->n * s->esz, cudaMemcpyDeviceToHost));
    double tol = s->dt == RN_F64 ? 1e-14 : 1e-6;
    int samples = s->n <= 4096 ? (int)s->n : 256;
    for (int q = 0; q < samples; q++) {
        size_t i = s->n <= 4096 ? (size_t)q : (size_t)((q * 2654435761ull) % s->n);
        double a = s->dt == RN_F64 ? ((double *)s->ha)[i] : ((float *)s->ha)[i];
        double b = s->dt == RN_F64 ? ((double *)s->hb)[i] : ((float *)s->hb)[i];
        double x = s->dt == RN_F64 ? ((double *)s->hx)[i] : ((float *)s->hx)[i];
        char what[48];
        snprintf(what, sizeof what, "x[%zu]", i);
        if (fabs(x + b / a) > 1e-7 && compare_value(x, -b / a, tol, "axpb", what, err))
            return 1;
    }
    return 0;
}

const rn_workload_impl cuda_axpb = {
    .name = "axpb",
    .prepare = ax_prepare,
    .run = ax_run,
    .check = ax_check,
    .release = ax_release,
};
