/* test_gate.c - `runner gate RUN_DIR [--window N]` (doc/history.md#runner-gate):
 * its exit statuses against a history imported from run folders written
 * here: 0 clean, 1 slower, 3 inconclusive (no database, too little history,
 * a busy or throttled run), 2 bad input. */
#include "base/util.h"
#include "runproc.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* A run folder D/runs/NAME of experiment g: two trials with these medians
 * and noise cells, started at START. */
static char *make_run(const char *d, const char *name, const char *start, double m0, double m1,
                      const char *noise)
{
    char *runs = xasprintf("%s/runs", d), *dir = xasprintf("%s/%s", runs, name);
    mkdir(runs, 0755);
    cr_assert_eq(mkdir(dir, 0755), 0);
    char *meta = xasprintf("{\"experiment\": {\"name\": \"g\"}, \"start\": \"%s\", \"end\": \"%s\","
                           " \"finished\": true, \"host\": {\"cpu_model\": \"Test CPU\","
                           " \"cores\": 2}}",
                           start, start);
    write_text(dir, "meta.json", meta);
    char *trials = xasprintf("trial,size,status,median,noise\n0,1,ok,%.9g,%s\n1,2,ok,%.9g,\n", m0,
                             noise, m1);
    write_text(dir, "trials.csv", trials);
    write_text(dir, "samples.csv", "trial,sample,seconds,device_seconds\n");
    free(meta);
    free(trials);
    free(runs);
    return dir;
}

/* n earlier runs, 1 ms and 2 ms with +-1 % noise, imported into D/h.sqlite. */
static char *history_of(const char *d, int n)
{
    char *db = xasprintf("%s/h.sqlite", d);
    for (int i = 0; i < n; i++) {
        char name[32], start[32];
        snprintf(name, sizeof name, "old%02d", i);
        snprintf(start, sizeof start, "2026-01-%02dT00:00:00Z", i + 1);
        double f = 1 + 0.01 * ((i * 7) % 3 - 1);
        free(make_run(d, name, start, 1e-3 * f, 2e-3 / f, ""));
    }
    char *runs = xasprintf("%s/runs", d);
    proc_out r;
    run((char *[]){"history", "import", runs, "--history", db, NULL}, &r);
    cr_assert_eq(r.status, 0, "%s", r.err);
    free(runs);
    return db;
}

static int gate(const char *run_dir, const char *db, proc_out *r)
{
    run((char *[]){"gate", (char *)run_dir, "--history", (char *)db, NULL}, r);
    return r->status;
}

Test(gate, clean_slower_and_inconclusive)
{
    char *d = tmpdir();
    char *db = history_of(d, 10);
    char *same = make_run(d, "same", "2026-02-01T00:00:00Z", 1.004e-3, 1.99e-3, "");
    proc_out r;
    cr_assert_eq(gate(same, db, &r), 0, "%s%s", r.out, r.err);
    cr_assert(strstr(r.out, "gate: clean: 0 slower"), "%s", r.out);
    cr_assert(strstr(r.out, "2 trials judged against the last 10 runs"), "%s", r.out);
    /* recorded itself, it is not its own history */
    proc_out ri;
    run((char *[]){"history", "import", same, "--history", db, NULL}, &ri);
    cr_assert_eq(ri.status, 0, "%s", ri.err);
    cr_assert_eq(gate(same, db, &r), 0, "%s%s", r.out, r.err);

    char *slow = make_run(d, "slow", "2026-02-02T00:00:00Z", 1.15e-3, 2e-3, "");
    cr_assert_eq(gate(slow, db, &r), 1, "%s%s", r.out, r.err);
    cr_assert(strstr(r.out, "slower"), "%s", r.out);
    cr_assert(strstr(r.out, "gate: slower: 1 slower"), "%s", r.out);
    /* faster is not a failure */
    char *fast = make_run(d, "fast", "2026-02-03T00:00:00Z", 0.8e-3, 2e-3, "");
    cr_assert_eq(gate(fast, db, &r), 0, "%s%s", r.out, r.err);
    cr_assert(strstr(r.out, "faster"), "%s", r.out);

    /* a busy run: inconclusive, even slower */
    char *busy = make_run(d, "busy", "2026-02-04T00:00:00Z", 1.0e-3, 2e-3, "busy: load 3.1");
    cr_assert_eq(gate(busy, db, &r), 3, "%s%s", r.out, r.err);
    cr_assert(strstr(r.out, "busy (inconclusive)"), "%s", r.out);
    char *thr = make_run(d, "thr", "2026-02-05T00:00:00Z", 1.0e-3, 2e-3,
                         "throttled: fastest CPU at 1200 MHz");
    cr_assert_eq(gate(thr, db, &r), 3, "%s%s", r.out, r.err);
    /* a slower trial still fails a run with a busy one */
    char *both = make_run(d, "both", "2026-02-06T00:00:00Z", 1.0e-3, 2e-3, "busy: load 3");
    char *t = xasprintf("%s/trials.csv", both);
    write_text(both, "trials.csv",
               "trial,size,status,median,noise\n0,1,ok,0.001,busy: load 3\n1,2,ok,0.003,\n");
    free(t);
    cr_assert_eq(gate(both, db, &r), 1, "%s%s", r.out, r.err);
    /* --window: the last 3 runs only, still enough */
    run((char *[]){"gate", same, "--history", db, "--window", "3", NULL}, &r);
    cr_assert_eq(r.status, 0, "%s%s", r.out, r.err);
    cr_assert(strstr(r.out, "the last 3 runs"), "%s", r.out);
    free(same), free(slow), free(fast), free(busy), free(thr), free(both);
    free(db);
}

