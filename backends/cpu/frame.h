/* frame.h - what every CPU workload's file shares, written once: its
 * rn_workload_impl table and registration (CPU_WORKLOAD), its state's
 * allocation (cpu_state_new) and, for the kernel workloads (axpb, matmul,
 * nested_sin, sumsq), the whole of prepare(), run() and release() around
 * the workload's own setup, kernel and buffers (CPU_KERNEL_WORKLOAD).
 * doc/contributing/adding-a-workload.md#adding-a-workload shows the plain
 * form a new workload may start from. */
#ifndef BACKENDS_CPU_FRAME_H
#define BACKENDS_CPU_FRAME_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cpu.h"
#include "verify.h"

/* const rn_workload_impl cpu_NAME (cpu.h) with the given hooks, the
 * optional ones after them (.extras = ...), registered with the backend. */
#define CPU_WORKLOAD(NAME, PREPARE, RUN, CHECK, RELEASE, ...)                                 \
    const rn_workload_impl cpu_##NAME = {.name = #NAME,                                      \
                                         .prepare = PREPARE,                                 \
                                         .run = RUN,                                         \
                                         .check = CHECK,                                     \
                                         .release = RELEASE,                                 \
                                         __VA_ARGS__};                                       \
    RN_REGISTER_WORKLOAD(cpu_register_workload, cpu_##NAME)

/* A zeroed state of `size` bytes, or NULL with "WORKLOAD: out of memory". */
void *cpu_state_new(size_t size, const char *workload, rn_error *err);

/* A kernel workload: f32 (and f64 where `f64`) arrays, filled in prepare,
 * one kernel per timed call, a check against a reference.  Its state starts
 * with a cpu_output (verify.h). */
typedef struct cpu_kernel {
    const char *name;
    size_t state_size;
    int f64; /* f64 is accepted besides f32 */
    /* fills a new zeroed state: parameters, buffers, inputs and s->out;
     * 0, or -1 with err (what it allocated is then freed by free_buffers) */
    int (*setup)(const rn_trial *t, void *s, rn_error *err);
    /* optional: prepare()'s last step, once the state is ready */
    void (*ready)(void *s);
    /* run(): one timed call, over s->out's inputs into s->out */
    void (*kernel)(void *s);
    /* frees the state's buffers, any of them still NULL */
    void (*free_buffers)(void *s);
} cpu_kernel;

/* prepare(): the dtype (RN_PREPARE_SKIP for another), the state, setup(),
 * the `inject` step (cpu_inject), ready(); on failure everything is freed. */
int cpu_kernel_prepare(const cpu_kernel *k, const rn_trial *t, void **state, rn_error *err);

/* release(): the buffers, then the state; NULL is a no-op. */
void cpu_kernel_release(const cpu_kernel *k, void *state);

/* run(): the kernel, unless inject: skip_kernel left the output poisoned. */
static inline int cpu_kernel_run(const cpu_kernel *k, void *state)
{
    if (!((const cpu_output *)state)->skip_kernel)
        k->kernel(state);
    return 0;
}

/* The workload cpu_NAME from the file's NAME_state (the state's type),
 * NAME_setup, NAME_kernel, NAME_free (cpu_kernel's setup, kernel and
 * free_buffers) and NAME_check; F64: f64 is accepted besides f32; READY:
 * cpu_kernel's ready, or NULL. */
#define CPU_KERNEL_WORKLOAD(NAME, F64, READY)                                                 \
    static const cpu_kernel NAME##_def = {                                                    \
        #NAME, sizeof(NAME##_state), F64, NAME##_setup, READY, NAME##_kernel, NAME##_free};   \
    static int NAME##_prepare(const rn_trial *t, void **state, rn_error *err)                 \
    {                                                                                         \
        return cpu_kernel_prepare(&NAME##_def, t, state, err);                                \
    }                                                                                         \
    static int NAME##_run(void *state, rn_sample *smp, rn_error *err)                         \
    {                                                                                         \
        (void)smp;                                                                            \
        (void)err;                                                                            \
        return cpu_kernel_run(&NAME##_def, state);                                            \
    }                                                                                         \
    static void NAME##_release(void *state)                                                   \
    {                                                                                         \
        cpu_kernel_release(&NAME##_def, state);                                               \
    }                                                                                         \
    CPU_WORKLOAD(NAME, NAME##_prepare, NAME##_run, NAME##_check, NAME##_release)

#endif
