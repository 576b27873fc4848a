/* test_gate_blind.c - `runner gate` never passes where it could not judge
 * (doc/history.md#runner-gate): a step inside its window, medians of 0, a
 * trial that failed or went missing, negative medians imported, a history
 * on two clock ticks, a detectable change over --threshold. */
#include "base/util.h"
#include "runproc.h"

#include <criterion/criterion.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* A run folder D/runs/NAME of experiment g started at day `day` of January,
 * its trials table `trials` (header included). */
static char *run_with(const char *d, const char *name, int day, const char *trials)
{
    char *runs = xasprintf("%s/runs", d), *dir = xasprintf("%s/%s", runs, name);
    mkdir(runs, 0755);
    cr_assert_eq(mkdir(dir, 0755), 0);
    char *meta = xasprintf("{\"experiment\": {\"name\": \"g\"}, \"start\": "
                           "\"2026-01-%02dT00:00:00Z\", \"finished\": true, \"host\": "
                           "{\"cpu_model\": \"Test CPU\", \"cores\": 2}}",
                           day);
    write_text(dir, "meta.json", meta);
    write_text(dir, "trials.csv", trials);
    write_text(dir, "samples.csv", "trial,sample,seconds,device_seconds\n");
    free(meta);
    free(runs);
    return dir;
}

/* n earlier runs of one trial (size=1) with these medians, imported into
 * D/h.sqlite; the runs are moved out of D/runs afterwards. */
static char *history(const char *d, const double *med, int n)
{
    for (int i = 0; i < n; i++) {
        char name[16], *t = xasprintf("trial,size,status,median\n0,1,ok,%.9g\n1,2,ok,0.002\n", med[i]);
        snprintf(name, sizeof name, "old%02d", i);
        free(run_with(d, name, i + 1, t));
        free(t);
    }
    char *db = xasprintf("%s/h.sqlite", d), *runs = xasprintf("%s/runs", d);
    proc_out r;
    run((char *[]){"history", "import", runs, "--history", db, NULL}, &r);
    cr_assert_eq(r.status, 0, "%s", r.err);
    char *old = xasprintf("%s/imported", d);
    cr_assert_eq(rename(runs, old), 0);
    free(old);
    free(runs);
    return db;
}

static int gate(const char *dir, const char *db, proc_out *r)
{
    run((char *[]){"gate", (char *)dir, "--history", (char *)db, NULL}, r);
    return r->status;
}

/* 5 runs at 3 ms, then 5 at 1 ms: a new run back at 3 ms is slower (the
 * step does not make the history's noise wide). */
Test(gate_blind, a_step_inside_the_window_does_not_hide_a_slowdown)
{
    char *d = tmpdir();
    double m[10];
    for (int i = 0; i < 10; i++)
        m[i] = (i < 5 ? 3e-3 : 1e-3) * (1 + 0.01 * ((i * 7) % 3 - 1));
    char *db = history(d, m, 10);
    char *now = run_with(d, "now", 20, "trial,size,status,median\n0,1,ok,0.003\n1,2,ok,0.002\n");
    proc_out r;
    cr_assert_eq(gate(now, db, &r), 1, "%s%s", r.out, r.err);
    cr_assert(strstr(r.out, "slower"), "%s", r.out);
    cr_assert(strstr(r.out, "detectable"), "%s", r.out);
    free(now), free(db);
}

/* A median of 0 (a spawn-corrected trial) is no time: inconclusive, never
 * `faster` and never `same`. */
Test(gate_blind, a_median_of_0_is_inconclusive)
{
    char *d = tmpdir();
    double m[6] = {3e-3, 3.01e-3, 2.99e-3, 3e-3, 3.02e-3, 2.98e-3};
    char *db = history(d, m, 6);
    char *now = run_with(d, "now", 20, "trial,size,status,median\n0,1,ok,0\n1,2,ok,0.002\n");
    proc_out r;
    cr_assert_eq(gate(now, db, &r), 3, "%s%s", r.out, r.err);
    cr_assert(strstr(r.out, "no positive median"), "%s", r.out);
    cr_assert_null(strstr(r.out, "faster"), "%s", r.out);
    free(now), free(db);
    /* a history of medians of 0 (recorded by an older runner) and a run of
     * 0: nothing to compare, inconclusive, not `same` */
    char *d2 = tmpdir();
    double z[5] = {0, 0, 0, 0, 0};
    db = history(d2, z, 5);
    now = run_with(d2, "now", 20, "trial,size,status,median\n0,1,ok,0\n1,2,ok,0.002\n");
    cr_assert_eq(gate(now, db, &r), 3, "%s%s", r.out, r.err);
    free(now), free(db);
}

/* A trial ok in its 5 earlier runs that times out now is a failure (1); a
 * trial of the last earlier run missing from this one (an unfinished run)
 * cannot be judged (3). */
