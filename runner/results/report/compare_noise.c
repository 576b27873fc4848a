/* compare_noise.c - see compare_noise.h.  Why blocks of worker processes
 * and not the samples: the samples of one worker share its CPU and its
 * process state, so their spread says nothing of the 1.4-1.7x between the
 * two vCPUs of the VM the runner is built on, and two unchanged runs
 * disagreed in 6 of 15 pairs (doc/compare.md#what-one-run-can-show). */
#include "results/report/compare_noise.h"

#include "base/util.h"
#include "results/report/compare_trial.h"
#include "stats/change.h"
#include "stats/stats.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The runs lo..hi-1 of row c as change_runs: worker blocks (blocks = 1),
 * or consecutive cuts of the samples; *n of them, *noblocks without worker
 * blocks.  The arrays go to *own for freeing. */
static change_run *side_runs(const compare_report *R, const compare_row *c, int lo, int hi,
                             int blocks, int *n, int *noblocks, void ***own, int *nown)
{
    change_run *v = xcalloc((size_t)(hi - lo) + 1, sizeof *v);
    *n = 0;
    *noblocks = 0;
    for (int r = lo; r < hi; r++) {
        const compare_run *D = &R->runs[r];
        int pos = c->pos[r];
        if (!compare_trial_ok(D, pos))
            continue;
        double *med;
        int *cpu, k;
        const char *why;
        k = compare_trial_worker_blocks(D, pos, &med, &cpu, &why);
        if (!k)
            ++*noblocks;
        if (!blocks || !k) {
            free(med);
            free(cpu);
            cpu = NULL;
            med = compare_trial_blocks(D, pos, &k);
        }
        (*own)[(*nown)++] = med;
        (*own)[(*nown)++] = cpu;
        v[(*n)++] = (change_run){med, cpu, k};
    }
    return v;
}

static double side_clock(const compare_report *R, const compare_row *c, int lo, int hi)
{
    double *x = xmalloc(((size_t)(hi - lo) + 1) * sizeof *x);
    int n = 0;
    for (int r = lo; r < hi; r++) {
        const compare_run *D = &R->runs[r];
        if (!compare_trial_ok(D, c->pos[r]))
            continue;
        double v = compare_trial_clock(D, c->pos[r]);
        if (isnan(v)) { /* one run unknown: the side's clock is */
            free(x);
            return NAN;
        }
        x[n++] = v;
    }
    double m = n ? stats_median(x, n) : NAN;
    free(x);
    return m;
}

int compare_row_by_workers(const compare_row *c)
{
    static const char *const by[] = {"blocks", "runs", "history", "modes", NULL};
    for (int i = 0; by[i]; i++)
        if (c->basis && !strcmp(c->basis, by[i]))
            return 1;
    return 0;
}

void compare_row_noise(const compare_report *R, compare_row *c)
{
    c->detectable = INFINITY;
    c->basis = "";
    c->nhist = 0;
    c->o.clock = side_clock(R, c, 0, R->nold);
    c->n.clock = side_clock(R, c, R->nold, R->nruns);
    void **own = xcalloc(2 * (size_t)R->nruns + 2, sizeof *own);
    int nown = 0, no, nn, nbo, nbn;
    change_run *o = side_runs(R, c, 0, R->nold, 1, &no, &nbo, &own, &nown);
    change_run *w = side_runs(R, c, R->nold, R->nruns, 1, &nn, &nbn, &own, &nown);
    c->o.noblocks = nbo;
    c->n.noblocks = nbn;
    change_est e;
    int blocks = !nbo && !nbn;
    if (!blocks) { /* an older run: its samples cut as before, for both sides */
        for (int i = 0; i < nown; i++)
            free(own[i]);
        free(o);
        free(w);
        nown = 0;
        o = side_runs(R, c, 0, R->nold, 0, &no, &nbo, &own, &nown);
        w = side_runs(R, c, R->nold, R->nruns, 0, &nn, &nbn, &own, &nown);
    }
    double hsd = NAN, hdf = 0;
    int nh = 0;
    if (blocks && R->opt->history_noise &&
        R->opt->history_noise(R->opt->history_ctx, R, c, &hsd, &hdf, &nh) == 0)
        c->nhist = nh;
    else
        hsd = NAN;
    if (change_estimate_known(o, no, w, nn, hsd, hdf, &e) == 0) {
        c->detectable = e.detectable;
        c->basis = !blocks         ? "cuts"
                   : e.by_modes    ? "modes"
                   : e.by_history  ? "history"
                   : e.by_runs     ? "runs"
                                   : "blocks";
        if (e.by_modes) /* which blocks the centres are (doc/compare.md#two-speed-modes) */
            snprintf(c->why, sizeof c->why, "fast mode: %d of %d blocks, %d of %d", e.old_fast,
                     e.old_blocks, e.new_fast, e.new_blocks);
        if (blocks) {
            c->o.median = e.old_centre;
            c->n.median = e.new_centre;
            c->ratio = e.ratio;
            c->p = isnan(e.p) ? 1.0 : e.p;
        }
    }
    for (int i = 0; i < nown; i++)
        free(own[i]);
    free(own);
    free(o);
    free(w);
}

