/* test_compare.c - the Mann-Whitney U test and `runner compare`.
 *
 * Reference p-values are those of scipy.stats.mannwhitneyu(x, y,
 * alternative='two-sided', method=...) (the scipy documentation's example:
 * U = 17, exact p = 0.1111..., asymptotic p = 0.111346886533140); the others
 * were computed independently: exact ones by enumerating every split of the
 * pooled ranks, asymptotic ones from the textbook formula with tie and
 * continuity corrections.  The run folders are tests/fixtures_compare/ (see
 * make_fixtures.py there for what each one holds). */
#include "cli/commands.h"
#include "base/csv.h"
#include "stats/mannwhitney.h"

#include <criterion/criterion.h>
#include <criterion/redirect.h>
#include <json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>


/* ---- Mann-Whitney U --------------------------------------------------------- */

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

/* ---- runner compare -------------------------------------------------------- */

static char *fixture(const char *name)
{
    static char buf[8][4096];
    static int k;
    const char *root = getenv("RUNNER_ROOT");
    char *b = buf[k++ % 8];
    snprintf(b, sizeof buf[0], "%s/tests/fixtures_compare/%s", root ? root : ".", name);
    return b;
}

typedef struct result {
    int rc;
    char *out, *err;
} result;

static result compare(const char *old_name, const char *new_name, double thr, const char *fmt)
{
    result r = {0};
    size_t on, en;
    FILE *out = open_memstream(&r.out, &on), *err = open_memstream(&r.err, &en);
    cr_assert(out && err);
    const char *o[1] = {old_name[0] == '/' ? old_name : fixture(old_name)};
    const char *n[1] = {new_name[0] == '/' ? new_name : fixture(new_name)};
    compare_opts opt = {.threshold = thr, .noise_floor = COMPARE_NOISE_FLOOR, .format = fmt};
    r.rc = compare_runs(o, 1, n, 1, &opt, out, err);
    fclose(out);
    fclose(err);
    return r;
}

static void result_free(result *r)
{
    free(r->out);
    free(r->err);
}

/* The verdict of the row whose text starts with `prefix` (text format). */
static int has_line(const char *text, const char *needle_a, const char *needle_b)
{
    const char *p = text;
    while (p && *p) {
        const char *e = strchr(p, '\n');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        char *line = strndup(p, n);
        int ok = strstr(line, needle_a) && (!needle_b || strstr(line, needle_b));
        free(line);
        if (ok)
            return 1;
        p = e ? e + 1 : NULL;
    }
    return 0;
}

/* Parses CSV text through csv_read. */
static void parse_csv(const char *text, csv_table *t)
{
    char path[] = "/tmp/runner-compare-XXXXXX";
    int fd = mkstemp(path);
    cr_assert(fd >= 0);
    cr_assert_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
    cr_assert_eq(csv_read(path, t), 0);
    unlink(path);
    cr_assert_eq(t->torn, 0);
}

/* The csv row whose `col` column equals `val` (-1 if none). */
static int csv_find(const csv_table *t, const char *col, const char *val, const char *col2,
                    const char *val2)
{
    int c = csv_col(t, col), c2 = col2 ? csv_col(t, col2) : -1;
    cr_assert(c >= 0, "no column %s", col);
    for (int r = 1; r < t->nrows; r++)
        if (!strcmp(t->rows[r][c], val) && (!col2 || !strcmp(t->rows[r][c2], val2)))
            return r;
    return -1;
}

static const char *csv_get(const csv_table *t, int r, const char *col)
{
    int c = csv_col(t, col);
    cr_assert(c >= 0 && r > 0, "no column %s or row", col);
    return t->rows[r][c];
}

Test(compare, slower_beyond_the_threshold_exits_1)
{
    result r = compare("base", "slower", 5, "text");
    cr_assert_eq(r.rc, 1, "rc %d: %s%s", r.rc, r.out, r.err);
    cr_assert(has_line(r.out, "cpu       64", "slower"), "%s", r.out);
    cr_assert(has_line(r.out, "cpu      128", "same"), "%s", r.out);
    cr_assert(has_line(r.out, "cpu      256", "faster"), "%s", r.out);
    cr_assert(has_line(r.out, "cuda", "skipped in OLD"), "%s", r.out);
    cr_assert(has_line(r.out, "1 slower, 1 faster, 1 same, 1 not compared", NULL), "%s", r.out);
    /* both hosts in the header: the runs came from different machines */
    cr_assert(has_line(r.out, "OLD", "host alpha"), "%s", r.out);
    cr_assert(has_line(r.out, "NEW", "host beta"), "%s", r.out);
    cr_assert(has_line(r.out, "cold_cache", "NEW"), "%s", r.out);
    cr_assert_str_empty(r.err);
    result_free(&r);
}

