/* fake_backend.c - backends that are wrong on purpose, for the loader's
 * refusals, and a stand-in GPU for the worker's side of the backend hooks.
 * Built as several .so files with -DFAKE_VARIANT=N:
 *   1  a valid backend ("fake"): no devices, unless the environment asks
 *      for them (below)
 *   2  the wrong interface version
 *   3  a missing required hook (probe)
 *   4  no entry symbol at all
 *   5  a backend whose probe says no driver */
#define _POSIX_C_SOURCE 200809L
#include "backend.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#if FAKE_VARIANT != 4

/* Variant 1 with FAKE_DEVICES=N has N devices and runs `noop` and
 * `selftest` there, to test the worker without a GPU:
 *   FAKE_THROTTLE=K   sample_check says "throttled" for the first K checks
 *                     of the process (K < 0: always)
 *   FAKE_CHECK=unknown sample_check answers -1 ("cannot tell")
 *   selftest action=fault  run() fails as an illegal address does, and
 *                     every later call of the process fails with the stale
 *                     error, as a sticky CUDA error does
 * Every call takes device time (1 ms, 2 ms, 3 ms, ...); in a batch the
 * worker announced (batch_begin), the device time is the batch's, as the
 * CUDA backend times it (one pair of events around the batch): the calls
 * before the last report none (NAN), the last the batch's sum over its
 * calls, and the next call after a batch that got fewer calls than
 * announced fails; outside one, each call
 * reports its own.  cold_facts reports cold_context and cold_module once
 * per process; `noop`'s extras count sample_begin, sample_check and
 * batch_begin calls (sample_begins, sample_checks, batch_begins) and the
 * calls made outside an announced batch (lone_calls).
 *   FAKE_MIN_WARM=S   the table's min_warm: trials warm at least S seconds
 *   FAKE_WARM_CARRY=S the table's warm_carry (default 0: no carry)
 * An energy counter (doc/ceilings.md#energy-per-call), with FAKE_JOULES=J:
 * each run() adds J joules when it returns, and FAKE_IDLE_WATTS (default
 * 0) accrue all the time; the counter shows the energy at its last update,
 * every FAKE_ENERGY_UPDATE seconds (0.01), in steps of 1 mJ, starting at
 * FAKE_ENERGY_START (0) and wrapping to 0 at FAKE_ENERGY_WRAP (0: never).
 * run() busy-waits FAKE_CALL_SECONDS (0). */
static int env_int(const char *name, int dflt)
{
    const char *v = getenv(name);
    return v && *v ? atoi(v) : dflt;
}

static int sticky, begins, checks, pending_begin, cold_told;
/* calls made outside an announced batch (a batch of one counts as one),
 * and the calls of the announced batch still to come */
static int lone_calls, announced_left;
/* the announced batch: calls still to come, in all, and the device time so far */
static int batch_left, batch_total, batch_begins, batch_short, batch_short_of;
static double batch_sum;

static double env_num(const char *name, double dflt)
{
    const char *v = getenv(name);
    return v && *v ? atof(v) : dflt;
}

