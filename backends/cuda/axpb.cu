/* axpb.cu - x = -b / a for `size` equations a*x + b = 0.  io: overlap
 * splits the arrays into chunks, each copied in, solved and copied out on
 * its own stream, as nested_sin does (doc/experiment-file.md#top-level-keys). */
#include "cuda_backend.h"
#include "elementwise.h"
#include "verify_tol.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define NSTREAMS 3
#define CHUNKS 16

/* x = -b / a, element by element (elementwise.h's vectorised access) */
template <typename T> struct solve_op {
    __device__ T operator()(T a, T b) const { return -b / a; }
};

typedef struct ax {
    size_t n, esz;
    rn_dtype dt;
    rn_io io;
    int pinned, inject, hold; /* hold: blocking_kernel */
    void *ha, *hb, *hx, *da, *db, *dx;
    cuda_lanes ln; /* NSTREAMS streams, their end events, the timer */
} ax;

static void ax_release(void *state)
{
    ax *s = (ax *)state;
    if (!s)
        return;
    cudaFree(s->da);
    cudaFree(s->db);
    cudaFree(s->dx);
    host_free(s->ha, s->pinned);
    host_free(s->hb, s->pinned);
    host_free(s->hx, s->pinned);
    lanes_free(&s->ln);
    free(s);
}

static int ax_setup(ax *s, const rn_trial *t, rn_error *err)
{
    size_t bytes = s->n * s->esz;
    s->ha = host_alloc(bytes, s->pinned, err);
    s->hb = host_alloc(bytes, s->pinned, err);
    s->hx = host_alloc(bytes, s->pinned, err);
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
    if (lanes_init(&s->ln, NSTREAMS, 1, err))
        return 1;
    /* poison (NaN in f32 and f64) where the run must write: a copy or a
     * kernel that never ran fails the check (doc/workloads.md#verification) */
    memset(s->hx, 0xff, bytes);
    CK(cudaMemset(s->dx, 0xff, bytes));
    if (s->io == RN_IO_WITHOUT) {
        CK(cudaMemcpy(s->da, s->ha, bytes, cudaMemcpyHostToDevice));
        CK(cudaMemcpy(s->db, s->hb, bytes, cudaMemcpyHostToDevice));
    } else {
        CK(cudaMemset(s->da, 0xff, bytes));
        CK(cudaMemset(s->db, 0xff, bytes));
    }
    /* pageable copies may return before the DMA lands; the memsets run on
     * the legacy stream, which run()'s non-blocking streams do not wait for */
    CK(cudaDeviceSynchronize());
    return 0;
}

static int ax_prepare(const rn_trial *t, void **state, rn_error *err)
{
    ax *s = (ax *)state_calloc(sizeof *s, "axpb", err);
    if (!s)
        return 1;
    s->n = (size_t)t->size;
    s->dt = t->dtype;
    s->esz = rn_dtype_size(t->dtype);
    s->io = t->io;
    s->pinned = rn_host_pinned(t);
    s->inject = rn_inject(t);
    s->hold = rn_param_num(t, "blocking_kernel", 0) != 0;
    return prepare_done(state, s, ax_setup(s, t, err), ax_release);
}

/* Elements [off, off + len) on stream st. */
static int launch(ax *s, size_t off, size_t len, cudaStream_t st, rn_error *err)
{
    if (len == 0 || s->inject == RN_INJECT_SKIP_KERNEL)
        return 0;
    size_t o = off * s->esz;
    if (s->dt == RN_F64)
        rn_ew_map2((double *)((char *)s->dx + o), (const double *)((char *)s->da + o),
                   (const double *)((char *)s->db + o), len, solve_op<double>(), st);
    else
        rn_ew_map2((float *)((char *)s->dx + o), (const float *)((char *)s->da + o),
                   (const float *)((char *)s->db + o), len, solve_op<float>(), st);
    CK_LAUNCH("solve");
    return 0;
}

/* A timed copy of the run, unless fault injection skips it. */
static int copy(ax *s, void *dst, const void *src, size_t bytes, cudaMemcpyKind kind,
                cudaStream_t st, rn_error *err)
{
    if (s->inject != RN_INJECT_SKIP_COPY)
        CK(cudaMemcpyAsync(dst, src, bytes, kind, st));
    return 0;
}