Test(gate, too_little_history_or_none_is_inconclusive)
{
    char *d = tmpdir();
    proc_out r;
    char *db = xasprintf("%s/h.sqlite", d);
    char *first = make_run(d, "first", "2026-01-01T00:00:00Z", 1e-3, 2e-3, "");
    cr_assert_eq(gate(first, db, &r), 3, "%s%s", r.out, r.err);
    cr_assert(strstr(r.err, "no history database at"), "%s", r.err);
    free(db);
    free(first);
    char *d2 = tmpdir();
    db = history_of(d2, 2);
    char *now = make_run(d2, "now", "2026-02-01T00:00:00Z", 1e-3, 2e-3, "");
    cr_assert_eq(gate(now, db, &r), 3, "%s%s", r.out, r.err);
    cr_assert(strstr(r.out, "too little history"), "%s", r.out);
    cr_assert(strstr(r.out, "gate: inconclusive"), "%s", r.out);
    free(now);
    free(db);
}

Test(gate, bad_input_is_exit_2)
{
    char *d = tmpdir();
    char *db = history_of(d, 4);
    char *now = make_run(d, "now", "2026-02-01T00:00:00Z", 1e-3, 2e-3, "");
    proc_out r;
    cr_assert_eq(gate(d, db, &r), 2); /* holds runs, is none */
    cr_assert(strstr(r.err, "is not a run folder"), "%s", r.err);
    expect_exit((char *[]){"gate", now, "--history", db, "--window", "1", NULL}, 2,
                "--window takes a number of runs from 3");
    expect_exit((char *[]){"gate", now, now, "--history", db, NULL}, 2, "one too many");
    expect_exit((char *[]){"gate", now, "--windw", "3", NULL}, 2, "did you mean '--window'");
    run((char *[]){"gate", NULL}, &r);
    cr_assert_eq(r.status, 2);
    write_text(d, "bad.sqlite", "not a database, not at all, not even close to one at all......");
    char *bad = xasprintf("%s/bad.sqlite", d);
    cr_assert_eq(gate(now, bad, &r), 2);
    cr_assert(strstr(r.err, "file is not a database"), "%s", r.err);
    /* a run folder without meta */
    char *nometa = xasprintf("%s/nometa", d);
    mkdir(nometa, 0755);
    write_text(nometa, "trials.csv", "trial,size,status,median\n0,1,ok,0.001\n");
    write_text(nometa, "samples.csv", "trial,sample,seconds,device_seconds\n");
    cr_assert_eq(gate(nometa, db, &r), 2);
    run((char *[]){"gate", "--help", NULL}, &r);
    cr_assert_eq(r.status, 0);
    cr_assert(strstr(r.out, "exit status: 0 clean; 1 slower; 3 inconclusive"), "%s", r.out);
    free(nometa);
    free(bad);
    free(now);
    free(db);
}

/* Without --history: the database of the run's results folder
 * (RESULTS/<experiment>/<run>), or exit 2 for a run in none. */
Test(gate, the_default_database_is_the_results_folders)
{
    char *d = dir_with("toy.yaml", "name: toy\nworkload: noop\nrepeats: 3\nsweep:\n  size: [1]\n");
    char y[4096], out[4096];
    snprintf(y, sizeof y, "%s/toy.yaml", d);
    snprintf(out, sizeof out, "%s/res", d);
    proc_out r;
    for (int i = 0; i < 4; i++) {
        run((char *[]){"--quiet", "--no-plots", "--output", out, y, NULL}, &r);
        cr_assert_eq(r.status, 0, "%s", r.err);
    }
    char *latest = xasprintf("%s/toy", out);
    run((char *[]){"gate", latest, NULL}, &r);
    /* 3 earlier runs of a noop: judged (0 or 1: a noop's speed on a shared
     * machine is its own), or inconclusive when the machine was busy */
    cr_assert(r.status == 0 || r.status == 1 || r.status == 3, "%d: %s%s", r.status, r.out, r.err);
    cr_assert(strstr(r.out, "gate: toy on machine "), "%s%s", r.out, r.err);
    free(latest);
    char *elsewhere = make_run(d, "loose", "2026-02-01T00:00:00Z", 1e-3, 2e-3, "");
    expect_exit((char *[]){"gate", elsewhere, NULL}, 2, "is in no results folder");
    free(elsewhere);
}
