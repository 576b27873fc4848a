/* findings.c - see findings.h: what a run's trials say, in words: speedups
 * and crossovers against each baseline, the fastest configuration at each
 * amount of work, noisy and throttled trials, failures and skips. */
#include "results/report/findings.h"
#include "results/report/findings_ceilings.h"

#include "results/rundir/result.h"
#include "results/report/baselines.h"
#include "results/report/plot_crossover.h"
#include "results/report/report_text.h"
#include "base/util.h"
#include "results/rundir/rundir.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NOISY_CV 0.10

static const char *x_word(const run_model *m, int x)
{
    if (x == m->c_size && m->size_means && !strncmp(m->size_means, "n ", 2))
        return "n";
    return m->t.rows[0][x];
}

static void speedup_findings(strbuf *b, const run_model *m, const chart_spec *s, int *said)
{
    chart_data d;
    if (pm_chart_data(m, s, &d) == 0) {
        chart_data_free(&d);
        return;
    }
    const char *xn = x_word(m, d.x);
    double best = -1;
    const char *best_label = NULL;
    double best_x = 0;
    for (int c = 0; c < d.ncurves; c++) {
        const pm_curve *cv = &d.curves[c];
        double *xs = xmalloc(((size_t)cv->n + 1) * sizeof *xs);
        double *ys = xmalloc(((size_t)cv->n + 1) * sizeof *ys);
        for (int i = 0; i < cv->n; i++) {
            xs[i] = cv->p[i].x;
            ys[i] = cv->p[i].y;
            if (ys[i] > best) {
                best = ys[i];
                best_label = cv->label;
                best_x = cv->p[i].x;
            }
        }
        /* a crossover is along an amount of work (doc/results.md#plots-and-reports) */
        if (!d.xcat && !pm_is_config(m, d.x) && cv->n > 0) {
            double *lo = xmalloc(((size_t)cv->n + 1) * sizeof *lo);
            double *hi = xmalloc(((size_t)cv->n + 1) * sizeof *hi);
            int nclear = 0, nfaster = 0;
            for (int i = 0; i < cv->n; i++) {
                lo[i] = isfinite(cv->p[i].slo) ? cv->p[i].slo : ys[i];
                hi[i] = isfinite(cv->p[i].shi) ? cv->p[i].shi : ys[i];
                nfaster += lo[i] > 1 + CROSSOVER_MIN_EFFECT;
                nclear += lo[i] > 1 + CROSSOVER_MIN_EFFECT ||
                          hi[i] * (1 + CROSSOVER_MIN_EFFECT) < 1;
            }
            crossing cr[16];
            int n = find_clear_crossings(xs, ys, lo, hi, cv->n, CROSSOVER_MIN_EFFECT, cr, 16);
            char a[32], z[32];
            sb_puts(b, "- Crossover of ");
            report_md(b, cv->label);
            sb_puts(b, " against ");
            report_md(b, d.baseline_label);
            sb_puts(b, ": ");
            if (n == 0) {
                pm_fmt_num(a, sizeof a, xs[0]);
                pm_fmt_num(z, sizeof z, xs[cv->n - 1]);
                if (nclear == cv->n)
                    sb_printf(b, "none; %s at every %s measured (%s to %s)",
                              nfaster ? "faster" : "slower", xn, a, z);
                else
                    sb_printf(b,
                              "none; %s where the difference is clear, within %.0f %% or the "
                              "confidence intervals at %d of the %d %s measured (%s to %s)",
                              nfaster ? "faster" : nclear ? "slower" : "neither",
                              100 * CROSSOVER_MIN_EFFECT, cv->n - nclear, cv->n, xn, a, z);
            }
            for (int j = 0; j < n && j < 16; j++) {
                pm_fmt_num(a, sizeof a, cr[j].x);
                pm_fmt_num(z, sizeof z, cr[j].x_prev);
                sb_printf(b, "%s%s from %s = %s (%s was the last %s)", j ? "; " : "",
                          cr[j].faster ? "faster" : "slower", xn, a, z,
                          cr[j].faster ? "slower" : "faster");
            }
            sb_puts(b, ".\n");
            *said = 1;
            free(lo);
            free(hi);
        }
        free(xs);
        free(ys);
    }
    if (best_label) {
        int ci = (int)best_x;
        const char *cat = d.xcat && d.cats && ci >= 0 && ci < d.ncats ? d.cats[ci] : "?";
        sb_puts(b, "- Largest speedup: ");
        /* with no series, the x value names the configuration */
        if (d.unlabelled && !d.xcat) {
            char bx[32];
            pm_fmt_num(bx, sizeof bx, best_x);
            sb_printf(b, "%s=%s", m->t.rows[0][d.x], bx);
        } else {
            report_md(b, d.unlabelled ? cat : best_label);
        }
        char rt[32];
        pm_fmt_ratio(rt, sizeof rt, best >= 1 ? best : 1 / best);
        sb_printf(b, " is %sx %s than ", rt, best >= 1 ? "faster" : "slower");
        report_md(b, d.baseline_label);
        if (d.unlabelled) {
            /* said above */
        } else if (d.xcat) {
            sb_printf(b, " at %s = ", m->t.rows[0][d.x]);
            report_md(b, cat);
        } else {
            char bx[32];
            pm_fmt_num(bx, sizeof bx, best_x);
            sb_printf(b, " at %s = %s", xn, bx);
        }
        sb_puts(b, best >= 1 ? ".\n" : " (its best case: the baseline is faster everywhere).\n");
        *said = 1;
    }
    chart_data_free(&d);
}