Test(compare, within_the_threshold_exits_0)
{
    /* cpu 64 is 3 % slower (p = 0.008); cpu 128 9 % slower but not significant */
    result r = compare("base", "within", 5, "text");
    cr_assert_eq(r.rc, 0, "%s%s", r.out, r.err);
    cr_assert(has_line(r.out, "cpu       64", "same"), "%s", r.out);
    cr_assert(has_line(r.out, "cpu      128", "same"), "%s", r.out);
    cr_assert(has_line(r.out, "skipped in both", NULL), "%s", r.out);
    result_free(&r);
    r = compare("base", "within", 2, "text");
    cr_assert_eq(r.rc, 1, "%s%s", r.out, r.err);
    cr_assert(has_line(r.out, "cpu       64", "slower"), "%s", r.out);
    cr_assert(has_line(r.out, "cpu      128", "same"), "%s", r.out);
    result_free(&r);
}

Test(compare, faster_exits_0)
{
    result r = compare("base", "faster", 5, "text");
    cr_assert_eq(r.rc, 0, "%s%s", r.out, r.err);
    cr_assert(has_line(r.out, "0 slower, 3 faster", NULL), "%s", r.out);
    result_free(&r);
    /* the other way round the same runs are slower */
    r = compare("faster", "base", 5, "text");
    cr_assert_eq(r.rc, 1, "%s%s", r.out, r.err);
    result_free(&r);
    /* a run against itself: every ok trial the same, p = 1 */
    r = compare("base", "base", 0, "csv");
    cr_assert_eq(r.rc, 0);
    csv_table t;
    parse_csv(r.out, &t);
    for (int i = 1; i < t.nrows; i++)
        if (!strcmp(csv_get(&t, i, "old_status"), "ok")) {
            cr_assert_str_eq(csv_get(&t, i, "verdict"), "same");
            cr_assert_str_eq(csv_get(&t, i, "p_value"), "1");
        }
    csv_free(&t);
    result_free(&r);
}

Test(compare, bad_folders_and_options_exit_2_naming_the_path)
{
    result r = compare("/nonexistent/run", "base", 5, "text");
    cr_assert_eq(r.rc, 2);
    cr_assert(strstr(r.err, "/nonexistent/run"), "%s", r.err);
    cr_assert_str_empty(r.out);
    result_free(&r);
    r = compare("base", "broken", 5, "text");
    cr_assert_eq(r.rc, 2);
    cr_assert(strstr(r.err, "broken/trials.csv"), "%s", r.err);
    result_free(&r);
    /* a folder that holds no run */
    r = compare("base", "", 5, "text");
    cr_assert_eq(r.rc, 2);
    cr_assert(strstr(r.err, "fixtures_compare/"), "%s", r.err);
    result_free(&r);
    r = compare("base", "slower", 5, "yaml");
    cr_assert_eq(r.rc, 2);
    result_free(&r);
    r = compare("base", "slower", -1, "text");
    cr_assert_eq(r.rc, 2);
    result_free(&r);
}

static void quiet(void)
{
    cr_redirect_stdout();
    cr_redirect_stderr();
}

Test(compare, command_line_options, .init = quiet)
{
    char *base = fixture("base"), *within = fixture("within");
    char *a1[] = {base, within, "--threshold", "2"};
    cr_assert_eq(cmd_compare_main(4, a1), 1);
    char *a2[] = {"--threshold=2%", base, within, "--format=json"};
    cr_assert_eq(cmd_compare_main(4, a2), 1);
    char *a3[] = {base, within, "--format", "md"};
    cr_assert_eq(cmd_compare_main(4, a3), 0);
    char *b1[] = {base};
    cr_assert_eq(cmd_compare_main(1, b1), 2);
    char *b2[] = {base, within, within};
    cr_assert_eq(cmd_compare_main(3, b2), 2);
    char *b3[] = {base, within, "--threshold", "five"};
    cr_assert_eq(cmd_compare_main(4, b3), 2);
    char *b4[] = {base, within, "--threshold"};
    cr_assert_eq(cmd_compare_main(3, b4), 2);
    char *b5[] = {base, within, "--format", "xml"};
    cr_assert_eq(cmd_compare_main(4, b5), 2);
    char *b6[] = {base, within, "--treshold", "5"};
    cr_assert_eq(cmd_compare_main(4, b6), 2);
    char *b7[] = {"/nonexistent", within};
    cr_assert_eq(cmd_compare_main(2, b7), 2);
}

