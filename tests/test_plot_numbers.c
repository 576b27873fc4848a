/* test_plot_numbers.c - what the charts compute before gnuplot draws: the
 * crossovers of two series, tidy numbers, gnuplot's quoting of text. */
#include "plots_fixture.h"
#include "runproc.h"
#include "experiment/config.h"
#include "results/report/plot_crossover.h"
#include "results/report/plot_gp.h"
#include "results/report/plot_model.h"
#include "results/report/plot_render.h"
#include "results/report/plots.h"

#include <criterion/criterion.h>
#include <dirent.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* --- the crossover finder ------------------------------------------- */

/* c says the series turns faster (1) or not (0) at x, after x_prev; -1 and
 * NAN: any. */
static void expect_crossing(const crossing *c, int faster, double x, double x_prev)
{
    if (faster >= 0)
        cr_assert_eq(c->faster, faster, "crossing at %g: faster %d", c->x, c->faster);
    if (!isnan(x))
        cr_assert_eq(c->x, x);
    if (!isnan(x_prev))
        cr_assert_eq(c->x_prev, x_prev, "crossing at %g after %g", c->x, c->x_prev);
}

Test(crossover, one_crossing_from_below)
{
    double x[] = {16, 32, 64, 128, 256, 512};
    double s[] = {0.1, 0.2, 0.5, 0.9, 2.5, 8};
    crossing c[4];
    cr_assert_eq(find_crossings(x, s, 6, c, 4), 1);
    expect_crossing(&c[0], 1, 256, 128);
    cr_assert(c[0].x_cross > 128 && c[0].x_cross < 256, "crossing at %g", c[0].x_cross);
}

Test(crossover, none)
{
    double x[] = {1, 2, 4, 8};
    double below[] = {0.1, 0.5, 0.9, 0.99};
    double above[] = {1.5, 3, 9, 40};
    cr_assert_eq(find_crossings(x, below, 4, NULL, 0), 0);
    cr_assert_eq(find_crossings(x, above, 4, NULL, 0), 0);
    cr_assert_eq(find_crossings(x, above, 0, NULL, 0), 0);
    cr_assert_eq(find_crossings(x, above, 1, NULL, 0), 0);
}

Test(crossover, two_crossings)
{
    /* faster in the middle only: crosses up, then back down */
    double x[] = {1, 2, 4, 8, 16, 32};
    double s[] = {0.5, 0.8, 1.6, 3, 1.2, 0.7};
    crossing c[4];
    cr_assert_eq(find_crossings(x, s, 6, c, 4), 2);
    expect_crossing(&c[0], 1, 4, NAN);
    expect_crossing(&c[1], 0, 32, 16);
    /* more crossings than room: counts them all, writes what fits */
    crossing one[1];
    cr_assert_eq(find_crossings(x, s, 6, one, 1), 2);
    cr_assert_eq(one[0].x, 4);
}

Test(crossover, skips_missing_points_and_exact_one)
{
    double x[] = {1, 2, 4, 8, 16};
    double s[] = {0.5, NAN, 1.0, -3, 2.0};
    crossing c[2];
    /* 1.0 is "not faster"; NAN and -3 are skipped */
    cr_assert_eq(find_crossings(x, s, 5, c, 2), 1);
    expect_crossing(&c[0], -1, 16, 4);
}

Test(crossover, needs_the_minimum_effect_beyond_the_intervals)
{
    /* 1.017x faster at 4 is no crossing; 1.3x at 8 is one */
    double x[] = {1, 2, 4, 8};
    double s[] = {0.5, 0.8, 1.017, 1.3};
    crossing c[4];
    cr_assert_eq(find_crossings(x, s, 4, NULL, 0), 1);
    cr_assert_eq(find_clear_crossings(x, s, NULL, NULL, 4, CROSSOVER_MIN_EFFECT, c, 4), 1);
    expect_crossing(&c[0], -1, 8, 2);
    /* the intervals: 1.3x whose interval reaches 1.02 is not clear either */
    double lo[] = {0.45, 0.7, 0.9, 1.02}, hi[] = {0.55, 0.9, 1.1, 1.5};
    cr_assert_eq(find_clear_crossings(x, s, lo, hi, 4, CROSSOVER_MIN_EFFECT, c, 4), 0);
    /* a slower point whose interval reaches 0.96 is not clearly slower */
    double lo2[] = {0.45, 0.7, 0.9, 1.2}, hi2[] = {0.96, 0.9, 1.1, 1.5};
    cr_assert_eq(find_clear_crossings(x, s, lo2, hi2, 4, CROSSOVER_MIN_EFFECT, c, 4), 1);
    cr_assert_eq(c[0].x_prev, 2);
    cr_assert_eq(CROSSOVER_MIN_EFFECT, 0.05);
}

/* --- tidy numbers ------------------------------------------------------ */

/* A value and how a formatter writes it. */
typedef struct num_case {
    double v;
    const char *want;
} num_case;

/* fmt writes each of the n cases' values as the case wants. */
static void expect_formats(void (*fmt)(char *, size_t, double), const num_case *cases, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        char t[32];
        fmt(t, sizeof t, cases[i].v);
        cr_assert_str_eq(t, cases[i].want, "%.17g", cases[i].v);
    }
}

Test(numbers, sizes_in_engineering_style)
{
    static const num_case cases[] = {{16, "16"},          {1024, "1024"},    {9999, "9999"},
                                     {16384, "2^14"},     {4194304, "2^22"}, {4194303, "4.19M"},
                                     {10000, "10k"},      {26400, "26.4k"},  {999999, "1M"},
                                     {1.5e9, "1.5G"},     {0.5, "0.5"},      {2.345, "2.35"},
                                     {-4194304, "-2^22"}, {57.1699, "57.2"}, {3e15, "3P"}};
    expect_formats(pm_fmt_num, cases, sizeof cases / sizeof *cases);
}

Test(numbers, ratios_with_three_significant_digits)
{
    static const num_case cases[] = {{26412.7, "26400"},
                                     {2.6412, "2.64"},
                                     {103.4, "103"},
                                     {1.017, "1.02"},
                                     {0.0123456, "0.0123"},
                                     {1234567, "1230000"},
                                     {0.00001234, "0.0000123"},
                                     {1, "1"}};
    expect_formats(pm_fmt_ratio, cases, sizeof cases / sizeof *cases);
}

/* --- quoting ---------------------------------------------------------- */

Test(gnuplot_text, quotes_concatenated_newlines_flattened)
{
    static const struct {
        const char *text;
        size_t max;
        const char *want;
    } cases[] = {
        {"it's `x` \"y\"\nEOD\r\\", 0, "'it'.\"'\".'s `x` \"y\" EOD \\'"},
        {"''a''", 0, "''.\"'\".''.\"'\".'a'.\"'\".''.\"'\".''"},
        {"bad \xff utf8 \xc3\xa9", 0, "'bad ? utf8 \xc3\xa9'"},
        {"0123456789", 4, "'0123...'"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        strbuf b = {0};
        gp_quote(&b, cases[i].text, cases[i].max);
        cr_assert_str_eq(b.s, cases[i].want);
        sb_free(&b);
    }
    char *c = gp_clean("EOD", 0);
    cr_assert_str_neq(c, "EOD");
    free(c);
    c = gp_clean("a\nEOD\nb", 0);
    cr_assert_null(strchr(c, '\n'));
    free(c);
}