/* The fastest configuration for each amount of work (doc/results.md#plots-and-reports): the
 * rows are grouped by the swept keys that are not configurations, and
 * ranked by median within each group. */
typedef struct fast_ctx {
    const run_model *m;
    const int *work;
    int nw;
} fast_ctx;

static fast_ctx g_fast; /* qsort has no context argument in C11 */

typedef struct fast_row {
    int row;
    double v;
} fast_row;

/* Orders two rows by their amounts of work (numbers by value). */
static int cmp_work(int r, int s)
{
    const run_model *m = g_fast.m;
    for (int k = 0; k < g_fast.nw; k++) {
        int c = g_fast.work[k];
        double a = pm_num(m, r, c), z = pm_num(m, s, c);
        if (isfinite(a) && isfinite(z) && a != z)
            return a < z ? -1 : 1;
        if (isfinite(a) != isfinite(z))
            return isfinite(a) ? -1 : 1;
        int t = strcmp(pm_cell(m, r, c), pm_cell(m, s, c));
        if (t && !(isfinite(a) && a == z))
            return t;
    }
    return 0;
}

static int cmp_fast(const void *a, const void *b)
{
    const fast_row *p = a, *q = b;
    int c = cmp_work(p->row, q->row);
    return c ? c : CMP_NUM(p->v, q->v);
}

static void fastest(strbuf *b, const run_model *m)
{
    int x = pm_default_x(m);
    int *work = xmalloc(((size_t)m->ncols + 1) * sizeof *work);
    int *conf = xmalloc(((size_t)m->ncols + 1) * sizeof *conf);
    int nw = 0, ncf = 0;
    if (x >= 0 && !pm_is_config(m, x))
        work[nw++] = x;
    for (int c = m->key_first; c <= m->key_last; c++) {
        if (!m->swept[c] || (c == x && nw) || (m->group[c] >= 0 && !m->is_label[c]))
            continue;
        if (pm_is_config(m, c))
            conf[ncf++] = c;
        else
            work[nw++] = c;
    }
    if (ncf == 0 || m->c_median < 0) {
        if (nw > 0) {
            sb_puts(b, "- Every swept key is an amount of work or a measurement setting (");
            report_md_names(b, m, work, nw, "", ", ", "");
            sb_puts(b, "): no configurations to compare.\n");
        }
        free(work);
        free(conf);
        return;
    }
    g_fast = (fast_ctx){m, work, nw};
    fast_row *fr = xcalloc((size_t)m->nrows + 1, sizeof *fr);
    int n = 0;
    for (int r = 1; r <= m->nrows; r++) {
        double v = pm_num(m, r, m->c_median);
        if (pm_ok(m, r) && isfinite(v))
            fr[n++] = (fast_row){.row = r, .v = v};
    }
    xqsort(fr, (size_t)n, sizeof *fr, cmp_fast);
    int compared = 0; /* does any amount of work have two configurations to compare? */
    for (int i = 1; i < n && !compared; i++)
        compared = !cmp_work(fr[i].row, fr[i - 1].row);
    if (n > 0 && !compared) {
        char *l = pm_label(m, fr[0].row, conf, ncf);
        sb_puts(b, "- One configuration ran at each ");
        report_md_names(b, m, work, nw, "", " and ", "");
        if (!nw)
            sb_puts(b, "point");
        sb_puts(b, " (");
        report_md(b, l);
        sb_puts(b, "): nothing to compare.\n");
        free(l);
        n = 0;
    }
    if (n > 0) {
        sb_puts(b, "\nFastest configuration");
        report_md_names(b, m, work, nw, " at each ", " and ", "");
        sb_puts(b, " (median time):\n\n|");
        report_md_names(b, m, work, nw, " ", " ", " |");
        sb_puts(b, " fastest | median | next | median | ratio |\n|");
        for (int k = 0; k < nw; k++)
            sb_puts(b, " ---: |");
        sb_puts(b, " --- | ---: | --- | ---: | ---: |\n");
    }
    for (int i = 0; i < n;) {
        int j = i;
        while (j < n && !cmp_work(fr[j].row, fr[i].row))
            j++;
        char t1[32], t2[32];
        char *l1 = pm_label(m, fr[i].row, conf, ncf);
        report_secs(t1, sizeof t1, fr[i].v);
        sb_puts(b, "|");
        for (int k = 0; k < nw; k++) {
            sb_putc(b, ' ');
            report_md(b, report_num_cell(m, fr[i].row, work[k]));
            sb_puts(b, " |");
        }
        sb_putc(b, ' ');
        report_md(b, l1);
        sb_printf(b, " | %s | ", t1);
        if (j - i > 1) {
            char *l2 = pm_label(m, fr[i + 1].row, conf, ncf);
            report_secs(t2, sizeof t2, fr[i + 1].v);
            report_md(b, l2);
            char rt[32];
            pm_fmt_ratio(rt, sizeof rt, fr[i].v > 0 ? fr[i + 1].v / fr[i].v : NAN);
            sb_printf(b, " | %s | %sx |\n", t2, rt);
            free(l2);
        } else {
            sb_puts(b, "(only one) | | |\n");
        }
        free(l1);
        i = j;
    }
    free(fr);
    free(work);
    free(conf);
}

