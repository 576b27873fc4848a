/* test_stats.c - statistics, adaptive stopping, batching, outliers. */
#include "stats.h"

#include <criterion/criterion.h>
#include <math.h>

Test(stats, summary_of_known_samples)
{
    double x[] = {3, 1, 2, 5, 4};
    stats s;
    stats_compute(x, 5, &s);
    cr_assert_eq(s.n, 5);
    cr_assert_float_eq(s.min, 1, 1e-12);
    cr_assert_float_eq(s.median, 3, 1e-12);
    cr_assert_float_eq(s.mean, 3, 1e-12);
    cr_assert_float_eq(s.stddev, sqrt(2.5), 1e-12);
    cr_assert_float_eq(s.max, 5, 1e-12);
    /* t(0.975, 4) = 2.776: 3 +- 2.776 * sqrt(2.5) / sqrt(5) */
    cr_assert_float_eq(s.ci95_low, 3 - 2.776 * sqrt(0.5), 1e-9);
    cr_assert_float_eq(s.ci95_high, 3 + 2.776 * sqrt(0.5), 1e-9);
}

Test(stats, even_count_median_and_nan_ignored)
{
    double x[] = {4, NAN, 1, 3, 2};
    cr_assert_float_eq(stats_median(x, 5), 2.5, 1e-12);
    double none[] = {NAN};
    cr_assert(isnan(stats_median(none, 1)));
}

Test(stats, t_quantiles)
{
    cr_assert_float_eq(t975(1), 12.706, 1e-9);
    cr_assert_float_eq(t975(30), 2.042, 1e-9);
    cr_assert(fabs(t975(60) - 2.000) < 2e-3);
    cr_assert(fabs(t975(100000) - 1.960) < 1e-3);
}

/* Feeds a synthetic stream through stop_reason, as the worker does. */
static const char *stream(const double *x, int len, double rse, int min_n, int max_n,
                          double min_t, double max_t, double dt, int *taken)
{
    double mean = 0, m2 = 0, measured = 0;
    for (int n = 1; n <= len; n++) {
        double v = x[(n - 1) % len];
        double d = v - mean;
        mean += d / n;
        m2 += d * (v - mean);
        measured += v;
        const char *r = stop_reason(rse, min_n, max_n, min_t, max_t, n, mean, m2, measured,
                                    n * dt);
        if (r) {
            *taken = n;
            return r;
        }
    }
    *taken = len;
    return NULL;
}

Test(stopping, steady_samples_stop_on_rse_after_the_minimums)
{
    double x[2000];
    for (int i = 0; i < 2000; i++)
        x[i] = 1e-3 * (1 + 0.01 * ((i % 3) - 1)); /* +-1 %, very steady */
    int n;
    cr_assert_str_eq(stream(x, 2000, 0.005, 10, 1000000, 0.005, 15, 1e-3, &n), "rse");
    cr_assert_eq(n, 10, "min_samples holds it back to 10, got %d", n);
    /* min_time: 0.05 s of 1 ms samples = 50 samples */
    cr_assert_str_eq(stream(x, 2000, 0.005, 10, 1000000, 0.05, 15, 1e-3, &n), "rse");
    cr_assert(n >= 49 && n <= 51, "got %d", n);
}

Test(stopping, noisy_samples_run_into_max_samples_or_max_time)
{
    double x[] = {1, 10, 1, 10, 1, 10, 1, 10};
    int n;
    cr_assert_str_eq(stream(x, 8, 0.0001, 2, 5, 0, 1e9, 1e-3, &n), "max_samples");
    cr_assert_eq(n, 5);
    cr_assert_str_eq(stream(x, 8, 0.0001, 2, 1000, 0, 0.003, 1e-3, &n), "max_time");
    cr_assert_eq(n, 3);
}

Test(batching, tiny_calls_are_batched_to_the_threshold)
{
    cr_assert_eq(batch_for(1e-3, 2e-6), 1);
    cr_assert_eq(batch_for(2e-6, 2e-6), 1);
    cr_assert_eq(batch_for(1e-6, 2e-6), 2);
    cr_assert_eq(batch_for(3e-9, 2e-6), 1024); /* 1024 * 3 ns >= 2 us > 512 * 3 ns */
    cr_assert_eq(batch_for(0, 2e-6), 1 << 20);
}

Test(outliers, tukey_fences)
{
    double x[] = {10, 11, 12, 11, 10, 12, 11, 100};
    cr_assert_eq(stats_outliers(x, 8), 1);
    double y[] = {1, 2, 3, 4, 5, 6, 7, 8};
    cr_assert_eq(stats_outliers(y, 8), 0);
    double z[] = {1, 1, 1};
    cr_assert_eq(stats_outliers(z, 3), 0);
}
