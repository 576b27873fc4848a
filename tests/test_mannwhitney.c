/* test_mannwhitney.c - the Mann-Whitney U test.
 *
 * Reference p-values are those of scipy.stats.mannwhitneyu(x, y,
 * alternative='two-sided', method=...) (the scipy documentation's example:
 * U = 17, exact p = 0.1111..., asymptotic p = 0.111346886533140); the others
 * were computed independently: exact ones by enumerating every split of the
 * pooled ranks, asymptotic ones from the textbook formula with tie and
 * continuity corrections. */
#include "stats/mannwhitney.h"

#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static mw_result mw(const double *x, int n1, const double *y, int n2, mw_method m)
{
    mw_result r;
    mann_whitney(x, n1, y, n2, m, &r);
    return r;
}

Test(mannwhitney, separated_small_samples_exact)
{
    double x[] = {1, 2, 3}, y[] = {4, 5, 6};
    mw_result r = mw(x, 3, y, 3, MW_AUTO);
    cr_assert_eq(r.exact, 1);
    cr_assert_float_eq(r.u, 0.0, 1e-12);
    cr_assert_float_eq(r.p, 0.1, 1e-12); /* 2 / C(6,3) */
    r = mw(y, 3, x, 3, MW_AUTO);
    cr_assert_float_eq(r.u, 9.0, 1e-12);
    cr_assert_float_eq(r.p, 0.1, 1e-12);
    /* the normal approximation of the same data */
    r = mw(x, 3, y, 3, MW_ASYMPTOTIC);
    cr_assert_eq(r.exact, 0);
    cr_assert_float_eq(r.p, 0.0808555983700523, 1e-12);
    /* 5 against 5, fully separated: 2 / C(10,5) */
    double a[] = {1, 2, 3, 4, 5}, b[] = {6, 7, 8, 9, 10};
    cr_assert_float_eq(mw(a, 5, b, 5, MW_AUTO).p, 2.0 / 252, 1e-12);
}

Test(mannwhitney, scipy_documentation_example)
{
    double males[] = {19, 22, 16, 29, 24}, females[] = {20, 11, 17, 12};
    mw_result r = mw(males, 5, females, 4, MW_AUTO);
    cr_assert_eq(r.exact, 1);
    cr_assert_float_eq(r.u, 17.0, 1e-12);
    cr_assert_float_eq(r.p, 0.1111111111111111, 1e-12);
    r = mw(males, 5, females, 4, MW_ASYMPTOTIC);
    cr_assert_eq(r.exact, 0);
    cr_assert_float_eq(r.u, 17.0, 1e-12);
    cr_assert_float_eq(r.p, 0.11134688653314041, 1e-12);
}

Test(mannwhitney, exact_against_enumeration)
{
    double x[] = {0.11, 0.52, 0.33, 0.94, 0.25, 0.66, 0.87, 0.48};
    double y[] = {0.59, 0.71, 1.02, 0.83, 0.95, 0.36, 1.17, 0.99, 1.3};
    mw_result r = mw(x, 8, y, 9, MW_AUTO);
    cr_assert_eq(r.exact, 1);
    cr_assert_float_eq(r.u, 12.0, 1e-12);
    cr_assert_float_eq(r.p, 0.02064993829699712, 1e-12);
    cr_assert_float_eq(mw(x, 8, y, 9, MW_ASYMPTOTIC).p, 0.02374139453072588, 1e-12);
    double a[] = {8.0, 8.1, 8.2, 8.3, 8.4}, b[] = {8.05, 8.15, 8.25, 8.35, 8.45};
    r = mw(a, 5, b, 5, MW_AUTO);
    cr_assert_float_eq(r.u, 10.0, 1e-12);
    cr_assert_float_eq(r.p, 0.6904761904761905, 1e-12);
}

Test(mannwhitney, exact_tails)
{
    cr_assert_float_eq(mw_exact_sf(10, 10, 100), 1.0 / 184756, 1e-18);
    cr_assert_float_eq(mw_exact_sf(10, 10, 0), 1.0, 1e-12);
    cr_assert_float_eq(mw_exact_sf(3, 4, 13), 0.0, 1e-12);
    /* symmetric: P(U >= k) = P(U <= n1 n2 - k) = 1 - P(U >= n1 n2 - k + 1) */
    for (int k = 0; k <= 42; k++)
        cr_assert_float_eq(mw_exact_sf(6, 7, k), 1.0 - mw_exact_sf(6, 7, 42 - k + 1), 1e-12);
    cr_assert_float_eq(mw_exact_sf(7, 6, 30), mw_exact_sf(6, 7, 30), 1e-15);
    cr_assert(isnan(mw_exact_sf(60, 60, 10)));
}

Test(mannwhitney, ties_use_the_normal_approximation_with_tie_correction)
{
    double x[] = {1, 2, 2, 3, 4, 5}, y[] = {2, 3, 3, 5, 6, 7, 8};
    mw_result r = mw(x, 6, y, 7, MW_AUTO);
    cr_assert_eq(r.ties, 1);
    cr_assert_eq(r.exact, 0);
    cr_assert_float_eq(r.u, 9.5, 1e-12);
    cr_assert_float_eq(r.p, 0.11155930545078227, 1e-12);
    r = mw(x, 6, y, 7, MW_EXACT); /* no exact distribution with ties */
    cr_assert_eq(r.exact, 0);
    cr_assert_float_eq(r.p, 0.11155930545078227, 1e-12);
}

Test(mannwhitney, identical_samples_give_p_one)
{
    double x[] = {1, 2, 3};
    mw_result r = mw(x, 3, x, 3, MW_AUTO);
    cr_assert_float_eq(r.u, 4.5, 1e-12);
    cr_assert_float_eq(r.p, 1.0, 1e-12);
    double c[] = {2, 2, 2}, d[] = {2, 2};
    r = mw(c, 3, d, 2, MW_AUTO);
    cr_assert_float_eq(r.u, 3.0, 1e-12);
    cr_assert_float_eq(r.p, 1.0, 1e-12);
}

Test(mannwhitney, larger_samples_use_the_normal_approximation)
{
    double x[12], y[15];
    for (int i = 0; i < 12; i++)
        x[i] = 2.0 * i;
    for (int i = 0; i < 15; i++)
        y[i] = 3.5 + 2.0 * i;
    mw_result r = mw(x, 12, y, 15, MW_AUTO);
    cr_assert_eq(r.exact, 0);
    cr_assert_float_eq(r.u, 55.0, 1e-12);
    cr_assert_float_eq(r.p, 0.09229233903407318, 1e-12);
    cr_assert_eq(mw(x, 12, y, 15, MW_EXACT).exact, 1);
}

Test(mannwhitney, non_finite_values_are_left_out_and_empty_is_nan)
{
    double x[] = {1, NAN, 2, 3, INFINITY}, y[] = {4, 5, 6};
    mw_result r = mw(x, 5, y, 3, MW_AUTO);
    cr_assert_eq(r.n1, 3);
    cr_assert_float_eq(r.p, 0.1, 1e-12);
    double e[] = {NAN};
    cr_assert_eq(mann_whitney(e, 1, y, 3, MW_AUTO, &r), -1);
    cr_assert(isnan(r.p));
    cr_assert_eq(mann_whitney(y, 3, NULL, 0, MW_AUTO, &r), -1);
}
