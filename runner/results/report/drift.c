/* drift.c - see drift.h.
 *
 * In interleaved order a round takes one sample of every trial still short
 * of its repeats (doc/timing.md#how-a-trial-is-timed, Order), so round k is one
 * stretch of the run for all of them.  A sample over its own trial's median
 * takes out what the trials measure; the median of that ratio over the
 * trials is the machine's speed in the round.  On the shared 2-core VM the
 * rounds of `fuse` stepped between two speeds 1.5x apart for seconds at a
 * time (bench/NOTES-stats.md): a sequential trial's samples all fall in one
 * such stretch, and this paragraph shows how far apart the stretches were. */
#include "results/report/drift.h"

#include "base/csv.h"
#include "results/rundir/rundir.h"
#include "stats/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* rounds listed one by one up to this many; past it, the range alone */
#define DRIFT_LIST_MAX 60

typedef struct drift_trial {
    long id;
    double *x; /* x[k]: the trial's sample k (round k), NAN where absent */
    int n;
} drift_trial;

/* The samples of the nt trials in tr from the run's samples table (the
 * last series of each, doc/results.md#results); 0 when it has none or cannot be
 * read. */
static int read_rounds(const char *run_dir, drift_trial *tr, int nt)
{
    csv_table s;
    int present = 0;
    char err[256];
    if (rundir_read_samples(run_dir, &s, &present, err, sizeof err) < 0)
        return 0;
    int ck = present ? csv_col(&s, "sample") : -1, cs = present ? csv_col(&s, "seconds") : -1;
    rundir_by_trial g;
    rundir_group_samples(&s, &g);
    for (int i = 0; ck >= 0 && cs >= 0 && i < nt; i++) {
        drift_trial *t = &tr[i];
        int n;
        const int *rows = rundir_last_series(&s, &g, t->id, &n);
        long cap = 0; /* doubled: a long run does not copy its rounds over and over */
        for (int j = 0; rows && j < n; j++) {
            int r = rows[j];
            if (s.nfields[r] <= (ck > cs ? ck : cs))
                continue;
            char *end;
            long k = strtol(s.rows[r][ck], &end, 10);
            double v = strtod(s.rows[r][cs], NULL);
            if (end == s.rows[r][ck] || *end || k < 0 || k > 1000000 || !isfinite(v) || v <= 0)
                continue;
            if (k >= t->n) {
                if (k >= cap) {
                    cap = k + 1 > 2 * cap ? k + 1 : 2 * cap;
                    t->x = xrealloc(t->x, (size_t)cap * sizeof *t->x);
                }
                for (long q = t->n; q <= k; q++)
                    t->x[q] = NAN;
                t->n = (int)k + 1;
            }
            t->x[k] = v;
        }
    }
    rundir_by_trial_free(&g);
    csv_free(&s);
    return present;
}

void drift_measure(const run_model *m, drift *d)
{
    memset(d, 0, sizeof *d);
    d->lo = d->hi = -1;
    int oc = pm_col(m, "order");
    if (oc < 0)
        return;
    drift_trial *tr = xmalloc((size_t)m->nrows * sizeof *tr + 1);
    int nt = 0, rounds = 0;
    for (int r = 1; r <= m->nrows; r++)
        if (pm_ok(m, r) && !strcmp(pm_cell(m, r, oc), "interleaved"))
            tr[nt++] = (drift_trial){rundir_trial_no(pm_cell(m, r, 0)), NULL, 0};
    if (nt >= DRIFT_MIN_TRIALS && read_rounds(m->dir, tr, nt))
        for (int i = 0; i < nt; i++)
            rounds = tr[i].n > rounds ? tr[i].n : rounds;
    d->trials = nt;
    d->rounds = rounds;
    d->round = xmalloc((size_t)rounds * sizeof *d->round + 1);
    double *ratio = xmalloc((size_t)nt * sizeof *ratio + 1);
    double *med = xmalloc((size_t)nt * sizeof *med + 1);
    for (int i = 0; i < nt; i++)
        med[i] = tr[i].n ? stats_median_copy(tr[i].x, tr[i].n) : NAN;
    for (int k = 0; k < rounds; k++) {
        int n = 0;
        for (int i = 0; i < nt; i++)
            if (k < tr[i].n && isfinite(tr[i].x[k]) && isfinite(med[i]) && med[i] > 0)
                ratio[n++] = tr[i].x[k] / med[i];
        double v = n >= DRIFT_MIN_TRIALS ? stats_median(ratio, n) : NAN;
        d->round[k] = v;
        if (!isfinite(v))
            continue;
        d->judged++;
        if (d->lo < 0 || v < d->round[d->lo])
            d->lo = k;
        if (d->hi < 0 || v > d->round[d->hi])
            d->hi = k;
    }
    for (int i = 0; i < nt; i++)
        free(tr[i].x);
    free(tr);
    free(ratio);
    free(med);
}

double drift_spread(const drift *d)
{
    return d->judged >= DRIFT_MIN_ROUNDS ? d->round[d->hi] / d->round[d->lo] : NAN;
}

void drift_write(strbuf *b, const drift *d)
{
    double spread = drift_spread(d);
    if (!isfinite(spread))
        return;
    sb_printf(b, "\nDrift over the interleaved rounds (the machine's speed as the run went "
                 "on): each round's median, over the %d interleaved trials, of its sample "
                 "over the trial's median",
              d->trials);
    if (d->rounds <= DRIFT_LIST_MAX) {
        sb_puts(b, ", round 0 first:\n\n");
        for (int k = 0; k < d->rounds; k++)
            isfinite(d->round[k]) ? sb_printf(b, "%s%.2f", k ? ", " : "", d->round[k])
                                  : sb_printf(b, "%s-", k ? ", " : "");
        sb_puts(b, "\n\n");
    } else {
        sb_printf(b, " (%d rounds).\n\n", d->rounds);
    }
    sb_printf(b, "The rounds ran from %.2f (round %d) to %.2f (round %d) of the trials' medians",
              d->round[d->lo], d->lo, d->round[d->hi], d->hi);
    if (spread < DRIFT_STEADY)
        sb_printf(b, ": within %.0f %%, the machine held steady while the run went on.\n",
                  (DRIFT_STEADY - 1) * 100);
    else
        sb_printf(b, ", %.2fx apart: the machine's speed moved that much while the run went on. "
                     "Each interleaved median spreads over all of it; a sequential trial, its "
                     "samples taken together, reads one stretch of it, so two sequential trials "
                     "can differ by as much whatever their intervals say.\n",
                  spread);
}

void drift_free(drift *d)
{
    free(d->round);
    d->round = NULL;
}
