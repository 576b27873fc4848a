/* test_changepoint.c - the change point detector (results/history/changepoint.h,
 * doc/history.md#change-points) and its calibration: on simulated A/A
 * histories of 60 runs it reports a false change point in at most 5 % of
 * series; a 10 % step at run 30 at 2 % noise is found within 2 runs of it
 * in at least 90 % of them.  The noise is that of real runs: log-normal
 * run-to-run noise plus runs on a busy machine (1 in 10 here, each 5-30 %
 * slower).  Seeded, a few hundred series: it takes milliseconds. */
#include "results/history/changepoint.h"

#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static double u01(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (double)(rng >> 11) * (1.0 / 9007199254740992.0);
}

static double gauss(void)
{
    double u = u01(), v = u01();
    return sqrt(-2 * log(u > 1e-300 ? u : 1e-300)) * cos(2 * M_PI * v);
}

/* A history of n runs of a 1 ms trial: noise sigma, busy runs, a step
 * of `step` from run `at` on. */
static void simulate(double *y, int n, double sigma, double busy, double step, int at)
{
    for (int i = 0; i < n; i++) {
        double e = sigma * gauss();
        if (u01() < busy)
            e += log(1.05 + 0.25 * u01());
        y[i] = 1e-3 * exp(e) * (i >= at ? 1 + step : 1);
    }
}

enum { SERIES = 300, RUNS = 60 };

Test(changepoint, calibrated_on_simulated_aa_histories)
{
    const double sigmas[] = {0.01, 0.02, 0.05};
    double y[RUNS];
    for (int s = 0; s < 3; s++) {
        int false_alarms = 0;
        for (int k = 0; k < SERIES; k++) {
            simulate(y, RUNS, sigmas[s], 0.10, 0, 0);
            changepoint *c;
            false_alarms += changepoints_find(y, RUNS, 0, &c) > 0;
            free(c);
        }
        cr_log_info("A/A at %.0f %% noise: %d of %d series with a false change point", 100 * sigmas[s],
                    false_alarms, SERIES);
        cr_assert_leq(false_alarms, SERIES * 5 / 100, "%d of %d at sigma %g", false_alarms, SERIES,
                      sigmas[s]);
    }
}

Test(changepoint, a_10pct_step_at_2pct_noise_is_found_where_it_is)
{
    double y[RUNS];
    int found = 0, sized = 0, covered = 0;
    for (int k = 0; k < SERIES; k++) {
        simulate(y, RUNS, 0.02, 0.10, 0.10, 30);
        changepoint *c;
        int n = changepoints_find(y, RUNS, 0, &c), hit = 0;
        for (int i = 0; i < n; i++)
            if (abs(c[i].at - 30) <= 2) {
                hit = 1;
                /* the step's size and its interval (a busy run next to the
                 * step may make a short segment of its own: not every time) */
                sized += c[i].step > 0.05 && c[i].step < 0.15;
                covered += c[i].step_lo <= 0.10 && 0.10 <= c[i].step_hi;
                cr_assert(c[i].step_lo <= c[i].step && c[i].step <= c[i].step_hi);
            }
        found += hit;
        free(c);
    }
    cr_log_info("10 %% step at 2 %% noise: found within 2 runs in %d of %d series", found, SERIES);
    cr_assert_geq(found, SERIES * 90 / 100, "%d of %d", found, SERIES);
    cr_log_info("its size within 5 points of 10 %% in %d, its interval covering 10 %% in %d", sized,
                covered);
    cr_assert_geq(sized, found * 90 / 100, "%d of %d", sized, found);
    cr_assert_geq(covered, found * 90 / 100, "%d of %d", covered, found);
}

Test(changepoint, steps_both_ways_and_short_series)
{
    double y[80];
    for (int i = 0; i < 80; i++)
        y[i] = (i < 20 ? 1.0 : i < 50 ? 1.5 : 1.2) * (1 + 0.01 * ((i * 7) % 5 - 2));
    changepoint *c;
    int n = changepoints_find(y, 80, 0, &c);
    cr_assert_eq(n, 2);
    cr_assert_eq(c[0].at, 20);
    cr_assert_eq(c[1].at, 50);
    cr_assert(fabs(c[0].step - 0.5) < 0.03, "%g", c[0].step);
    cr_assert(fabs(c[1].step - (1.2 / 1.5 - 1)) < 0.03, "%g", c[1].step);
    free(c);
    /* equal values: no change; too short a series: none looked for */
    for (int i = 0; i < 80; i++)
        y[i] = 2.0;
    cr_assert_eq(changepoints_find(y, 80, 0, &c), 0);
    cr_assert_null(c);
    cr_assert_eq(changepoints_find(y, 2 * CHANGEPOINT_MIN_SEGMENT - 1, 0, &c), 0);
    /* the noise of a constant series is 0, of a noisy one its sigma */
    cr_assert_eq(changepoint_noise(y, 80), 0);
    double z[2000];
    rng = 7;
    simulate(z, 2000, 0.03, 0, 0, 0);
    cr_assert(fabs(changepoint_noise(z, 2000) - 0.03) < 0.004, "%g", changepoint_noise(z, 2000));
}
