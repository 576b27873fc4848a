/* timer_host.cc - the CUDA backend's batch timer (backends/cuda/timer.cu,
 * doc/timing.md#how-a-trial-is-timed step 6) compiled as host code against
 * a mock device clock (tests/hostk/mock/cuda_runtime.h), run by
 * tests/hostk/run.sh.  The mock keeps a host clock that every API call
 * advances (an event record API_S, a kernel launch LAUNCH_S) and a device
 * clock per stream: work starts LATENCY_S after it is enqueued or when the
 * stream's earlier work ends, whichever is later; an event takes the time
 * the stream reaches it; a held stream (blocking_kernel) runs nothing until
 * the host sets the flag.  A call is cuda_array_run's io: without
 * (frame.h): timer_start_batch, one kernel of D seconds, timer_stop.
 *
 * The replay is a trial's sequence in the worker (run/exec/worker.c):
 * warm-ups (calls alone), the batch probe (announced batches growing 1, 2,
 * 4, ...), steady rounds and the warm probe (announced batches), then the
 * discarded batch and the timed batches.  It checks that a call alone
 * reports its own span, that in a batch the calls before the last report
 * nothing (NAN) and the last the batch's span over its calls; that calls
 * longer than the host's launch gap read their own duration (to the API
 * cost over the batch); and that with the hold the whole batch is queued
 * before the device starts, so even calls shorter than the launch gap read
 * their duration exactly.  Exit 0, or 1 with what differed. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <vector>

#include "cuda_common.h"

/* --- the mock device ------------------------------------------------------ */
static const double API_S = 1e-6, LAUNCH_S = 4e-6, LATENCY_S = 5e-6;
static double host_now; /* the host's clock, seconds */

struct rn_mock_event {
    double t = NAN;
};
struct mock_op {
    double kernel; /* its duration, or NAN: an event */
    cudaEvent_t ev;
};
struct rn_host_stream {
    double tail = 0; /* when its last work ends */
    volatile int *flag = nullptr; /* held until *flag */
    std::vector<mock_op> queued;
};

static void execute(rn_host_stream *s, const mock_op &op, double at)
{
    double t = fmax(at + LATENCY_S, s->tail);
    if (isnan(op.kernel))
        op.ev->t = t;
    else
        t += op.kernel;
    s->tail = t;
}

static std::vector<rn_host_stream *> streams;

/* a held stream whose flag the host has set runs what it queued, from now */
static void release_held(void)
{
    for (rn_host_stream *s : streams)
        if (s->flag && *s->flag) {
            s->flag = nullptr;
            for (const mock_op &op : s->queued)
                execute(s, op, host_now);
            s->queued.clear();
        }
}

static void enqueue(cudaStream_t s, mock_op op)
{
    release_held();
    if (s->flag)
        s->queued.push_back(op);
    else
        execute(s, op, host_now);
}

static void kernel(cudaStream_t s, double seconds)
{
    host_now += LAUNCH_S;
    enqueue(s, {seconds, nullptr});
}

void rn_mock_hold(cudaStream_t st, volatile int *flag)
{
    host_now += LAUNCH_S;
    release_held();
    st->flag = flag;
}

static int sync_failures;

const char *cudaGetErrorName(cudaError_t e) { return e ? "cudaErrorMock" : "cudaSuccess"; }
const char *cudaGetErrorString(cudaError_t e) { return e ? "mock error" : "no error"; }
cudaError_t cudaGetLastError(void) { return cudaSuccess; }
cudaError_t cudaEventCreate(cudaEvent_t *e)
{
    *e = new rn_mock_event;
    return cudaSuccess;
}
cudaError_t cudaEventDestroy(cudaEvent_t e)
{
    delete e;
    return cudaSuccess;
}
cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t st)
{
    host_now += API_S;
    e->t = NAN;
    enqueue(st, {NAN, e});
    return cudaSuccess;
}
cudaError_t cudaEventSynchronize(cudaEvent_t e)
{
    host_now += API_S;
    release_held();
    if (isnan(e->t)) { /* still queued behind a hold nobody releases */
        sync_failures++;
        return cudaErrorNotReady;
    }
    host_now = fmax(host_now, e->t);
    return cudaSuccess;
}
cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t a, cudaEvent_t b)
{
    host_now += API_S;
    if (isnan(a->t) || isnan(b->t))
        return cudaErrorNotReady;
    *ms = (float)((b->t - a->t) * 1e3);
    return cudaSuccess;
}
cudaError_t cudaStreamWaitEvent(cudaStream_t st, cudaEvent_t e, unsigned flags)
{
    (void)flags;
    st->tail = fmax(st->tail, e->t);
    return cudaSuccess;
}
cudaError_t cudaHostAlloc(void **p, size_t bytes, unsigned flags)
{
    (void)flags;
    *p = calloc(1, bytes);
    return *p ? cudaSuccess : cudaErrorInvalidValue;
}
cudaError_t cudaHostGetDevicePointer(void **d, void *h, unsigned flags)
{
    (void)flags;
    *d = h;
    return cudaSuccess;
}
cudaError_t cudaFreeHost(void *p)
{
    free(p);
    return cudaSuccess;
}