typedef struct reason_group {
    char *reason;
    int count;
    strbuf trials;
} reason_group;

/* "- trial ID (what it is): ", the head of a list item about one trial */
static void trial_item(strbuf *b, const run_model *m, int r)
{
    char *desc = report_describe(m, r);
    sb_printf(b, "- trial %s (", pm_cell(m, r, 0));
    report_md(b, desc);
    sb_puts(b, "): ");
    free(desc);
}

static void failures(strbuf *b, const run_model *m)
{
    int nfail = 0;
    for (int r = 1; r <= m->nrows; r++) {
        const char *st = pm_cell(m, r, m->c_status);
        if (strcmp(st, "failed") && strcmp(st, "timeout") && strcmp(st, "interrupted"))
            continue;
        if (!nfail++)
            sb_puts(b, "\nFailed trials (left out of the charts):\n\n");
        trial_item(b, m, r);
        sb_printf(b, "%s", st);
        const char *why = pm_cell(m, r, m->c_reason);
        if (*why) {
            sb_puts(b, ": ");
            report_md(b, why);
        }
        sb_puts(b, "\n");
    }
    reason_group *g = NULL;
    int ng = 0;
    for (int r = 1; r <= m->nrows; r++) {
        if (strcmp(pm_cell(m, r, m->c_status), "skipped"))
            continue;
        const char *why = pm_cell(m, r, m->c_reason);
        int k = 0;
        while (k < ng && strcmp(g[k].reason, why))
            k++;
        if (k == ng) {
            XGROW(g, ng);
            g[ng++] = (reason_group){.reason = xstrdup(why)};
        }
        g[k].count++;
        if (g[k].count <= 6) {
            char *desc = report_describe(m, r);
            sb_printf(&g[k].trials, "%s%s", g[k].count > 1 ? "; " : "", desc);
            free(desc);
        } else if (g[k].count == 7) {
            sb_puts(&g[k].trials, "; ...");
        }
    }
    if (ng)
        sb_puts(b, "\nSkipped trials, by reason (left out of the charts):\n\n");
    for (int k = 0; k < ng; k++) {
        sb_printf(b, "- %d trial%s: ", g[k].count, g[k].count == 1 ? "" : "s");
        report_md(b, *g[k].reason ? g[k].reason : "(no reason given)");
        sb_puts(b, " (");
        report_md(b, g[k].trials.s);
        sb_puts(b, ")\n");
        free(g[k].reason);
        sb_free(&g[k].trials);
    }
    free(g);
}

/* Advice for a trial's noise, by its cause (doc/timing.md#measurement-quality;
 * the causes are the parts of cmd_run.c's `noise` column); `moved`: the
 * run's drift over its rounds when the trial is interleaved, else NAN;
 * buf holds the advice that names it. */
