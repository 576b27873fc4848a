/* change.c - see change.h. */
#include "stats/change.h"

#include "base/util.h"
#include "stats/quantile.h"

#include <math.h>
#include <stdlib.h>

/* One run: its centre, and its within-cell sum of squares, degrees of
 * freedom and variance factor (var(centre) = s^2 * factor). 0 when it
 * has no usable block. */
typedef struct run_fit {
    double centre, ss, df, factor;
} run_fit;

static int fit_run(const change_run *r, int use_cells, run_fit *f)
{
    int n = 0, cells[64], ncell = 0, count[64];
    double sum[64];
    for (int i = 0; i < r->n; i++) {
        if (!(r->med[i] > 0) || !isfinite(r->med[i]))
            continue;
        int c = use_cells && r->cell ? r->cell[i] : -1, k;
        for (k = 0; k < ncell && cells[k] != c; k++)
            ;
        if (k == ncell) {
            if (ncell == 64)
                continue;
            cells[ncell] = c;
            count[ncell] = 0;
            sum[ncell++] = 0;
        }
        count[k]++;
        sum[k] += log(r->med[i]);
        n++;
    }
    if (!n)
        return 0;
    if (use_cells && n - ncell < 1 && ncell > 1)
        return fit_run(r, 0, f); /* one block a CPU: the CPUs' gap is noise */
    f->centre = f->ss = f->factor = 0;
    for (int k = 0; k < ncell; k++) {
        f->centre += sum[k] / count[k] / ncell;
        f->factor += 1.0 / count[k] / ((double)ncell * ncell);
    }
    for (int i = 0; i < r->n; i++) {
        if (!(r->med[i] > 0) || !isfinite(r->med[i]))
            continue;
        int c = use_cells && r->cell ? r->cell[i] : -1, k;
        for (k = 0; k < ncell && cells[k] != c; k++)
            ;
        if (k == ncell)
            continue;
        double d = log(r->med[i]) - sum[k] / count[k];
        f->ss += d * d;
    }
    f->df = n - ncell;
    return 1;
}

typedef struct side_fit {
    int nruns;
    double centre, factor_sum, between, between_df;
} side_fit;

static void fit_side(const change_run *runs, int n, int use_cells, side_fit *s, double *ss,
                     double *df)
{
    run_fit *f = xcalloc((size_t)n + 1, sizeof *f);
    s->nruns = 0;
    s->centre = s->factor_sum = 0;
    for (int r = 0; r < n; r++)
        if (fit_run(&runs[r], use_cells, &f[s->nruns])) {
            *ss += f[s->nruns].ss;
            *df += f[s->nruns].df;
            s->centre += f[s->nruns].centre;
            s->factor_sum += f[s->nruns].factor;
            s->nruns++;
        }
    s->between = NAN;
    s->between_df = 0;
    if (s->nruns) {
        s->centre /= s->nruns;
        if (s->nruns >= 2) {
            double v = 0;
            for (int r = 0; r < s->nruns; r++)
                v += (f[r].centre - s->centre) * (f[r].centre - s->centre);
            s->between = v / (s->nruns - 1) / s->nruns;
            s->between_df = s->nruns - 1;
        }
    }
    free(f);
}

/* The test of a difference of log centres diff with standard error se
 * and dof degrees of freedom: its p-value and the detectable change. */
static void judge_difference(change_est *est, double diff, double se, double dof)
{
    est->se = se;
    est->df = dof;
    if (se > 0) {
        est->p = 2.0 * (1.0 - stats_t_cdf(fabs(diff) / se, dof));
        est->detectable = exp(stats_t_quantile(0.975, dof) * se) - 1.0;
    } else { /* identical blocks: any change is seen */
        est->p = diff != 0 ? 0.0 : 1.0;
        est->detectable = 0;
    }
}

/* A block's log median and CPU, for sorting a side's blocks. */
typedef struct mode_block {
    double x;
    int cell;
} mode_block;

