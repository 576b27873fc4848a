/* timer.cu - the events that time a sample (cuda_common.h: phase_timer,
 * timer_start, timer_start_batch, timer_stop, timer_phases, join_streams)
 * and the worker's batch boundary.  A file of its own so that
 * tests/hostk/timer_host.cc compiles it as host code against a mock
 * device clock (RN_HOST_KERNELS; doc/contributing/testing.md#gpu-code-on-the-cpu). */
#include "cuda_common.h"

#include <math.h>
#include <string.h>

#define HOLD_CALLS 256

/* The batch the worker announced last: its number and its calls.  The
 * worker announces a batch and runs its calls on one thread. */
static long batch_epoch;
static int batch_calls;

void cuda_batch_begin(const rn_trial *t, int calls)
{
    (void)t;
    batch_epoch++;
    batch_calls = calls;
}

int timer_init(phase_timer *t, rn_error *err)
{
    memset(t, 0, sizeof *t);
    t->ready = 1; /* from here on timer_free frees what was made */
    t->epoch = batch_epoch; /* a batch announced before this timer is not its own */
    for (int i = 0; i < 4; i++) {
        cudaError_t e = cudaEventCreate(&t->ev[i]);
        if (e != cudaSuccess) {
            t->ev[i] = NULL;
            timer_free(t); /* the events made so far */
            return ck_fail(err, __FILE__, __LINE__, "cudaEventCreate", e);
        }
    }
    return 0;
}

void timer_free(phase_timer *t)
{
    if (!t->ready)
        return;
    if (t->held)
        timer_go(t);
    for (int i = 0; i < 4; i++)
        if (t->ev[i])
            cudaEventDestroy(t->ev[i]);
    if (t->flag)
        cudaFreeHost((void *)t->flag);
    memset(t, 0, sizeof *t);
}

#ifndef RN_HOST_KERNELS
/* Spins until the host sets *flag, or 1 s of the device's clock passes. */
__global__ void hold_stream(volatile int *flag)
{
    unsigned long long t0, t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
    do {
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    } while (*flag == 0 && t - t0 < 1000000000ull);
}
#endif

int timer_start(phase_timer *t, cudaStream_t st, int hold, rn_error *err)
{
    if (hold && t->calls++ > 0) {
        if (!t->flag) {
            CK(cudaHostAlloc((void **)&t->flag, sizeof *t->flag, cudaHostAllocMapped));
            CK(cudaHostGetDevicePointer((void **)&t->dflag, (void *)t->flag, 0));
        }
        *t->flag = 0;
#ifndef RN_HOST_KERNELS
        hold_stream<<<1, 1, 0, st>>>(t->dflag);
#else
        rn_mock_hold(st, t->flag);
#endif
        CK_LAUNCH("hold_stream");
        t->held = 1;
    }
    CK(cudaEventRecord(t->ev[0], st));
    return 0;
}

void timer_go(phase_timer *t)
{
    if (!t->held)
        return;
    __atomic_store_n((int *)t->flag, 1, __ATOMIC_SEQ_CST);
    t->held = 0;
}

double timer_span(phase_timer *t, int a, int b)
{
    float ms = 0;
    if (cudaEventElapsedTime(&ms, t->ev[a], t->ev[b]) != cudaSuccess)
        return NAN;
    return ms * 1e-3;
}

int timer_start_batch(phase_timer *t, cudaStream_t st, int hold, rn_error *err)
{
    if (t->epoch != batch_epoch) { /* the first call of a new batch */
        t->epoch = batch_epoch;
        t->total = t->left = batch_calls > 1 ? batch_calls : 0;
    } else if (t->left > 0 && t->left < t->total) {
        return 0; /* inside a batch: event 0 marks its start */
    }
    return timer_start(t, st, hold, err);
}

int timer_stop(phase_timer *t, cudaStream_t st, rn_sample *out, int compute, rn_error *err)
{
    CK(cudaEventRecord(t->ev[3], st));
    /* a held stream (blocking_kernel) stays held until the batch's last
     * call is queued, so that the host's launch gaps stay out of the whole
     * batch, not only its first call; but at most HOLD_CALLS calls: a
     * stream queues about a thousand launches before a launch blocks the
     * host, which would then wait out the hold's 1 s */
    if (t->left > 0 && --t->left > 0) {
        if (t->total - t->left >= HOLD_CALLS)
            timer_go(t);
        return 0; /* more calls of the batch to come: no wait, no time */
    }
    timer_go(t);
    CK(cudaEventSynchronize(t->ev[3]));
    double span = timer_span(t, 0, 3);
    if (t->total > 0) { /* the batch is over */
        span /= t->total;
        t->total = 0;
    }
    if (out)
        out->device_seconds = span;
    if (out && compute)
        out->compute = span;
    return 0;
}

int timer_phases(phase_timer *t, rn_sample *out, rn_error *err)
{
    CK(cudaEventSynchronize(t->ev[3]));
    out->h2d = timer_span(t, 0, 1);
    out->compute = timer_span(t, 1, 2);
    out->d2h = timer_span(t, 2, 3);
    out->device_seconds = timer_span(t, 0, 3);
    return 0;
}

int join_streams(cudaStream_t *st, cudaEvent_t *done, int n, phase_timer *tm, rn_sample *out,
                 rn_error *err)
{
    for (int i = 1; i < n; i++) {
        CK(cudaEventRecord(done[i], st[i]));
        CK(cudaStreamWaitEvent(st[0], done[i], 0));
    }
    CK(cudaEventRecord(tm->ev[3], st[0]));
    CK(cudaEventSynchronize(tm->ev[3]));
    out->device_seconds = timer_span(tm, 0, 3);
    return 0;
}

