/* test_stats.c - statistics, the median's interval, adaptive stopping,
 * batching, outliers, bimodality (doc/timing.md#measurement-quality). */
#include "stats/stats.h"

#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

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
    /* n = 5 < 6: no pair of order statistics reaches 95 %: [min, max], at
     * its own coverage 1 - 2 / 2^5 = 93.75 % */
    cr_assert_float_eq(s.median_ci_low, 1, 1e-12);
    cr_assert_float_eq(s.median_ci_high, 5, 1e-12);
    cr_assert_float_eq(s.ci_level, 0.9375, 1e-12);
    cr_assert_float_eq(s.mad, 1, 1e-12); /* |x - 3| = 0, 1, 1, 2, 2 */
}

/* The case of issue 15: 5 samples with one 3.45 ms outlier printed a mean
 * interval from -1 ms; the median's interval stays within the samples. */
Test(stats, median_interval_is_never_negative_and_contains_the_median)
{
    double x[] = {0.5e-3, 0.52e-3, 3.45e-3, 0.49e-3, 0.51e-3};
    stats s;
    stats_compute(x, 5, &s);
    cr_assert(s.median_ci_low >= s.min && s.median_ci_low > 0);
    cr_assert(s.median_ci_low <= s.median && s.median <= s.median_ci_high);
    double y[40];
    for (int i = 0; i < 40; i++)
        y[i] = i % 7 ? 1e-6 * (1 + i % 5) : 5e-3; /* skewed, with stalls */
    stats_compute(y, 40, &s);
    cr_assert(s.median_ci_low <= s.median && s.median <= s.median_ci_high);
    cr_assert(s.median_ci_low > 0);
}

Test(stats, binomial_cdf_known_values)
{
    cr_assert_float_eq(binom_half_cdf(10, 1), 11.0 / 1024, 1e-15);
    cr_assert_float_eq(binom_half_cdf(20, 5), 0.020694732666015625, 1e-13);
    cr_assert_float_eq(binom_half_cdf(1000, 500), 0.5126125090891804, 1e-10);
    cr_assert_float_eq(binom_half_cdf(1000, 468), 0.023145598680249076, 1e-10);
    cr_assert_float_eq(binom_half_cdf(7, 7), 1, 0);
    cr_assert_float_eq(binom_half_cdf(7, -1), 0, 0);
}

/* Ranks and exact coverages (checked against sum(C(n, i)) / 2^n). */
Test(stats, median_interval_ranks_known_values)
{
    static const struct {
        int n, l;
        double cover;
    } k[] = {{5, 1, 0.9375},           {6, 1, 0.96875},          {10, 2, 0.978515625},
             {20, 6, 0.9586105346679688}, {30, 10, 0.9572260547429323},
             {100, 40, 0.9647997997822952}, {1000, 469, 0.9537088026395019}};
    for (size_t i = 0; i < sizeof k / sizeof k[0]; i++) {
        double c;
        int l = median_ci_rank(k[i].n, 0.95, &c);
        cr_assert_eq(l, k[i].l, "n = %d: rank %d, want %d", k[i].n, l, k[i].l);
        cr_assert_float_eq(c, k[i].cover, 1e-9, "n = %d: coverage %.10g", k[i].n, c);
    }
    double c;
    int l = median_ci_rank(1000000, 0.95, &c);
    cr_assert(c >= 0.95 && c < 0.9505, "n = 1e6: rank %d, coverage %g", l, c);
}

/* A small deterministic generator: the test is the same every run. */
static uint64_t rng = 88172645463325252ULL;
static double uniform(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return ((double)(rng >> 11) + 0.5) / 9007199254740992.0;
}
static double lognormal(void)
{
    double z = sqrt(-2 * log(uniform())) * cos(2 * M_PI * uniform());
    return exp(z); /* median 1, heavily skewed */
}

/* Coverage by simulation: over 10,000 synthetic skewed sample sets, the
 * nominal 95 % interval holds the true median 94-97 % of the time; at
 * n = 5 it holds it about the 93.75 % it claims. */
Test(stats, median_interval_coverage_by_simulation)
{
    const int sets = 10000;
    static const int sizes[] = {30, 100};
    for (int z = 0; z < 2; z++) {
        int n = sizes[z], hit = 0;
        double x[100];
        for (int k = 0; k < sets; k++) {
            for (int i = 0; i < n; i++)
                x[i] = 1e-6 * lognormal(); /* seconds: median 1 us */
            stats s;
            stats_compute(x, n, &s);
            hit += s.median_ci_low <= 1e-6 && 1e-6 <= s.median_ci_high;
        }
        double cover = (double)hit / sets;
        cr_assert(cover >= 0.94 && cover <= 0.97, "n = %d: coverage %.4f", n, cover);
    }
    int hit = 0;
    for (int k = 0; k < sets; k++) {
        double x[5];
        for (int i = 0; i < 5; i++)
            x[i] = -log(uniform()); /* exponential: median ln 2 */
        stats s;
        stats_compute(x, 5, &s);
        hit += s.median_ci_low <= M_LN2 && M_LN2 <= s.median_ci_high;
    }
    double cover = (double)hit / sets;
    cr_assert(fabs(cover - 0.9375) < 0.01, "n = 5: coverage %.4f", cover);
}

Test(stats, even_count_median_and_nan_ignored)
{
    double x[] = {4, NAN, 1, 3, 2};
    cr_assert_float_eq(stats_median(x, 5), 2.5, 1e-12);
    double none[] = {NAN};
    cr_assert(isnan(stats_median(none, 1)));
}

