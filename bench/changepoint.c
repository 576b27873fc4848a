/* changepoint.c - the battery of bench/changepoint.sh (doc/history.md#change-points,
 * doc/history.md#runner-gate): seeded series of run medians under several
 * noise models and changes, fed to the change point detector and the gate's
 * judgement, and the rates they give.  A benchmark, not a test. */
#include "results/history/changepoint.h"
#include "results/history/gate_stats.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rng;

static double u01(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return ((double)(rng >> 11) + 0.5) * (1.0 / 9007199254740992.0);
}

static double gauss(void)
{
    return sqrt(-2 * log(u01())) * cos(2 * M_PI * u01());
}

enum { LN1, LN3, LN10, OUTLIER, TWO50, TWO80, QUANT, NMODELS };
static const char *const model_name[] = {"log-normal 1 %", "log-normal 3 %", "log-normal 10 %",
                                         "outliers (1 in 20, +30-100 %)", "two modes 50/50 (+30 %)",
                                         "two modes 80/20 (+30 %)", "quantised (1 ms ticks, ~10 ms)"};

/* One run's median under model m, its true level `level` (relative). */
static double draw(int m, double level)
{
    switch (m) {
    case LN1: return 1e-3 * level * exp(0.01 * gauss());
    case LN3: return 1e-3 * level * exp(0.03 * gauss());
    case LN10: return 1e-3 * level * exp(0.10 * gauss());
    case OUTLIER: {
        double v = 1e-3 * level * exp(0.01 * gauss());
        return u01() < 0.05 ? v * (1.3 + 0.7 * u01()) : v;
    }
    case TWO50: return 1e-3 * level * exp(0.01 * gauss()) * (u01() < 0.5 ? 1.3 : 1);
    case TWO80: return 1e-3 * level * exp(0.01 * gauss()) * (u01() < 0.2 ? 1.3 : 1);
    default: {
        double v = 10.45e-3 * level * exp(0.03 * gauss());
        return fmax(1e-3, floor(v / 1e-3 + 0.5) * 1e-3);
    }
    }
}

enum { S_NONE, S_P5, S_P10, S_P25, S_M10, S_BACK, S_TWO, S_DRIFT, S_LAST4, S_LAST3, NSCEN };
static const char *const scen_name[] = {"no step", "+5 %", "+10 %", "+25 %", "-10 %",
                                        "+10 % and back", "two steps of +10 %", "drift +10 %",
                                        "+10 %, 4 runs after", "+25 %, 3 runs after"};

/* The true levels of scenario s over n runs; the true change points in cp. */
static int levels(int s, int n, double *lv, int *cp)
{
    int k = 0, back = n / 4 > 8 ? n / 4 : 8;
    for (int i = 0; i < n; i++)
        lv[i] = 1;
    switch (s) {
    case S_P5: case S_P10: case S_P25: case S_M10: {
        double st = s == S_P5 ? 0.05 : s == S_P10 ? 0.10 : s == S_P25 ? 0.25 : -0.10;
        for (int i = n / 2; i < n; i++)
            lv[i] = 1 + st;
        cp[k++] = n / 2;
        break;
    }
    case S_BACK:
        for (int i = n / 2 - back / 2; i < n / 2 - back / 2 + back; i++)
            lv[i] = 1.1;
        cp[k++] = n / 2 - back / 2;
        cp[k++] = n / 2 - back / 2 + back;
        break;
    case S_TWO:
        for (int i = n / 3; i < n; i++)
            lv[i] = i < 2 * n / 3 ? 1.1 : 1.21;
        cp[k++] = n / 3;
        cp[k++] = 2 * n / 3;
        break;
    case S_DRIFT:
        for (int i = 0; i < n; i++)
            lv[i] = 1 + 0.1 * i / (n - 1);
        break;
    case S_LAST4:
        for (int i = n - 4; i < n; i++)
            lv[i] = 1.1;
        cp[k++] = n - 4;
        break;
    case S_LAST3:
        for (int i = n - 3; i < n; i++)
            lv[i] = 1.25;
        break; /* not yet a change: it waits for a fourth run */
    }
    return k;
}

static int series = 200;

static void changepoint_tables(void)
{
    static const int lens[] = {20, 50, 200};
    double y[200], lv[200];
    int cpt[4];
    printf("## Change points (%d series a case; recall: a true change found within 2 runs)\n\n",
           series);
    printf("| noise | change | runs | false per 100 series | recall | precision | location error "
           "| printed with 0 in the interval |\n| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |\n");
    for (int m = 0; m < NMODELS; m++)
        for (int s = 0; s < NSCEN; s++)
            for (int li = 0; li < 3; li++) {
                int n = lens[li];
                rng = 0x9e3779b97f4a7c15ull ^ (uint64_t)(m * 1000 + s * 10 + li + 1) * 0x2545F4914F6CDD1Dull;
                long reported = 0, matched = 0, truth = 0, found = 0, zero = 0, extra = 0;
                double err = 0;
                for (int k = 0; k < series; k++) {
                    int nt = levels(s, n, lv, cpt);
                    for (int i = 0; i < n; i++)
                        y[i] = draw(m, lv[i]);
                    changepoint *c;
                    int nc = changepoints_find(y, n, 0, &c);
                    reported += nc;
                    truth += nt;
                    for (int i = 0; i < nc; i++) {
                        zero += c[i].step_lo <= 0 && c[i].step_hi >= 0;
                        int hit = 0;
                        for (int t = 0; t < nt; t++)
                            if (abs(c[i].at - cpt[t]) <= 2) {
                                hit = 1;
                                err += abs(c[i].at - cpt[t]);
                            }
                        matched += hit;
                        extra += !hit;
                    }
                    for (int t = 0; t < nt; t++) {
                        int hit = 0;
                        for (int i = 0; i < nc; i++)
                            hit |= abs(c[i].at - cpt[t]) <= 2;
                        found += hit;
                    }
                    free(c);
                }
                char rec[32] = "-", prec[32] = "-", loc[32] = "-", fals[32];
                if (truth)
                    snprintf(rec, sizeof rec, "%.1f %%", 100.0 * found / truth);
                if (reported && truth)
                    snprintf(prec, sizeof prec, "%.1f %%", 100.0 * matched / reported);
                if (matched)
                    snprintf(loc, sizeof loc, "%.2f", err / matched);
                /* with no true change (no step, drift, 3 runs after), every one is false */
                snprintf(fals, sizeof fals, "%.1f", 100.0 * (truth ? extra : reported) / series);
                printf("| %s | %s | %d | %s | %s | %s | %s | %ld |\n", model_name[m], scen_name[s], n,
                       fals, rec, prec, loc, zero);
            }
    printf("\n");
}