static const char *noise_advice(const char *noise, double samples, double moved, char *buf,
                                size_t len)
{
    if (strstr(noise, "spawn-corrected"))
        return "subtract_spawn took off a start as long as the program's own time: the "
               "corrected figure is the start's noise, not the program's; time more work a "
               "call, or a persistent program (doc/own-code.md#per_call)";
    if (strstr(noise, "bimodal"))
        return "two modes: a thread pool waking up, a frequency or power state change, or "
               "contention; more samples will not help: look at the samples table, pin threads, "
               "or change the thread count";
    if (strstr(noise, "shared a CPU"))
        return "the OS ran two of its processes on one CPU though each had its own (a busy or "
               "preempted CPU passed over): a quieter machine would help; more samples dilute "
               "such calls but do not remove them";
    if (strstr(noise, "stall"))
        return "stalls: something else ran (a busy machine, interrupts, swapping); a quieter "
               "machine would help, more samples would not";
    if (strstr(noise, "unsteady warmup"))
        return "it had not reached steady state after its warmup_time; a longer warmup_time "
               "would help";
    if (strstr(noise, "gave up"))
        return samples >= 1000 ? "the spread did not shrink with more samples: a busy machine "
                                 "or drift; a quieter machine would help"
                               : "more time (stop: max_time) would help";
    if (isfinite(moved) && moved >= DRIFT_NOISY) {
        snprintf(buf, len,
                 "the machine's speed moved %.2fx over the run's rounds (Drift, below): a quieter "
                 "machine would help; more repeats average the drift but do not remove it",
                 moved);
        return buf;
    }
    if (samples < 30)
        return "few samples: more repeats would help";
    return "a busy machine; a quieter machine would help";
}

static void noisy(strbuf *b, const run_model *m, const drift *dr)
{
    int n = 0, cn = pm_col(m, "noise"), oc = pm_col(m, "order");
    double moved = dr ? drift_spread(dr) : NAN;
    for (int r = 1; r <= m->nrows; r++) {
        double sd = pm_num(m, r, m->c_stddev), mean = pm_num(m, r, m->c_mean);
        const char *noise = cn >= 0 ? pm_cell(m, r, cn) : "";
        /* listed: a CV above NOISY_CV, or a noise cause other than spread
         * alone (bimodal, stalls, gave up, unsteady warmup, processes
         * that shared a CPU) */
        int cause = strstr(noise, "bimodal") || strstr(noise, "stall") ||
                    strstr(noise, "gave up") || strstr(noise, "unsteady") ||
                    strstr(noise, "shared a CPU") || strstr(noise, "spawn-corrected");
        int high = isfinite(sd) && mean > 0 && sd / mean > NOISY_CV;
        if (!pm_ok(m, r) || (!high && !cause))
            continue;
        if (!n++)
            sb_printf(b, "\nNoisy trials (coefficient of variation, stddev / mean, above %.0f %%, "
                         "or a cause in the noise column), with what would help:\n\n",
                      NOISY_CV * 100);
        char *desc = report_describe(m, r);
        char lo[32], med[32], hi[32];
        report_secs(lo, sizeof lo, pm_num(m, r, m->c_min));
        report_secs(med, sizeof med, pm_num(m, r, m->c_median));
        report_secs(hi, sizeof hi, pm_num(m, r, m->c_max));
        /* the noise column's spread ("cv 7.2%, mad 0.4%") is said once,
         * in words; its other parts follow */
        double rmad = NAN;
        const char *rest = noise;
        if (sscanf(noise, "cv %*f%%, mad %lf%%", &rmad) == 1) {
            rest = strstr(noise, "; ");
            rest = rest ? rest + 2 : "";
        }
        sb_printf(b, "- trial %s (", pm_cell(m, r, 0));
        report_md(b, desc);
        sb_puts(b, "): ");
        if (isfinite(sd) && mean > 0)
            sb_printf(b, "CV %.1f %%, ", 100 * sd / mean);
        if (isfinite(rmad))
            sb_printf(b, "robust spread %.1f %% (1.4826 MAD / median), ", rmad);
        sb_printf(b, "%s samples (min %s, median %s, max %s)", pm_cell(m, r, m->c_samples), lo, med,
                  hi);
        if (*rest) {
            sb_puts(b, "; ");
            report_md(b, rest);
        }
        char advice[256];
        int interleaved = oc >= 0 && !strcmp(pm_cell(m, r, oc), "interleaved");
        sb_printf(b, ": %s\n",
                  noise_advice(noise, pm_num(m, r, m->c_samples), interleaved ? moved : NAN,
                               advice, sizeof advice));
        free(desc);
    }
    if (!n)
        sb_printf(
            b, "\nNo noisy trial: every ok trial's coefficient of variation is at most %.0f %%.\n",
            NOISY_CV * 100);
    /* trials run on a busy machine (doc/timing.md#load) */
    int nc = pm_col(m, "noise"), busy = 0;
    for (int r = 1; nc >= 0 && r <= m->nrows; r++) {
        const char *v = pm_cell(m, r, nc), *w = strstr(v, "busy: ");
        if (!pm_ok(m, r) || !w)
            continue;
        if (!busy++)
            sb_puts(b, "\nTrials run on a busy machine (other processes or the hypervisor took "
                       "CPU time during the trial; their times may be inflated):\n\n");
        trial_item(b, m, r);
        report_md(b, w + 6);
        sb_puts(b, "\n");
    }
}

