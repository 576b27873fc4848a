/* noop.c - nothing at all: what is left of a sample is the harness's own
 * overhead.  No allocation: the state is a shared static object with no
 * output, so that a core which treats a NULL state as an error still works. */
#include "frame.h"

static const cpu_output nothing = {0};

static int noop_prepare(const rn_trial *t, void **state, rn_error *err)
{
    (void)t;
    (void)err;
    *state = (void *)&nothing; /* never written: release() and run() ignore it */
    return 0;
}

static int noop_run(void *state, rn_sample *smp, rn_error *err)
{
    (void)state;
    (void)smp;
    (void)err;
    return 0;
}

static void noop_release(void *state)
{
    (void)state;
}

CPU_WORKLOAD(noop, noop_prepare, noop_run, NULL, noop_release)
