/* test_change.c - the change between two sides from their runs' worker
 * blocks (doc/compare.md#what-one-run-can-show): with several runs a side,
 * a worker landing in a slow or fast mode is the blocks' noise and does not
 * hide a real change, while runs that disagree beyond their blocks make the
 * runs' spread the noise.  And the F tail that decides between the two. */
#include "stats/change.h"
#include "stats/quantile.h"

#include <criterion/criterion.h>
#include <math.h>

static const int CELLS[5] = {1, 0, 1, 0, 1}; /* blocks on the two CPUs in turn */

/* Block medians (ms) of the Lua loop in bench/aa.sh runs on the 2-vCPU VM:
 * most workers near 5.1 ms, some in a mode 1.8x faster; the 1.5x revision
 * near 7.6 ms, one of its runs with three workers of five in the fast mode. */
static const double OLD[3][5] = {
    {5.54, 5.12, 5.13, 4.39, 2.97}, {5.48, 5.18, 5.30, 5.11, 4.92}, {5.23, 5.01, 5.09, 5.33, 5.22}};
static const double NEW[3][5] = {
    {8.39, 4.39, 4.82, 8.06, 7.42}, {7.92, 6.66, 7.91, 7.42, 7.44}, {7.49, 5.41, 7.80, 4.20, 4.40}};

static void side(const double m[3][5], change_run *r)
{
    for (int i = 0; i < 3; i++)
        r[i] = (change_run){m[i], CELLS, 5};
}

Test(change, workers_in_a_fast_mode_do_not_hide_a_1_5x_slowdown)
{
    change_run o[3], w[3];
    side(OLD, o);
    side(NEW, w);
    change_est e;
    cr_assert_eq(change_estimate(o, 3, w, 3, &e), 0);
    cr_expect_eq(e.by_runs, 0, "the runs agree with their blocks: blocks set the noise");
    cr_expect(e.ratio > 1.2 && e.ratio < 1.5, "ratio %g", e.ratio); /* the fast workers pull it below 1.5 */
    /* small enough to stay below 0.05 after Benjamini-Hochberg over 5 trials */
    cr_expect(e.p < 0.01, "p %g", e.p);
}

Test(change, runs_that_disagree_beyond_their_blocks_set_the_noise)
{
    /* tight blocks (1 % jitter), but NEW's runs 1.0, 1.18 and 0.88 times OLD's */
    static const double j[5] = {0.01, -0.01, 0.0, 0.008, -0.006};
    static const double level[2][3] = {{1.0, 1.0, 1.0}, {1.0, 1.18, 0.88}};
    double m[2][3][5];
    change_run r[2][3];
    for (int s = 0; s < 2; s++)
        for (int i = 0; i < 3; i++) {
            for (int b = 0; b < 5; b++)
                m[s][i][b] = level[s][i] * (1 + j[(b + i + s) % 5]);
            r[s][i] = (change_run){m[s][i], CELLS, 5};
        }
    change_est e;
    cr_assert_eq(change_estimate(r[0], 3, r[1], 3, &e), 0);
    cr_expect_eq(e.by_runs, 1);
    cr_expect(e.p > 0.05, "p %g: three runs this far apart show no change", e.p);
    cr_expect(e.detectable > 0.10, "detectable %g", e.detectable);
}

Test(change, one_run_a_side_uses_its_blocks)
{
    change_run o = {OLD[1], CELLS, 5}, w = {NEW[1], CELLS, 5};
    change_est e;
    cr_assert_eq(change_estimate(&o, 1, &w, 1, &e), 0);
    cr_expect_eq(e.by_runs, 0);
    cr_expect(e.p < 0.01, "p %g", e.p);
    cr_expect(isfinite(e.detectable) && e.detectable > 0, "detectable %g", e.detectable);
}

Test(change, a_side_without_blocks_gives_no_estimate)
{
    static const double none[2] = {0, NAN};
    change_run o = {OLD[0], CELLS, 5}, w = {none, NULL, 2};
    change_est e;
    cr_expect_eq(change_estimate(&o, 1, &w, 1, &e), -1);
    cr_expect(isinf(e.detectable));
}

