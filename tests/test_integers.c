/* test_integers.c - integers in an experiment file are exact over the whole
 * 64-bit range (doc/experiment-file.md#axes): generated axes beyond 2^53,
 * values near 2^63 as a Lua workload sees them, duplicates that share a
 * double, and the error past a key's limit. */
#include "runproc.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* `runner --dry-run` of yaml (with a Lua workload file beside it). */
static char *dry_run(const char *yaml, proc_out *r)
{
    char *d = dir_with("w.lua",
                       "return {\n"
                       "  defaults = {x = 0},\n"
                       "  run = function(ctx, p, s) end,\n"
                       "  extras = function(ctx, p, s)\n"
                       "    return {seen = math.type(p.x) .. ' ' .. tostring(p.x)}\n"
                       "  end,\n"
                       "}\n");
    write_text(d, "e.yaml", yaml);
    char path[4096];
    snprintf(path, sizeof path, "%s/e.yaml", d);
    run((char *[]){"--dry-run", path, NULL}, r);
    return d;
}

/* The first column of each dry-run row after the header, space-joined. */
static void first_column(const char *out, char *buf, size_t n)
{
    buf[0] = '\0';
    const char *p = strchr(out, '\n');
    while (p && p[1]) {
        p++;
        size_t l = strcspn(p, ",\n");
        if (buf[0])
            strncat(buf, " ", n - strlen(buf) - 1);
        strncat(buf, p, l < n - strlen(buf) - 1 ? l : n - strlen(buf) - 1);
        p = strchr(p, '\n');
    }
}

Test(integers, range_beyond_2_53_is_exact)
{
    proc_out r;
    char *d = dry_run("workload: noop\n"
                      "sweep:\n"
                      "  size: {range: [9007199254740993, 9007199254740997, 2]}\n",
                      &r);
    cr_assert_eq(r.status, 0, "%s", r.err);
    char got[4096];
    first_column(r.out, got, sizeof got);
    cr_expect_str_eq(got, "9007199254740993 9007199254740995 9007199254740997");
    free(d);
}

Test(integers, range_over_the_whole_64_bit_span)
{
    proc_out r;
    char *d = dry_run("workload: lua:w.lua\n"
                      "sweep:\n"
                      "  x: {range: [-9223372036854775808, 9223372036854775807, "
                      "4611686018427387904]}\n",
                      &r);
    cr_assert_eq(r.status, 0, "%s", r.err);
    char got[4096];
    first_column(r.out, got, sizeof got);
    cr_expect_str_eq(got, "-9223372036854775808 -4611686018427387904 0 4611686018427387904");
    free(d);
}

Test(integers, geom_of_integers_is_exact)
{
    proc_out r;
    char *d = dry_run("workload: noop\n"
                      "sweep:\n"
                      "  size: {geom: [3, 4611686018427387904, 3]}\n",
                      &r);
    cr_assert_eq(r.status, 0, "%s", r.err);
    char got[4096];
    first_column(r.out, got, sizeof got);
    /* 3^1 .. 3^39; 3^34 and up are past 2^53 */
    cr_expect(strstr(got, " 16677181699666569 50031545098999707 "), "%s", got);
    const char *last = strrchr(got, ' ');
    cr_expect_str_eq(last, " 4052555153018976267");
    free(d);
}

/* Lua parameters near 2^63 stay integers, never wrap negative */
Test(integers, lua_sees_values_near_2_63)
{
    char *d = dir_with("w.lua",
                       "return {\n"
                       "  defaults = {x = 0},\n"
                       "  run = function(ctx, p, s) end,\n"
                       "  extras = function(ctx, p, s)\n"
                       "    return {seen = math.type(p.x) .. ' ' .. tostring(p.x)}\n"
                       "  end,\n"
                       "}\n");
    proc_out r;
    run_yaml_in(d,
                "workload: lua:w.lua\n"
                "repeats: 1\n"
                "warmups: 0\n"
                "sweep:\n"
                "  x: {range: [9223372036854775805, 9223372036854775807]}\n",
                NULL, &r);
    cr_assert_eq(r.status, 0, "%s", r.err);
    csv_table t;
    read_trials(d, &t);
    int c = csv_col(&t, "seen");
    cr_assert_geq(c, 0);
    cr_assert_eq(t.nrows, 4);
    cr_expect_str_eq(t.rows[1][c], "integer 9223372036854775805");
    cr_expect_str_eq(t.rows[2][c], "integer 9223372036854775806");
    cr_expect_str_eq(t.rows[3][c], "integer 9223372036854775807");
    csv_free(&t);
    free(d);
}

/* two integers that round to the same double are two values */
Test(integers, distinct_values_past_2_53_are_no_duplicates)
{
    proc_out r;
    char *d = dry_run("workload: noop\n"
                      "sweep:\n"
                      "  seed: [9223372036854775807, 9223372036854775806]\n",
                      &r);
    cr_expect_eq(r.status, 0, "%s", r.err);
    free(d);
    d = dry_run("workload: noop\n"
                "sweep:\n"
                "  seed: [9007199254740993, 9007199254740993]\n",
                &r);
    cr_expect_eq(r.status, 2);
    cr_expect(strstr(r.err, "axis 'seed' lists 9007199254740993 twice"), "%s", r.err);
    free(d);
}

Test(integers, past_a_limit_says_the_limit)
{
    proc_out r;
    char *d = dry_run("workload: noop\nsize: 4611686018427387905\n", &r);
    cr_expect_eq(r.status, 2);
    cr_expect(strstr(r.err, ":2:7: error: 'size' must be between 0 and 2^62 "
                            "(4611686018427387904), not 4611686018427387905"),
              "%s", r.err);
    free(d);
    d = dry_run("workload: noop\nsize: 9223372036854775808\n", &r);
    cr_expect_eq(r.status, 2);
    cr_expect(strstr(r.err, ":2:7: error: 'size': integer 9223372036854775808 is out of range"),
              "%s", r.err);
    free(d);
}
