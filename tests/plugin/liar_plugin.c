/* liar_plugin.c - the plugin of tests/test_untrusted.c (the Makefile's
 * PLUGINS): workload "liar", whose run() returns at once and reports the
 * device time of its parameter `device_seconds` (none when absent), and
 * whose work() reports the flops of its parameter `flops` (none when
 * absent) -- a negative time, or a count that overflowed, as a plugin's
 * bug would report them.  Built against include/runner/workload.h alone. */
#include <runner/workload.h>

#include <math.h>
#include <stdlib.h>

typedef struct {
    double dev, flops;
} liar_state;

static int liar_prepare(const rn_trial *t, void **state, rn_error *err)
{
    (void)err;
    liar_state *s = calloc(1, sizeof *s);
    if (!s)
        return RN_PREPARE_FAIL;
    s->dev = rn_param_num(t, "device_seconds", NAN);
    s->flops = rn_param_num(t, "flops", NAN);
    *state = s;
    return RN_PREPARE_OK;
}

static int liar_run(void *st, rn_sample *smp, rn_error *err)
{
    (void)err;
    smp->device_seconds = ((liar_state *)st)->dev;
    return 0;
}

static void liar_work(void *st, double *flops, double *bytes)
{
    (void)bytes;
    *flops = ((liar_state *)st)->flops;
}

static void liar_release(void *st)
{
    free(st);
}

static const rn_workload_impl liar = {
    .name = "liar", .prepare = liar_prepare, .run = liar_run, .release = liar_release,
    .work = liar_work,
};

RN_PLUGIN(&liar)