/* Block medians (ms) of the Lua loop in bench/aa.sh runs (kept as
 * /tmp/aaH2 and aaG1): workers in a fast mode near 2.7 ms (old) and 4.1 ms
 * (the 1.5x revision), the rest 1.85x slower; OLD's minutes held mostly
 * slow workers, NEW's mostly fast ones. */
static const double SLOWISH[3][5] = {
    {5.28, 2.74, 5.55, 5.62, 5.56}, {5.50, 5.14, 2.71, 5.38, 5.31}, {2.77, 5.29, 5.31, 5.42, 2.80}};
static const double FASTISH[3][5] = {
    {4.02, 4.02, 4.89, 4.09, 4.05}, {4.13, 4.10, 4.10, 7.44, 4.08}, {4.25, 4.03, 4.16, 4.20, 7.60}};

Test(change, the_fast_modes_show_a_1_5x_slowdown_whatever_the_share_of_slow_workers)
{
    change_run o[3], w[3];
    side(SLOWISH, o);
    side(FASTISH, w);
    change_est e;
    cr_assert_eq(change_estimate(o, 3, w, 3, &e), 0);
    cr_expect_eq(e.by_modes, 1);
    cr_expect_eq(e.old_fast, 4);
    cr_expect_eq(e.old_blocks, 15);
    cr_expect_eq(e.new_fast, 12);
    cr_expect(fabs(e.ratio - 1.5) < 0.03, "ratio %g (the means of all blocks: about 1.0)", e.ratio);
    cr_expect(e.p < 0.001, "p %g", e.p);
    cr_expect(e.detectable < 0.05, "detectable %g", e.detectable);
}

Test(change, the_same_fast_mode_in_other_shares_is_no_change)
{
    static const double few[5] = {2.72, 2.75, 5.31, 2.70, 5.42};
    change_run o[3], w = {few, CELLS, 5};
    side(SLOWISH, o);
    change_est e;
    cr_assert_eq(change_estimate(o, 3, &w, 1, &e), 0);
    cr_expect_eq(e.by_modes, 1);
    cr_expect(fabs(e.ratio - 1) < 0.02, "ratio %g", e.ratio);
    cr_expect(e.p > 0.05, "p %g", e.p);
}

/* Lua loop blocks of bench/aa.sh runs in minutes when most workers were
 * slow (kept as /tmp/aaJ4): 2 fast blocks of 15 a side.  The slow modes,
 * compared with each other, carry the comparison; the fast ones alone
 * (2 + 2 blocks, 2 degrees of freedom) could only say +-45 %. */
Test(change, with_few_fast_workers_the_slow_modes_carry_a_1_5x_slowdown)
{
    static const double o[3][5] = {
        {5.50, 5.21, 2.91, 5.52, 4.71}, {7.17, 5.14, 5.08, 5.21, 5.18}, {5.50, 5.37, 5.22, 5.81, 3.30}};
    static const double w[3][5] = {
        {4.98, 7.88, 8.30, 7.91, 6.84}, {8.78, 7.98, 8.26, 8.04, 8.33}, {7.47, 7.69, 6.65, 7.90, 4.42}};
    change_run ro[3], rw[3];
    side(o, ro);
    side(w, rw);
    change_est e;
    cr_assert_eq(change_estimate(ro, 3, rw, 3, &e), 0);
    cr_expect_eq(e.by_modes, 1);
    cr_expect_eq(e.old_fast, 2);
    cr_expect_eq(e.new_fast, 2);
    cr_expect(e.ratio > 1.4 && e.ratio < 1.6, "ratio %g", e.ratio);
    cr_expect(e.p < 0.001, "p %g", e.p);
    cr_expect(e.detectable < 0.15, "detectable %g", e.detectable);
}

/* No fast mode to compare: a side in one mode (every block slow), modes
 * that are the CPUs (the cells see them), a lowest group wider than
 * CHANGE_MODE_WIDTH, one fast block, or one slow block beyond the gap (a
 * side all in the slow mode with one slower outlier): the blocks as before. */
