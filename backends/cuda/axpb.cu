/* axpb.cu - x = -b / a for `size` equations a*x + b = 0.  io: overlap
 * splits the arrays into chunks, each copied in, solved and copied out on
 * its own stream, as nested_sin does (cuda_array_run, frame.h;
 * doc/experiment-file.md#top-level-keys). */
#include "ew_kernels.h"
#include "frame.h"
#include "verify_tol.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct ax {
    size_t n, esz;
    rn_dtype dt;
    rn_io io;
    int pinned, inject, hold; /* hold: blocking_kernel */
    void *ha, *hb, *hx, *da, *db, *dx;
    cuda_lanes ln; /* CUDA_ARRAY_LANES streams, their end events, the timer */
} ax;

static void ax_free(ax *s)
{
    cuda_free_all({s->da, s->db, s->dx});
    host_free_all({s->ha, s->hb, s->hx}, s->pinned);
    lanes_free(&s->ln);
}

static int ax_params(ax *s, const rn_trial *t, rn_error *err)
{
    (void)err;
    cuda_array_params(s, t);
    return 0;
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
    if (lanes_init(&s->ln, CUDA_ARRAY_LANES, 1, err))
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

static int ax_run(void *state, rn_sample *out, rn_error *err)
{
    ax *s = (ax *)state;
    cuda_array_io a = {2, {s->ha, s->hb}, {s->da, s->db}, s->hx, &s->dx};
    return cuda_array_run(s, a, launch, out, err);
}

/* relative, no absolute floor: an f64 result computed in f32 fails */
static double ax_want(const ax *s, size_t i)
{
    return -cuda_at(s->hb, s->dt, i) / cuda_at(s->ha, s->dt, i);
}

static int ax_check(void *state, rn_error *err)
{
    ax *s = (ax *)state;
    return cuda_array_check(s, s->hx, s->dx, rn_tol_axpb(s->dt), "axpb", "x[%zu]", ax_want, err);
}

CUDA_HOST_MEMORY_EXTRAS(ax_extras, ax)

CUDA_STATE_WORKLOAD(axpb, ax, ax, .extras = ax_extras)