Test(compare, unmatched_trials_are_listed)
{
    result r = compare("base", "unmatched", 5, "csv");
    cr_assert_eq(r.rc, 0, "%s%s", r.out, r.err);
    csv_table t;
    parse_csv(r.out, &t);
    cr_assert_eq(t.nrows, 1 + 5, "%s", r.out);
    int i = csv_find(&t, "size", "256", NULL, NULL);
    cr_assert_str_eq(csv_get(&t, i, "verdict"), "only in OLD");
    cr_assert_str_eq(csv_get(&t, i, "new_trial"), "");
    i = csv_find(&t, "size", "512", NULL, NULL);
    cr_assert_str_eq(csv_get(&t, i, "verdict"), "only in NEW");
    cr_assert_str_eq(csv_get(&t, i, "new_trial"), "2");
    i = csv_find(&t, "size", "64", "device", "cpu");
    cr_assert_str_eq(csv_get(&t, i, "verdict"), "failed in NEW");
    cr_assert_str_eq(csv_get(&t, i, "new_status"), "failed");
    cr_assert_str_eq(csv_get(&t, i, "p_value"), "");
    i = csv_find(&t, "size", "64", "device", "cuda");
    cr_assert_str_eq(csv_get(&t, i, "verdict"), "skipped in both");
    csv_free(&t);
    result_free(&r);
    /* a key of one run only that varies: nothing can be matched, exit 2 */
    r = compare("base", "varying", 5, "csv");
    cr_assert_eq(r.rc, 2);
    cr_assert(strstr(r.err, "no trial of OLD matched"), "%s", r.err);
    parse_csv(r.out, &t);
    cr_assert_eq(t.nrows, 1 + 4 + 2);
    cr_assert(csv_col(&t, "threads") >= 0);
    for (int k = 1; k < t.nrows; k++)
        cr_assert(!strncmp(csv_get(&t, k, "verdict"), "only in ", 8));
    csv_free(&t);
    result_free(&r);
}

Test(compare, different_column_order_and_trial_numbers_match)
{
    /* slower/: keys ordered size,device,cold_cache,workload,repeats, trials
     * numbered the other way round, and cold_cache only there */
    result r = compare("base", "slower", 5, "csv");
    csv_table t;
    parse_csv(r.out, &t);
    cr_assert_eq(t.nrows, 1 + 4, "%s", r.out);
    cr_assert_eq(csv_col(&t, "cold_cache"), -1);
    int i = csv_find(&t, "size", "64", "device", "cpu");
    cr_assert_str_eq(csv_get(&t, i, "old_trial"), "0");
    cr_assert_str_eq(csv_get(&t, i, "new_trial"), "2");
    cr_assert_str_eq(csv_get(&t, i, "verdict"), "slower");
    cr_assert_str_eq(csv_get(&t, i, "method"), "exact");
    cr_assert_float_eq(atof(csv_get(&t, i, "p_value")), 2.0 / 252, 1e-8);
    cr_assert_float_eq(atof(csv_get(&t, i, "ratio")), 1.202 / 1.002, 1e-6);
    i = csv_find(&t, "size", "256", NULL, NULL);
    cr_assert_str_eq(csv_get(&t, i, "old_trial"), "2");
    cr_assert_str_eq(csv_get(&t, i, "new_trial"), "0");
    csv_free(&t);
    result_free(&r);
    /* and the other way round */
    r = compare("slower", "base", 5, "csv");
    cr_assert_eq(r.rc, 1);
    parse_csv(r.out, &t);
    cr_assert_eq(t.nrows, 1 + 4, "%s", r.out);
    i = csv_find(&t, "size", "256", NULL, NULL);
    cr_assert_str_eq(csv_get(&t, i, "verdict"), "slower");
    csv_free(&t);
    result_free(&r);
}

