/* test_compare_history.c - `runner compare` with one run a side takes the
 * history database's run-to-run spread as the least noise of a trial where
 * it holds at least 3 earlier ok runs of it on the same machine
 * (doc/compare.md#what-one-run-can-show): a change inside what earlier runs
 * of the same code wandered is not `slower`. */
#include "base/csv.h"
#include "base/util.h"
#include "runproc.h"

#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define META                                                                                  \
    "{\"experiment\": {\"name\": \"g\"}, \"start\": \"2026-01-%02dT00:00:00Z\", \"finished\": " \
    "true, \"host\": {\"cpu_model\": \"Test CPU\", \"cores\": 2}}"

/* D/g/NAME: a run of experiment g on day `day`, one trial (size=1) of 5
 * blocks of 5 samples on CPUs 0 and 1 in turn, around `med` seconds with a
 * 1 % spread between blocks. */
static char *run_of(const char *d, const char *name, int day, double med)
{
    static const double j[5] = {0.01, -0.008, 0.0, 0.006, -0.01};
    char *g = xasprintf("%s/g", d), *dir = xasprintf("%s/%s", g, name);
    mkdir(g, 0755);
    cr_assert_eq(mkdir(dir, 0755), 0);
    char *meta = xasprintf(META, day);
    strbuf s = {0};
    sb_puts(&s, "trial,sample,seconds,device_seconds\n");
    for (int b = 0, k = 0; b < 5; b++)
        for (int q = 0; q < 5; q++)
            sb_printf(&s, "0,%d,%.9g,\n", k++, med * (1 + j[b]) * (1 + 0.001 * q));
    char *t = xasprintf("trial,size,status,reason,samples,median,blocks,noise\n"
                        "0,1,ok,,25,%.9g,0:5 1:5 0:5 1:5 0:5,\n",
                        med);
    write_text(dir, "meta.json", meta);
    write_text(dir, "trials.csv", t);
    write_text(dir, "samples.csv", s.s);
    sb_free(&s);
    FREE_ALL(meta, t, g);
    return dir;
}

/* Six earlier runs of the same code, 0.8 to 1.3 ms, in D/history.sqlite
 * (the results folder's database: beside the experiment's folder). */
static void history_of(const char *d)
{
    static const double m[6] = {1e-3, 1.3e-3, 0.8e-3, 1.25e-3, 0.9e-3, 1.15e-3};
    char *g = xasprintf("%s/g", d), *db = xasprintf("%s/history.sqlite", d);
    for (int i = 0; i < 6; i++) {
        char name[16];
        snprintf(name, sizeof name, "old%d", i);
        free(run_of(d, name, i + 1, m[i]));
    }
    proc_out r;
    run((char *[]){"history", "import", g, "--history", db, NULL}, &r);
    cr_assert_eq(r.status, 0, "%s%s", r.out, r.err);
    FREE_ALL(g, db);
}

static const char *verdict_of(const char *csv, const char *col, char *buf, size_t len)
{
    csv_table v;
    csv_parse(xstrdup(csv), strlen(csv), &v);
    int c = csv_col(&v, col);
    cr_assert(c >= 0 && v.nrows == 2, "%s", csv);
    snprintf(buf, len, "%s", v.rows[1][c]);
    csv_free(&v);
    return buf;
}

Test(compare_history, a_change_inside_the_historys_spread_is_not_slower, .timeout = 60)
{
    char *d = tmpdir();
    history_of(d);
    char *a = run_of(d, "a", 10, 1e-3), *b = run_of(d, "b", 11, 1.2e-3);
    char buf[64];
    proc_out r;
    /* the runs alone: tight blocks, 1.2x apart: slower */
    run((char *[]){"compare", a, b, "--no-history", "--format", "csv", NULL}, &r);
    cr_assert_eq(r.status, 1, "%s%s", r.out, r.err);
    cr_expect_str_eq(verdict_of(r.out, "verdict", buf, sizeof buf), "slower");
    /* the results folder's history: earlier runs 0.8-1.3 ms, so 1.2x is noise */
    run((char *[]){"compare", a, b, "--format", "csv", NULL}, &r);
    cr_assert_eq(r.status, 3, "%s%s", r.out, r.err);
    cr_expect_str_eq(verdict_of(r.out, "verdict", buf, sizeof buf), "inconclusive");
    cr_expect_str_eq(verdict_of(r.out, "basis", buf, sizeof buf), "history");
    double det = atof(verdict_of(r.out, "detectable", buf, sizeof buf));
    cr_expect(det > 0.2, "detectable %g", det);
    /* the text says where the noise came from */
    run((char *[]){"compare", a, b, NULL}, &r);
    cr_expect(strstr(r.out, "the spread of up to 6 earlier runs in the history"), "%s", r.out);
    /* a 3x slowdown is beyond it */
    char *c = run_of(d, "c", 12, 3e-3);
    run((char *[]){"compare", a, c, "--format", "csv", NULL}, &r);
    cr_assert_eq(r.status, 1, "%s%s", r.out, r.err);
    cr_expect_str_eq(verdict_of(r.out, "verdict", buf, sizeof buf), "slower");
    FREE_ALL(a, b, c, d);
}

/* Two earlier runs are too few: the runs' own blocks decide. */
Test(compare_history, fewer_than_3_earlier_runs_leave_the_blocks_alone, .timeout = 60)
{
    char *d = tmpdir(), *g = xasprintf("%s/g", d), *db = xasprintf("%s/history.sqlite", d);
    free(run_of(d, "old0", 1, 1e-3));
    free(run_of(d, "old1", 2, 1.3e-3));
    proc_out r;
    run((char *[]){"history", "import", g, "--history", db, NULL}, &r);
    cr_assert_eq(r.status, 0, "%s%s", r.out, r.err);
    char *a = run_of(d, "a", 10, 1e-3), *b = run_of(d, "b", 11, 1.2e-3);
    char buf[64];
    run((char *[]){"compare", a, b, "--format", "csv", NULL}, &r);
    cr_assert_eq(r.status, 1, "%s%s", r.out, r.err);
    cr_expect_str_eq(verdict_of(r.out, "basis", buf, sizeof buf), "blocks");
    FREE_ALL(a, b, g, db, d);
}

Test(compare_history, a_named_database_that_is_not_there_exits_2)
{
    char *d = tmpdir();
    char *a = run_of(d, "a", 10, 1e-3), *b = run_of(d, "b", 11, 1.2e-3);
    char *db = xasprintf("%s/none.sqlite", d);
    expect_exit((char *[]){"compare", a, b, "--history", db, NULL}, 2, "no history database at");
    expect_exit((char *[]){"compare", a, b, "--history", NULL}, 2, "--history needs a file");
    /* a file that is no database */
    char *bad = xasprintf("%s/bad.sqlite", d);
    write_text(d, "bad.sqlite", "not a database");
    proc_out r;
    run((char *[]){"compare", a, b, "--history", bad, NULL}, &r);
    cr_expect_eq(r.status, 2, "%s%s", r.out, r.err);
    FREE_ALL(a, b, db, bad, d);
}
