/* test_history_keys.c - what the history database keeps apart and what it
 * survives (doc/history.md#what-is-recorded): trials that differ only in
 * how they were measured (batch, repeats, stop, order) stay separate
 * series, and the gate judges each against its own; a database written by
 * another tool (NULL in any text column, a text where a number goes) is a
 * warning, never a crash. */
#include "base/util.h"
#include "runproc.h"

#include <criterion/criterion.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* A run folder D/NAME of experiment g started on day `day` of January. */
static char *run_with(const char *d, const char *name, int day, const char *trials)
{
    char *dir = xasprintf("%s/%s", d, name);
    cr_assert_eq(mkdir(dir, 0755), 0);
    char *meta = xasprintf("{\"experiment\": {\"name\": \"g\"}, \"start\": "
                           "\"2026-01-%02dT00:00:00Z\", \"finished\": true, \"host\": "
                           "{\"cpu_model\": \"Test CPU\", \"cores\": 2}}",
                           day);
    write_text(dir, "meta.json", meta);
    write_text(dir, "trials.csv", trials);
    write_text(dir, "samples.csv", "trial,sample,seconds,device_seconds\n");
    free(meta);
    return dir;
}

static long long count(const char *db, const char *sql)
{
    sqlite3 *h;
    cr_assert_eq(sqlite3_open(db, &h), SQLITE_OK);
    sqlite3_stmt *st;
    cr_assert_eq(sqlite3_prepare_v2(h, sql, -1, &st, NULL), SQLITE_OK, "%s", sqlite3_errmsg(h));
    long long v = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int64(st, 0) : -1;
    sqlite3_finalize(st);
    sqlite3_close(h);
    return v;
}

/* Batch 1 and batch 64 of the same size are two series (they differ 12x),
 * and a run like the earlier ones is not `slower`. */
Test(history_keys, trials_that_differ_in_how_they_were_measured_stay_apart)
{
    char *d = tmpdir(), *runs = xasprintf("%s/runs", d);
    mkdir(runs, 0755);
    for (int i = 0; i < 5; i++) {
        char name[16];
        snprintf(name, sizeof name, "old%d", i);
        double f = 1 + 0.01 * (i % 3 - 1);
        char *t = xasprintf("trial,size,batch,status,median\n0,1,1,ok,%.9g\n1,1,64,ok,%.9g\n",
                            12e-3 * f, 1e-3 * f);
        free(run_with(runs, name, i + 1, t));
        free(t);
    }
    char *db = xasprintf("%s/h.sqlite", d);
    proc_out r;
    run((char *[]){"history", "import", runs, "--history", db, NULL}, &r);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert_eq(count(db, "SELECT count(*) FROM trials"), 10);
    cr_assert_eq(count(db, "SELECT count(DISTINCT key) FROM trials"), 2);
    run((char *[]){"history", "--history", db, "--no-charts", NULL}, &r);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert(strstr(r.out, "2 series of 5 runs"), "%s", r.out);
    cr_assert(strstr(r.out, "batch=64"), "%s", r.out);
    char *now = run_with(d, "now", 20,
                         "trial,size,batch,status,median\n0,1,1,ok,0.012\n1,1,64,ok,0.001\n");
    run((char *[]){"gate", now, "--history", db, NULL}, &r);
    cr_assert_eq(r.status, 0, "%s%s", r.out, r.err);
    cr_assert(strstr(r.out, "2 trials judged"), "%s", r.out);
    /* a key that is the same over the whole run stays out of the key, as before */
    char *one = run_with(d, "one", 21, "trial,size,batch,status,median\n0,1,8,ok,0.012\n");
    char *db2 = xasprintf("%s/h2.sqlite", d);
    run((char *[]){"history", "import", one, "--history", db2, NULL}, &r);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert_eq(count(db2, "SELECT count(*) FROM trials WHERE key = 'size=1'"), 1);
    /* trials whose keys are all alike are both kept */
    char *dup = run_with(d, "dup", 22, "trial,size,status,median\n0,1,ok,0.012\n1,1,ok,0.013\n");
    run((char *[]){"history", "import", dup, "--history", db2, NULL}, &r);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert_eq(count(db2, "SELECT count(*) FROM trials t JOIN runs r ON r.id = t.run WHERE "
                            "r.run_id = 'dup'"),
                 2);
    free(now), free(one), free(dup), free(db), free(db2), free(runs);
}

/* A database another tool wrote: the runner's tables without their NOT NULL
 * constraints, at this runner's schema version. */