static int cmp_block(const void *a, const void *b)
{
    return CMP_NUM(((const mode_block *)a)->x, ((const mode_block *)b)->x);
}

/* A side's two modes (change.h): mean[0], ss[0] and k[0] of the fast one,
 * mean[1], ss[1] and k[1] of the blocks beyond the gap (log medians);
 * CHANGE_MODE_MIN or more blocks in each.  0 when the side shows no such
 * gap, or when its modes are its CPUs (no CPU ran blocks in both): then the
 * cells of fit_run see them. */
static int two_modes(const change_run *runs, int nruns, double mean[2], double ss[2], int k[2],
                     int *gap)
{
    int total = 0, n = 0, cut = 0;
    for (int r = 0; r < nruns; r++)
        total += runs[r].n > 0 ? runs[r].n : 0;
    mode_block *b = xmalloc(((size_t)total + 1) * sizeof *b);
    for (int r = 0; r < nruns; r++)
        for (int i = 0; i < runs[r].n; i++)
            if (runs[r].med[i] > 0 && isfinite(runs[r].med[i]))
                b[n++] = (mode_block){log(runs[r].med[i]), runs[r].cell ? runs[r].cell[i] : -1};
    xqsort(b, (size_t)n, sizeof *b, cmp_block);
    for (int i = CHANGE_MODE_MIN; i <= n - CHANGE_MODE_MIN; i++)
        if (b[i].x - b[i - 1].x > log(CHANGE_MODE_GAP)) {
            if (b[i - 1].x - b[0].x < log(CHANGE_MODE_WIDTH))
                cut = i;
            break;
        }
    *gap = cut > 0;
    int mixed = 0;
    for (int i = 0; i < cut && !mixed; i++)
        for (int j = cut; j < n && !mixed; j++)
            mixed = b[i].cell == b[j].cell;
    if (!mixed)
        cut = 0;
    k[0] = cut;
    k[1] = cut ? n - cut : 0;
    for (int m = 0; m < 2; m++) {
        const mode_block *x = b + (m ? cut : 0);
        mean[m] = ss[m] = 0;
        for (int i = 0; i < k[m]; i++)
            mean[m] += x[i].x / k[m];
        for (int i = 0; i < k[m]; i++)
            ss[m] += (x[i].x - mean[m]) * (x[i].x - mean[m]);
    }
    free(b);
    return cut > 0;
}

/* The sides compared mode by mode (change.h): in each mode the difference
 * of the sides' mean log medians over the spread inside that mode; the two
 * differences weighted by their precision, Welch-Satterthwaite degrees of
 * freedom.  0 when a side has no two modes. */
static int compare_modes(const change_run *old, int nold, const change_run *new_runs, int nnew,
                         change_est *est, int gap[2])
{
    double mo[2], so[2], mn[2], sn[2];
    int ko[2], kn[2];
    int a = two_modes(old, nold, mo, so, ko, &gap[0]);
    int b = two_modes(new_runs, nnew, mn, sn, kn, &gap[1]);
    if (!a || !b)
        return 0;
    double d[2], v[2], df[2];
    for (int m = 0; m < 2; m++) {
        df[m] = ko[m] + kn[m] - 2;
        d[m] = mn[m] - mo[m];
        v[m] = (so[m] + sn[m]) / df[m] * (1.0 / ko[m] + 1.0 / kn[m]);
    }
    est->by_modes = 1;
    est->old_fast = ko[0];
    est->old_blocks = ko[0] + ko[1];
    est->new_fast = kn[0];
    est->new_blocks = kn[0] + kn[1];
    est->old_centre = exp(mo[0]);
    est->new_centre = exp(mn[0]);
    double diff, var, dof;
    if (!(v[0] > 0) || !(v[1] > 0)) { /* identical blocks in a mode: it decides */
        int m = v[0] > 0 ? 1 : 0;
        diff = d[m];
        var = 0;
        dof = df[m];
    } else {
        double w0 = 1.0 / v[0], w1 = 1.0 / v[1], wsum = w0 + w1;
        diff = (w0 * d[0] + w1 * d[1]) / wsum;
        var = 1.0 / wsum;
        double c0 = w0 / wsum * v[0] * w0 / wsum, c1 = w1 / wsum * v[1] * w1 / wsum;
        dof = var * var / (c0 * c0 / df[0] + c1 * c1 / df[1]);
    }
    est->ratio = exp(diff);
    judge_difference(est, diff, sqrt(var), dof);
    return 1;
}

