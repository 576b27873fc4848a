/* test_compare_runs.c - `runner compare` on runs made here: matching keys,
 * several runs a side, many trials, and trials run on a busy machine or a
 * throttled CPU or GPU. */
#include "cli/commands.h"
#include "compare_fixture.h"
#include "runproc.h"

#include <criterion/criterion.h>
#include <criterion/redirect.h>
#include <json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- several runs per side, --ignore, the correction ------------------------ */

/* Writes a run folder DIR/NAME: trials.csv with the key columns `keys` and
 * one row per trial (`vals[i]`, status ok), samples.csv with n samples each:
 * base[i] * scale * (1 + 0.001 j) for sample j. */
static char *make_run(const char *dir, const char *name, const char *keys, int ntr,
                      const char *const *vals, const double *base, double scale, int n)
{
    char *d;
    cr_assert(asprintf(&d, "%s/%s", dir, name) > 0);
    cr_assert_eq(mkdir(d, 0755), 0);
    char p[4096];
    snprintf(p, sizeof p, "%s/trials.csv", d);
    FILE *f = fopen(p, "w");
    fprintf(f, "trial,%s,status,reason,samples,median\n", keys);
    for (int i = 0; i < ntr; i++)
        fprintf(f, "%d,%s,ok,,%d,\n", i, vals[i], n);
    fclose(f);
    snprintf(p, sizeof p, "%s/samples.csv", d);
    f = fopen(p, "w");
    fputs("trial,sample,seconds,device_seconds\n", f);
    for (int i = 0; i < ntr; i++)
        for (int j = 0; j < n; j++)
            fprintf(f, "%d,%d,%.9g,\n", i, j, base[i] * scale * (1 + 0.001 * j));
    fclose(f);
    return d;
}

static void rm_run(char *d)
{
    rm_rf(d);
    free(d);
}

/* A make_run run's trials.csv opened afresh, its header written with the
 * columns `more` after the median. */
static FILE *rewrite_trials(const char *d, const char *keys, const char *more)
{
    char p[4096];
    snprintf(p, sizeof p, "%s/trials.csv", d);
    FILE *f = fopen(p, "w");
    cr_assert(f, "cannot write %s", p);
    fprintf(f, "trial,%s,status,reason,samples,median,%s\n", keys, more);
    return f;
}

/* Rewrites a make_run run's trials.csv with a `noise` column, `busy` set on
 * the trials whose bit is set in `mask`. */
static void set_noise(const char *d, const char *keys, int ntr, const char *const *vals, int n,
                      unsigned mask)
{
    FILE *f = rewrite_trials(d, keys, "load_avg,noise");
    for (int i = 0; i < ntr; i++)
        fprintf(f, "%d,%s,ok,,%d,,%s,%s\n", i, vals[i], n, mask >> i & 1 ? "3.9" : "0.1",
                mask >> i & 1 ? "cv 1.0%; busy: other processes used 1.37 cores" : "");
    fclose(f);
}

static result compare_many(const char *const *o, int no, const char *const *n, int nn, double thr,
                           const char *const *ign, int nign)
{
    result r = {0};
    size_t on, en;
    FILE *out = open_memstream(&r.out, &on), *err = open_memstream(&r.err, &en);
    compare_opts opt = {.threshold = thr, .noise_floor = COMPARE_NOISE_FLOOR, .format = "csv",
                        .ignore = ign, .nignore = nign};
    r.rc = compare_runs(o, no, n, nn, &opt, out, err);
    fclose(out);
    fclose(err);
    return r;
}