static char *foreign_db(const char *d, const char *machine)
{
    char *db = xasprintf("%s/foreign.sqlite", d);
    sqlite3 *h;
    cr_assert_eq(sqlite3_open(db, &h), SQLITE_OK);
    const char *sql =
        "CREATE TABLE migrations(version INTEGER PRIMARY KEY, applied TEXT, what TEXT);"
        "INSERT INTO migrations VALUES(1, 'x', 'a'), (2, 'x', 'b');"
        "CREATE TABLE machines(id TEXT PRIMARY KEY, cpu_model TEXT, cores INTEGER, gpu TEXT,"
        " gpu_driver TEXT, blas_core TEXT, governor TEXT, facts TEXT);"
        "CREATE TABLE runs(id INTEGER PRIMARY KEY, experiment TEXT, keys_hash TEXT, run_id TEXT,"
        " run_dir TEXT, started TEXT, ended TEXT, runner_version TEXT, revision TEXT, dirty"
        " INTEGER, revision_time INTEGER, machine TEXT, recorded TEXT);"
        "CREATE TABLE trials(run INTEGER, trial INTEGER, key TEXT, workload TEXT, device TEXT,"
        " status TEXT, median REAL, ci_low REAL, ci_high REAL, samples INTEGER, device_median"
        " REAL, noise TEXT, busy INTEGER DEFAULT 0, throttled INTEGER DEFAULT 0);"
        "INSERT INTO machines VALUES('m', NULL, NULL, NULL, NULL, NULL, NULL, NULL);"
        "INSERT INTO runs(id, experiment, run_id, started, machine) VALUES"
        " (1, 'g', 'r1', '2026-01-01T00:00:00Z', 'm'), (2, 'g', NULL, '2026-01-02T00:00:00Z', 'm'),"
        " (3, NULL, 'r3', '2026-01-03T00:00:00Z', 'm'), (4, 'g', 'r4', NULL, 'm'),"
        " (5, 'g', 'r5', '2026-01-05T00:00:00Z', NULL), (6, 'g', 'r6', '2026-01-06T00:00:00Z', 'm');"
        "INSERT INTO trials(run, trial, key, status, median) VALUES"
        " (1, 0, 'size=1', 'ok', 1e-3), (1, 1, NULL, 'ok', 1e-3), (1, 2, 'size=2', NULL, 1e-3),"
        " (2, 0, 'size=1', 'ok', 1e-3), (3, 0, 'size=1', 'ok', 1e-3), (4, 0, 'size=1', 'ok', 1e-3),"
        " (5, 0, 'size=1', 'ok', 1e-3), (6, 0, 'size=1', 'ok', 'fast'),"
        " (6, 1, 'size=2', 'ok', 'NaN'), (6, 2, 'size=3', 'ok', -1);";
    char *msg = NULL, *all = xstrdup(sql);
    /* the runs on the machine of the run the gate judges */
    for (char *p; (p = strstr(all, "'m'"));) {
        char *t = xasprintf("%.*s'%s'%s", (int)(p - all), all, machine, p + 3);
        free(all);
        all = t;
    }
    cr_assert_eq(sqlite3_exec(h, all, NULL, NULL, &msg), SQLITE_OK, "%s", msg);
    free(all);
    sqlite3_close(h);
    return db;
}

Test(history_keys, a_database_with_nulls_and_wrong_types_is_a_warning_not_a_crash)
{
    char *d = tmpdir();
    proc_out r;
    /* the machine id of the run judged below */
    char *now = run_with(d, "now", 20, "trial,size,status,median\n0,1,ok,0.001\n1,2,ok,0.001\n");
    char *scratch = xasprintf("%s/scratch.sqlite", d);
    run((char *[]){"history", "import", now, "--history", scratch, NULL}, &r);
    cr_assert_eq(r.status, 0, "%s", r.err);
    sqlite3 *h;
    sqlite3_stmt *st;
    cr_assert_eq(sqlite3_open(scratch, &h), SQLITE_OK);
    sqlite3_prepare_v2(h, "SELECT machine FROM runs", -1, &st, NULL);
    cr_assert_eq(sqlite3_step(st), SQLITE_ROW);
    char *machine = xstrdup((const char *)sqlite3_column_text(st, 0));
    sqlite3_finalize(st);
    sqlite3_close(h);
    char *db = foreign_db(d, machine);
    const char *formats[] = {"text", "md", "csv", "json"};
    for (int f = 0; f < 4; f++) {
        run((char *[]){"history", "--history", db, "--no-charts", "--format", (char *)formats[f],
                       NULL},
            &r);
        cr_assert(r.status == 0 || r.status == 2, "%s: %d %s", formats[f], r.status, r.err);
        cr_assert(strstr(r.err, "left out or without a median"), "%s", r.err);
    }
    run((char *[]){"history", "--history", db, "--charts", d, NULL}, &r);
    cr_assert(r.status == 0 || r.status == 2, "%d %s", r.status, r.err);
    /* the gate against it: judged where it can be, never a crash, never clean */
    run((char *[]){"gate", now, "--history", db, NULL}, &r);
    cr_assert(r.status == 3 || r.status == 2, "%d %s%s", r.status, r.out, r.err);
    cr_assert(strstr(r.out, "rows of the history database left out"), "%s%s", r.out, r.err);
    free(now), free(db), free(scratch), free(machine);
}