Test(compare, json_parses_with_json_c)
{
    result r = compare("base", "slower", 5, "json");
    json_object *a = json_tokener_parse(r.out);
    cr_assert_not_null(a, "%s", r.out);
    cr_assert(json_object_is_type(a, json_type_array));
    cr_assert_eq(json_object_array_length(a), 4);
    int seen = 0;
    for (size_t i = 0; i < json_object_array_length(a); i++) {
        json_object *o = json_object_array_get_idx(a, i), *p, *v, *s;
        cr_assert(json_object_object_get_ex(o, "params", &p));
        cr_assert(json_object_object_get_ex(o, "verdict", &v));
        json_object_object_get_ex(p, "size", &s);
        json_object *dev;
        json_object_object_get_ex(p, "device", &dev);
        if (json_object_get_int(s) == 64 && !strcmp(json_object_get_string(dev), "cpu")) {
            json_object *pv, *ratio, *old, *nw, *med;
            cr_assert_str_eq(json_object_get_string(v), "slower");
            cr_assert(json_object_object_get_ex(o, "p_value", &pv));
            cr_assert_float_eq(json_object_get_double(pv), 2.0 / 252, 1e-8);
            cr_assert(json_object_object_get_ex(o, "ratio", &ratio));
            cr_assert_float_eq(json_object_get_double(ratio), 1.202 / 1.002, 1e-6);
            cr_assert(json_object_object_get_ex(o, "old", &old));
            cr_assert(json_object_object_get_ex(old, "median", &med));
            cr_assert_float_eq(json_object_get_double(med), 1.002e-3, 1e-12);
            cr_assert(json_object_object_get_ex(o, "new", &nw));
            seen++;
        }
        if (!strcmp(json_object_get_string(dev), "cuda")) {
            json_object *pv;
            cr_assert(json_object_object_get_ex(o, "p_value", &pv));
            cr_assert_null(pv);
            cr_assert_str_eq(json_object_get_string(v), "skipped in OLD");
            seen++;
        }
    }
    cr_assert_eq(seen, 2);
    json_object_put(a);
    result_free(&r);
    /* only-in rows carry null for the missing side */
    r = compare("base", "unmatched", 5, "json");
    a = json_tokener_parse(r.out);
    cr_assert_not_null(a, "%s", r.out);
    cr_assert_eq(json_object_array_length(a), 5);
    json_object *o = json_object_array_get_idx(a, 4), *nw, *old;
    cr_assert(json_object_object_get_ex(o, "old", &old));
    cr_assert_null(old);
    cr_assert(json_object_object_get_ex(o, "new", &nw));
    cr_assert_not_null(nw);
    json_object_put(a);
    result_free(&r);
}

Test(compare, markdown_and_text_tables_are_well_formed)
{
    result r = compare("base", "unmatched", 5, "md");
    cr_assert_eq(r.rc, 0);
    int rows = 0, pipes = -1, sep = 0;
    char *save, *text = strdup(r.out);
    for (char *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
        if (l[0] != '|')
            continue;
        int n = 0;
        for (char *c = l; *c; c++)
            n += *c == '|' && (c == l || c[-1] != '\\');
        if (pipes < 0)
            pipes = n;
        cr_assert_eq(n, pipes, "ragged markdown row: %s", l);
        if (strstr(l, "---"))
            sep++;
        rows++;
    }
    cr_assert_eq(sep, 1);
    cr_assert_eq(rows, 1 + 1 + 5, "%s", r.out);
    cr_assert(strstr(r.out, "| cpu | 512 |"), "%s", r.out);
    cr_assert(strstr(r.out, "only in NEW"), "%s", r.out);
    free(text);
    result_free(&r);

    /* text: every table line as wide as the header, the values aligned */
    r = compare("base", "slower", 5, "text");
    const char *h = strstr(r.out, "\ndevice");
    cr_assert_not_null(h, "%s", r.out);
    const char *v = strstr(h, "verdict");
    cr_assert_not_null(v);
    size_t vcol = (size_t)(v - (h + 1));
    const char *l = strchr(h + 1, '\n') + 1;
    for (int i = 0; i < 4; i++) {
        const char *e = strchr(l, '\n');
        cr_assert((size_t)(e - l) > vcol, "short line");
        cr_assert(l[vcol - 1] == ' ' && l[vcol] != ' ', "verdict not aligned: %.*s", (int)(e - l),
                  l);
        l = e + 1;
    }
    result_free(&r);
}

