/* test_integers.c - integers in an experiment file are exact over the whole
 * 64-bit range (doc/experiment-file.md#axes): generated axes beyond 2^53,
 * values near 2^63 as a Lua workload sees them, duplicates that share a
 * double, and the error past a key's limit. */
#include "runproc.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The Lua workload beside each experiment: what it sees of x. */
static const char w_lua[] = "return {\n"
                            "  defaults = {x = 0},\n"
                            "  run = function(ctx, p, s) end,\n"
                            "  extras = function(ctx, p, s)\n"
                            "    return {seen = math.type(p.x) .. ' ' .. tostring(p.x)}\n"
                            "  end,\n"
                            "}\n";

/* `runner --dry-run` of yaml (with the Lua workload file beside it). */
static void dry_run(const char *yaml, proc_out *r)
{
    char *d = dir_with("w.lua", w_lua);
    write_text(d, "e.yaml", yaml);
    char path[4096];
    snprintf(path, sizeof path, "%s/e.yaml", d);
    run((char *[]){"--dry-run", path, NULL}, r);
    rm_rf(d);
    free(d);
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

/* The first column of a dry run that must pass (a static buffer). */
static const char *dry_column(const char *yaml)
{
    static char got[4096];
    proc_out r;
    dry_run(yaml, &r);
    cr_assert_eq(r.status, 0, "%s", r.err);
    first_column(r.out, got, sizeof got);
    return got;
}

/* A dry run that must exit 2 saying `msg`. */
static void dry_refused(const char *yaml, const char *msg)
{
    proc_out r;
    dry_run(yaml, &r);
    cr_expect_eq(r.status, 2);
    cr_expect(strstr(r.err, msg), "%s", r.err);
}

Test(integers, range_beyond_2_53_is_exact)
{
    const char *got = dry_column(
        "workload: noop\nsweep:\n  size: {range: [9007199254740993, 9007199254740997, 2]}\n");
    cr_expect_str_eq(got, "9007199254740993 9007199254740995 9007199254740997");
}

Test(integers, range_over_the_whole_64_bit_span)
{
    const char *got = dry_column("workload: lua:w.lua\nsweep:\n"
                                 "  x: {range: [-9223372036854775808, 9223372036854775807, "
                                 "4611686018427387904]}\n");
    cr_expect_str_eq(got, "-9223372036854775808 -4611686018427387904 0 4611686018427387904");
}

Test(integers, geom_of_integers_is_exact)
{
    const char *got =
        dry_column("workload: noop\nsweep:\n  size: {geom: [3, 4611686018427387904, 3]}\n");
    /* 3^1 .. 3^39; 3^34 and up are past 2^53 */
    cr_expect(strstr(got, " 16677181699666569 50031545098999707 "), "%s", got);
    cr_expect_str_eq(strrchr(got, ' '), " 4052555153018976267");
}

/* Lua parameters near 2^63 stay integers, never wrap negative */
Test(integers, lua_sees_values_near_2_63)
{
    char *d = dir_with("w.lua", w_lua);
    proc_out r;
    csv_table t;
    run_trials_in(d,
                  "workload: lua:w.lua\nrepeats: 1\nwarmups: 0\n"
                  "sweep:\n  x: {range: [9223372036854775805, 9223372036854775807]}\n",
                  0, &r, &t);
    cr_assert_eq(t.nrows, 4);
    for (int i = 1; i <= 3; i++) {
        char want[64];
        snprintf(want, sizeof want, "integer 922337203685477580%d", 4 + i);
        cr_expect_str_eq(cell(&t, i, "seen"), want);
    }
    trials_done(&t, d);
}

/* two integers that round to the same double are two values */
Test(integers, distinct_values_past_2_53_are_no_duplicates)
{
    proc_out r;
    dry_run("workload: noop\nsweep:\n  seed: [9223372036854775807, 9223372036854775806]\n", &r);
    cr_expect_eq(r.status, 0, "%s", r.err);
    dry_refused("workload: noop\nsweep:\n  seed: [9007199254740993, 9007199254740993]\n",
                "axis 'seed' lists 9007199254740993 twice");
}

Test(integers, past_a_limit_says_the_limit)
{
    dry_refused("workload: noop\nsize: 4611686018427387905\n",
                ":2:7: error: 'size' must be between 0 and 2^62 (4611686018427387904), not "
                "4611686018427387905");
    dry_refused("workload: noop\nsize: 9223372036854775808\n",
                ":2:7: error: 'size': integer 9223372036854775808 is out of range");
}