Test(compare, repeats_are_not_a_matching_key_and_ignore_drops_others)
{
    char tmpl[] = "/tmp/runner-compare-XXXXXX";
    char *d = mkdtemp(tmpl);
    const char *va[] = {"cpu,64,auto", "cpu,128,auto"}, *vb[] = {"cpu,64,15", "cpu,128,15"};
    const char *vc[] = {"cpu,64,15,1", "cpu,128,15,2"};
    double base[] = {1e-3, 8e-3};
    char *a = make_run(d, "a", "device,size,repeats", 2, va, base, 1.0, 20);
    char *b = make_run(d, "b", "device,size,repeats", 2, vb, base, 1.0, 15);
    char *c = make_run(d, "c", "device,size,repeats,threads", 2, vc, base, 1.0, 15);
    const char *o[] = {a}, *n[] = {b}, *n2[] = {c};
    /* an auto run against a 15-repeat run: both trials match */
    result r = compare_many(o, 1, n, 1, NAN, NULL, 0);
    csv_table t;
    result_table(&r, 0, &t);
    cr_assert_eq(t.nrows, 1 + 2, "%s", r.out);
    cr_assert_eq(csv_col(&t, "repeats"), -1);
    for (int i = 1; i < t.nrows; i++)
        cr_assert_str_eq(csv_get(&t, i, "verdict"), "same");
    csv_free(&t);
    result_free(&r);
    /* threads, only in NEW, varies: nothing matches (exit 2) unless ignored */
    r = compare_many(o, 1, n2, 1, NAN, NULL, 0);
    cr_assert_eq(r.rc, 2, "%s%s", r.out, r.err);
    cr_assert(strstr(r.err, "no trial of OLD matched"), "%s", r.err);
    result_free(&r);
    const char *ign[] = {"threads"};
    r = compare_many(o, 1, n2, 1, NAN, ign, 1);
    result_table(&r, 0, &t);
    cr_assert_eq(t.nrows, 1 + 2, "%s", r.out);
    cr_assert_eq(csv_col(&t, "threads"), -1);
    csv_free(&t);
    result_free(&r);
    /* an --ignore KEY no run has is a typo: exit 2, named */
    const char *bad[] = {"thread"};
    r = compare_many(o, 1, n2, 1, NAN, bad, 1);
    cr_assert_eq(r.rc, 2);
    cr_assert(strstr(r.err, "'thread'"), "%s", r.err);
    result_free(&r);
    rm_run(a);
    rm_run(b);
    rm_run(c);
    rmdir(d);
}

Test(compare, several_runs_per_side_use_per_run_medians_and_their_spread)
{
    char tmpl[] = "/tmp/runner-compare-XXXXXX";
    char *d = mkdtemp(tmpl);
    const char *v[] = {"cpu,64", "cpu,128"};
    double base[] = {1e-3, 8e-3};
    /* OLD: 5 runs whose medians move by up to 8.5 % (the machine's run-to-run
     * noise); NEW: trial 64 25 % slower in every run, trial 128 6 % */
    double so[] = {1.00, 1.08, 1.03, 0.995, 1.05};
    char *o[5], *n[5];
    for (int i = 0; i < 5; i++) {
        char name[16];
        snprintf(name, sizeof name, "old%d", i);
        o[i] = make_run(d, name, "device,size", 2, v, base, so[i], 20);
        double nb[] = {1.25e-3 * so[i], 8e-3 * (so[i] + 0.06)};
        snprintf(name, sizeof name, "new%d", i);
        n[i] = make_run(d, name, "device,size", 2, v, nb, 1.0, 20);
    }
    const char *oo[] = {o[0], o[1], o[2], o[3], o[4]}, *nn[] = {n[0], n[1], n[2], n[3], n[4]};
    result r = compare_many(oo, 5, nn, 5, NAN, NULL, 0);
    csv_table t;
    result_table(&r, 1, &t);
    cr_assert_eq(t.nrows, 1 + 2, "%s", r.out);
    int i = csv_find(&t, "size", "64", NULL, NULL);
    expect_cells(&t, i, "old_runs", "5", "replicates", "runs", "method", "exact", NULL);
    cr_assert_float_eq(atof(csv_get(&t, i, "p_value")), 2.0 / 252, 1e-9);
    cr_assert_str_eq(csv_get(&t, i, "verdict"), "slower");
    /* the noise is the measured spread of the per-run medians: 1.08 / 0.995 - 1 */
    cr_assert_float_eq(atof(csv_get(&t, i, "noise")), 1.08 / 0.995 - 1, 1e-6);
    i = csv_find(&t, "size", "128", NULL, NULL);
    cr_assert_str_eq(csv_get(&t, i, "verdict"), "same", "%s", r.out);
    csv_free(&t);
    result_free(&r);
    /* two runs a side: block medians pooled, the effect gated by the spread;
     * the 6 % shift of trial 128 is significant but within the 8 % noise,
     * and the runs' spread could not show 8 %: inconclusive, not a pass
     * (doc/compare.md#what-one-run-can-show) */
    r = compare_many(oo, 2, nn, 2, NAN, NULL, 0);
    result_table(&r, 1, &t);
    i = csv_find(&t, "size", "128", NULL, NULL);
    expect_cells(&t, i, "replicates", "blocks", "new_runs", "2", NULL);
    cr_assert(atof(csv_get(&t, i, "q_value")) < 0.05, "%s", r.out);
    cr_assert_str_eq(csv_get(&t, i, "verdict"), "inconclusive", "%s", r.out);
    csv_free(&t);
    result_free(&r);
    /* one run per side: the same 6 % shift is within the 10 % noise floor */
    r = compare_many(oo, 1, nn, 1, NAN, NULL, 0);
    parse_csv(r.out, &t);
    i = csv_find(&t, "size", "128", NULL, NULL);
    cr_assert_float_eq(atof(csv_get(&t, i, "noise")), COMPARE_NOISE_FLOOR / 100, 1e-9);
    cr_assert_str_eq(csv_get(&t, i, "verdict"), "same", "%s", r.out);
    csv_free(&t);
    result_free(&r);
    for (int k = 0; k < 5; k++) {
        rm_run(o[k]);
        rm_run(n[k]);
    }
    rmdir(d);
}

