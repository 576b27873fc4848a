/* test_history.c - the performance history database (doc/history.md), driven
 * as a user drives it: every finished run recorded once (and `runner
 * history import` of it skipped), a merge of shards once, two runs
 * finishing at once both recorded, a locked, read-only or corrupt database
 * a warning that changes neither the run nor its exit status, a database
 * of an older schema migrated, the revision (git, `revision:`,
 * --revision), and `runner history` in every format with its charts. */
#include "base/util.h"
#include "results/history/history_db.h"
#include "scenario.h"

#include <criterion/criterion.h>
#include <json.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *toy = "name: toy\nworkload: noop\nrepeats: 3\nsweep:\n  size: [1, 2]\n";

/* Runs D/toy.yaml into D/res (quiet, no plots) with extra arguments. */
static void run_toy(const char *d, const char *const *extra, proc_out *r)
{
    char y[4096], out[4096];
    snprintf(y, sizeof y, "%s/toy.yaml", d);
    snprintf(out, sizeof out, "%s/res", d);
    char *args[24] = {"--quiet", "--no-plots", "--output", out, y};
    int n = 5;
    for (int i = 0; extra && extra[i]; i++)
        args[n++] = (char *)extra[i];
    args[n] = NULL;
    run(args, r);
}

static char *db_path(const char *d)
{
    return xasprintf("%s/res/history.sqlite", d);
}

/* The first column of the first row of sql, as a number (-1: none). */
static long long query_num(const char *db, const char *sql)
{
    sqlite3 *h;
    cr_assert_eq(sqlite3_open_v2(db, &h, SQLITE_OPEN_READONLY, NULL), SQLITE_OK, "%s", db);
    sqlite3_stmt *st;
    cr_assert_eq(sqlite3_prepare_v2(h, sql, -1, &st, NULL), SQLITE_OK, "%s", sqlite3_errmsg(h));
    long long v = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int64(st, 0) : -1;
    sqlite3_finalize(st);
    sqlite3_close(h);
    return v;
}

