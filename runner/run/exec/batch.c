/* batch.c - see batch.h. */
#include "run/exec/batch.h"

#include "base/util.h"
#include "stats/stats.h"

#include <math.h>
#include <time.h>

/* The clock (doc/timing.md#batching): its cost, one CLOCK_MONOTONIC read (the
 * mean over many back-to-back reads), and its resolution, the smallest
 * non-zero step between two reads.  Measured once per worker. */
static double clock_cost, clock_step;

static void clock_measure(void)
{
    if (clock_cost > 0)
        return;
    enum { READS = 2000 };
    struct timespec prev, cur;
    double step = 1, t0 = now_seconds();
    clock_gettime(CLOCK_MONOTONIC, &prev);
    for (int i = 0; i < READS; i++) {
        clock_gettime(CLOCK_MONOTONIC, &cur);
        double d = (double)(cur.tv_sec - prev.tv_sec) + (double)(cur.tv_nsec - prev.tv_nsec) * 1e-9;
        if (d > 0 && d < step)
            step = d;
        prev = cur;
    }
    double cost = (now_seconds() - t0) / (READS + 2);
    struct timespec res;
    if (clock_getres(CLOCK_MONOTONIC, &res) == 0) {
        double r = (double)res.tv_sec + (double)res.tv_nsec * 1e-9;
        if (r > step)
            step = r;
    }
    clock_step = step > 1e-9 ? step : 1e-9;
    clock_cost = cost > 1e-9 ? cost : 1e-9;
}

/* The shortest sample batch: auto aims for: 1000x the clock's resolution and
 * 100x its cost (google/benchmark grows iterations the same way), so the
 * clock's tick and its cost are each at most 0.1 % and 1 % of a sample. */
double sample_target(void)
{
    clock_measure();
    double a = 1000 * clock_step, b = 100 * clock_cost;
    return a > b ? a : b;
}

/* A function of its own, whose loop the Makefile aligns to 64 bytes: the
 * loop then never straddles two 64-byte blocks, wherever the rest of the
 * code puts it.  Inlined in the worker's sample loop, changes elsewhere
 * moved it across a block boundary and a noop call went from 1.4 to 1.9 ns
 * on the same machine (bench/stats.sh "noop per call", bench/NOTES-stats.md).
 * The batch probe times the same loop, so it sizes batches by it too. */
__attribute__((noinline)) int batch_run(const rn_workload_impl *impl, void *state, int batch,
                                        rn_sample *s, rn_error *err)
{
    int (*run)(void *, rn_sample *, rn_error *) = impl->run;
    int rc = 0;
    for (int j = 0; j < batch && rc == 0; j++)
        rc = run(state, s, err);
    return rc;
}

/* batch: auto.  The whole batch is timed, and grown (batch_grow) until one
 * batch lasts the target: each probe re-times the batch it would use, so
 * the choice rests on a measured batch, not on one call scaled up.  The
 * target is at least sample_time (default 1 ms, as pyperf calibrates its
 * loops to a --min-time): samples shorter than the machine's periodic
 * interruptions fall between them and their median reads faster than the
 * calls run in steady use (noop on a 2-core VM: batches of 10 to 200 us
 * read 3 to 5 % below a batch of 2^20 calls, 0.75 ms and more within
 * 1 %; doc/timing.md#batching).  The worker probes twice: from one call right
 * after the `warmups` calls, and from that batch again once the trial is
 * warm (the first calls after `prepare` can be cold for a while: a 40 us
 * matmul's first probe calls took 2 to 4 ms and left it unbatched). */
int choose_batch(const rn_workload_impl *impl, void *state, int start, double sample_time,
                 const batch_announce *ann, rn_error *err, int *rc, long *calls)
{
    double target = fmax(sample_target(), sample_time);
    int batch = start;
    rn_sample s;
    for (int tries = 0; tries < 40; tries++) {
        rn_sample_clear(&s);
        batch_announced(ann, batch);
        double t0 = now_seconds();
        if ((*rc = batch_run(impl, state, batch, &s, err)) != 0)
            return 1;
        double d = now_seconds() - t0;
        *calls += batch;
        int next = batch_grow(batch, d, target);
        if (next == batch)
            break;
        batch = next;
    }
    return batch;
}

int sample_has_device(const rn_sample *s)
{
    return isfinite(s->device_seconds) || isfinite(s->h2d) || isfinite(s->compute) ||
           isfinite(s->d2h);
}

int batch_run_device(const rn_workload_impl *impl, void *state, int batch, rn_sample *s,
                     rn_error *err)
{
    double *f[4] = {&s->device_seconds, &s->h2d, &s->compute, &s->d2h}, sum[4] = {0};
    int n[4] = {0}, rc = 0;
    for (int j = 0; j < batch && rc == 0; j++) {
        for (int i = 0; i < 4; i++)
            *f[i] = NAN;
        rc = impl->run(state, s, err);
        for (int i = 0; i < 4; i++)
            if (isfinite(*f[i])) {
                sum[i] += *f[i];
                n[i]++;
            }
    }
    for (int i = 0; i < 4; i++)
        *f[i] = n[i] ? sum[i] / n[i] : NAN;
    return rc;
}