void compare_row_settle(const compare_report *R, compare_row *c)
{
    (void)R;
    if (c->kind != CMP_SAME && c->kind != CMP_SLOWER && c->kind != CMP_FASTER)
        return;
    double det = c->detectable, thr = c->thr;
    /* the CPUs of NEW ran slow_by times slower than OLD's (measured) */
    double slow_by = c->o.clock / c->n.clock;
    /* fast modes too: a run slow throughout may still show two modes
     * (bench/NOTES-compare.md#two-speed-modes) */
    if (isfinite(slow_by) && slow_by > 0) {
        double tol = fmax(COMPARE_CLOCK_TOL, isfinite(det) ? det : 0);
        if ((c->kind == CMP_SLOWER && c->ratio <= (1.0 + thr) * fmax(slow_by, 1.0)) ||
            (c->kind == CMP_FASTER && c->ratio >= fmin(slow_by, 1.0) / (1.0 + thr)) ||
            (c->kind == CMP_SAME && fabs(log(slow_by)) > log1p(tol))) {
            c->kind = CMP_INCONCLUSIVE;
            snprintf(c->why, sizeof c->why, "CPU speed %.3gx apart", slow_by >= 1 ? slow_by : 1 / slow_by);
            return;
        }
    }
    if (c->kind == CMP_SAME && !(det <= thr)) {
        c->kind = CMP_INCONCLUSIVE;
        if (isfinite(det))
            snprintf(c->why, sizeof c->why, "detectable +-%.0f%% > threshold %.0f%%", 100 * det,
                     100 * thr);
        else
            snprintf(c->why, sizeof c->why, "no noise measured (one block a run)");
    }
}

void compare_common_shift(compare_report *R)
{
    if (R->nold != 1 || R->nruns != 2)
        return; /* several runs a side: their spread shows the machine's phases */
    double *lr = xmalloc(((size_t)R->nrows + 1) * sizeof *lr);
    int n = 0;
    for (int r = 0; r < R->nrows; r++) {
        const compare_row *c = &R->rows[r];
        if (compare_row_by_workers(c) && !isnan(c->thr) && c->ratio > 0 && isfinite(c->ratio))
            lr[n++] = log(c->ratio);
    }
    double common = n >= COMPARE_SHIFT_MIN_TRIALS ? stats_median(lr, n) : NAN;
    free(lr);
    double floor = isfinite(R->opt->threshold) ? R->opt->threshold / 100.0 : R->opt->noise_floor / 100.0;
    if (!(fabs(common) > log1p(floor)))
        return;
    double shift = exp(common);
    int moved = 0;
    for (int r = 0; r < R->nrows; r++) {
        compare_row *c = &R->rows[r];
        if ((c->kind != CMP_SLOWER || shift < 1) && (c->kind != CMP_FASTER || shift > 1))
            continue;
        /* no further from the common factor than the trials of one phase
         * of the machine were from each other: it may have moved with them */
        if (fabs(log(c->ratio) - common) > log(fmax(COMPARE_SHIFT_SPREAD, 1 + c->thr)))
            continue;
        c->kind = CMP_INCONCLUSIVE;
        snprintf(c->verdict, sizeof c->verdict, "inconclusive");
        snprintf(c->why, sizeof c->why, "every trial moved x%.3g: the machine or all the code", shift);
        moved++;
    }
    if (moved)
        sb_printf(&R->notes,
                  "the trials moved x%.3g together (the median over %d trials): one comparison cannot "
                  "tell a machine that changed speed from a change to all the code, so %d trial%s "
                  "within %.2gx of that factor %s inconclusive; compare more runs a side\n",
                  shift, n, moved, moved == 1 ? "" : "s", COMPARE_SHIFT_SPREAD,
                  moved == 1 ? "is" : "are");
}