static char *query_text(const char *db, const char *sql)
{
    sqlite3 *h;
    cr_assert_eq(sqlite3_open_v2(db, &h, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
    sqlite3_stmt *st;
    cr_assert_eq(sqlite3_prepare_v2(h, sql, -1, &st, NULL), SQLITE_OK, "%s", sqlite3_errmsg(h));
    char *v = NULL;
    if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
        v = xstrdup((const char *)sqlite3_column_text(st, 0));
    sqlite3_finalize(st);
    sqlite3_close(h);
    return v;
}

/* The ok trials of the newest run folder of D/res/toy. */
static int ok_trials_of_latest(const char *d)
{
    char *p = xasprintf("%s/res/toy/latest/trials.csv", d);
    char *t = read_file(p, NULL);
    free(p);
    int n = 0;
    for (const char *s = t; s && (s = strstr(s, ",ok,")); s++)
        n++;
    free(t);
    return n;
}

Test(history, every_finished_run_is_recorded_once_and_import_skips_it)
{
    char *d = dir_with("toy.yaml", toy);
    proc_out r;
    run_toy(d, NULL, &r);
    cr_assert_eq(r.status, 0, "%s", r.err);
    run_toy(d, (const char *const[]){"--revision", "v2", NULL}, &r);
    cr_assert_eq(r.status, 0, "%s", r.err);
    char *db = db_path(d);
    cr_assert_eq(query_num(db, "SELECT count(*) FROM runs"), 2);
    cr_assert_eq(query_num(db, "SELECT count(*) FROM trials"), 4);
    cr_assert_eq(query_num(db, "SELECT count(*) FROM trials WHERE status = 'ok' AND median > 0"
                               " AND ci_low <= median AND median <= ci_high AND samples = 3"),
                 4);
    cr_assert_eq(query_num(db, "SELECT count(DISTINCT keys_hash) FROM runs"), 1);
    cr_assert_eq(query_num(db, "SELECT length(keys_hash) FROM runs LIMIT 1"), 64);
    cr_assert_eq(query_num(db, "SELECT count(*) FROM runs WHERE experiment = 'toy' AND"
                               " started <> '' AND ended IS NOT NULL AND runner_version"
                               " IS NOT NULL AND run_dir LIKE '/%'"),
                 2);
    char *rev = query_text(db, "SELECT revision FROM runs ORDER BY id DESC LIMIT 1");
    cr_assert_str_eq(rev, "v2");
    free(rev);
    /* not in a git checkout, no revision: unknown */
    cr_assert_eq(query_num(db, "SELECT count(*) FROM runs WHERE revision IS NULL"), 1);
    /* the machine and its facts */
    cr_assert_eq(query_num(db, "SELECT count(*) FROM machines m JOIN runs r ON r.machine = m.id"
                               " WHERE m.cores > 0 AND m.facts LIKE '{%'"),
                 2);
    cr_assert_eq(query_num(db, "SELECT max(version) FROM migrations"), HISTORY_SCHEMA_VERSION);
    cr_assert_eq(query_num(db, "PRAGMA journal_mode") == -1, 0);
    char *jm = query_text(db, "PRAGMA journal_mode");
    cr_assert_str_eq(jm, "wal");
    free(jm);
    /* import of the same runs: each once */
    char *res = xasprintf("%s/res", d);
    expect_exit((char *[]){"history", "import", res, "--history", db, NULL}, 0,
                "0 runs recorded, 2 already there");
    cr_assert_eq(query_num(db, "SELECT count(*) FROM runs"), 2);
    /* --no-history records nothing */
    run_toy(d, (const char *const[]){"--no-history", NULL}, &r);
    cr_assert_eq(r.status, 0);
    cr_assert_eq(query_num(db, "SELECT count(*) FROM runs"), 2);
    /* an imported run into a new database: recorded, then already there */
    char *other = xasprintf("%s/other.sqlite", d);
    expect_exit((char *[]){"history", "import", res, "--history", other, NULL}, 0,
                "3 runs recorded, 0 already there");
    /* RUNNER_HISTORY names the database */
    setenv("RUNNER_HISTORY", other, 1);
    run_toy(d, NULL, &r);
    unsetenv("RUNNER_HISTORY");
    cr_assert_eq(query_num(other, "SELECT count(*) FROM runs"), 4);
    cr_assert_eq(query_num(db, "SELECT count(*) FROM runs"), 2);
    /* import of what is no run */
    run((char *[]){"history", "import", d, "--history", other, NULL}, &r);
    cr_assert_eq(r.status, 0, "%s", r.err); /* d holds res/toy/<runs> */
    expect_exit((char *[]){"history", "import", "/nonexistent", "--history", other, NULL}, 2,
                "/nonexistent holds no run folder");
    run((char *[]){"history", "import", "--history", other, NULL}, &r);
    cr_assert_eq(r.status, 2);
    free(other);
    free(res);
    free(db);
}

/* The start meta.json says (the run's identity in the history, with its
 * machine, experiment and run id). */
static char *meta_start(const char *run_dir)
{
    char *p = xasprintf("%s/meta.json", run_dir);
    json_object *m = json_object_from_file(p), *v;
    cr_assert(m, "%s", p);
    cr_assert(json_object_object_get_ex(m, "start", &v));
    char *s = xstrdup(json_object_get_string(v));
    json_object_put(m);
    free(p);
    return s;
}

/* A resumed run is the run it continues (doc/history.md): it keeps its
 * start, lists when it was resumed, and is one run in the history whose
 * rows are the finished run's; a run folder run again with --run-dir too. */
Test(history, a_resumed_run_stays_one_run_in_the_history)
{
    char *d = dir_with("toy.yaml", toy);
    proc_out r;
    run_toy(d, NULL, &r);
    cr_assert_eq(r.status, 0, "%s", r.err);
    char *db = db_path(d), *run = xasprintf("%s/res/toy/latest", d);
    char *start = meta_start(run);
    /* as a killed run leaves it: unfinished, trial 1's row not saved */
    char *meta = xasprintf("%s/meta.json", run), *trials = xasprintf("%s/trials.csv", run);
    char *m = read_file(meta, NULL), *f = strstr(m, "\"finished\": true");
    cr_assert(f, "%s", m);
    memcpy(f, "\"finished\":false", 16);
    write_file_atomic(meta, m, strlen(m));
    char *t = read_file(trials, NULL), *last = strrchr(t, '\n');
    while (last > t && last[-1] != '\n')
        last--;
    *last = 0;
    write_file_atomic(trials, t, strlen(t));
    run_toy(d, (const char *const[]){"--resume", NULL}, &r);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert(strstr(r.err, "1 ok"), "%s", r.err);
    char *again = meta_start(run);
    cr_assert_str_eq(again, start);
    char *doc = read_file(meta, NULL);
    cr_assert(strstr(doc, "\"resumed\": [") && strstr(doc, "\"finished\": true"), "%s", doc);
    /* the report says so */
    char *rep = xasprintf("%s/report.md", run), *rtext = read_file(rep, NULL);
    char *row = xasprintf("| run | %s to ", start);
    cr_assert(rtext && strstr(rtext, row) && strstr(rtext, "; resumed at 20"), "%s", rtext);
    free(row), free(rtext), free(rep);
    cr_assert_eq(query_num(db, "SELECT count(*) FROM runs"), 1);
    cr_assert_eq(query_num(db, "SELECT count(*) FROM trials WHERE status = 'ok'"), 2);
    char *q = sqlite3_mprintf("SELECT count(*) FROM runs WHERE started = %Q", start);
    cr_assert_eq(query_num(db, q), 1);
    sqlite3_free(q);
    /* --run-dir on the finished folder: nothing runs, still one run */
    char *dir = realpath(run, NULL);
    run_toy(d, (const char *const[]){"--run-dir", dir, "--history", db, NULL}, &r);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert_eq(query_num(db, "SELECT count(*) FROM runs"), 1);
    cr_assert_eq(query_num(db, "SELECT count(*) FROM trials"), 2);
    free(dir), free(doc), free(again), free(t), free(m), free(trials), free(meta);
    free(start), free(run), free(db);
}

/* A tampered meta.json (a start that is no text, a `resumed` that is no
 * list) neither stops a resume nor reaches the new meta: the start is the
 * resume's own, as a new run's, and `resumed` lists this resume only. */
Test(history, a_tampered_meta_json_does_not_stop_a_resume)
{
    char *d = dir_with("toy.yaml", toy);
    proc_out r;
    run_toy(d, NULL, &r);
    cr_assert_eq(r.status, 0, "%s", r.err);
    char *run = xasprintf("%s/res/toy/latest", d), *meta = xasprintf("%s/meta.json", run);
    const char *bad = "{\"start\": 5, \"resumed\": \"yesterday\", \"finished\": false,"
                      " \"experiment\": {\"name\": \"toy\"}}\n";
    write_file_atomic(meta, bad, strlen(bad));
    run_toy(d, (const char *const[]){"--resume", NULL}, &r);
    cr_assert_eq(r.status, 0, "%s", r.err);
    json_object *m = json_object_from_file(meta), *v;
    cr_assert(m);
    cr_assert(json_object_object_get_ex(m, "start", &v) && json_object_is_type(v, json_type_string));
    cr_assert(json_object_object_get_ex(m, "resumed", &v) && json_object_is_type(v, json_type_array));
    cr_assert_eq(json_object_array_length(v), 1);
    json_object_put(m);
    free(meta), free(run);
}

Test(history, the_revision_is_gits_or_the_files_or_the_options)
{
    char *d = dir_with("toy.yaml", toy);
    char *cmd = xasprintf("cd %s && git init -q && git -c user.name=t -c user.email=t@t add "
                          "toy.yaml && git -c user.name=t -c user.email=t@t commit -qm one",
                          d);
    cr_assert_eq(system(cmd), 0);
    free(cmd);
    proc_out r;
    run_toy(d, NULL, &r);
    cr_assert_eq(r.status, 0, "%s", r.err);
    char *db = db_path(d);
    cr_assert_eq(query_num(db, "SELECT count(*) FROM runs WHERE length(revision) = 40 AND"
                               " dirty = 0 AND revision_time > 0"),
                 1);
    /* a change not committed: dirty */
    write_text(d, "toy.yaml", "name: toy\nworkload: noop\nrepeats: 4\nsweep:\n  size: [1, 2]\n");
    run_toy(d, NULL, &r);
    cr_assert_eq(query_num(db, "SELECT dirty FROM runs ORDER BY id DESC LIMIT 1"), 1);
    /* revision: in the file, then --revision over it */
    write_text(d, "toy.yaml",
               "name: toy\nrevision: release-7\nworkload: noop\nrepeats: 3\nsweep:\n  size: [1, 2]\n");
    run_toy(d, NULL, &r);
    cr_assert_eq(r.status, 0, "%s", r.err);
    char *rev = query_text(db, "SELECT revision FROM runs ORDER BY id DESC LIMIT 1");
    cr_assert_str_eq(rev, "release-7");
    free(rev);
    run_toy(d, (const char *const[]){"--revision", "abc123", NULL}, &r);
    rev = query_text(db, "SELECT revision FROM runs ORDER BY id DESC LIMIT 1");
    cr_assert_str_eq(rev, "abc123");
    free(rev);
    /* revision: must be text; --revision needs one */
    write_text(d, "toy.yaml", "name: toy\nrevision: [1]\nworkload: noop\n");
    run_toy(d, NULL, &r);
    cr_assert_eq(r.status, 2);
    cr_assert(strstr(r.err, "toy.yaml:2:11: error: 'revision' must be text"), "%s", r.err);
    run_toy(d, (const char *const[]){"--revision=", NULL}, &r);
    cr_assert_eq(r.status, 2);
    free(db);
}

Test(history, a_merge_of_shards_is_recorded_once)
{
    char *d = dir_with("toy.yaml", toy);
    char *run_dir = xasprintf("%s/res/toy/20260101T000000Z", d);
    proc_out r;
    for (int k = 1; k <= 2; k++) {
        char sh[16];
        snprintf(sh, sizeof sh, "%d/2", k);
        run_toy(d, (const char *const[]){"--run-dir", run_dir, "--shard", sh, NULL}, &r);
        cr_assert_eq(r.status, 0, "%s", r.err);
    }
    char *db = db_path(d);
    cr_assert_eq(access(db, F_OK), -1, "a shard is not recorded");
    run((char *[]){"merge", run_dir, "--quiet", "--no-plots", NULL}, &r);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert_eq(query_num(db, "SELECT count(*) FROM runs"), 1);
    cr_assert_eq(query_num(db, "SELECT count(*) FROM trials"), 2);
    run((char *[]){"merge", run_dir, "--quiet", "--no-plots", NULL}, &r);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert_eq(query_num(db, "SELECT count(*) FROM runs"), 1);
    cr_assert_eq(query_num(db, "SELECT count(*) FROM trials"), 2);
    free(db);
    free(run_dir);
}

Test(history, two_runs_finishing_at_once_are_both_recorded)
{
    char *d = dir_with("toy.yaml", toy);
    char y[4096], out[4096];
    snprintf(y, sizeof y, "%s/toy.yaml", d);
    snprintf(out, sizeof out, "%s/res", d);
    pid_t p[4];
    int o[4], e[4];
    for (int i = 0; i < 4; i++)
        p[i] = start((char *[]){"--quiet", "--no-plots", "--output", out, y, NULL}, &o[i], &e[i]);
    for (int i = 0; i < 4; i++) {
        proc_out r;
        finish(p[i], o[i], e[i], &r);
        cr_assert_eq(r.status, 0, "%s", r.err);
        cr_assert_null(strstr(r.err, "warning"), "%s", r.err);
    }
    char *db = db_path(d);
    cr_assert_eq(query_num(db, "SELECT count(*) FROM runs"), 4);
    cr_assert_eq(query_num(db, "SELECT count(*) FROM trials"), 8);
    free(db);
}

/* A run with the database at db: it must finish as without one. */
static void run_keeps(const char *d, proc_out *r, const char *want)
{
    run_toy(d, NULL, r);
    cr_assert_eq(r->status, 0, "%s", r->err);
    cr_assert(strstr(r->err, "runner: warning: history: "), "%s", r->err);
    cr_assert(strstr(r->err, want), "%s", r->err);
    cr_assert(strstr(r->err, "the run is saved in"), "%s", r->err);
    cr_assert_eq(ok_trials_of_latest(d), 2);
}

Test(history, a_locked_database_is_a_warning_and_the_run_is_kept)
{
    char *d = dir_with("toy.yaml", toy);
    proc_out r;
    run_toy(d, NULL, &r);
    cr_assert_eq(r.status, 0, "%s", r.err);
    char *db = db_path(d);
    sqlite3 *h;
    cr_assert_eq(sqlite3_open(db, &h), SQLITE_OK);
    cr_assert_eq(sqlite3_exec(h, "BEGIN EXCLUSIVE", NULL, NULL, NULL), SQLITE_OK);
    setenv("RUNNER_HISTORY_BUSY_MS", "200", 1);
    run_keeps(d, &r, "database is locked");
    unsetenv("RUNNER_HISTORY_BUSY_MS");
    sqlite3_exec(h, "ROLLBACK", NULL, NULL, NULL);
    sqlite3_close(h);
    cr_assert_eq(query_num(db, "SELECT count(*) FROM runs"), 1);
    /* the run can be recorded afterwards */
    char *res = xasprintf("%s/res", d);
    run((char *[]){"history", "import", res, "--history", db, NULL}, &r);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert_eq(query_num(db, "SELECT count(*) FROM runs"), 2);
    free(res);
    free(db);
}

Test(history, a_read_only_or_unopenable_database_is_a_warning)
{
    char *d = dir_with("toy.yaml", toy);
    proc_out r;
    run_toy(d, NULL, &r);
    char *db = db_path(d);
    cr_assert_eq(chmod(db, 0444), 0);
    if (geteuid() == 0) {
        /* root writes whatever the mode says: without CAP_DAC_OVERRIDE */
        char *cmd = xasprintf("setpriv --inh-caps=-all --bounding-set=-dac_override,"
                              "-dac_read_search %s --quiet --no-plots --output %s/res "
                              "%s/toy.yaml 2>%s/err",
                              runner_bin(), d, d, d);
        int st = system(cmd);
        free(cmd);
        cr_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0);
        char *ep = xasprintf("%s/err", d);
        char *err = read_file(ep, NULL);
        cr_assert(strstr(err, "readonly database"), "%s", err);
        cr_assert(strstr(err, "the run is saved in"), "%s", err);
        free(err);
        free(ep);
        cr_assert_eq(ok_trials_of_latest(d), 2);
    } else {
        run_keeps(d, &r, "readonly database");
    }
    cr_assert_eq(query_num(db, "SELECT count(*) FROM runs"), 1);
    /* a database that cannot be opened at all */
    setenv("RUNNER_HISTORY", "/proc/no/such/history.sqlite", 1);
    run_keeps(d, &r, "unable to open database file");
    unsetenv("RUNNER_HISTORY");
    free(db);
}

Test(history, a_corrupt_database_is_a_warning_and_history_refuses_it)
{
    char *d = dir_with("toy.yaml", toy);
    char *res = xasprintf("%s/res", d);
    mkdir(res, 0755);
    strbuf junk = {0};
    for (int i = 0; i < 200; i++)
        sb_puts(&junk, "this is no SQLite database. ");
    write_text(res, "history.sqlite", junk.s);
    sb_free(&junk);
    proc_out r;
    run_keeps(d, &r, "file is not a database");
    char *db = db_path(d);
    expect_exit((char *[]){"history", "--history", db, NULL}, 2, "file is not a database");
    expect_exit((char *[]){"history", "--history", "/nonexistent.sqlite", NULL}, 2,
                "no history database there");
    free(db);
    free(res);
}

Test(history, a_database_of_an_older_schema_is_migrated)
{
    char *d = dir_with("toy.yaml", toy);
    char *res = xasprintf("%s/res", d);
    mkdir(res, 0755);
    char *db = db_path(d);
    sqlite3 *h;
    char err[512];
    cr_assert_eq(sqlite3_open(db, &h), SQLITE_OK);
    cr_assert_eq(history_migrate(h, 1, err, sizeof err), 0, "%s", err);
    /* a run of version 1: its noise text, no flags yet */
    cr_assert_eq(history_exec(h,
                              "INSERT INTO machines VALUES('m1', 'cpu', 2, NULL, NULL, NULL, NULL,"
                              " '{}');"
                              "INSERT INTO runs VALUES(1, 'old', 'h', 'r1', '/x', "
                              "'2020-01-01T00:00:00Z', NULL, '0.0.1', NULL, NULL, NULL, 'm1', "
                              "'2020-01-01T00:00:00Z');"
                              "INSERT INTO trials VALUES(1, 0, 'size=1', 'noop', 'cpu', 'ok', "
                              "1e-3, NULL, NULL, 3, NULL, 'busy: load 3');",
                              err, sizeof err),
                 0, "%s", err);
    sqlite3_close(h);
    cr_assert_eq(query_num(db, "SELECT max(version) FROM migrations"), 1);
    proc_out r;
    run_toy(d, NULL, &r);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert_null(strstr(r.err, "warning"), "%s", r.err);
    cr_assert_eq(query_num(db, "SELECT max(version) FROM migrations"), 2);
    cr_assert_eq(query_num(db, "SELECT count(*) FROM runs"), 2);
    cr_assert_eq(query_num(db, "SELECT busy FROM trials WHERE run = 1"), 1);
    /* a schema newer than this runner's: refused, the run kept */
    cr_assert_eq(sqlite3_open(db, &h), SQLITE_OK);
    cr_assert_eq(history_exec(h, "INSERT INTO migrations VALUES(99, 'x', 'future')", err,
                              sizeof err),
                 0);
    sqlite3_close(h);
    run_keeps(d, &r, "newer than this runner's");
    free(db);
    free(res);
}

Test(history, runner_history_in_every_format_with_charts)
{
    char *d = dir_with("toy.yaml", toy);
    proc_out r;
    const char *revs[] = {"r1", "r2", "r3"};
    for (int i = 0; i < 3; i++) {
        run_toy(d, (const char *const[]){"--revision", revs[i], NULL}, &r);
        cr_assert_eq(r.status, 0, "%s", r.err);
    }
    char *db = db_path(d), *charts = xasprintf("%s/charts", d);
    run((char *[]){"history", "--history", db, "--no-charts", NULL}, &r);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert(strstr(r.out, "history: 2 series of 3 runs"), "%s", r.out);
    cr_assert(strstr(r.out, "== toy on machine "), "%s", r.out);
    cr_assert(strstr(r.out, "size=2, workload=noop"), "%s", r.out);
    cr_assert(strstr(r.out, " r3 "), "%s", r.out);
    run((char *[]){"history", "--history", db, "--format", "md", "--no-charts", NULL}, &r);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert(strstr(r.out, "## toy on machine"), "%s", r.out);
    cr_assert(strstr(r.out, "| run | revision | median | 95 % CI | status | note |"), "%s", r.out);
    run((char *[]){"history", "--history", db, "--format", "csv", "--no-charts", NULL}, &r);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert(!strncmp(r.out, "experiment,machine,key,run,revision,dirty,started,status,median,",
                       64),
              "%s", r.out);
    int lines = 0;
    for (const char *s = r.out; (s = strchr(s, '\n')); s++)
        lines++;
    cr_assert_eq(lines, 7); /* the header, 2 keys x 3 runs */
    run((char *[]){"history", "--history", db, "--format", "json", "--filter", "size=2", "--charts",
                   charts, NULL},
        &r);
    cr_assert_eq(r.status, 0, "%s", r.err);
    json_object *j = json_tokener_parse(r.out), *s, *pts;
    cr_assert_not_null(j, "%s", r.out);
    cr_assert(json_object_object_get_ex(j, "series", &s));
    cr_assert_eq(json_object_array_length(s), 1);
    cr_assert(json_object_object_get_ex(json_object_array_get_idx(s, 0), "points", &pts));
    cr_assert_eq(json_object_array_length(pts), 3);
    json_object_put(j);
    cr_assert(strstr(r.err, "history: 1 trend chart in"), "%s", r.err);
    char *png = NULL;
    char *cmd = xasprintf("ls %s/toy-*-noop-cpu.png >/dev/null", charts);
    cr_assert_eq(system(cmd), 0, "no chart in %s", charts);
    free(cmd);
    free(png);
    /* nothing matches; bad options */
    expect_exit((char *[]){"history", "--history", db, "--experiment", "nosuch", NULL}, 2,
                "no recorded run in");
    expect_exit((char *[]){"history", "--history", db, "--format", "xml", NULL}, 2,
                "--format takes text, md, csv or json, not 'xml'");
    run((char *[]){"history", "--history", db, "--filter", "size", NULL}, &r);
    cr_assert_eq(r.status, 2);
    expect_exit((char *[]){"history", "--histroy", db, NULL}, 2, "did you mean '--history'");
    run((char *[]){"history", "stray", "--history", db, NULL}, &r);
    cr_assert_eq(r.status, 2);
    run((char *[]){"history", "--revision", "x", "--history", db, NULL}, &r);
    cr_assert_eq(r.status, 2);
    run((char *[]){"history", "--help", NULL}, &r);
    cr_assert_eq(r.status, 0);
    cr_assert(strstr(r.out, "usage: runner history"), "%s", r.out);
    free(charts);
    free(db);
}

Test(history, a_report_gets_a_history_section_with_earlier_runs)
{
    char *d = tmpdir();
    char run_dir[SCENARIO_PATH];
    run_e_yaml(d, toy, "toy", run_dir);
    char *t = run_text(run_dir, "report.md");
    cr_assert_null(strstr(t, "## History"), "the first run has no history");
    free(t);
    run_e_yaml(d, toy, "toy", run_dir);
    t = run_text(run_dir, "report.md");
    cr_assert(strstr(t, "## History\n\n1 earlier run of this experiment on this machine"), "%s", t);
    cr_assert(strstr(t, "![history](plots/toy-"), "%s", t);
    free(t);
    t = run_text(run_dir, "report.html");
    cr_assert(strstr(t, "History"), "report.html has the section too");
    free(t);
    /* written again, the report keeps it */
    proc_out r;
    run((char *[]){"report", run_dir, "--quiet", NULL}, &r);
    cr_assert_eq(r.status, 0, "%s", r.err);
    t = run_text(run_dir, "report.md");
    cr_assert(strstr(t, "## History\n\n1 earlier run"), "%s", t);
    free(t);
    rm_rf(d);
    free(d);
}

Test(history, the_reference_results_fixture)
{
    const char *root = getenv("RUNNER_ROOT");
    cr_assert_not_null(root);
    char *d = tmpdir();
    char *src = xasprintf("%s/tests/fixtures/history/reference.sqlite", root);
    char *db = xasprintf("%s/ref.sqlite", d);
    char *cmd = xasprintf("cp %s %s", src, db);
    cr_assert_eq(system(cmd), 0);
    free(cmd);
    cr_assert_eq(query_num(db, "SELECT count(*) FROM runs"), 45);
    cr_assert_eq(query_num(db, "SELECT count(*) FROM machines"), 3);
    proc_out r;
    run((char *[]){"history", "--history", db, "--experiment", "matmul", "--machine", "4db1",
                   "--filter", "size=1024", "--filter", "device=cpu", "--no-charts", NULL},
        &r);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert(strstr(r.out, "history: 1 series of 1 runs"), "%s", r.out);
    cr_assert(strstr(r.out, "(AMD EPYC, 2 cores, BLAS core Haswell)"), "%s", r.out);
    cr_assert(strstr(r.out, "9.33 ms"), "%s", r.out);
    /* each run once: importing the reference results again records none */
    char *ref = xasprintf("%s/results/reference", root);
    run((char *[]){"history", "import", ref, "--history", db, NULL}, &r);
    cr_assert(strstr(r.err, "0 runs recorded, 45 already there"), "%s", r.err);
    cr_assert_eq(query_num(db, "SELECT count(*) FROM runs"), 45);
    free(ref);
    free(db);
    free(src);
}

/* runs whose trials all failed: listed, no chart drawn, no error */
Test(history, a_series_with_no_ok_run_has_no_chart)
{
    char *d = dir_with("bad.lua", "return { run = function(ctx, p, state) error('no') end }\n");
    write_text(d, "toy.yaml", "name: toy\nworkload: lua:bad.lua\nrepeats: 3\n");
    proc_out r;
    run_toy(d, NULL, &r);
    cr_assert_eq(r.status, 1, "%s", r.err);
    cr_assert_null(strstr(r.err, "warning: history"), "%s", r.err);
    char *db = db_path(d), *charts = xasprintf("%s/charts", d);
    run((char *[]){"history", "--history", db, "--charts", charts, NULL}, &r);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert(strstr(r.out, "failed"), "%s", r.out);
    cr_assert(strstr(r.err, "history: 0 trend charts in"), "%s", r.err);
    free(charts);
    free(db);
}
