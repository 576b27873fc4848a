/* energy.c - see energy.h.  An energy counter moves in steps: NVML's total
 * energy every 100-125 ms, RAPL's about every millisecond.  A window that
 * starts and ends anywhere would miss up to one step at each end, so each
 * window starts at a step (the counter seen to change) and ends at one:
 * its energy is then exactly that between the two steps, and the calls
 * counted between the two sightings differ from the calls within the steps
 * only by what ran while the change went unseen (doc/ceilings.md#energy-per-call). */
#include "run/exec/energy.h"

#include "base/util.h"
#include "run/exec/batch.h"
#include "base/value.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

double energy_delta(const rn_energy *a, const rn_energy *b)
{
    double sum = 0;
    for (int i = 0; i < a->n && i < b->n && i < RN_ENERGY_COUNTERS; i++) {
        double d = b->joules[i] - a->joules[i];
        if (d < 0 && a->wrap[i] > 0)
            d += a->wrap[i];
        sum += d;
    }
    return sum;
}

static int changed(const rn_energy *a, const rn_energy *b)
{
    for (int i = 0; i < a->n && i < RN_ENERGY_COUNTERS; i++)
        if (a->joules[i] != b->joules[i])
            return 1;
    return 0;
}

static void sleep_s(double s)
{
    struct timespec ts = {(time_t)s, (long)((s - (double)(time_t)s) * 1e9)};
    while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
        ;
}

typedef struct meter {
    const rn_backend *b;
    int dev;
    char why[512];
} meter;

static int read_counter(meter *m, rn_energy *e)
{
    memset(e, 0, sizeof *e);
    return m->b->energy(m->dev, e, m->why, sizeof m->why);
}

/* The counter's first step after `from`, in *to, sleeping between readings
 * (20 an update), waiting 3 updates and half a second at the most: 0, or -1
 * when it cannot be read. */
static int next_step(meter *m, const rn_energy *from, rn_energy *to, double update)
{
    double limit = now_seconds() + 3 * update + 0.5;
    do {
        sleep_s(update / 20);
        if (read_counter(m, to) != 0)
            return -1;
    } while (!changed(from, to) && now_seconds() < limit);
    return 0;
}

/* The device at rest: from one step of the counter to the first after
 * `window` seconds, sleeping between readings (20 a step). */
static double idle_watts(meter *m, double window, double update)
{
    rn_energy a, b;
    if (read_counter(m, &a) != 0)
        return NAN;
    if (next_step(m, &a, &b, update) != 0)
        return NAN;
    double t0 = now_seconds();
    sleep_s(window);
    rn_energy c;
    if (read_counter(m, &a) != 0 || next_step(m, &a, &c, update) != 0)
        return NAN;
    double t1 = now_seconds();
    return energy_delta(&b, &c) / (t1 - t0);
}

/* One round of calls: a sample's batch, as the timed loop runs it
 * (batch_run, the sample cleared once), so that a workload whose run()
 * takes a batch in one request (a persistent program:
 * doc/own-code.md#persistent) does here what it did in the samples:
 * 0, or the failed call's code. */
static int round_of(const rn_workload_impl *impl, void *state, int batch, rn_error *err)
{
    rn_sample s;
    rn_sample_clear(&s);
    return batch_run(impl, state, batch, &s, err);
}

/* One window of calls, `k` rounds of `batch` calls between readings: from a
 * step to the first step after `window` seconds.  *calls, *seconds: what
 * ran between the sightings, in calls (a round is `batch` of them);
 * returns the joules, NAN when the counter could not be read, and -1 with
 * err when a call failed. */
static double busy_window(meter *m, const rn_workload_impl *impl, void *state, int k, int batch,
                          double window, double update, long *calls, double *seconds,
                          rn_error *err, int *rc)
{
    rn_energy a, b, c;
    if (read_counter(m, &a) != 0)
        return NAN;
    double limit = now_seconds() + 3 * update + 1;
    do { /* calls until the counter steps */
        for (int j = 0; j < k && *rc == 0; j++)
            *rc = round_of(impl, state, batch, err);
        if (*rc || read_counter(m, &b) != 0)
            return *rc ? -1 : NAN;
    } while (!changed(&a, &b) && now_seconds() < limit);
    double t0 = now_seconds();
    long n = 0;
    while (now_seconds() - t0 < window) {
        for (int j = 0; j < k && *rc == 0; j++)
            *rc = round_of(impl, state, batch, err);
        if (*rc)
            return -1;
        n += (long)k * batch;
    }
    if (read_counter(m, &a) != 0)
        return NAN;
    limit = now_seconds() + 3 * update + 1;
    do {
        for (int j = 0; j < k && *rc == 0; j++)
            *rc = round_of(impl, state, batch, err);
        if (*rc || read_counter(m, &c) != 0)
            return *rc ? -1 : NAN;
        n += (long)k * batch;
    } while (!changed(&a, &c) && now_seconds() < limit);
    *seconds = now_seconds() - t0;
    *calls = n;
    return energy_delta(&b, &c);
}