static double mono(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* the energy counter: the true energy e_true at t_last, and what the
 * counter shows (its value at the last update boundary) */
static double e_true, t_last = -1, next_update, shown;

static void energy_advance(double add)
{
    double t = mono(), upd = env_num("FAKE_ENERGY_UPDATE", 0.01), idle = env_num("FAKE_IDLE_WATTS", 0);
    if (t_last < 0) {
        t_last = t;
        e_true = shown = env_num("FAKE_ENERGY_START", 0);
        next_update = floor(t / upd) * upd + upd;
    }
    for (; next_update <= t; next_update += upd)
        shown = e_true + idle * (next_update - t_last);
    e_true += idle * (t - t_last) + add;
    t_last = t;
}

typedef struct fake_state {
    int fault;
    int calls;
} fake_state;

static int fake_prepare(const rn_trial *t, void **state, rn_error *err)
{
    if (sticky) {
        snprintf(err->msg, sizeof err->msg, "cudaErrorIllegalAddress (stale, fake)");
        return 1;
    }
    fake_state *f = calloc(1, sizeof *f);
    if (!f)
        return 1;
    f->fault = !strcmp(rn_param_text(t, "action", "none"), "fault");
    batch_left = batch_total = 0; /* a trial that failed mid-batch is over */
    *state = f;
    return 0;
}

static int fake_run(void *state, rn_sample *s, rn_error *err)
{
    fake_state *f = state;
    if (sticky || f->fault) {
        snprintf(err->msg, sizeof err->msg, "cudaErrorIllegalAddress (%s, fake)",
                 sticky ? "stale" : "an illegal memory access");
        sticky = 1;
        return 1;
    }
    f->calls++;
    if (announced_left > 0)
        announced_left--;
    else
        lone_calls++;
    double dev = 1e-3 * (double)(1 + f->calls % 3);
    if (batch_short) {
        snprintf(err->msg, sizeof err->msg, "a batch of %d calls announced got %d (fake)",
                 batch_short_of, batch_short_of - batch_short);
        return 1;
    }
    if (batch_left > 0) {
        batch_sum += dev;
        dev = --batch_left > 0 ? NAN : batch_sum / batch_total;
    }
    s->device_seconds = dev;
    double busy = env_num("FAKE_CALL_SECONDS", 0);
    for (double t0 = busy > 0 ? mono() : 0; busy > 0 && mono() - t0 < busy;)
        ;
    if (getenv("FAKE_JOULES"))
        energy_advance(env_num("FAKE_JOULES", 0));
    return 0;
}

static void fake_release(void *state)
{
    free(state);
}

static void fake_extras(void *state, void *ctx, void (*cb)(void *, const char *, const char *))
{
    (void)state;
    char v[32];
    snprintf(v, sizeof v, "%d", begins);
    cb(ctx, "sample_begins", v);
    snprintf(v, sizeof v, "%d", checks);
    cb(ctx, "sample_checks", v);
    snprintf(v, sizeof v, "%d", batch_begins);
    cb(ctx, "batch_begins", v);
    snprintf(v, sizeof v, "%d", lone_calls);
    cb(ctx, "lone_calls", v);
}

static const rn_workload_impl fake_noop = {
    .name = "noop", .prepare = fake_prepare, .run = fake_run, .release = fake_release,
    .extras = fake_extras};
static const rn_workload_impl fake_selftest = {
    .name = "selftest", .prepare = fake_prepare, .run = fake_run, .release = fake_release};

static void fake_sample_begin(const rn_trial *t)
{
    (void)t;
    begins++;
    pending_begin = 1;
}

static int fake_sample_check(const rn_trial *t, char *why, size_t len)
{
    (void)t;
    checks++;
    if (!pending_begin) { /* the runner must call sample_begin first */
        snprintf(why, len, "sample_check without sample_begin (fake)");
        return 1;
    }
    pending_begin = 0;
    const char *mode = getenv("FAKE_CHECK");
    if (mode && !strcmp(mode, "unknown")) {
        snprintf(why, len, "NVML is not loaded (fake)");
        return -1;
    }
    int k = env_int("FAKE_THROTTLE", 0);
    if (k < 0 || checks <= k) {
        snprintf(why, len, "SM clock 900 MHz, below 75%% of 1980 MHz (fake)");
        return 1;
    }
    return 0;
}

static void fake_batch_begin(const rn_trial *t, int calls)
{
    (void)t;
    batch_begins++;
    if (batch_left > 0) { /* the last batch ended short */
        batch_short = batch_left;
        batch_short_of = batch_total;
    }
    batch_sum = 0;
    batch_total = batch_left = calls > 1 ? calls : 0;
    announced_left = calls;
}

static void fake_cold_facts(const rn_trial *t, void *ctx,
                            void (*cb)(void *ctx, const char *k, const char *v))
{
    (void)t;
    if (cold_told++) /* an earlier trial of this process paid them */
        return;
    cb(ctx, "cold_context", "0.25");
    cb(ctx, "cold_module", "0.004");
}

static int fake_energy(int dev, rn_energy *e, char *why, size_t len)
{
    (void)dev;
    if (!getenv("FAKE_JOULES")) {
        snprintf(why, len, "no energy counter (fake)");
        return 1;
    }
    energy_advance(0);
    double wrap = env_num("FAKE_ENERGY_WRAP", 0);
    double v = wrap > 0 ? fmod(shown, wrap) : shown;
    e->n = 1;
    e->joules[0] = floor(v * 1e3 + 1e-6) * 1e-3;
    e->wrap[0] = wrap;
    e->resolution = 1e-3;
    e->update = env_num("FAKE_ENERGY_UPDATE", 0.01);
    e->scope = "board";
    return 0;
}

static int probe_ok(char *why, size_t len)
{
    (void)why;
    (void)len;
    return 0;
}

static int probe_no_driver(char *why, size_t len)
{
    snprintf(why, len, "no CUDA driver (fake)");
    return 1;
}

static int count(void)
{
    return FAKE_VARIANT == 1 ? env_int("FAKE_DEVICES", 0) : 0;
}

static int info(int i, rn_device_info *out)
{
    if (FAKE_VARIANT != 1 || i < 0 || i >= count())
        return -1;
    memset(out, 0, sizeof *out);
    snprintf(out->name, sizeof out->name, "Fake GPU %d", i);
    return 0;
}

static const rn_workload_impl *find(const char *name)
{
    if (FAKE_VARIANT != 1 || env_int("FAKE_DEVICES", 0) <= 0)
        return NULL;
    return !strcmp(name, "noop") ? &fake_noop : !strcmp(name, "selftest") ? &fake_selftest : NULL;
}

static rn_backend fake = {
    .abi = FAKE_VARIANT == 2 ? RN_BACKEND_ABI + 41 : RN_BACKEND_ABI,
    .name = "fake",
    .probe = FAKE_VARIANT == 3 ? NULL : FAKE_VARIANT == 5 ? probe_no_driver : probe_ok,
    .device_count = count,
    .device_info = info,
    .workload = find,
    .sample_begin = fake_sample_begin,
    .sample_check = fake_sample_check,
    .cold_facts = fake_cold_facts,
    .energy = fake_energy,
    .batch_begin = fake_batch_begin,
};

const rn_backend *runner_backend_entry(void)
{
    const char *w = getenv("FAKE_MIN_WARM");
    fake.min_warm = w ? atof(w) : 0;
    fake.warm_carry = env_num("FAKE_WARM_CARRY", 0);
    return &fake;
}
#else
int not_a_backend(void)
{
    return 0;
}
#endif
