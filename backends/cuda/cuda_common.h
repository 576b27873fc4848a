/* cuda_common.h - what every file of the CUDA backend shares: checked CUDA
 * and cuBLAS calls (a failure fails the trial with file, line and the error's
 * name; it never aborts the process), event timing of the three phases, and
 * host-side inputs drawn from the same Philox stream as the CPU backend. */
#ifndef BACKENDS_CUDA_COMMON_H
#define BACKENDS_CUDA_COMMON_H

#define RN_HD __host__ __device__

/* first: philox.h's functions are __host__ __device__ (RN_HD) */
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include "backend.h"
#include "cuda/host_math.h"
#include "philox.h"

#include <stdio.h>

/* Fills err and returns 1 (so `return ck_fail(...)` fails the hook). */
int ck_fail(rn_error *err, const char *file, int line, const char *what, cudaError_t e);
int ck_fail_blas(rn_error *err, const char *file, int line, const char *what, cublasStatus_t s);

/* Returns FAIL(err, __FILE__, __LINE__, WHAT, status) from the hook when
 * the status of `call`, of type TYPE, is not OK. */
#define CK_STATUS(TYPE, OK, FAIL, call, WHAT)                                            \
    do {                                                                                 \
        TYPE e_ = (call);                                                                \
        if (e_ != OK)                                                                    \
            return FAIL(err, __FILE__, __LINE__, WHAT, e_);                              \
    } while (0)

#define CK(call) CK_STATUS(cudaError_t, cudaSuccess, ck_fail, call, #call)

/* after every kernel launch (`what`, a string literal, names it): launch
 * errors are reported by the next call */
#define CK_LAUNCH(what)                                                                  \
    CK_STATUS(cudaError_t, cudaSuccess, ck_fail, cudaGetLastError(), "launch of " what)

#define CKB(call) CK_STATUS(cublasStatus_t, CUBLAS_STATUS_SUCCESS, ck_fail_blas, call, #call)

/* The device of the current trial (set by select()). */
extern int cuda_current_device;

/* A cuBLAS handle for work on stream `st` of the current device, owned by
 * the calling thread: cuBLAS wants a handle per host thread, and a workspace
 * (one per handle) per stream that runs at the same time, so `concurrent`
 * members on two threads and the streams of io: overlap never share one.
 * Returned bound to `st`, with the default math mode (no TF32) and host
 * pointer mode: a caller that wants another mode sets it after this call,
 * and nothing one trial set leaks into the next. */
int cuda_blas(cublasHandle_t *out, cudaStream_t st, rn_error *err);

/* Seconds this thread spent creating cuBLAS handles since the last call
 * (the cold breakdown's cold_blas); resets the count. */
double cuda_blas_created_seconds(void);

/* Events around the phases of one sample, and the flag of the blocking
 * kernel (timer_start). */
typedef struct phase_timer {
    cudaEvent_t ev[4];
    volatile int *flag; /* host memory mapped into the device */
    int *dflag;         /* the same, as the device sees it */
    int held;           /* a blocking kernel waits for timer_go */
    long calls;         /* timer_start calls so far */
    int ready;
    long epoch;         /* the last batch (cuda_batch_begin) this timer saw */
    int left, total;    /* calls of that batch still to come, and in all */
} phase_timer;

int timer_init(phase_timer *t, rn_error *err);
void timer_free(phase_timer *t);

/* Starts a sample on stream st: records event 0.  With hold set (the
 * trial's blocking_kernel, io: without only, where everything the sample
 * enqueues is asynchronous), and after the first call (which creates handles and loads kernels), a kernel
 * first holds the stream until timer_go: the start event and the whole
 * sample are queued before the GPU begins, so the host's launch gaps stay
 * out of the device time, as nvbench's blocking kernel does.
 * (doc/timing.md#how-a-trial-is-timed.)  The hold gives up after 1 s should the host block. */
int timer_start(phase_timer *t, cudaStream_t st, int hold, rn_error *err);
/* Releases a held stream; call after the sample's last enqueue, before
 * waiting on it.  Without a hold: nothing. */
void timer_go(phase_timer *t);
/* Elapsed seconds between events a and b. */
double timer_span(phase_timer *t, int a, int b);

/* The worker's batch boundary (rn_backend.batch_begin): the next `calls`
 * calls of the trial's workload are one sample's batch. */
void cuda_batch_begin(const rn_trial *t, int calls);

