/* test_compare.c - `runner compare` on the run folders of
 * tests/fixtures_compare/ (see make_fixtures.py there for what each one
 * holds): verdicts, exit codes, options, formats. */
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
    /* cpu 64 is 3 % slower (p = 0.008); cpu 128 9 % slower but not
     * significant, and its samples could not have shown 5 %: inconclusive
     * (doc/compare.md#what-one-run-can-show), exit 3, not a pass */
    result r = compare("base", "within", 5, "text");
    cr_assert_eq(r.rc, 3, "%s%s", r.out, r.err);
    cr_assert(has_line(r.out, "cpu       64", "same"), "%s", r.out);
    cr_assert(has_line(r.out, "cpu      128", "inconclusive (detectable"), "%s", r.out);
    cr_assert(has_line(r.out, "skipped in both", NULL), "%s", r.out);
    result_free(&r);
    r = compare("base", "within", 2, "text");
    cr_assert_eq(r.rc, 1, "%s%s", r.out, r.err);
    cr_assert(has_line(r.out, "cpu       64", "slower"), "%s", r.out);
    cr_assert(has_line(r.out, "cpu      128", "inconclusive"), "%s", r.out);
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
    /* a run against itself: every ok trial the same, p = 1 (at the default
     * threshold: with --threshold 0 no spread could show every change, and
     * the verdict is inconclusive) */
    r = compare("base", "base", NAN, "csv");
    cr_assert_eq(r.rc, 0, "%s", r.out);
    csv_table t;
    parse_csv(r.out, &t);
    for (int i = 1; i < t.nrows; i++)
        if (!strcmp(csv_get(&t, i, "old_status"), "ok")) {
            expect_cells(&t, i, "verdict", "same", "p_value", "1", NULL);
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
    csv_table t;
    result_table(&r, 0, &t);
    cr_assert_eq(t.nrows, 1 + 5, "%s", r.out);
    int i = csv_find(&t, "size", "256", NULL, NULL);
    expect_cells(&t, i, "verdict", "only in OLD", "new_trial", "", NULL);
    i = csv_find(&t, "size", "512", NULL, NULL);
    expect_cells(&t, i, "verdict", "only in NEW", "new_trial", "2", NULL);
    i = csv_find(&t, "size", "64", "device", "cpu");
    expect_cells(&t, i, "verdict", "failed in NEW", "new_status", "failed", "p_value", "", NULL);
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
    expect_cells(&t, i, "old_trial", "0", "new_trial", "2", "verdict", "slower", "method", "exact",
                 NULL);
    cr_assert_float_eq(atof(csv_get(&t, i, "p_value")), 2.0 / 252, 1e-8);
    cr_assert_float_eq(atof(csv_get(&t, i, "ratio")), 1.202 / 1.002, 1e-6);
    i = csv_find(&t, "size", "256", NULL, NULL);
    expect_cells(&t, i, "old_trial", "2", "new_trial", "0", NULL);
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
    csv_table t;
    result_table(&r, 0, &t);
    int i = csv_find(&t, "size", "64", "device", "cpu");
    cr_assert_str_eq(csv_get(&t, i, "new_samples"), "5");
    /* the median column was empty: taken from the samples */
    cr_assert_float_eq(atof(csv_get(&t, i, "new_median")), 0.001032, 1e-12);
    cr_assert_float_eq(atof(csv_get(&t, i, "p_value")), 2.0 / 252, 1e-8);
    csv_free(&t);
    result_free(&r);

    rm_rf(d); /* its latest link, not what the link names */
}