Test(compare, experiment_folder_means_its_latest_run_and_reruns_keep_last_samples)
{
    char tmpl[] = "/tmp/runner-compare-XXXXXX";
    char *d = mkdtemp(tmpl);
    cr_assert_not_null(d);
    char p[4096], q[4096];
    snprintf(p, sizeof p, "%s/latest", d);
    cr_assert_eq(symlink(fixture("within"), p), 0);
    /* a run whose trial 0 was re-run: its first, partial series is dropped */
    snprintf(q, sizeof q, "%s/rerun", d);
    cr_assert_eq(mkdir(q, 0755), 0);
    snprintf(p, sizeof p, "%s/trials.csv", q);
    FILE *f = fopen(p, "w");
    fputs("trial,workload,device,size,repeats,status,reason,samples,cold,min,median\n"
          "0,matmul,cpu,64,5,ok,,5,,,\n",
          f);
    fclose(f);
    snprintf(p, sizeof p, "%s/samples.csv", q);
    f = fopen(p, "w");
    fputs("trial,sample,seconds,device_seconds\n0,0,9,\n0,1,9,\n"
          "0,0,0.00103,\n0,1,0.001031,\n0,2,0.001032,\n0,3,0.001033,\n0,4,0.001034,\n",
          f);
    fclose(f);

    result r = compare("base", d, 2, "csv");
    cr_assert_eq(r.rc, 1, "%s%s", r.out, r.err);
    result_free(&r);
    r = compare("base", q, 5, "csv");
    cr_assert_eq(r.rc, 0, "%s%s", r.out, r.err);
    csv_table t;
    parse_csv(r.out, &t);
    int i = csv_find(&t, "size", "64", "device", "cpu");
    cr_assert_str_eq(csv_get(&t, i, "new_samples"), "5");
    /* the median column was empty: taken from the samples */
    cr_assert_float_eq(atof(csv_get(&t, i, "new_median")), 0.001032, 1e-12);
    cr_assert_float_eq(atof(csv_get(&t, i, "p_value")), 2.0 / 252, 1e-8);
    csv_free(&t);
    result_free(&r);

    snprintf(p, sizeof p, "%s/latest", d);
    unlink(p);
    snprintf(p, sizeof p, "%s/trials.csv", q);
    unlink(p);
    snprintf(p, sizeof p, "%s/samples.csv", q);
    unlink(p);
    rmdir(q);
    rmdir(d);
}

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
    char p[4096];
    snprintf(p, sizeof p, "%s/trials.csv", d);
    unlink(p);
    snprintf(p, sizeof p, "%s/samples.csv", d);
    unlink(p);
    rmdir(d);
    free(d);
}

/* Rewrites a make_run run's trials.csv with a `noise` column, `busy` set on
 * the trials whose bit is set in `mask`. */