Test(compare, benjamini_hochberg_over_many_trials)
{
    char tmpl[] = "/tmp/runner-compare-XXXXXX";
    char *d = mkdtemp(tmpl);
    enum { N = 20 };
    char *vals[N];
    double base[N], nb[N];
    for (int i = 0; i < N; i++) {
        cr_assert(asprintf(&vals[i], "cpu,%d", 64 + i) > 0);
        base[i] = nb[i] = 1e-3;
    }
    nb[0] = 1.2e-3; /* trial 0 20 % slower: 5 against 5, exact p = 2/252 */
    char *a = make_run(d, "a", "device,size", N, (const char *const *)vals, base, 1.0, 5);
    char *b = make_run(d, "b", "device,size", N, (const char *const *)vals, nb, 1.0, 5);
    const char *o[] = {a}, *n[] = {b};
    /* alone it is slower; among 20 trials q = 20 * 2/252 > 0.05: same */
    char *a1 = make_run(d, "a1", "device,size", 1, (const char *const *)vals, base, 1.0, 5);
    char *b1 = make_run(d, "b1", "device,size", 1, (const char *const *)vals, nb, 1.0, 5);
    const char *o1[] = {a1}, *n1[] = {b1};
    result r = compare_many(o1, 1, n1, 1, 5, NULL, 0);
    cr_assert_eq(r.rc, 1, "%s%s", r.out, r.err);
    result_free(&r);
    r = compare_many(o, 1, n, 1, 5, NULL, 0);
    csv_table t;
    result_table(&r, 0, &t);
    int i = csv_find(&t, "size", "64", NULL, NULL);
    cr_assert_float_eq(atof(csv_get(&t, i, "p_value")), 2.0 / 252, 1e-9);
    cr_assert_float_eq(atof(csv_get(&t, i, "q_value")), 20 * 2.0 / 252, 1e-9);
    cr_assert_str_eq(csv_get(&t, i, "verdict"), "same");
    csv_free(&t);
    result_free(&r);
    rm_run(a);
    rm_run(b);
    rm_run(a1);
    rm_run(b1);
    for (int k = 0; k < N; k++)
        free(vals[k]);
    rmdir(d);
}

