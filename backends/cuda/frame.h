/* frame.h - what every CUDA workload's file shares, written once, as
 * backends/cpu/frame.h does for the CPU backend: its rn_workload_impl table
 * and registration (CUDA_WORKLOAD), its prepare() and release() around the
 * workload's own params, setup and frees (CUDA_STATE_WORKLOAD), the trial's
 * fields that the array workloads keep (cuda_io_params), their run() in the
 * three io modes around their own compute (cuda_array_run) and the frees
 * of lists of buffers.  doc/contributing/adding-a-workload.md#adding-a-workload
 * shows the plain form a new workload may start from. */
#ifndef BACKENDS_CUDA_FRAME_H
#define BACKENDS_CUDA_FRAME_H

#include "backend_tables.h"
#include "cuda_backend.h"
#include "verify_tol.h"

#include <initializer_list>
#include <stdlib.h>

/* const rn_workload_impl cuda_NAME with the given hooks, the optional ones
 * after them (.extras = ...), registered with the backend
 * (backend_tables.h): CUDA_WORKLOAD(NAME, PREPARE, RUN, CHECK, RELEASE, ...). */
#define CUDA_WORKLOAD(NAME, ...)                                                              \
    RN_WORKLOAD_OF(cuda_##NAME, cuda_register_workload, NAME, __VA_ARGS__)

/* release() of a state of type S: the workload's own frees (free_buffers:
 * its buffers, events and lanes, any of them still unmade), then the state;
 * NULL is a no-op. */
template <typename S> inline void cuda_release(void *state, void (*free_buffers)(S *s))
{
    S *s = (S *)state;
    if (!s)
        return;
    free_buffers(s);
    free(s);
}

/* prepare() of a state of type S: a zeroed state (state_calloc, whose
 * message `label` prefixes), params() reads the trial into it (0, or a
 * code that prepare returns, RN_PREPARE_SKIP included, after freeing the
 * state), setup() makes its buffers, streams and inputs (0, or 1 with err:
 * release() then frees what was made and prepare fails, prepare_done). */
template <typename S>
inline int cuda_prepare(const rn_trial *t, void **state, rn_error *err, const char *label,
                        int (*params)(S *s, const rn_trial *t, rn_error *err),
                        int (*setup)(S *s, const rn_trial *t, rn_error *err),
                        void (*release)(void *state))
{
    *state = NULL;
    S *s = (S *)state_calloc(sizeof *s, label, err);
    if (!s)
        return 1;
    int rc = params(s, t, err);
    if (rc) {
        free(s);
        return rc;
    }
    return prepare_done(state, s, setup(s, t, err), release);
}

/* The workload cuda_NAME from the file's state type S and its functions
 * P_params, P_setup (cuda_prepare's), P_free (cuda_release's free_buffers),
 * P_run and P_check; it defines P_prepare and P_release (state_calloc's
 * label: the workload's name) and takes the optional hooks after them. */
#define CUDA_STATE_WORKLOAD(NAME, P, S, ...)                                                  \
    static void P##_release(void *state)                                                      \
    {                                                                                         \
        cuda_release<S>(state, P##_free);                                                     \
    }                                                                                         \
    static int P##_prepare(const rn_trial *t, void **state, rn_error *err)                    \
    {                                                                                         \
        return cuda_prepare<S>(t, state, err, #NAME, P##_params, P##_setup, P##_release);    \
    }                                                                                         \
    CUDA_WORKLOAD(NAME, P##_prepare, P##_run, P##_check, P##_release, __VA_ARGS__)

/* The trial's fields of a workload over arrays of its dtype: dt, esz (the
 * element's bytes), io, pinned (host_memory), inject (fault injection) and
 * hold (blocking_kernel; doc/timing.md#how-a-trial-is-timed). */
template <typename S> inline void cuda_io_params(S *s, const rn_trial *t)
{
    s->dt = t->dtype;
    s->esz = rn_dtype_size(t->dtype);
    s->io = t->io;
    s->pinned = rn_host_pinned(t);
    s->inject = rn_inject(t);
    s->hold = rn_param_num(t, "blocking_kernel", 0) != 0;
}

/* The fields of a workload of cuda_array_run: n, the trial's size, and
 * cuda_io_params's. */
template <typename S> inline void cuda_array_params(S *s, const rn_trial *t)
{
    s->n = (size_t)t->size;
    cuda_io_params(s, t);
}

/* The run() of a workload over arrays of n elements of esz bytes (axpb,
 * nested_sin), its inputs uploaded and its output downloaded around
 * compute(s, off, len, st, err), which works on elements [off, off + len)
 * on stream st (doc/experiment-file.md#top-level-keys, io):
 *   without  the compute alone: it may hold the stream (blocking_kernel), and
 *            a batch's calls run back to back, timed as one (timer_start_batch);
 *   with     the uploads, the compute and the download on one stream, the
 *            phases between events 0..3 (timer_phases);
 *   overlap  CUDA_ARRAY_CHUNKS chunks, each uploaded, computed and downloaded
 *            on its own of CUDA_ARRAY_LANES streams (join_streams).
 * A state of this run has n, esz, io, inject, hold (cuda_array_params) and
 * its lanes ln: CUDA_ARRAY_LANES streams with their end events (lanes_init). */
#define CUDA_ARRAY_LANES CUDA_MAX_LANES
#define CUDA_ARRAY_CHUNKS RN_CUDA_CHUNKS

/* The buffers that the run copies: nin inputs, host and device, and the
 * output; *dout, the output's device buffer, is read after each compute
 * (nested_sin's moves with its depth). */
typedef struct cuda_array_io {
    int nin;
    void *hin[2], *din[2];
    void *hout;
    void *const *dout;
} cuda_array_io;

template <typename S>
using cuda_compute_fn = int (*)(S *s, size_t off, size_t len, cudaStream_t st, rn_error *err);

/* A timed copy of the run, unless fault injection skips it
 * (doc/workloads.md#fault-injection). */
static inline int cuda_run_copy(int inject, void *dst, const void *src, size_t bytes,
                                cudaMemcpyKind kind, cudaStream_t st, rn_error *err)
{
    if (inject != RN_INJECT_SKIP_COPY)
        CK(cudaMemcpyAsync(dst, src, bytes, kind, st));
    return 0;
}

/* Elements [off, off + len): the uploads, the compute and the download on
 * stream st; with ev (io: with), events 1 and 2 around the compute. */
template <typename S>
int cuda_array_part(S *s, const cuda_array_io &a, size_t off, size_t len, cudaStream_t st,
                    const cudaEvent_t *ev, cuda_compute_fn<S> compute, rn_error *err)
{
    size_t o = off * s->esz, b = len * s->esz;
    for (int i = 0; i < a.nin; i++)
        if (cuda_run_copy(s->inject, (char *)a.din[i] + o, (char *)a.hin[i] + o, b,
                          cudaMemcpyHostToDevice, st, err))
            return 1;
    if (ev)
        CK(cudaEventRecord(ev[1], st));
    if (compute(s, off, len, st, err))
        return 1;
    if (ev)
        CK(cudaEventRecord(ev[2], st));
    return cuda_run_copy(s->inject, (char *)a.hout + o, (char *)*a.dout + o, b,
                         cudaMemcpyDeviceToHost, st, err);
}

template <typename S>
int cuda_array_run(S *s, const cuda_array_io &a, cuda_compute_fn<S> compute, rn_sample *out,
                   rn_error *err)
{
    cudaStream_t s0 = s->ln.st[0];
    cudaEvent_t *ev = s->ln.tm.ev;
    if (s->io == RN_IO_WITHOUT)
        return timer_start_batch(&s->ln.tm, s0, s->hold, err) || compute(s, 0, s->n, s0, err) ||
               timer_stop(&s->ln.tm, s0, out, 1, err);
    if (timer_start(&s->ln.tm, s0, 0, err))
        return 1;
    if (s->io == RN_IO_WITH) {
        if (cuda_array_part(s, a, 0, s->n, s0, ev, compute, err))
            return 1;
        CK(cudaEventRecord(ev[3], s0));
        return timer_phases(&s->ln.tm, out, err);
    }
    /* overlap: streams 1.. start with stream 0's event 0 */
    if (lanes_fork(&s->ln, CUDA_ARRAY_LANES, ev[0], err))
        return 1;
    for (int c = 0; c < CUDA_ARRAY_CHUNKS; c++) {
        size_t off, len = chunk_of(s->n, CUDA_ARRAY_CHUNKS, c, &off);
        if (len == 0)
            break;
        if (cuda_array_part(s, a, off, len, s->ln.st[c % CUDA_ARRAY_LANES], NULL, compute, err))
            return 1;
    }
    return join_streams(s->ln.st, s->ln.done, CUDA_ARRAY_LANES, &s->ln.tm, out, err);
}

/* check()'s output of `bytes` bytes: with io: with and overlap the run's own
 * download is what is checked (a fresh download here would hide a skipped
 * one); with io: without the result stays on the device, so it is fetched. */
static inline int cuda_fetch_output(rn_io io, void *host, const void *dev, size_t bytes,
                                    rn_error *err)
{
    if (io == RN_IO_WITHOUT)
        CK(cudaMemcpy(host, dev, bytes, cudaMemcpyDeviceToHost));
    return 0;
}

/* Element i of a host array of f64 where dt is, else of f32, as a double. */
static inline double cuda_at(const void *p, rn_dtype dt, size_t i)
{
    return dt == RN_F64 ? ((const double *)p)[i] : ((const float *)p)[i];
}

/* check() of a workload of cuda_array_run: its output (hout, fetched from
 * dout with io: without) sampled (check_count) against want(s, i),
 * relative, within tol (check_close; an element is named as fmt, "x[%zu]"). */
template <typename S>
int cuda_array_check(const S *s, void *hout, const void *dout, double tol, const char *workload,
                     const char *fmt, double (*want)(const S *s, size_t i), rn_error *err)
{
    if (s->n == 0)
        return 0;
    if (cuda_fetch_output(s->io, hout, dout, s->n * s->esz, err))
        return 1;
    int samples = check_count(s->n);
    for (int q = 0; q < samples; q++) {
        size_t i = check_index(s->n, q);
        if (check_close(cuda_at(hout, s->dt, i), want(s, i), tol, workload, err, fmt, i))
            return 1;
    }
    return 0;
}

/* cudaFree of each device buffer, host_free of each host one (NULL: none
 * made), in their order. */
static inline void cuda_free_all(std::initializer_list<void *> bufs)
{
    for (void *p : bufs)
        cudaFree(p);
}
static inline void host_free_all(std::initializer_list<void *> bufs, int pinned)
{
    for (void *p : bufs)
        host_free(p, pinned);
}

#endif