Test(gate_blind, a_failed_or_missing_trial_is_judged)
{
    char *d = tmpdir();
    double m[5] = {1e-3, 1.01e-3, 0.99e-3, 1e-3, 1.02e-3};
    char *db = history(d, m, 5);
    proc_out r;
    char *failed = run_with(d, "failed", 20,
                            "trial,size,status,median\n0,1,timeout,\n1,2,ok,0.002\n");
    cr_assert_eq(gate(failed, db, &r), 1, "%s%s", r.out, r.err);
    cr_assert(strstr(r.out, "failed (ok in its history)"), "%s", r.out);
    cr_assert(strstr(r.out, "gate: slower: 0 slower, 1 failed"), "%s", r.out);
    char *missing = run_with(d, "missing", 21, "trial,size,status,median\n1,2,ok,0.002\n");
    cr_assert_eq(gate(missing, db, &r), 3, "%s%s", r.out, r.err);
    cr_assert(strstr(r.out, "size=1"), "%s", r.out);
    cr_assert(strstr(r.out, "missing from this run"), "%s", r.out);
    free(failed), free(missing), free(db);
}

/* A run folder whose ok trial has a negative median is not imported (exit
 * 2, naming the file and line); a database that holds one anyway (written by
 * hand) does not make a 3 ms run `faster`. */
Test(gate_blind, negative_medians_are_refused_and_left_out)
{
    char *d = tmpdir();
    char *neg = run_with(d, "neg", 1, "trial,size,status,median\n0,1,ok,-0.001\n1,2,ok,0.002\n");
    char *db = xasprintf("%s/h.sqlite", d);
    proc_out r;
    run((char *[]){"history", "import", neg, "--history", db, NULL}, &r);
    cr_assert_eq(r.status, 2, "%s", r.err);
    cr_assert(strstr(r.err, "trials.csv:2: trial 0 is ok but its median '-0.001' is not a time"),
              "%s", r.err);
    free(neg), free(db);

    char *d2 = tmpdir();
    double m[5] = {3e-3, 3e-3, 3e-3, 3e-3, 3e-3};
    db = history(d2, m, 5);
    sqlite3 *s;
    cr_assert_eq(sqlite3_open(db, &s), SQLITE_OK);
    cr_assert_eq(sqlite3_exec(s, "UPDATE trials SET median = -0.003 WHERE key LIKE 'size=1%'", NULL,
                              NULL, NULL),
                 SQLITE_OK);
    sqlite3_close(s);
    char *now = run_with(d2, "now", 20, "trial,size,status,median\n0,1,ok,0.003\n1,2,ok,0.002\n");
    cr_assert_eq(gate(now, db, &r), 3, "%s%s", r.out, r.err);
    cr_assert_null(strstr(r.out, "faster"), "%s", r.out);
    cr_assert(strstr(r.out, "warning: 5 rows of the history database left out"), "%s", r.out);
    free(now), free(db);
}

/* 8 runs at 10 ms and 2 at 11 ms (a 1 ms clock): a new run at 11 ms is on a
 * tick the history has shown, not slower. */
Test(gate_blind, a_history_on_two_clock_ticks_is_not_zero_noise)
{
    char *d = tmpdir();
    double m[10] = {10e-3, 10e-3, 11e-3, 10e-3, 10e-3, 10e-3, 10e-3, 11e-3, 10e-3, 10e-3};
    char *db = history(d, m, 10);
    char *now = run_with(d, "now", 20, "trial,size,status,median\n0,1,ok,0.011\n1,2,ok,0.002\n");
    proc_out r;
    cr_assert_neq(gate(now, db, &r), 1, "%s%s", r.out, r.err);
    cr_assert_null(strstr(r.out, " slower\n"), "%s", r.out);
    free(now), free(db);
}

/* A history too noisy to see a 10 % change: the same median is
 * inconclusive (blind), not clean, unless --threshold allows it. */
Test(gate_blind, a_gate_does_not_pass_blind)
{
    char *d = tmpdir();
    double m[6] = {1e-3, 1.3e-3, 0.8e-3, 1.25e-3, 0.9e-3, 1.1e-3};
    char *db = history(d, m, 6);
    char *now = run_with(d, "now", 20, "trial,size,status,median\n0,1,ok,0.00105\n1,2,ok,0.002\n");
    proc_out r;
    cr_assert_eq(gate(now, db, &r), 3, "%s%s", r.out, r.err);
    cr_assert(strstr(r.out, "blind (inconclusive)"), "%s", r.out);
    run((char *[]){"gate", now, "--history", db, "--threshold", "90%", NULL}, &r);
    cr_assert_eq(r.status, 0, "%s%s", r.out, r.err);
    expect_exit((char *[]){"gate", now, "--history", db, "--threshold", "0", NULL}, 2,
                "--threshold takes a percentage");
    expect_exit((char *[]){"gate", now, "--history", db, "--threshold", "ten", NULL}, 2,
                "--threshold takes a percentage");
    free(now), free(db);
}