Test(compare, command_line_takes_runs_on_both_sides_of_the_separator, .init = quiet)
{
    char *base = fixture("base"), *slower = fixture("slower"), *within = fixture("within");
    char *a1[] = {base, within, "--", slower, slower, "--threshold", "5"};
    cr_assert_eq(cmd_compare_main(7, a1), 1);
    char *a2[] = {base, "--", slower, "--ignore", "cold_cache"};
    cr_assert_eq(cmd_compare_main(5, a2), 1);
    char *a4[] = {base, "--", within, "--ignore", "cold_cache"};
    cr_assert_eq(cmd_compare_main(5, a4), 2); /* no run has it: a typo */
    char *a3[] = {base, fixture("varying")};
    cr_assert_eq(cmd_compare_main(2, a3), 2); /* nothing matched */
    char *b1[] = {"--", base};
    cr_assert_eq(cmd_compare_main(2, b1), 2);
    char *b2[] = {base, "--"};
    cr_assert_eq(cmd_compare_main(2, b2), 2);
    char *b3[] = {base, within, "--ignore"};
    cr_assert_eq(cmd_compare_main(3, b3), 2);
    char *b4[] = {base, within, "--noise-floor", "-3"};
    cr_assert_eq(cmd_compare_main(4, b4), 2);
}

/* The cell `col` of the trial whose size is `size` in a compare CSV. */
static const char *size_cell(const csv_table *t, const char *size, const char *col)
{
    return csv_get(t, csv_find(t, "size", size, NULL, NULL), col);
}

/* Two runs of three trials (device,size = DEVICE,64 / 128 / 256) in a fresh
 * folder: OLD `a` and NEW `b`, 20 samples each about the medians old[i] and
 * new_[i]; v holds the trials' device,size values. */
typedef struct run_pair {
    char tmpl[32], vbuf[3][32];
    const char *v[3];
    char *d, *a, *b;
} run_pair;

static void pair_make(run_pair *p, const char *device, const double *old, const double *new_)
{
    static const int sizes[] = {64, 128, 256};
    for (int i = 0; i < 3; i++) {
        snprintf(p->vbuf[i], sizeof p->vbuf[i], "%s,%d", device, sizes[i]);
        p->v[i] = p->vbuf[i];
    }
    snprintf(p->tmpl, sizeof p->tmpl, "/tmp/runner-compare-XXXXXX");
    p->d = mkdtemp(p->tmpl);
    p->a = make_run(p->d, "a", "device,size", 3, p->v, old, 1.0, 20);
    p->b = make_run(p->d, "b", "device,size", 3, p->v, new_, 1.0, 20);
}

/* pair_make: OLD at 1 ms a call, NEW at 1.5 ms at sizes 64 and 128 and
 * new256 s at 256. */
static void slower_pair(run_pair *p, const char *device, double new256)
{
    const double base[] = {1e-3, 1e-3, 1e-3}, nb[] = {1.5e-3, 1.5e-3, new256};
    pair_make(p, device, base, nb);
}

/* The verdicts of sizes 64, 128 and 256 in a compare table. */
static void expect_verdicts(const csv_table *t, const char *v64, const char *v128, const char *v256)
{
    const char *sizes[] = {"64", "128", "256"}, *want[] = {v64, v128, v256};
    for (int i = 0; i < 3; i++)
        cr_assert_str_eq(size_cell(t, sizes[i], "verdict"), want[i], "size %s", sizes[i]);
}

static void pair_free(run_pair *p)
{
    rm_run(p->a);
    rm_run(p->b);
    rmdir(p->d);
}

/* Rewrites a make_run run's trials.csv with a `noise` and a `throttled_kept`
 * column, trial i's cells noise[i] and kept[i]. */
static void set_quality(const char *d, const char *keys, int ntr, const char *const *vals, int n,
                        const char *const *noise, const char *const *kept)
{
    FILE *f = rewrite_trials(d, keys, "noise,throttled_kept");
    for (int i = 0; i < ntr; i++)
        fprintf(f, "%d,%s,ok,,%d,,\"%s\",%s\n", i, vals[i], n, noise[i], kept[i]);
    fclose(f);
}

/* compare_runs on one run a side, in `fmt`, --busy-ok when busy_ok. */
static result compare_fmt(const char *a, const char *b, const char *fmt, int busy_ok)
{
    result r = {0};
    size_t on, en;
    FILE *out = open_memstream(&r.out, &on), *err = open_memstream(&r.err, &en);
    const char *o[] = {a}, *n[] = {b};
    compare_opts opt = {.threshold = NAN, .noise_floor = COMPARE_NOISE_FLOOR, .format = fmt,
                        .busy_ok = busy_ok};
    r.rc = compare_runs(o, 1, n, 1, &opt, out, err);
    fclose(out);
    fclose(err);
    return r;
}

