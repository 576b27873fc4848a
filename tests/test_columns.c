/* test_columns.c - the runner's columns of trials.csv are reserved (issue
 * 34, item 1): a Lua workload's extras() naming one fails its trial with a
 * message naming the column and the reserved list; a hook's after_trial()
 * column naming one (or one the workload wrote) is refused with a warning;
 * neither changes a measured or identifying cell. */
#include "base/csv.h"
#include "experiment/columns.h"
#include "runproc.h"

#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

Test(columns, reserved_names)
{
    static const char *const yes[] = {"trial",  "status",    "reason",  "samples",
                                      "median", "min",       "gflops",  "gbps",
                                      "noise",  "load_avg",  "stop_reason", "warmup_calls",
                                      "cpus",   "device_median", "cold_context", "lua_warning"};
    for (size_t i = 0; i < sizeof yes / sizeof *yes; i++)
        cr_expect(columns_reserved(NULL, yes[i]), "%s", yes[i]);
    static const char *const no[] = {"loss", "us", "runs", "medians", "Median", "trials"};
    for (size_t i = 0; i < sizeof no / sizeof *no; i++)
        cr_expect(!columns_reserved(NULL, no[i]), "%s", no[i]);
    char list[2048];
    columns_reserved_list(NULL, list, sizeof list);
    cr_expect(!strncmp(list, "trial, status, reason, samples,", 31), "%s", list);
    cr_expect(strstr(list, "device_*, cold_*"), "%s", list);
    /* a short buffer: cut at a name, marked */
    char small[40];
    columns_reserved_list(NULL, small, sizeof small);
    cr_expect(strstr(small, ", ...") && strlen(small) < sizeof small, "%s", small);
}

/* The median of trial `id`'s samples in RUN/samples.csv. */
static double samples_median(const char *d, const char *id)
{
    char p[4096];
    snprintf(p, sizeof p, "%s/run/samples.csv", d);
    csv_table s;
    cr_assert_eq(csv_read(p, &s), 0);
    double x[64];
    int n = 0;
    for (int r = 1; r < s.nrows && n < 64; r++)
        if (!strcmp(s.rows[r][0], id))
            x[n++] = strtod(s.rows[r][2], NULL);
    csv_free(&s);
    cr_assert_gt(n, 0);
    for (int i = 1; i < n; i++) /* insertion sort: a few samples */
        for (int j = i; j > 0 && x[j - 1] > x[j]; j--) {
            double t = x[j];
            x[j] = x[j - 1];
            x[j - 1] = t;
        }
    return n % 2 ? x[n / 2] : (x[n / 2 - 1] + x[n / 2]) / 2;
}

/* Each header name once. */
static void expect_unique_header(const csv_table *t)
{
    for (int i = 0; i < t->nfields[0]; i++)
        for (int j = i + 1; j < t->nfields[0]; j++)
            cr_expect(strcmp(t->rows[0][i], t->rows[0][j]), "column %s twice", t->rows[0][i]);
}

Test(columns, lua_extras_with_a_reserved_name_fail_the_trial, .timeout = 60)
{
    char *d = dir_with("w.lua",
                       "return {run = function(ctx, p, s) end,\n"
                       "  extras = function(ctx, p, s) return {median = 42, fine = 1} end}\n");
    proc_out r;
    run_yaml_in(d, "name: e\nworkload: lua:w.lua\nrepeats: 3\nwarmups: 0\nsweep:\n  size: [4, 8]\n",
                NULL, &r);
    cr_expect_eq(r.status, 1, "%s", r.err);
    cr_expect(strstr(r.err, "extras() returned column `median`"), "%s", r.err);
    cr_expect(strstr(r.err, "reserved: trial, size,"), "%s", r.err);
    csv_table t;
    read_trials(d, &t);
    expect_unique_header(&t);
    cr_assert_eq(t.nrows, 3);
    int st = csv_col(&t, "status"), med = csv_col(&t, "median"), rs = csv_col(&t, "reason");
    for (int i = 1; i < t.nrows; i++) {
        cr_expect_str_eq(t.rows[i][st], "failed");
        cr_expect(strstr(t.rows[i][rs], "`median`"), "%s", t.rows[i][rs]);
        /* the measured median stands */
        double want = samples_median(d, t.rows[i][0]), got = strtod(t.rows[i][med], NULL);
        cr_expect(fabs(got - want) <= 1e-8 * want, "median %s, samples say %.9g", t.rows[i][med],
                  want);
    }
    trials_done(&t, d);
}

Test(columns, hook_columns_with_reserved_names_are_refused, .timeout = 60)
{
    char *d = dir_with("w.lua",
                       "return {run = function(ctx, p, s) end,\n"
                       "  extras = function(ctx, p, s) return {fine = 1} end}\n");
    write_text(d, "h.lua",
               "return {after_trial = function(t, r) return {median = r.median * 1e6, "
               "trial = 7, status = 'ok', size = 9, fine = 5, noise = 'x', us = 3} end}\n");
    proc_out r;
    run_yaml_in(d,
                "name: e\nworkload: lua:w.lua\nhooks: h.lua\nrepeats: 3\nwarmups: 0\n"
                "sweep:\n  size: [4, 8]\n",
                NULL, &r);
    cr_expect_eq(r.status, 0, "%s", r.err);
    cr_expect(strstr(r.err, "warning: trial 0: after_trial()'s `fine`, `median`, `noise`, "
                            "`size`, `status`, `trial` not saved"),
              "%s", r.err);
    cr_expect(strstr(r.err, "reserved: trial, size,"), "%s", r.err);
    csv_table t;
    read_trials(d, &t);
    expect_unique_header(&t);
    cr_assert_eq(t.nrows, 3);
    int st = csv_col(&t, "status"), med = csv_col(&t, "median"), sz = csv_col(&t, "size");
    int us = csv_col(&t, "us"), fine = csv_col(&t, "fine"), noise = csv_col(&t, "noise");
    cr_assert(us >= 0 && fine >= 0);
    for (int i = 1; i < t.nrows; i++) {
        char id[8];
        snprintf(id, sizeof id, "%d", i - 1);
        cr_expect_str_eq(t.rows[i][0], id); /* the trial number */
        cr_expect_str_eq(t.rows[i][st], "ok");
        cr_expect_str_eq(t.rows[i][sz], i == 1 ? "4" : "8");
        cr_expect_str_eq(t.rows[i][us], "3");
        cr_expect_str_eq(t.rows[i][fine], "1"); /* the workload's, not the hook's */
        if (noise >= 0)
            cr_expect_neq(strcmp(t.rows[i][noise], "x"), 0);
        double want = samples_median(d, id), got = strtod(t.rows[i][med], NULL);
        cr_expect(fabs(got - want) <= 1e-8 * want, "median %s, samples say %.9g", t.rows[i][med],
                  want);
    }
    csv_free(&t);
    /* --resume finds every trial done: the trial numbers are the runner's */
    char y[4096], rd[4096];
    snprintf(y, sizeof y, "%s/e.yaml", d);
    snprintf(rd, sizeof rd, "%s/run", d);
    run((char *[]){"--quiet", "--no-plots", "--run-dir", rd, y, NULL}, &r);
    cr_expect_eq(r.status, 0, "%s", r.err);
    read_trials(d, &t);
    cr_expect_eq(t.nrows, 3, "rows %d after running into the folder again", t.nrows);
    trials_done(&t, d);
}
