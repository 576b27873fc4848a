/* frame.h - what every CUDA workload's file shares, written once, as
 * backends/cpu/frame.h does for the CPU backend: its rn_workload_impl table
 * and registration (CUDA_WORKLOAD), its prepare() and release() around the
 * workload's own params, setup and frees (CUDA_STATE_WORKLOAD), the trial's
 * fields that the array workloads keep (cuda_io_params) and the frees of
 * lists of buffers.  doc/contributing/adding-a-workload.md#adding-a-workload
 * shows the plain form a new workload may start from. */
#ifndef BACKENDS_CUDA_FRAME_H
#define BACKENDS_CUDA_FRAME_H

#include "cuda_backend.h"
#include "verify_tol.h"

#include <initializer_list>
#include <stdlib.h>

/* const rn_workload_impl cuda_NAME with the given hooks, the optional ones
 * after them (.extras = ...), registered with the backend. */
#define CUDA_WORKLOAD(NAME, PREPARE, RUN, CHECK, RELEASE, ...)                                \
    const rn_workload_impl cuda_##NAME = {.name = #NAME,                                     \
                                          .prepare = PREPARE,                                \
                                          .run = RUN,                                        \
                                          .check = CHECK,                                    \
                                          .release = RELEASE,                                \
                                          __VA_ARGS__};                                      \
    RN_REGISTER_WORKLOAD(cuda_register_workload, cuda_##NAME)

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