Test(change, without_a_fast_mode_on_both_sides_the_blocks_are_compared_as_before)
{
    static const double one_mode[5] = {5.28, 5.14, 5.55, 5.42, 5.31};
    static const double by_cpu[5] = {5.28, 2.74, 5.55, 2.76, 5.31}; /* CELLS: 1 0 1 0 1 */
    static const double wide[5] = {2.70, 3.10, 3.40, 5.40, 5.50};
    static const double lone[5] = {2.70, 5.30, 5.40, 5.50, 5.45};
    static const double outlier[5] = {5.28, 5.14, 5.55, 5.42, 9.31}; /* all slow, one slower */
    const double *cases[5] = {one_mode, by_cpu, wide, lone, outlier};
    change_run o[3];
    side(SLOWISH, o);
    for (int i = 0; i < 5; i++) {
        change_run w = {cases[i], CELLS, 5};
        change_est e;
        cr_assert_eq(change_estimate(o, 3, &w, 1, &e), 0);
        cr_expect_eq(e.by_modes, 0, "case %d", i);
        cr_expect_eq(e.old_fast + e.new_fast, 0, "case %d", i);
    }
}

/* Critical values from the F table: F(0.95; 2, 10) = 4.103, F(0.95; 5, 20)
 * = 2.711, F(0.99; 1, 12) = 9.330. */
Test(change, the_f_tail_matches_the_table)
{
    cr_expect(fabs(stats_f_sf(4.103, 2, 10) - 0.05) < 2e-4, "%g", stats_f_sf(4.103, 2, 10));
    cr_expect(fabs(stats_f_sf(2.711, 5, 20) - 0.05) < 2e-4, "%g", stats_f_sf(2.711, 5, 20));
    cr_expect(fabs(stats_f_sf(9.330, 1, 12) - 0.01) < 1e-4, "%g", stats_f_sf(9.330, 1, 12));
    cr_expect_eq(stats_f_sf(0, 2, 10), 1.0);
    cr_expect_eq(stats_f_sf(INFINITY, 2, 10), 0.0);
    cr_expect(isnan(stats_f_sf(NAN, 2, 10)));
    cr_expect(isnan(stats_f_sf(1, 0, 10)));
}

/* A tampered or broken run folder: medians that are 0, negative, NaN or
 * infinite, CPU ids out of any range.  They are left out; the rest still
 * shows its two modes, and nothing reads past a run. */
Test(change, broken_block_medians_are_left_out_of_the_modes)
{
    static const double bad[7] = {2.71, NAN, 5.30, -1.0, 2.74, INFINITY, 5.41};
    static const int cells[7] = {0, 99999, -7, 1, 1, 0, 0};
    static const double good[5] = {2.72, 5.35, 2.70, 5.28, 2.75};
    static const int mixed[5] = {1, 1, 0, 0, 1}; /* both CPUs ran both modes */
    change_run o = {bad, cells, 7}, w = {good, mixed, 5};
    change_est e;
    cr_assert_eq(change_estimate(&o, 1, &w, 1, &e), 0);
    cr_expect_eq(e.by_modes, 1);
    cr_expect_eq(e.old_blocks, 4, "the 4 usable blocks of 7");
    cr_expect(fabs(e.ratio - 1) < 0.03, "ratio %g", e.ratio);
    static const double none[3] = {0, NAN, -2};
    change_run z = {none, NULL, 3};
    cr_expect_eq(change_estimate(&z, 1, &w, 1, &e), -1);
    cr_expect_eq(e.by_modes, 0);
}

/* One run a side of the Lua loop, unchanged (kept as /tmp/aaL1, runs 3
 * and 4): OLD's two fast workers both ran on CPU 0, so its speeds looked
 * like its CPUs', and NEW's workers were all slow.  Taken as steady CPU
 * speeds, the CPU cells left the gap out of the noise and read 1.29x
 * slower (p < 0.001); with one side in two speeds and the other in one,
 * the cells are not used and nothing is seen. */
Test(change, one_side_in_two_speeds_that_look_like_cpus_is_no_change)
{
    static const double o[5] = {4.58, 3.21, 5.09, 3.02, 5.28};
    static const double w[5] = {5.15, 5.01, 5.28, 4.87, 5.33};
    change_run ro = {o, CELLS, 5}, rw = {w, CELLS, 5};
    change_est e;
    cr_assert_eq(change_estimate(&ro, 1, &rw, 1, &e), 0);
    cr_expect_eq(e.by_modes, 0);
    cr_expect(e.p > 0.05, "p %g", e.p);
    cr_expect(e.detectable > 0.10, "detectable %g", e.detectable);
}