#define THROTTLED_CPU "throttled: fastest CPU at 1200 MHz, 40% of its 3000 MHz maximum"

/* issue 16: a trial run on a busy machine in either run gets no verdict */
Test(compare, a_trial_run_on_a_busy_machine_is_busy_not_slower)
{
    run_pair p;
    slower_pair(&p, "cpu", 0.5e-3);
    set_noise(p.a, "device,size", 3, p.v, 20, 0);
    set_noise(p.b, "device,size", 3, p.v, 20, 0);
    const char *o[] = {p.a}, *n[] = {p.b};
    result r = compare_many(o, 1, n, 1, NAN, NULL, 0);
    cr_assert_eq(r.rc, 1, "quiet: 64 and 128 slower; %s%s", r.out, r.err);
    result_free(&r);
    /* 64 busy in NEW, 256 (faster) busy in OLD: neither has a verdict */
    set_noise(p.a, "device,size", 3, p.v, 20, 4);
    set_noise(p.b, "device,size", 3, p.v, 20, 1);
    r = compare_many(o, 1, n, 1, NAN, NULL, 0);
    cr_assert_eq(r.rc, 1, "128 is still slower: %s%s", r.out, r.err);
    csv_table t;
    parse_csv(r.out, &t);
    expect_verdicts(&t, "busy", "slower", "busy");
    /* the test is still reported */
    cr_assert(atof(size_cell(&t, "64", "q_value")) < 0.05);
    csv_free(&t);
    result_free(&r);
    /* every slower trial busy: exit 3 (inconclusive, issue 34), and the summary counts them */
    set_noise(p.b, "device,size", 3, p.v, 20, 3);
    result rt = compare_fmt(p.a, p.b, "text", 0);
    cr_assert_eq(rt.rc, 3, "%s%s", rt.out, rt.err);
    cr_assert(has_line(rt.out, "0 slower, 0 faster, 0 same", "3 busy"), "%s", rt.out);
    cr_assert(has_line(rt.out, "  64  ", "busy"), "%s", rt.out);
    result_free(&rt);
    /* --busy-ok: judged like the others */
    rt = compare_fmt(p.a, p.b, "text", 1);
    cr_assert_eq(rt.rc, 1, "%s%s", rt.out, rt.err);
    cr_assert(has_line(rt.out, "2 slower, 1 faster, 0 same", NULL), "%s", rt.out);
    result_free(&rt);
    pair_free(&p);
}

/* A trial run on a throttled CPU (its noise cell,
 * doc/timing.md#load) in either run gets no verdict, like a busy one */
Test(compare, a_trial_run_on_a_throttled_cpu_is_throttled_not_slower)
{
    run_pair p;
    slower_pair(&p, "cpu", 0.5e-3);
    /* 64 (slower) throttled in NEW, 256 (faster) in OLD */
    const char *na[] = {"", "", "cv 12.0%; " THROTTLED_CPU}, *nn[] = {THROTTLED_CPU, "", ""};
    const char *none[] = {"", "", ""};
    set_quality(p.a, "device,size", 3, p.v, 20, na, none);
    set_quality(p.b, "device,size", 3, p.v, 20, nn, none);
    result r = compare_fmt(p.a, p.b, "csv", 0);
    cr_assert_eq(r.rc, 1, "128 is still slower: %s%s", r.out, r.err);
    csv_table t;
    parse_csv(r.out, &t);
    int i = csv_find(&t, "size", "64", NULL, NULL);
    cr_assert_str_eq(csv_get(&t, i, "verdict"), "throttled", "%s", r.out);
    cr_assert(atof(csv_get(&t, i, "q_value")) < 0.05, "the test is still reported: %s", r.out);
    expect_verdicts(&t, "throttled", "slower", "throttled");
    csv_free(&t);
    result_free(&r);
    pair_free(&p);
}

