/* trial_extras.c - see trial_extras.h: the runner's own columns of a
 * finished trial, and the rounds of an interleaved trial folded into it. */
#include "run/trial_extras.h"

#include "base/value.h"
#include "stats/stats.h"
#include "base/util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The value of extra column `key` of r, or NULL. */
const char *trial_extra(const trial_result *r, const char *key)
{
    for (int i = r->nextra - 1; i >= 0; i--)
        if (!strcmp(r->extra_keys[i], key))
            return r->extra_vals[i];
    return NULL;
}

/* A `noise` column for trials worth a second look
 * (doc/timing.md#measurement-quality), each part naming a cause the report's advice follows: the
 * spread ("cv 7.2%, mad 0.4%": the coefficient of variation beside the
 * robust one, 1.4826 MAD / median, when either is above 5 %), outliers
 * beyond Tukey's fences, stalls (samples over 10x the median), two modes
 * ("bimodal ..."), a stop rule that gave up ("gave up ..."), a warmup that
 * never reached steady state ("unsteady warmup"), processes the OS ran on
 * one CPU ("processes shared a CPU in K calls"), a busy machine ("busy:
 * ...", sysload.h), a throttled CPU ("throttled: ...", sysload.h). */
void trial_flag_noise(trial_result *r, double rse_target)
{
    if (r->status != ST_OK)
        return;
    double *x = xmalloc((size_t)r->nsamples * sizeof *x);
    for (int i = 0; i < r->nsamples; i++)
        x[i] = r->samples[i].seconds;
    stats s;
    stats_compute(x, r->nsamples, &s); /* sorts x */
    double lo_mode, hi_mode, share;
    int bimodal = stats_bimodal(x, s.n, &lo_mode, &hi_mode, &share);
    int stalls = 0;
    for (int i = 0; i < s.n; i++)
        stalls += s.median > 0 && x[i] > 10 * s.median;
    int outliers = stats_outliers(x, r->nsamples);
    free(x);
    double cv = s.mean > 0 ? s.stddev / s.mean : 0;
    double rmad = s.median > 0 ? 1.4826 * s.mad / s.median : 0;
    strbuf b = {0};
    if (cv > 0.05 || rmad > 0.05)
        sb_printf(&b, "cv %.1f%%, mad %.1f%%", 100 * cv, 100 * rmad);
    if (outliers)
        sb_printf(&b, "%s%d outlier%s", b.len ? "; " : "", outliers, outliers == 1 ? "" : "s");
    if (stalls)
        sb_printf(&b, "%s%d stall%s over 10x the median", b.len ? "; " : "", stalls,
                  stalls == 1 ? "" : "s");
    if (bimodal) {
        char l[32], h[32];
        fmt_seconds(l, sizeof l, lo_mode);
        fmt_seconds(h, sizeof h, hi_mode);
        sb_printf(&b, "%sbimodal: %s and %s (%.0f%% slow)", b.len ? "; " : "", l, h, 100 * share);
    }
    const char *why = trial_extra(r, "stop_reason");
    if (why && strcmp(why, "rse") && s.median > 0 && isfinite(s.median_ci_low)) {
        double lo = s.median - s.median_ci_low, hi = s.median_ci_high - s.median;
        double w = (lo > hi ? lo : hi) / s.median;
        if (w > rse_target)
            sb_printf(&b, "%sgave up (%s): median +-%.2g%% > rse %.2g%%", b.len ? "; " : "", why,
                      100 * w, 100 * rse_target);
    }
    const char *warm = trial_extra(r, "warmup_unsteady");
    if (warm)
        sb_printf(&b, "%sunsteady warmup (last/fastest %s)", b.len ? "; " : "", warm);
    const char *shared = trial_extra(r, "shared_cpu_calls"); /* procs.h */
    if (shared && atol(shared) > 0)
        sb_printf(&b, "%sprocesses shared a CPU in %s call%s", b.len ? "; " : "", shared,
                  atol(shared) == 1 ? "" : "s");
    /* subtract_spawn (doc/own-code.md#per_call): samples the correction took
     * to 0, or a median inside one start's spread, measure the start's
     * noise, not the program */
    const char *spread = trial_extra(r, "spawn_spread_seconds");
    if (spread) {
        int zero = 0;
        for (int i = 0; i < r->nsamples; i++)
            zero += !(r->samples[i].seconds > 0);
        double sd = strtod(spread, NULL);
        char m[32], d[32];
        fmt_seconds(m, sizeof m, s.median);
        fmt_seconds(d, sizeof d, sd);
        if (zero)
            sb_printf(&b, "%sspawn-corrected: %d of %d samples at 0", b.len ? "; " : "", zero,
                      r->nsamples);
        else if (s.median < sd)
            sb_printf(&b, "%sspawn-corrected: median %s inside the start's spread %s",
                      b.len ? "; " : "", m, d);
    }
    char busy[96];
    if (load_busy(&r->load, busy, sizeof busy))
        sb_printf(&b, "%s%s", b.len ? "; " : "", busy);
    char thr[128];
    if (load_throttled(&r->load, thr, sizeof thr))
        sb_printf(&b, "%s%s", b.len ? "; " : "", thr);
    if (b.len)
        trial_result_add_extra(r, "noise", b.s);
    sb_free(&b);
}

