/* frame.c - the prepare() and release() of the kernel workloads (frame.h). */
#include "frame.h"

#include <stdio.h>
#include <stdlib.h>

void *cpu_state_new(size_t size, const char *workload, rn_error *err)
{
    void *s = calloc(1, size);
    if (!s)
        snprintf(err->msg, sizeof err->msg, "%s: out of memory", workload);
    return s;
}

void cpu_kernel_release(const cpu_kernel *k, void *state)
{
    if (!state)
        return;
    k->free_buffers(state);
    free(state);
}

int cpu_kernel_prepare(const cpu_kernel *k, const rn_trial *t, void **state, rn_error *err)
{
    *state = NULL;
    if (t->dtype != RN_F32 && !(k->f64 && t->dtype == RN_F64)) {
        snprintf(err->msg, sizeof err->msg, "dtype %s is not supported by the cpu backend",
                 rn_dtype_name(t->dtype));
        return RN_PREPARE_SKIP;
    }
    void *s = cpu_state_new(k->state_size, k->name, err);
    if (!s)
        return -1;
    /* the output is set by setup(); doc/workloads.md#fault-injection */
    int rc = k->setup(t, s, err);
    if (rc == 0)
        rc = cpu_inject(t, (cpu_output *)s, err);
    if (rc) {
        cpu_kernel_release(k, s);
        return rc;
    }
    if (k->ready)
        k->ready(s);
    *state = s;
    return 0;
}