int change_estimate(const change_run *old, int nold, const change_run *new_runs, int nnew,
                    change_est *est)
{
    return change_estimate_known(old, nold, new_runs, nnew, NAN, 0, est);
}

int change_estimate_known(const change_run *old, int nold, const change_run *new_runs, int nnew,
                          double run_sd, double run_df, change_est *est)
{
    est->old_centre = est->new_centre = est->ratio = est->se = est->df = est->p = NAN;
    est->detectable = INFINITY;
    est->by_runs = est->by_history = est->by_modes = 0;
    est->old_fast = est->old_blocks = est->new_fast = est->new_blocks = 0;
    int gap[2];
    if (compare_modes(old, nold, new_runs, nnew, est, gap))
        return 0;
    /* one side in two speeds, the other in one: which of the two the other
     * is in, nothing says, so the CPU cells must not take the two speeds
     * for steady CPU speeds and leave them out of the noise
     * (doc/compare.md#two-speed-modes) */
    int use_cells = gap[0] == gap[1];
    side_fit o, w;
    double ss = 0, df = 0;
    fit_side(old, nold, use_cells, &o, &ss, &df);
    fit_side(new_runs, nnew, use_cells, &w, &ss, &df);
    if (!o.nruns || !w.nruns)
        return -1;
    est->old_centre = exp(o.centre);
    est->new_centre = exp(w.centre);
    est->ratio = exp(w.centre - o.centre);
    double s2 = df > 0 ? ss / df : NAN;
    /* each side: the within-run variance of its centre, or its runs' spread when larger */
    double v[2], d[2];
    const side_fit *sf[2] = {&o, &w};
    int within[2];
    for (int i = 0; i < 2; i++) {
        double vw = isfinite(s2) ? s2 * sf[i]->factor_sum / ((double)sf[i]->nruns * sf[i]->nruns)
                                 : NAN;
        within[i] = 1;
        v[i] = vw;
        d[i] = df;
        /* the runs' spread only where their blocks cannot explain it: a
         * side's runs disagree beyond chance (doc/compare.md#what-one-run-can-show) */
        if (isfinite(sf[i]->between) &&
            (!isfinite(vw) || (sf[i]->between > vw &&
                               stats_f_sf(sf[i]->between / vw, sf[i]->between_df, df) <
                                   CHANGE_RUNS_ALPHA))) {
            v[i] = sf[i]->between;
            d[i] = sf[i]->between_df;
            within[i] = 0;
            est->by_runs = 1;
        }
    }
    /* a run's centre varies from run to run at least as much as earlier
     * runs' did (doc/compare.md#what-one-run-can-show) */
    for (int i = 0; i < 2; i++)
        if (run_sd > 0 && isfinite(run_sd) && run_df > 0) {
            double vh = run_sd * run_sd / sf[i]->nruns;
            if (!(v[i] >= vh)) {
                v[i] = vh;
                d[i] = run_df;
                within[i] = 0;
                est->by_history = 1;
            }
        }
    if (!isfinite(v[0]) || !isfinite(v[1]))
        return 0; /* no noise estimate: nothing could be detected */
    double var = v[0] + v[1];
    double dof;
    if (within[0] && within[1])
        dof = df;
    else {
        double den = 0;
        for (int i = 0; i < 2; i++)
            den += d[i] > 0 ? v[i] * v[i] / d[i] : 0;
        dof = den > 0 ? var * var / den : 0;
    }
    if (!(dof > 0))
        return 0;
    judge_difference(est, w.centre - o.centre, sqrt(var), dof);
    return 0;
}