static int ax_run(void *state, rn_sample *out, rn_error *err)
{
    ax *s = (ax *)state;
    size_t bytes = s->n * s->esz;
    cudaStream_t s0 = s->ln.st[0];
    cudaEvent_t *ev = s->ln.tm.ev;
    /* io: without is all asynchronous: it may hold the stream (blocking_kernel),
     * and a batch's calls run back to back, timed as one */
    if (s->io == RN_IO_WITHOUT)
        return timer_start_batch(&s->ln.tm, s0, s->hold, err) || launch(s, 0, s->n, s0, err) ||
               timer_stop(&s->ln.tm, s0, out, 1, err);
    if (timer_start(&s->ln.tm, s0, 0, err))
        return 1;
    if (s->io == RN_IO_OVERLAP) {
        if (lanes_fork(&s->ln, NSTREAMS, ev[0], err))
            return 1;
        for (int c = 0; c < CHUNKS; c++) {
            size_t off, len = chunk_of(s->n, CHUNKS, c, &off);
            if (len == 0)
                break;
            size_t o = off * s->esz, b = len * s->esz;
            cudaStream_t st = s->ln.st[c % NSTREAMS];
            if (copy(s, (char *)s->da + o, (char *)s->ha + o, b, cudaMemcpyHostToDevice, st,
                     err) ||
                copy(s, (char *)s->db + o, (char *)s->hb + o, b, cudaMemcpyHostToDevice, st,
                     err) ||
                launch(s, off, len, st, err) ||
                copy(s, (char *)s->hx + o, (char *)s->dx + o, b, cudaMemcpyDeviceToHost, st,
                     err))
                return 1;
        }
        return join_streams(s->ln.st, s->ln.done, NSTREAMS, &s->ln.tm, out, err);
    }
    /* io: with */
    if (copy(s, s->da, s->ha, bytes, cudaMemcpyHostToDevice, s0, err) ||
        copy(s, s->db, s->hb, bytes, cudaMemcpyHostToDevice, s0, err))
        return 1;
    CK(cudaEventRecord(ev[1], s0));
    if (launch(s, 0, s->n, s0, err))
        return 1;
    CK(cudaEventRecord(ev[2], s0));
    if (copy(s, s->hx, s->dx, bytes, cudaMemcpyDeviceToHost, s0, err))
        return 1;
    CK(cudaEventRecord(ev[3], s0));
    return timer_phases(&s->ln.tm, out, err);
}

static int ax_check(void *state, rn_error *err)
{
    ax *s = (ax *)state;
    if (s->n == 0)
        return 0;
    /* io: with / overlap: the run's own download is what is checked (a
     * fresh download here would hide a skipped one); io: without: the
     * result stays on the device, so fetch it */
    if (s->io == RN_IO_WITHOUT)
        CK(cudaMemcpy(s->hx, s->dx, s->n * s->esz, cudaMemcpyDeviceToHost));
    double tol = rn_tol_axpb(s->dt);
    int samples = check_count(s->n);
    for (int q = 0; q < samples; q++) {
        size_t i = check_index(s->n, q);
        double a = s->dt == RN_F64 ? ((double *)s->ha)[i] : ((float *)s->ha)[i];
        double b = s->dt == RN_F64 ? ((double *)s->hb)[i] : ((float *)s->hb)[i];
        double x = s->dt == RN_F64 ? ((double *)s->hx)[i] : ((float *)s->hx)[i];
        /* relative, no absolute floor: an f64 result computed in f32 fails */
        if (check_close(x, -b / a, tol, "axpb", err, "x[%zu]", i))
            return 1;
    }
    return 0;
}

CUDA_HOST_MEMORY_EXTRAS(ax_extras, ax)

const rn_workload_impl cuda_axpb = {
    .name = "axpb",
    .prepare = ax_prepare,
    .run = ax_run,
    .check = ax_check,
    .release = ax_release,
    .extras = ax_extras,
};

RN_REGISTER_WORKLOAD(cuda_register_workload, cuda_axpb)