/* GPU samples kept while the device stayed throttled
 * (doc/timing.md#the-machine): throttled_kept > 0 is throttled, 0 or empty is not */
Test(compare, throttled_kept_above_0_is_throttled_and_0_or_empty_is_not)
{
    run_pair p;
    slower_pair(&p, "cuda", 1.5e-3);
    const char *none[] = {"", "", ""}, *kept[] = {"3", "0", ""};
    set_quality(p.b, "device,size", 3, p.v, 20, none, kept);
    result r = compare_fmt(p.a, p.b, "csv", 0);
    csv_table t;
    result_table(&r, 1, &t);
    expect_verdicts(&t, "throttled", "slower", "slower");
    csv_free(&t);
    result_free(&r);
    pair_free(&p);
}

/* every slower-looking trial throttled: exit 3 (inconclusive, issue 34; matched: not 2), the
 * summary counts them, every format carries the verdict; --busy-ok judges
 * them like the others; busy wins over throttled */
Test(compare, throttled_trials_are_counted_exit_3_and_busy_ok_judges_them)
{
    run_pair p;
    slower_pair(&p, "cpu", 0.5e-3);
    const char *noise[] = {THROTTLED_CPU, "", ""}, *kept[] = {"", "2", ""};
    set_quality(p.b, "device,size", 3, p.v, 20, noise, kept);
    result r = compare_fmt(p.a, p.b, "text", 0);
    cr_assert_eq(r.rc, 3, "%s%s", r.out, r.err);
    cr_assert(has_line(r.out, "0 slower, 1 faster, 0 same",
                       ", 2 throttled (run on a throttled CPU or GPU: inconclusive)"),
              "%s", r.out);
    cr_assert(!strstr(r.out, "busy"), "%s", r.out);
    cr_assert(has_line(r.out, "  64  ", "throttled"), "%s", r.out);
    cr_assert(has_line(r.out, " 128  ", "throttled"), "%s", r.out);
    result_free(&r);
    r = compare_fmt(p.a, p.b, "md", 0);
    cr_assert_eq(r.rc, 3, "%s%s", r.out, r.err);
    cr_assert(has_line(r.out, "| 64 |", "| throttled |"), "%s", r.out);
    cr_assert(has_line(r.out, "2 throttled (", NULL), "%s", r.out);
    result_free(&r);
    r = compare_fmt(p.a, p.b, "json", 0);
    cr_assert_eq(r.rc, 3, "%s%s", r.out, r.err);
    json_object *j = json_tokener_parse(r.out), *row, *verdict;
    cr_assert(j && json_object_array_length(j) == 3, "%s", r.out);
    row = json_object_array_get_idx(j, 0);
    cr_assert(json_object_object_get_ex(row, "verdict", &verdict));
    cr_assert_str_eq(json_object_get_string(verdict), "throttled");
    json_object_put(j);
    result_free(&r);
    /* --busy-ok: judged like the others */
    r = compare_fmt(p.a, p.b, "text", 1);
    cr_assert_eq(r.rc, 1, "%s%s", r.out, r.err);
    cr_assert(has_line(r.out, "2 slower, 1 faster, 0 same", NULL), "%s", r.out);
    cr_assert(!strstr(r.out, "throttled"), "%s", r.out);
    result_free(&r);
    /* 64 busy as well: busy wins; 128 still throttled */
    const char *both[] = {"busy: other processes used 1.37 cores; " THROTTLED_CPU, "", ""};
    set_quality(p.b, "device,size", 3, p.v, 20, both, kept);
    r = compare_fmt(p.a, p.b, "csv", 0);
    csv_table t;
    result_table(&r, 3, &t);
    cr_assert_str_eq(size_cell(&t, "64", "verdict"), "busy");
    cr_assert_str_eq(size_cell(&t, "128", "verdict"), "throttled");
    csv_free(&t);
    result_free(&r);
    r = compare_fmt(p.a, p.b, "text", 0);
    cr_assert(has_line(r.out, "0 slower, 1 faster, 0 same",
                       ", 1 busy (run on a busy machine: inconclusive), 1 throttled ("),
              "%s", r.out);
    result_free(&r);
    pair_free(&p);
}