Test(stats, bimodal_samples_and_stalls)
{
    /* axpb 2 threads at 16 elements (issue 15): fast calls and 8 ms ones */
    double x[40];
    for (int i = 0; i < 40; i++)
        x[i] = i < 16 ? 300e-9 + i * 1e-9 : 8e-3 + i * 1e-6;
    double lo, hi, share;
    cr_assert_eq(stats_bimodal(x, 40, &lo, &hi, &share), 1);
    cr_assert(lo > 299e-9 && lo < 320e-9 && hi > 8e-3 && hi < 8.1e-3, "%g %g", lo, hi);
    cr_assert_float_eq(share, 0.6, 1e-12);
    /* steady samples, and one stall alone (under 5 %): not bimodal */
    double y[40];
    for (int i = 0; i < 40; i++)
        y[i] = 1e-3 * (1 + 0.001 * i);
    cr_assert_eq(stats_bimodal(y, 40, &lo, &hi, &share), 0);
    y[39] = 1;
    cr_assert_eq(stats_bimodal(y, 40, &lo, &hi, &share), 0);
    /* 15 samples (an interleaved study's): one slow sample is 7 % of them,
     * but not a mode; two are */
    double z[15];
    for (int i = 0; i < 15; i++)
        z[i] = 1e-3 * (1 + 0.001 * i);
    z[14] = 3e-3;
    cr_assert_eq(stats_bimodal(z, 15, &lo, &hi, &share), 0);
    z[13] = 3e-3;
    cr_assert_eq(stats_bimodal(z, 15, &lo, &hi, &share), 1);
    cr_assert_float_eq(share, 2.0 / 15, 1e-12);
}

/* Feeds a synthetic stream through stop_add, as the worker does. */
static const char *stream(const double *x, int len, int total, double rse, int min_n,
                          int max_n, double min_t, double max_t, double dt, int *taken)
{
    stop_state st = {0};
    double measured = 0;
    const char *r = NULL;
    int n;
    for (n = 1; n <= total && !r; n++) {
        double v = x[(n - 1) % len];
        measured += v;
        r = stop_add(&st, v, rse, min_n, max_n, min_t, max_t, measured, n * dt);
    }
    *taken = n - 1;
    stop_free(&st);
    return r;
}

Test(stopping, steady_samples_stop_on_the_median_interval_after_the_minimums)
{
    double x[2000];
    for (int i = 0; i < 2000; i++)
        x[i] = 1e-3 * (1 + 0.01 * (2 * uniform() - 1)); /* +-1 %, very steady */
    int n;
    /* the median of uniform +-1 % noise: half-width about 2 % / sqrt(n),
     * 0.5 % from n = 16 */
    cr_assert_str_eq(stream(x, 2000, 2000, 0.005, 10, 1000000, 0.005, 15, 1e-3, &n), "rse");
    cr_assert(n >= 10 && n < 40, "got %d", n);
    /* min_time: 0.05 s of 1 ms samples = 50 samples */
    cr_assert_str_eq(stream(x, 2000, 2000, 0.005, 10, 1000000, 0.05, 15, 1e-3, &n), "rse");
    cr_assert(n >= 49 && n <= 60, "got %d", n);
}

Test(stopping, noisy_samples_run_into_max_samples_or_max_time)
{
    double x[] = {1, 10, 1, 10, 1, 10, 1, 10};
    int n;
    cr_assert_str_eq(stream(x, 8, 100, 0.0001, 2, 5, 0, 1e9, 1e-3, &n), "max_samples");
    cr_assert_eq(n, 5);
    cr_assert_str_eq(stream(x, 8, 100, 0.0001, 2, 1000, 0, 0.003, 1e-3, &n), "max_time");
    cr_assert_eq(n, 3);
}

/* Two modes half and half: the median's interval spans both for good; the
 * convergence exit stops it long before max_samples and max_time. */
Test(stopping, a_half_width_that_stops_shrinking_converges)
{
    double x[] = {1e-3, 2e-3};
    int n;
    cr_assert_str_eq(stream(x, 2, 1000000, 0.005, 10, 1000000, 0, 1e9, 1e-3, &n), "converged");
    cr_assert(n < 200, "got %d", n);
}

Test(batching, batches_grow_to_the_target_sample_time)
{
    cr_assert_eq(batch_grow(1, 1e-3, 10e-6), 1);      /* long enough already */
    cr_assert_eq(batch_grow(1, 10e-6, 10e-6), 1);
    cr_assert_eq(batch_grow(1, 6e-6, 10e-6), 2);      /* 10 / 6 = 1.7 -> 2 */
    cr_assert_eq(batch_grow(1, 3e-6, 10e-6), 4);      /* 3.3 -> 4 */
    cr_assert_eq(batch_grow(1, 100e-9, 10e-6), 16);   /* at most 16x a step */
    cr_assert_eq(batch_grow(4096, 6e-6, 10e-6), 8192);
    cr_assert_eq(batch_grow(1 << 20, 1e-9, 10e-6), 1 << 20); /* the cap */
    cr_assert_eq(batch_grow(1, 0, 10e-6), 16);
    /* noop at 1.5 ns, 10 us target: grown step by step to 8192 (12 us) */
    int b = 1;
    for (int i = 0; i < 40; i++) {
        int next = batch_grow(b, b * 1.5e-9 + 23e-9, 10e-6);
        if (next == b)
            break;
        b = next;
    }
    cr_assert_eq(b, 8192, "got %d", b);
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