/* Warnings about the throttle check (doc/timing.md#measurement-quality): trials
 * that kept samples taken while the device was throttled, and trials whose
 * check was off.  Nothing is said when there are none. */
static void throttle_warnings(strbuf *b, const run_model *m)
{
    int kept = pm_col(m, "throttled_kept"), off = pm_col(m, "throttle_check");
    int n = 0;
    for (int r = 1; r <= m->nrows; r++) {
        const char *k = pm_cell(m, r, kept), *o = pm_cell(m, r, off);
        if (!*k && !*o)
            continue;
        if (!n++)
            sb_puts(b, "\nWarnings about the throttle check:\n\n");
        trial_item(b, m, r);
        if (*k) {
            sb_puts(b, "kept ");
            report_md(b, k);
            sb_puts(b, " samples taken while the device was throttled");
        }
        if (*o) {
            sb_puts(b, *k ? "; throttle check " : "throttle check ");
            report_md(b, o);
        }
        sb_puts(b, "\n");
    }
}

void report_findings(strbuf *b, const run_model *m, const experiment *e, const drift *dr)
{
    int said = 0;
    chart_spec *defs;
    int nd = pm_default_charts(m, &defs);
    for (int i = 0; i < nd; i++)
        if (defs[i].type == CH_SPEEDUP)
            speedup_findings(b, m, &defs[i], &said);
    if (e && e->plots_given) {
        chart_spec *fc;
        int nf = pm_file_charts(m, e, &fc, NULL, 0);
        for (int i = 0; i < nf; i++) {
            int dup = 0;
            for (int k = 0; k < nd && !dup; k++)
                dup = defs[k].type == CH_SPEEDUP && fc[i].nbaseline == 1 &&
                      fc[i].baseline[0].col == defs[k].baseline[0].col &&
                      fc[i].baseline[0].nvals == 1 && !strcmp(fc[i].baseline[0].vals[0], "cpu") &&
                      !fc[i].series_given && !fc[i].nwhere;
            if (fc[i].type == CH_SPEEDUP && !dup)
                speedup_findings(b, m, &fc[i], &said);
            chart_spec_free(&fc[i]);
        }
        free(fc);
    }
    /* the obvious baselines (threads: 1, fused: false) no speedup chart
     * of the file divides by */
    chart_spec *ob;
    int no = pm_obvious_baselines(m, &ob);
    for (int i = 0; i < no; i++) {
        int named = 0;
        for (int k = 0; e && k < e->nplots && !named; k++)
            for (int j = 0; j < e->plots[k].nbaseline && !named; j++)
                named = !strcmp(e->plots[k].type, "speedup") &&
                        !strcmp(e->cols[e->plots[k].baseline[j].column].name,
                                m->t.rows[0][ob[i].baseline[0].col]);
        if (!named)
            speedup_findings(b, m, &ob[i], &said);
        chart_spec_free(&ob[i]);
    }
    free(ob);
    for (int i = 0; i < nd; i++)
        chart_spec_free(&defs[i]);
    free(defs);
    if (!said)
        sb_puts(b, "- No speedup to report: no speedup chart in the file, and no obvious "
                    "baseline (ok trials on the CPU and on a CUDA device, or threads or fused "
                    "swept over 1 or false and another value).\n");
    fastest(b, m);
    ceiling_findings(b, m); /* doc/ceilings.md */
    noisy(b, m, dr);
    throttle_warnings(b, m);
    failures(b, m);
}