/* A call whose work all stays on the device (io: without): one pair of
 * events around a whole batch, as PyTorch's and Triton's timers time
 * back-to-back calls (doc/timing.md#how-a-trial-is-timed, step 6).  In a
 * batch of more than one call, the first call records event 0 (after the
 * hold, as timer_start), every call records event 3 and returns at once,
 * and the last one waits for it and reports the batch's span over its
 * calls; the calls before it report nothing (NAN), so the batch's mean is
 * that span over its calls.  With hold, the stream stays held until the
 * batch's last call (or its 256th) is enqueued, so that the host's launch
 * gaps stay out of every call's time (timer.cu; tests/hostk/timer_host.cc
 * replays it on a mock device clock).  Outside a batch (warmups, a batch of one): as
 * timer_start, and timer_stop waits and reports the call's own span.
 * timer_stop sets device_seconds, and with `compute` compute too (the
 * same span); out may be NULL. */
int timer_start_batch(phase_timer *t, cudaStream_t st, int hold, rn_error *err);
int timer_stop(phase_timer *t, cudaStream_t st, rn_sample *out, int compute, rn_error *err);

/* io: with: waits for event 3 and reads the phases between events 0..3
 * (h2d, compute, d2h) and their total (device_seconds). */
int timer_phases(phase_timer *t, rn_sample *out, rn_error *err);

/* io: overlap: streams 1..n-1 join stream 0, whose end event (timer event
 * 3, after event 0 at the start) closes the sample: device_seconds. */
int join_streams(cudaStream_t *st, cudaEvent_t *done, int n, phase_timer *tm, rn_sample *out,
                 rn_error *err);

/* Host input i of stream `stream`: exactly the CPU backend's value. */
void host_fill_uniform(float *dst, size_t n, uint64_t seed, uint32_t stream, float lo, float hi);

/* Host memory, pinned or pageable. */
void *host_alloc(size_t bytes, int pinned, rn_error *err);
void host_free(void *p, int pinned);

/* What every workload's sample runs on: its streams (non-blocking; io:
 * overlap spreads chunks over several, each with the event that marks its
 * end for join_streams) and its phase timer.  Zeroed memory is "none made". */
#define CUDA_MAX_LANES 3
typedef struct cuda_lanes {
    cudaStream_t st[CUDA_MAX_LANES];
    cudaEvent_t done[CUDA_MAX_LANES]; /* only with lanes_init's `events` */
    phase_timer tm;
} cuda_lanes;

/* io: overlap: streams 1..n-1 wait for event e of stream 0 (its start, or
 * an upload they all need) before their chunks. */
int lanes_fork(cuda_lanes *l, int n, cudaEvent_t e, rn_error *err);

/* Creates n streams (n <= CUDA_MAX_LANES), with `events` their end events,
 * and the timer; 0, or 1 with err (what was made is freed by lanes_free). */
int lanes_init(cuda_lanes *l, int n, int events, rn_error *err);
void lanes_free(cuda_lanes *l);

/* A workload's zeroed state; NULL with err "WORKLOAD: out of host memory"
 * (no prefix when workload is NULL). */
void *state_calloc(size_t size, const char *workload, rn_error *err);

/* The `host_memory_used` column of a workload with host buffers. */
void host_memory_extra(int pinned, void *ctx, void (*cb)(void *ctx, const char *k, const char *v));

/* Relative comparison used by every check(): 0 when within tol. */
int compare_value(double got, double want, double tol, const char *workload, const char *what,
                  rn_error *err);

/* got against want within tol (rn_within), else err names the element
 * (`fmt`, e.g. "y[%zu]") as compare_value does: 0 when within. */
int check_close(double got, double want, double tol, const char *workload, rn_error *err,
                const char *fmt, ...) __attribute__((format(printf, 6, 7)));

/* The end of a workload's prepare(), after its setup returned rc: on
 * success (0) the state is the trial's; on failure release() frees what
 * was made and prepare() fails (1, RN_PREPARE_FAIL, whatever rc was). */
static inline int prepare_done(void **state, void *s, int rc, void (*release)(void *))
{
    if (rc) {
        release(s);
        return 1;
    }
    *state = s;
    return 0;
}

/* The extras() of a workload whose state has `pinned`: its
 * host_memory_used column. */
#define CUDA_HOST_MEMORY_EXTRAS(fn, type)                                                    \
    static void fn(void *state, void *ctx, void (*cb)(void *ctx, const char *k, const char *v)) \
    {                                                                                        \
        host_memory_extra(((type *)state)->pinned, ctx, cb);                                 \
    }

/* The sum of every thread's acc over a block (part: blockDim.x elements
 * of shared memory, blockDim.x a power of two); thread 0 gets it. */
template <typename T> __device__ inline T block_sum(T *part, T acc)
{
    part[threadIdx.x] = acc;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if ((int)threadIdx.x < s)
            part[threadIdx.x] += part[threadIdx.x + s];
        __syncthreads();
    }
    return part[0];
}

#endif