/* The columns, empty, with the reason: a trial without a counter has the
 * same columns as one with (doc/ceilings.md#energy-per-call). */
static void none(void (*cb)(void *, const char *, const char *), const char *why)
{
    static const char *const cols[] = {"joules_per_call", "joules_per_call_err", "watts",
                                       "idle_watts", NULL};
    for (int i = 0; cols[i]; i++)
        cb(NULL, cols[i], "");
    cb(NULL, "energy_note", why);
}

static void put(void (*cb)(void *, const char *, const char *), const char *k, double v, int digits)
{
    if (!isfinite(v))
        return;
    char t[64];
    format_number(t, sizeof t, v, digits);
    cb(NULL, k, t);
}

int energy_measure(const rn_workload_impl *impl, void *state, int batch, const rn_backend *b,
                   int dev, double flops, double bytes, void (*cb)(void *ctx, const char *k, const char *v),
                   rn_error *err)
{
    meter m = {b, dev, ""};
    rn_energy e;
    if (batch < 1)
        batch = 1;
    if (!b || !b->energy) {
        char t[160];
        snprintf(t, sizeof t, "no energy counter: the %s backend reads none",
                 b ? b->name : "core (this workload)");
        none(cb, t);
        return 0;
    }
    if (read_counter(&m, &e) != 0 || e.n < 1) {
        none(cb, m.why[0] ? m.why : "no energy counter on this device");
        return 0;
    }
    double update = e.update > 0 ? e.update : 0.1;
    double window = fmax(ENERGY_MIN_WINDOW, ENERGY_MIN_UPDATES * update);
    /* rounds between readings: a reading every twentieth of a step, so
     * that a short call is not slowed by the reading after each */
    double t0 = now_seconds();
    int rc = 0, k = 1;
    for (int j = 0; j < 3 && rc == 0; j++)
        rc = round_of(impl, state, batch, err);
    if (rc)
        return rc;
    double per_round = (now_seconds() - t0) / 3;
    if (per_round > 0 && per_round < update / 20)
        k = (int)fmin(1e6 / batch + 1, ceil(update / 20 / per_round));

    double idle = idle_watts(&m, window, update);
    double j[ENERGY_WINDOWS], bound[ENERGY_WINDOWS], secs = 0, watts = 0;
    long ncalls = 0;
    int nw = 0;
    for (int w = 0; w < ENERGY_WINDOWS; w++) {
        long calls = 0;
        double seconds = 0;
        double de = busy_window(&m, impl, state, k, batch, window, update, &calls, &seconds, err,
                                &rc);
        if (rc)
            return rc;
        if (!isfinite(de) || calls <= 0 || seconds <= 0) {
            none(cb, m.why[0] ? m.why : "the energy counter did not move");
            return 0;
        }
        j[nw] = de / (double)calls;
        /* a step's resolution, and the calls that ran while a step went
         * unseen at either end (k rounds and a reading) */
        double lat = seconds / (double)calls * k * batch;
        bound[nw] = (e.resolution > 0 ? e.resolution / de : 0) + 2 * lat / seconds;
        secs += seconds;
        ncalls += calls;
        watts += de;
        nw++;
    }
    double mean = 0, lo = INFINITY, hi = -INFINITY, rel = 0;
    for (int w = 0; w < nw; w++) {
        mean += j[w] / nw;
        lo = fmin(lo, j[w]), hi = fmax(hi, j[w]);
        rel = fmax(rel, bound[w]);
    }
    double half = mean * rel + (hi - lo) / 2;
    put(cb, "joules_per_call", mean, 6);
    put(cb, "joules_per_call_err", half, 2);
    put(cb, "watts", watts / secs, 4);
    put(cb, "idle_watts", idle, 4);
    put(cb, "energy_call_seconds", secs / (double)ncalls, 6);
    if (flops > 0)
        put(cb, "gflops_per_joule", flops / mean / 1e9, 4);
    else if (bytes > 0)
        put(cb, "gb_per_joule", bytes / mean / 1e9, 4);
    cb(NULL, "energy_scope", e.scope ? e.scope : "device");
    return 0;
}