static void set_noise(const char *d, const char *keys, int ntr, const char *const *vals, int n,
                      unsigned mask)
{
    char p[4096];
    snprintf(p, sizeof p, "%s/trials.csv", d);
    FILE *f = fopen(p, "w");
    cr_assert(f);
    fprintf(f, "trial,%s,status,reason,samples,median,load_avg,noise\n", keys);
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
    cr_assert_eq(r.rc, 0, "%s%s", r.out, r.err);
    csv_table t;
    parse_csv(r.out, &t);
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
    cr_assert_eq(r.rc, 0, "%s%s", r.out, r.err);
    parse_csv(r.out, &t);
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
    cr_assert_eq(r.rc, 1, "%s%s", r.out, r.err);
    csv_table t;
    parse_csv(r.out, &t);
    cr_assert_eq(t.nrows, 1 + 2, "%s", r.out);
    int i = csv_find(&t, "size", "64", NULL, NULL);
    cr_assert_str_eq(csv_get(&t, i, "old_runs"), "5");
    cr_assert_str_eq(csv_get(&t, i, "replicates"), "runs");
    cr_assert_str_eq(csv_get(&t, i, "method"), "exact");
    cr_assert_float_eq(atof(csv_get(&t, i, "p_value")), 2.0 / 252, 1e-9);
    cr_assert_str_eq(csv_get(&t, i, "verdict"), "slower");
    /* the noise is the measured spread of the per-run medians: 1.08 / 0.995 - 1 */
    cr_assert_float_eq(atof(csv_get(&t, i, "noise")), 1.08 / 0.995 - 1, 1e-6);
    i = csv_find(&t, "size", "128", NULL, NULL);
    cr_assert_str_eq(csv_get(&t, i, "verdict"), "same", "%s", r.out);
    csv_free(&t);
    result_free(&r);
    /* two runs a side: block medians pooled, the effect gated by the spread;
     * the 6 % shift of trial 128 is significant but within the 8 % noise */
    r = compare_many(oo, 2, nn, 2, NAN, NULL, 0);
    cr_assert_eq(r.rc, 1, "%s%s", r.out, r.err);
    parse_csv(r.out, &t);
    i = csv_find(&t, "size", "128", NULL, NULL);
    cr_assert_str_eq(csv_get(&t, i, "replicates"), "blocks");
    cr_assert_str_eq(csv_get(&t, i, "new_runs"), "2");
    cr_assert(atof(csv_get(&t, i, "q_value")) < 0.05, "%s", r.out);
    cr_assert_str_eq(csv_get(&t, i, "verdict"), "same", "%s", r.out);
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
    cr_assert_eq(r.rc, 0, "%s%s", r.out, r.err);
    csv_table t;
    parse_csv(r.out, &t);
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

/* issue 16: a trial run on a busy machine in either run gets no verdict */
Test(compare, a_trial_run_on_a_busy_machine_is_busy_not_slower)
{
    char tmpl[] = "/tmp/runner-compare-XXXXXX";
    char *d = mkdtemp(tmpl);
    const char *v[] = {"cpu,64", "cpu,128", "cpu,256"};
    double base[] = {1e-3, 1e-3, 1e-3}, nb[] = {1.5e-3, 1.5e-3, 0.5e-3};
    char *a = make_run(d, "a", "device,size", 3, v, base, 1.0, 20);
    char *b = make_run(d, "b", "device,size", 3, v, nb, 1.0, 20);
    set_noise(a, "device,size", 3, v, 20, 0);
    set_noise(b, "device,size", 3, v, 20, 0);
    const char *o[] = {a}, *n[] = {b};
    result r = compare_many(o, 1, n, 1, NAN, NULL, 0);
    cr_assert_eq(r.rc, 1, "quiet: 64 and 128 slower; %s%s", r.out, r.err);
    result_free(&r);
    /* 64 busy in NEW, 256 (faster) busy in OLD: neither has a verdict */
    set_noise(a, "device,size", 3, v, 20, 4);
    set_noise(b, "device,size", 3, v, 20, 1);
    r = compare_many(o, 1, n, 1, NAN, NULL, 0);
    cr_assert_eq(r.rc, 1, "128 is still slower: %s%s", r.out, r.err);
    csv_table t;
    parse_csv(r.out, &t);
    cr_assert_str_eq(csv_get(&t, csv_find(&t, "size", "64", NULL, NULL), "verdict"), "busy");
    cr_assert_str_eq(csv_get(&t, csv_find(&t, "size", "128", NULL, NULL), "verdict"), "slower");
    cr_assert_str_eq(csv_get(&t, csv_find(&t, "size", "256", NULL, NULL), "verdict"), "busy");
    /* the test is still reported */
    cr_assert(atof(csv_get(&t, csv_find(&t, "size", "64", NULL, NULL), "q_value")) < 0.05);
    csv_free(&t);
    result_free(&r);
    /* every slower trial busy: exit 0, and the summary counts them */
    set_noise(b, "device,size", 3, v, 20, 3);
    result rt = {0};
    size_t on, en;
    FILE *out = open_memstream(&rt.out, &on), *err = open_memstream(&rt.err, &en);
    compare_opts opt = {.threshold = NAN, .noise_floor = COMPARE_NOISE_FLOOR, .format = "text"};
    rt.rc = compare_runs(o, 1, n, 1, &opt, out, err);
    fclose(out);
    fclose(err);
    cr_assert_eq(rt.rc, 0, "%s%s", rt.out, rt.err);
    cr_assert(has_line(rt.out, "0 slower, 0 faster, 0 same", "3 busy"), "%s", rt.out);
    cr_assert(has_line(rt.out, "  64  ", "busy"), "%s", rt.out);
    result_free(&rt);
    /* --busy-ok: judged like the others */
    opt.busy_ok = 1;
    out = open_memstream(&rt.out, &on);
    err = open_memstream(&rt.err, &en);
    rt.rc = compare_runs(o, 1, n, 1, &opt, out, err);
    fclose(out);
    fclose(err);
    cr_assert_eq(rt.rc, 1, "%s%s", rt.out, rt.err);
    cr_assert(has_line(rt.out, "2 slower, 1 faster, 0 same", NULL), "%s", rt.out);
    result_free(&rt);
    rm_run(a);
    rm_run(b);
    rmdir(d);
}

/* Rewrites a make_run run's trials.csv with a `noise` and a `throttled_kept`
 * column, trial i's cells noise[i] and kept[i]. */
static void set_quality(const char *d, const char *keys, int ntr, const char *const *vals, int n,
                        const char *const *noise, const char *const *kept)
{
    char p[4096];
    snprintf(p, sizeof p, "%s/trials.csv", d);
    FILE *f = fopen(p, "w");
    cr_assert(f);
    fprintf(f, "trial,%s,status,reason,samples,median,noise,throttled_kept\n", keys);
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

/* A trial run on a throttled CPU (its noise cell,
 * doc/timing.md#load) in either run gets no verdict, like a busy one */
Test(compare, a_trial_run_on_a_throttled_cpu_is_throttled_not_slower)
{
    char tmpl[] = "/tmp/runner-compare-XXXXXX";
    char *d = mkdtemp(tmpl);
    const char *v[] = {"cpu,64", "cpu,128", "cpu,256"};
    double base[] = {1e-3, 1e-3, 1e-3}, nb[] = {1.5e-3, 1.5e-3, 0.5e-3};
    char *a = make_run(d, "a", "device,size", 3, v, base, 1.0, 20);
    char *b = make_run(d, "b", "device,size", 3, v, nb, 1.0, 20);
    /* 64 (slower) throttled in NEW, 256 (faster) in OLD */
    const char *na[] = {"", "", "cv 12.0%; " THROTTLED_CPU}, *nn[] = {THROTTLED_CPU, "", ""};
    const char *none[] = {"", "", ""};
    set_quality(a, "device,size", 3, v, 20, na, none);
    set_quality(b, "device,size", 3, v, 20, nn, none);
    result r = compare_fmt(a, b, "csv", 0);
    cr_assert_eq(r.rc, 1, "128 is still slower: %s%s", r.out, r.err);
    csv_table t;
    parse_csv(r.out, &t);
    int i = csv_find(&t, "size", "64", NULL, NULL);
    cr_assert_str_eq(csv_get(&t, i, "verdict"), "throttled", "%s", r.out);
    cr_assert(atof(csv_get(&t, i, "q_value")) < 0.05, "the test is still reported: %s", r.out);
    cr_assert_str_eq(csv_get(&t, csv_find(&t, "size", "128", NULL, NULL), "verdict"), "slower");
    cr_assert_str_eq(csv_get(&t, csv_find(&t, "size", "256", NULL, NULL), "verdict"),
                     "throttled");
    csv_free(&t);
    result_free(&r);
    rm_run(a);
    rm_run(b);
    rmdir(d);
}

/* GPU samples kept while the device stayed throttled
 * (doc/timing.md#the-machine): throttled_kept > 0 is throttled, 0 or empty is not */
Test(compare, throttled_kept_above_0_is_throttled_and_0_or_empty_is_not)
{
    char tmpl[] = "/tmp/runner-compare-XXXXXX";
    char *d = mkdtemp(tmpl);
    const char *v[] = {"cuda,64", "cuda,128", "cuda,256"};
    double base[] = {1e-3, 1e-3, 1e-3}, nb[] = {1.5e-3, 1.5e-3, 1.5e-3};
    char *a = make_run(d, "a", "device,size", 3, v, base, 1.0, 20);
    char *b = make_run(d, "b", "device,size", 3, v, nb, 1.0, 20);
    const char *none[] = {"", "", ""}, *kept[] = {"3", "0", ""};
    set_quality(b, "device,size", 3, v, 20, none, kept);
    result r = compare_fmt(a, b, "csv", 0);
    cr_assert_eq(r.rc, 1, "%s%s", r.out, r.err);
    csv_table t;
    parse_csv(r.out, &t);
    cr_assert_str_eq(csv_get(&t, csv_find(&t, "size", "64", NULL, NULL), "verdict"),
                     "throttled", "%s", r.out);
    cr_assert_str_eq(csv_get(&t, csv_find(&t, "size", "128", NULL, NULL), "verdict"), "slower",
                     "%s", r.out);
    cr_assert_str_eq(csv_get(&t, csv_find(&t, "size", "256", NULL, NULL), "verdict"), "slower",
                     "%s", r.out);
    csv_free(&t);
    result_free(&r);
    rm_run(a);
    rm_run(b);
    rmdir(d);
}

/* every slower-looking trial throttled: exit 0 (and matched: not 2), the
 * summary counts them, every format carries the verdict; --busy-ok judges
 * them like the others; busy wins over throttled */
Test(compare, throttled_trials_are_counted_exit_0_and_busy_ok_judges_them)
{
    char tmpl[] = "/tmp/runner-compare-XXXXXX";
    char *d = mkdtemp(tmpl);
    const char *v[] = {"cpu,64", "cpu,128", "cpu,256"};
    double base[] = {1e-3, 1e-3, 1e-3}, nb[] = {1.5e-3, 1.5e-3, 0.5e-3};
    char *a = make_run(d, "a", "device,size", 3, v, base, 1.0, 20);
    char *b = make_run(d, "b", "device,size", 3, v, nb, 1.0, 20);
    const char *noise[] = {THROTTLED_CPU, "", ""}, *kept[] = {"", "2", ""};
    set_quality(b, "device,size", 3, v, 20, noise, kept);
    result r = compare_fmt(a, b, "text", 0);
    cr_assert_eq(r.rc, 0, "%s%s", r.out, r.err);
    cr_assert(has_line(r.out, "0 slower, 1 faster, 0 same",
                       ", 2 throttled (run on a throttled CPU or GPU: inconclusive)"),
              "%s", r.out);
    cr_assert(!strstr(r.out, "busy"), "%s", r.out);
    cr_assert(has_line(r.out, "  64  ", "throttled"), "%s", r.out);
    cr_assert(has_line(r.out, " 128  ", "throttled"), "%s", r.out);
    result_free(&r);
    r = compare_fmt(a, b, "md", 0);
    cr_assert_eq(r.rc, 0, "%s%s", r.out, r.err);
    cr_assert(has_line(r.out, "| 64 |", "| throttled |"), "%s", r.out);
    cr_assert(has_line(r.out, "2 throttled (", NULL), "%s", r.out);
    result_free(&r);
    r = compare_fmt(a, b, "json", 0);
    cr_assert_eq(r.rc, 0, "%s%s", r.out, r.err);
    json_object *j = json_tokener_parse(r.out), *row, *verdict;
    cr_assert(j && json_object_array_length(j) == 3, "%s", r.out);
    row = json_object_array_get_idx(j, 0);
    cr_assert(json_object_object_get_ex(row, "verdict", &verdict));
    cr_assert_str_eq(json_object_get_string(verdict), "throttled");
    json_object_put(j);
    result_free(&r);
    /* --busy-ok: judged like the others */
    r = compare_fmt(a, b, "text", 1);
    cr_assert_eq(r.rc, 1, "%s%s", r.out, r.err);
    cr_assert(has_line(r.out, "2 slower, 1 faster, 0 same", NULL), "%s", r.out);
    cr_assert(!strstr(r.out, "throttled"), "%s", r.out);
    result_free(&r);
    /* 64 busy as well: busy wins; 128 still throttled */
    const char *both[] = {"busy: other processes used 1.37 cores; " THROTTLED_CPU, "", ""};
    set_quality(b, "device,size", 3, v, 20, both, kept);
    r = compare_fmt(a, b, "csv", 0);
    cr_assert_eq(r.rc, 0, "%s%s", r.out, r.err);
    csv_table t;
    parse_csv(r.out, &t);
    cr_assert_str_eq(csv_get(&t, csv_find(&t, "size", "64", NULL, NULL), "verdict"), "busy");
    cr_assert_str_eq(csv_get(&t, csv_find(&t, "size", "128", NULL, NULL), "verdict"),
                     "throttled");
    csv_free(&t);
    result_free(&r);
    r = compare_fmt(a, b, "text", 0);
    cr_assert(has_line(r.out, "0 slower, 1 faster, 0 same",
                       ", 1 busy (run on a busy machine: inconclusive), 1 throttled ("),
              "%s", r.out);
    result_free(&r);
    rm_run(a);
    rm_run(b);
    rmdir(d);
}