/* The machine's load during a trial that a worker ran
 * (doc/timing.md#load): `load_avg`, `steal`, `other_cpu`, `cpu_mhz`, `cpu_max_mhz` columns. */
/* format_decimals of the column's value, or the text it gave the last
 * trial for the same value: the load average and the frequencies change
 * at most every LOAD_MHZ_EVERY (sysload.h), so small trials write the same
 * text again and again (issue 38: a printf per column a trial) */
enum { LD_AVG, LD_STEAL, LD_OTHER, LD_MHZ, LD_MAX, LD_N };

static const char *load_text(int col, double x, int decimals)
{
    static double last[LD_N];
    static char text[LD_N][32];
    if (!text[col][0] || x != last[col]) {
        format_decimals(text[col], sizeof text[col], x, decimals);
        last[col] = x;
    }
    return text[col];
}

void trial_record_load(trial_result *r)
{
    const load_sum *l = &r->load;
    if (!l->n) /* a trial under one clock tick may cover no interval (experiment/machine/sysload.h) */
        return;
    if (l->wall < 0)
        return;
    if (l->loadavg >= 0)
        trial_result_add_extra(r, "load_avg", load_text(LD_AVG, l->loadavg, 2));
    trial_result_add_extra(r, "steal",
                           load_text(LD_STEAL, l->total > 0 ? l->steal / l->total : 0.0, 3));
    if (l->wall >= LOAD_MIN_WALL) /* else too few clock ticks to tell */
        trial_result_add_extra(r, "other_cpu", load_text(LD_OTHER, l->other / l->wall, 2));
    if (l->mhz > 0)
        trial_result_add_extra(r, "cpu_mhz", load_text(LD_MHZ, l->mhz, 0));
    if (l->max_mhz > 0)
        trial_result_add_extra(r, "cpu_max_mhz", load_text(LD_MAX, l->max_mhz, 0));
}

/* One round's extra into the trial's (order: interleaved): warmup_calls and
 * warmup_time are summed over the rounds, warmup_unsteady keeps the largest
 * ratio of the rounds whose warmup gave up (doc/timing.md#how-a-trial-is-timed);
 * any other extra is the last round's. */
static void add_round_extra(trial_result *a, const char *key, const char *val)
{
    int sum = !strcmp(key, "warmup_calls") || !strcmp(key, "warmup_time");
    int most = !strcmp(key, "warmup_unsteady");
    const char *had = (sum || most) ? trial_extra(a, key) : NULL;
    if (!had) {
        trial_result_add_extra(a, key, val);
        return;
    }
    double x = strtod(had, NULL), y = strtod(val, NULL);
    char t[64];
    if (!strcmp(key, "warmup_calls"))
        format_decimals(t, sizeof t, x + y, 0);
    else if (sum)
        format_number(t, sizeof t, x + y, 6);
    else
        format_number(t, sizeof t, y > x ? y : x, 3);
    trial_result_add_extra(a, key, t);
}

void trial_add_round(trial_result *a, trial_result *r, int round)
{
    for (int i = 0; i < r->nsamples; i++) {
        if (a->nsamples == a->cap) {
            a->cap = a->cap ? a->cap * 2 : 8;
            a->samples = xrealloc(a->samples, (size_t)a->cap * sizeof *a->samples);
        }
        a->samples[a->nsamples++] = r->samples[i];
    }
    if (round == 0)
        a->cold = r->cold;
    /* the load over all rounds: sums, the largest load average */
    a->load.wall += r->load.wall;
    a->load.other += r->load.other;
    a->load.steal += r->load.steal;
    a->load.total += r->load.total;
    a->load.n += r->load.n;
    if (r->load.loadavg > a->load.loadavg)
        a->load.loadavg = r->load.loadavg;
    load_add_mhz(&a->load, r->load.mhz, r->load.max_mhz);
    a->flops = r->flops;
    a->bytes = r->bytes;
    for (int i = 0; i < r->nextra; i++)
        add_round_extra(a, r->extra_keys[i], r->extra_vals[i]);
    a->status = r->status;
    free(a->reason);
    a->reason = r->reason ? xstrdup(r->reason) : NULL;
}
