/* sumsq.cu - the documents' launch-overhead study, as eager PyTorch runs it:
 * per iteration, one kernel draws `length` uniform numbers, one squares
 * them, one sums them, one adds the sum to the total: four small launches.
 * Only the total comes back to the host, once, at the end.  The squares are
 * f32 (as PyTorch's); the sums are accumulated in double: a float sum of up
 * to 2^24 terms in one block lost ~7e-6, too close to a useful tolerance. */
#include "cuda_backend.h"
#include "verify_tol.h"

#include <math.h>
#include <stdlib.h>

__global__ void draw(float *out, size_t n, uint64_t seed, uint32_t it)
{
    size_t blocks = (n + 3) / 4;
    for (size_t b = blockIdx.x * (size_t)blockDim.x + threadIdx.x; b < blocks;
         b += (size_t)gridDim.x * blockDim.x) {
        rn_philox_out o = rn_philox4x32((uint32_t)b, (uint32_t)(b >> 32), it, 0u, (uint32_t)seed,
                                        (uint32_t)(seed >> 32));
        for (int j = 0; j < 4 && b * 4 + j < n; j++)
            out[b * 4 + j] = rn_u01f(o.v[j]);
    }
}

__global__ void square(float *y, const float *x, size_t n)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x)
        y[i] = x[i] * x[i];
}

/* one block: a tree reduction in shared memory, in double */
__global__ void sum_block(double *out, const float *x, size_t n)
{
    __shared__ double part[256];
    double acc = 0;
    for (size_t i = threadIdx.x; i < n; i += blockDim.x)
        acc += x[i];
    acc = block_sum(part, acc);
    if (threadIdx.x == 0)
        *out = acc;
}

__global__ void accumulate(double *total, double *sums, const double *sum, size_t it)
{
    sums[it] = *sum;
    *total += *sum;
}

typedef struct sq {
    size_t iters, length;
    uint64_t seed;
    float *draws, *squares;
    double *sum, *sums, *total;
    int inject;
    double host_total;
    cuda_lanes ln; /* one stream and the timer */
} sq;

static void sq_release(void *state)
{
    sq *s = (sq *)state;
    if (!s)
        return;
    cudaFree(s->draws);
    cudaFree(s->squares);
    cudaFree(s->sum);
    cudaFree(s->sums);
    cudaFree(s->total);
    lanes_free(&s->ln);
    free(s);
}

static int sq_setup(sq *s, rn_error *err)
{
    CK(cudaMalloc(&s->draws, s->length * sizeof(float)));
    CK(cudaMalloc(&s->squares, s->length * sizeof(float)));
    CK(cudaMalloc(&s->sum, sizeof(double)));
    CK(cudaMalloc(&s->sums, (s->iters + 1) * sizeof(double)));
    CK(cudaMalloc(&s->total, sizeof(double)));
    if (lanes_init(&s->ln, 1, 0, err))
        return 1;
    /* poison (NaN) the per-iteration sums: kernels that never ran fail the
     * check (doc/workloads.md#verification); the legacy-stream memset must land
     * before run()'s non-blocking stream reads or writes them */
    CK(cudaMemset(s->sums, 0xff, (s->iters + 1) * sizeof(double)));
    CK(cudaDeviceSynchronize());
    return 0;
}

static int sq_prepare(const rn_trial *t, void **state, rn_error *err)
{
    sq *s = (sq *)state_calloc(sizeof *s, "sumsq", err);
    if (!s)
        return 1;
    s->iters = (size_t)t->size;
    s->length = (size_t)rn_param_num(t, "length", 1000);
    s->seed = t->seed;
    s->inject = rn_inject(t);
    return prepare_done(state, s, sq_setup(s, err), sq_release);
}

static int sq_run(void *state, rn_sample *out, rn_error *err)
{
    sq *s = (sq *)state;
    cudaEvent_t *ev = s->ln.tm.ev;
    CK(cudaEventRecord(ev[0], s->ln.st[0]));
    CK(cudaMemsetAsync(s->total, 0, sizeof(double), s->ln.st[0]));
    unsigned g = grid_for((s->length + 3) / 4);
    size_t iters = s->inject == RN_INJECT_SKIP_KERNEL ? 0 : s->iters; /* fault injection */
    for (size_t it = 0; it < iters; it++) {
        draw<<<g, 256, 0, s->ln.st[0]>>>(s->draws, s->length, s->seed, (uint32_t)it);
        CK_LAUNCH("draw");
        square<<<grid_for(s->length), 256, 0, s->ln.st[0]>>>(s->squares, s->draws, s->length);
        CK_LAUNCH("square");
        sum_block<<<1, 256, 0, s->ln.st[0]>>>(s->sum, s->squares, s->length);
        CK_LAUNCH("sum_block");
        accumulate<<<1, 1, 0, s->ln.st[0]>>>(s->total, s->sums, s->sum, it);
        CK_LAUNCH("accumulate");
    }
    CK(cudaEventRecord(ev[2], s->ln.st[0]));
    CK(cudaMemcpyAsync(&s->host_total, s->total, sizeof(double), cudaMemcpyDeviceToHost, s->ln.st[0]));
    CK(cudaEventRecord(ev[3], s->ln.st[0]));
    CK(cudaEventSynchronize(ev[3]));
    out->compute = timer_span(&s->ln.tm, 0, 2);
    out->d2h = timer_span(&s->ln.tm, 2, 3);
    out->device_seconds = timer_span(&s->ln.tm, 0, 3);
    return 0;
}

static double reference(uint64_t seed, size_t it, size_t length)
{
    double acc = 0;
    for (size_t j = 0; j < length; j++) {
        double u = rn_uniform(seed, (uint32_t)it, j);
        acc += u * u;
    }
    return acc;
}

static int sq_check(void *state, rn_error *err)
{
    sq *s = (sq *)state;
    if (s->iters == 0)
        return 0;
    double *sums = (double *)malloc(s->iters * sizeof(double));
    if (!sums) {
        snprintf(err->msg, sizeof err->msg, "sumsq: out of host memory");
        return 1;
    }
    cudaError_t e = cudaMemcpy(sums, s->sums, s->iters * sizeof(double), cudaMemcpyDeviceToHost);
    if (e != cudaSuccess) {
        free(sums);
        return ck_fail(err, __FILE__, __LINE__, "cudaMemcpy(sums)", e);
    }
    double total = 0;
    for (size_t it = 0; it < s->iters; it++)
        total += sums[it];
    /* the same double sums in the same order as on the device */
    int rc = check_close(s->host_total, total, 1e-9, "sumsq", err, "the total");
    /* a sample of iterations against the scalar reference */
    size_t step = s->iters > 64 ? s->iters / 64 : 1;
    for (size_t it = 0; !rc && it < s->iters; it += step) {
        double want = reference(s->seed, it, s->length);
        rc = check_close(sums[it], want, rn_tol_sumsq_gpu(), "sumsq", err,
                         "the sum of iteration %zu", it);
    }
    free(sums);
    return rc;
}

const rn_workload_impl cuda_sumsq = {
    .name = "sumsq",
    .prepare = sq_prepare,
    .run = sq_run,
    .check = sq_check,
    .release = sq_release,
};

RN_REGISTER_WORKLOAD(cuda_register_workload, cuda_sumsq)