int ck_fail(rn_error *err, const char *file, int line, const char *what, cudaError_t e)
{
    snprintf(err->msg, sizeof err->msg, "%s:%d: %s: %s", file, line, what, cudaGetErrorName(e));
    return 1;
}

#include "cuda/timer.cu"

/* --- the replay ----------------------------------------------------------- */
static int failures;
#define EXPECT(cond, ...)                                                                    \
    do {                                                                                     \
        if (!(cond)) {                                                                       \
            failures++;                                                                      \
            fprintf(stderr, __VA_ARGS__);                                                    \
            fputc('\n', stderr);                                                             \
        }                                                                                    \
    } while (0)

struct trial {
    phase_timer tm;
    rn_host_stream st;
    double d; /* the kernel's seconds */
    int hold;
};

/* one call of io: without (frame.h cuda_array_run) */
static double call(trial *t)
{
    rn_error err = {{0}};
    rn_sample s;
    rn_sample_clear(&s);
    s.device_seconds = NAN;
    if (timer_start_batch(&t->tm, &t->st, t->hold, &err))
        EXPECT(0, "timer_start_batch: %s", err.msg);
    kernel(&t->st, t->d);
    if (timer_stop(&t->tm, &t->st, &s, 1, &err))
        EXPECT(0, "timer_stop: %s", err.msg);
    return s.device_seconds;
}

/* a lone call (a warm-up): its own span, the kernel and the launch after
 * the start event */
static void lone(trial *t, const char *what)
{
    double got = call(t);
    EXPECT(isfinite(got) && got >= t->d * (1 - 1e-6) && got <= t->d + API_S + LAUNCH_S + 1e-9,
           "%s: a call alone read %.9g s, its kernel takes %.9g", what, got, t->d);
}

/* an announced batch of n calls; want: the mean per call it must report */
static double batch(trial *t, int n, const char *what)
{
    cuda_batch_begin(NULL, n);
    double last = NAN;
    for (int i = 0; i < n; i++) {
        double got = call(t);
        if (i < n - 1)
            EXPECT(isnan(got), "%s: call %d of a batch of %d reported %.9g, not NAN", what, i + 1,
                   n, got);
        last = got;
    }
    EXPECT(isfinite(last), "%s: the batch of %d reported no time", what, n);
    return last;
}

static void replay(double d, int hold, const char *what)
{
    trial t;
    memset(&t.tm, 0, sizeof t.tm);
    t.d = d;
    t.hold = hold;
    streams.push_back(&t.st);
    rn_error err = {{0}};
    if (timer_init(&t.tm, &err))
        EXPECT(0, "timer_init: %s", err.msg);
    /* what a call costs the host between two kernels: the event record of
     * its stop and the launch of the next (the first also records event 0) */
    double gap = API_S + LAUNCH_S;
    /* exact when the batch is queued before the device starts (the hold) or
     * the device is the slower; else the host's gap shows */
    double want = hold || d >= gap ? d : gap;
    double slack = API_S + LAUNCH_S + 1e-9; /* the launch after event 0 */
    for (int w = 0; w < 2; w++) /* warmups */
        lone(&t, what);
    int b = 1, steps = 0;
    for (; b < 64; b *= 2, steps++) { /* the probe, announced (batch.c choose_batch) */
        double got = b == 1 ? call(&t) : batch(&t, b, what);
        if (b > 1)
            EXPECT(fabs(got - want) <= slack / b + want * 1e-6,
                   "%s: probe batch of %d read %.9g s a call, want %.9g", what, b, got, want);
    }
    for (int r = 0; r < 5; r++) { /* steady rounds, then the warm probe */
        double got = batch(&t, b, what);
        EXPECT(fabs(got - want) <= slack / b + want * 1e-6,
               "%s: steady round %d read %.9g s a call, want %.9g", what, r, got, want);
    }
    for (int s = 0; s < 11; s++) { /* the discarded batch and 10 samples */
        double got = batch(&t, b, what);
        EXPECT(fabs(got - want) <= slack / b + want * 1e-6,
               "%s: sample %d read %.9g s a call, want %.9g", what, s, got, want);
    }
    lone(&t, what); /* a call after the batches: alone again */
    EXPECT(sync_failures == 0, "%s: %d waits on events still held", what, sync_failures);
    timer_free(&t.tm);
    streams.pop_back();
}

int main(void)
{
    replay(10e-6, 0, "10 us kernel");        /* the device is the slower: back to back */
    replay(10e-6, 1, "10 us kernel, held");
    replay(2e-6, 0, "2 us kernel");          /* the host's launch gap shows */
    replay(2e-6, 1, "2 us kernel, held");    /* queued first: exactly the kernel */
    replay(1e-3, 1, "1 ms kernel, held");
    if (failures) {
        printf("timer_host: %d checks failed (above)\n", failures);
        return 1;
    }
    printf("warm-ups, probe, steady rounds and timed batches: each batch read its calls' "
           "device time (5 replays)\n");
    return 0;
}
