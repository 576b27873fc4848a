/* watch.c - see watch.h. */
#include "run/watch.h"

#include "base/util.h"
#include "experiment/machine/cpuspeed.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The speeds as JSON: {"0": 51.2, "1": 33.0}. */
static void speeds_json(strbuf *b, const run_watch *w, const double *g)
{
    sb_putc(b, '{');
    for (int i = 0, k = 0; i < w->ncpu; i++)
        if (isfinite(g[i]))
            sb_printf(b, "%s\"%d\": %.4g", k++ ? ", " : "", w->cpu[i], g[i]);
    sb_putc(b, '}');
}

static void set_meta(const run_watch *w, meta *m, int end)
{
    double g[WATCH_CPUS];
    for (int i = 0; i < w->ncpu; i++)
        g[i] = end && isfinite(w->g1[i]) ? (isfinite(w->g0[i]) ? (w->g0[i] + w->g1[i]) / 2 : w->g1[i])
                                         : w->g0[i];
    strbuf b = {0};
    sb_puts(&b, "{\"unit\": \"GFLOP/s, FP32 FMA, one core\", \"gflops\": ");
    speeds_json(&b, w, g);
    sb_puts(&b, ", \"start\": ");
    speeds_json(&b, w, w->g0);
    if (end) {
        sb_puts(&b, ", \"end\": ");
        speeds_json(&b, w, w->g1);
    }
    sb_putc(&b, '}');
    meta_set_json(m, "cpu_speed", b.s);
    sb_free(&b);
}

void run_watch_start(run_watch *w, meta *m, ceilings *C)
{
    memset(w, 0, sizeof *w);
    load_snap_take(&w->start, 0);
    w->ncpu = cpu_speed_each(w->cpu, w->g0, WATCH_CPUS, CPU_SPEED_REPS, CPU_SPEED_WINDOW);
    for (int i = 0; i < w->ncpu; i++)
        w->g1[i] = NAN;
    double lo = INFINITY, hi = 0;
    int ilo = 0, ihi = 0;
    for (int i = 0; i < w->ncpu; i++) {
        if (!isfinite(w->g0[i]))
            continue;
        if (w->g0[i] < lo)
            lo = w->g0[i], ilo = i;
        if (w->g0[i] > hi)
            hi = w->g0[i], ihi = i;
    }
    set_meta(w, m, 0);
    char msg[512];
    if (w->ncpu > 1 && lo > 0 && hi / lo - 1 > CPU_SPEED_DIFFER) {
        snprintf(msg, sizeof msg,
                 "the CPUs run at different speeds: CPU %d %.3g and CPU %d %.3g GFLOP/s on one "
                 "core (%.2fx); one-thread trials take their blocks on every CPU in turn, and "
                 "a run compares with another only as a whole (doc/timing.md#the-speed-of-each-cpu)",
                 w->cpu[ihi], hi, w->cpu[ilo], lo, hi / lo);
        meta_warn(m, msg);
    }
    double nominal;
    double cached = C ? ceilings_get(C, "cpu", "fp32_1core", &nominal) : NAN;
    if (cached > 0 && hi > 0 && fabs(hi / cached - 1) > 0.05) {
        /* a few milliseconds can catch a passing contention: a longer
         * probe (40 ms a CPU) decides, and the compute ceilings follow it
         * (doc/timing.md#the-speed-of-each-cpu) */
        double hi2 = 0;
        for (int i = 0; i < w->ncpu; i++) {
            double g = cpu_speed_on(w->cpu[i], 20, 0.002);
            hi2 = g > hi2 ? g : hi2;
        }
        if (hi2 > 0 && fabs(hi2 / cached - 1) > 0.05) {
            char *json;
            ceilings_scale_compute(C, "cpu", hi2 / cached);
            if ((json = ceilings_json(C))) {
                meta_set_ceilings(m, json, "");
                free(json);
            }
            snprintf(msg, sizeof msg,
                     "the fastest CPU runs at %.3g GFLOP/s on one core, %.0f%% %s the cached "
                     "ceilings' %.3g: this run's CPU compute ceilings are scaled by %.3g, so "
                     "pct_of_peak is against the clock measured now (`runner machine --reprobe` "
                     "measures them again)",
                     hi2, 100 * fabs(hi2 / cached - 1), hi2 > cached ? "above" : "below", cached,
                     hi2 / cached);
            meta_warn(m, msg);
        }
    }
}

void run_watch_trial(run_watch *w, pid_t worker, trial_result *res)
{
    load_snap now;
    load_snap_take(&now, worker);
    if (!now.ok)
        return;
    if (res->load.wall < LOAD_MIN_WALL && res->status == ST_OK) {
        /* the newest snapshot at least LOAD_MIN_WALL old, else the run's start */
        const load_snap *from = NULL;
        for (int k = 1; k <= w->nring && !from; k++) {
            const load_snap *s = &w->ring[(w->head - k + WATCH_RING) % WATCH_RING];
            if (now.t - s->t >= LOAD_MIN_WALL)
                from = s;
        }
        if (!from && w->start.ok && now.t - w->start.t >= LOAD_MIN_WALL)
            from = &w->start;
        if (from) {
            load_sum win = {0};
            load_add(&win, from, &now);
            if (win.wall >= LOAD_MIN_WALL) {
                res->load.wall = win.wall;
                res->load.other = win.other;
                res->load.n += !res->load.n;
            }
        }
    }
    w->ring[w->head] = now;
    w->head = (w->head + 1) % WATCH_RING;
    w->nring += w->nring < WATCH_RING;
}

void run_watch_end(run_watch *w, meta *m, pid_t worker)
{
    for (int i = 0; i < w->ncpu; i++)
        w->g1[i] = cpu_speed_on(w->cpu[i], CPU_SPEED_REPS, CPU_SPEED_WINDOW);
    set_meta(w, m, 1);
    load_snap end;
    load_snap_take(&end, worker);
    load_sum s = {0};
    load_add(&s, &w->start, &end);
    if (s.wall > 0) {
        char j[160];
        snprintf(j, sizeof j, "{\"wall\": %.4g, \"other_cpu\": %.3g, \"steal\": %.3g}", s.wall,
                 s.other / s.wall, s.total > 0 ? s.steal / s.total : 0.0);
        meta_set_json(m, "run_load", j);
    }
}