static void gate_tables(void)
{
    static const int hist[] = {3, 5, 10, 30};
    static const double steps[] = {0, 0.05, 0.10, 0.25};
    const int trials = 20 * series;
    double y[64];
    printf("## The gate (%d judgements a case, one trial, alpha 5 %%; inconclusive: detectable "
           "change over 10 %%)\n\n",
           trials);
    printf("| noise | earlier runs | change | slower (false alarm / found) | inconclusive | median "
           "detectable |\n| --- | ---: | --- | ---: | ---: | ---: |\n");
    for (int m = 0; m < NMODELS; m++)
        for (int hi = 0; hi < 4; hi++)
            for (int si = 0; si < 4; si++) {
                int n = hist[hi];
                if (si > 0 && n != 10)
                    continue; /* misses: at 10 earlier runs */
                rng = 0xda942042e4dd58b5ull ^ (uint64_t)(m * 100 + hi * 10 + si + 1) * 0x9E3779B97F4A7C15ull;
                int slower = 0, blind = 0;
                double *det = malloc((size_t)trials * sizeof *det);
                for (int k = 0; k < trials; k++) {
                    for (int i = 0; i < n; i++)
                        y[i] = draw(m, 1);
                    double now = draw(m, 1 + steps[si]);
                    gate_stat g;
                    gate_stat_compute(y, n, 1, 0.05, 0, &g);
                    det[k] = g.detectable;
                    int v = gate_stat_judge(&g, now);
                    if (v > 0)
                        slower++;
                    else if (v == 0 && g.detectable > 0.10)
                        blind++;
                }
                /* the median detectable change */
                for (int i = 1; i < trials; i++)
                    for (int j = i; j > 0 && det[j - 1] > det[j]; j--) {
                        double t = det[j];
                        det[j] = det[j - 1];
                        det[j - 1] = t;
                    }
                char chg[16];
                snprintf(chg, sizeof chg, si ? "+%.0f %%" : "none", 100 * steps[si]);
                printf("| %s | %d | %s | %.1f %% | %.1f %% | ±%.1f %% |\n", model_name[m], n, chg,
                       100.0 * slower / trials, 100.0 * blind / trials, 100 * det[trials / 2]);
                free(det);
            }
    printf("\n");
}

/* One rate of the gate: slower verdicts in `trials` judgements of model m
 * with n earlier runs, the new run `step` away, at alpha. */
static double gate_rate(int m, int n, double step, double alpha, int trials)
{
    double y[64];
    int slower = 0;
    rng = 0x51ed2701a3c4b5e7ull ^ (uint64_t)(m * 1000 + n * 10 + (int)(step * 100) + 1);
    for (int k = 0; k < trials; k++) {
        for (int i = 0; i < n; i++)
            y[i] = draw(m, 1);
        gate_stat g;
        gate_stat_compute(y, n, 1, alpha, 0, &g);
        slower += gate_stat_judge(&g, draw(m, 1 + step)) > 0;
    }
    return 100.0 * slower / trials;
}

/* What the gate's alpha trades: outlier runs and a rare slow mode unseen in
 * the history against misses of a real +10 %. */
static void trade_off(void)
{
    static const double alphas[] = {0.05, 0.02, 0.01};
    const int trials = 20 * series;
    printf("## The gate's alpha: false alarms against misses (%d judgements a case)\n\n", trials);
    printf("| alpha | outliers, 5 earlier | outliers, 10 | two modes 80/20, 10 | log-normal 3 %%, 10 "
           "| misses: +10 %% at 3 %%, 10 earlier |\n| ---: | ---: | ---: | ---: | ---: | ---: |\n");
    for (int a = 0; a < 3; a++)
        printf("| %.2f | %.1f %% | %.1f %% | %.1f %% | %.1f %% | %.1f %% |\n", alphas[a],
               gate_rate(OUTLIER, 5, 0, alphas[a], trials), gate_rate(OUTLIER, 10, 0, alphas[a], trials),
               gate_rate(TWO80, 10, 0, alphas[a], trials), gate_rate(LN3, 10, 0, alphas[a], trials),
               100 - gate_rate(LN3, 10, 0.10, alphas[a], trials));
    printf("\n");
}

int main(int argc, char **argv)
{
    if (argc > 1)
        series = atoi(argv[1]) > 0 ? atoi(argv[1]) : series;
    changepoint_tables();
    gate_tables();
    trade_off();
    return 0;
}
