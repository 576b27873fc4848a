/* history_record.c - see history_record.h (doc/history.md#what-is-recorded). */
#include "results/history/history_record.h"

#include "base/gitrev.h"
#include "results/history/history_db.h"
#include "base/util.h"
#include "experiment/experiment.h"
#include "results/report/compare.h"
#include "results/report/compare_load.h"
#include "results/report/compare_trial.h"
#include "results/report/report_text.h"
#include "results/rundir/meta.h"
#include "results/rundir/rundir.h"

#include <libgen.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static char *dup_or_null(const char *s)
{
    return s && *s ? xstrdup(s) : NULL;
}

void history_machine_of(json_object *meta, history_machine *m)
{
    memset(m, 0, sizeof *m);
    m->cpu_model = dup_or_null(report_jstr(meta, "host.cpu_model"));
    const char *cores = report_jstr(meta, "host.cores");
    m->cores = cores ? atoll(cores) : 0;
    m->blas_core = dup_or_null(report_jstr(meta, "blas.blas_core"));
    m->governor = dup_or_null(report_jstr(meta, "host.cpu_governor"));
    m->gpu_driver = dup_or_null(report_jstr(meta, "cuda.cuda_driver_version"));
    /* every GPU's name, in index order: "NVIDIA H100 80GB HBM3" */
    json_object *cuda = report_jget(meta, "cuda"), *devs = report_jget(cuda, "devices");
    strbuf g = {0};
    for (size_t i = 0; devs && json_object_is_type(devs, json_type_array) &&
                       i < json_object_array_length(devs);
         i++) {
        const char *n = report_jstr(json_object_array_get_idx(devs, i), "name");
        if (n) {
            sb_puts(&g, g.len ? "; " : "");
            sb_puts(&g, n);
        }
    }
    m->gpu = g.len ? sb_take(&g) : NULL;
    sb_free(&g);
    json_object *f = json_object_new_object();
    json_object_object_add(f, "cpu_model", m->cpu_model ? json_object_new_string(m->cpu_model) : NULL);
    json_object_object_add(f, "cores", json_object_new_int64(m->cores));
    json_object_object_add(f, "gpu", m->gpu ? json_object_new_string(m->gpu) : NULL);
    json_object_object_add(f, "gpu_driver",
                           m->gpu_driver ? json_object_new_string(m->gpu_driver) : NULL);
    json_object_object_add(f, "blas_core",
                           m->blas_core ? json_object_new_string(m->blas_core) : NULL);
    json_object_object_add(f, "governor", m->governor ? json_object_new_string(m->governor) : NULL);
    m->facts = xstrdup(json_object_to_json_string_ext(f, JSON_C_TO_STRING_PLAIN));
    json_object_put(f);
    char hex[65];
    sha256_hex(m->facts, strlen(m->facts), hex);
    memcpy(m->id, hex, 16);
    m->id[16] = 0;
}

void history_machine_free(history_machine *m)
{
    FREE_ALL(m->facts, m->cpu_model, m->gpu, m->gpu_driver, m->blas_core, m->governor);
    memset(m, 0, sizeof *m);
}

void history_git_revision(const char *dir, history_revision *r)
{
    memset(r, 0, sizeof *r);
    r->dirty = -1;
    git_rev g; /* read without running what the folder's git config names */
    if (git_revision(dir, &g) < 0)
        return;
    r->text = xstrdup(g.commit);
    r->dirty = g.dirty;
    r->time = g.time;
}

void history_revision_free(history_revision *r)
{
    free(r->text);
    memset(r, 0, sizeof *r);
}

/* The key of row `pos`; skip[k]: key k says how, not what, was measured. */
static char *trial_key(const compare_run *R, int pos, const unsigned char *skip)
{
    /* measured once, then copied: no printf and no growing buffer a key
     * (20,000 trials' keys were a fifth, then a tenth, of a noop run's CPU
     * time: bench/runner.sh, bench/NOTES-runner.md) */
    size_t n = 1;
    for (int k = 0; k < R->nkeys; k++)
        if (!skip[k])
            n += strlen(compare_key(R, k)) + strlen(compare_cell(R, pos, k + 1)) + 3;
    char *out = xmalloc(n), *p = out;
    for (int k = 0; k < R->nkeys; k++) {
        if (skip[k])
            continue;
        const char *name = compare_key(R, k), *v = compare_cell(R, pos, k + 1);
        if (p != out)
            *p++ = ',', *p++ = ' ';
        size_t ln = strlen(name), lv = strlen(v);
        memcpy(p, name, ln), p += ln;
        *p++ = '=';
        memcpy(p, v, lv), p += lv;
    }
    *p = 0;
    return out;
}

/* Which keys compare_key_measured_how leaves out, looked up once for all rows: those
 * with one value over the whole run.  One that differs inside the run
 * (batch 1 and batch 64 of the same size) stays in the key: two trials of a
 * run are never one series (doc/history.md#what-is-recorded). */
static unsigned char *key_skips(const compare_run *R)
{
    unsigned char *skip = xcalloc((size_t)R->nkeys + 1, 1);
    for (int k = 0; k < R->nkeys; k++) {
        if (!compare_key_measured_how(compare_key(R, k)))
            continue;
        int one = 1;
        for (int p = 1; p < R->nrows && one; p++)
            one = !strcmp(compare_cell(R, p, k + 1), compare_cell(R, 0, k + 1));
        skip[k] = (unsigned char)one;
    }
    return skip;
}

static int cmp_key_index(const void *a, const void *b, void *keys)
{
    char **k = keys;
    int x = *(const int *)a, y = *(const int *)b, c = strcmp(k[x], k[y]);
    return c ? c : (x > y) - (x < y);
}

char **history_trial_keys(const compare_run *R)
{
    char **keys = xcalloc((size_t)R->nrows + 1, sizeof *keys);
    unsigned char *skip = key_skips(R);
    for (int p = 0; p < R->nrows; p++)
        keys[p] = trial_key(R, p, skip);
    free(skip);
    /* trials whose keys are all alike (a sweep that lists a value twice):
     * the second is "KEY #2", in trial order, not dropped */
    int *ix = xmalloc(((size_t)R->nrows + 1) * sizeof *ix);
    for (int p = 0; p < R->nrows; p++)
        ix[p] = p;
    qsort_r(ix, (size_t)R->nrows, sizeof *ix, cmp_key_index, keys);
    for (int i = 1, first = 0; i < R->nrows; i++) {
        /* the first of a group keeps its key, the others are compared with it */
        if (strcmp(keys[ix[i]], keys[ix[first]]))
            first = i;
        int dup = i - first + 1;
        if (dup > 1) {
            char *k = xasprintf("%s #%d", keys[ix[i]], dup);
            free(keys[ix[i]]);
            keys[ix[i]] = k;
        }
    }
    free(ix);
    return keys;
}

void history_keys_free(char **keys, int n)
{
    for (int p = 0; keys && p < n; p++)
        free(keys[p]);
    free(keys);
}

/* A trial's key and its row in the trials table. */
typedef struct keyed_row {
    const char *key;
    int row;
} keyed_row;

/* by key, then by row: the first of equal keys stays first, as INSERT OR
 * IGNORE keeps it */
static int cmp_keyed(const void *a, const void *b)
{
    const keyed_row *x = a, *y = b;
    int c = strcmp(x->key, y->key);
    return c ? c : (x->row > y->row) - (x->row < y->row);
}

/* The rows in key order: the hash's order, and the trials table's (its
 * primary key is (run, key)), so that 100,000 inserts append to the
 * B-tree rather than land all over it (bench/runner.sh "resume"). */
static keyed_row *key_order(char **keys, int n)
{
    keyed_row *o = xmalloc((size_t)(n + 1) * sizeof *o);
    for (int i = 0; i < n; i++)
        o[i] = (keyed_row){keys[i], i};
    xqsort(o, (size_t)n, sizeof *o, cmp_keyed);
    return o;
}

/* The SHA-256 of the sorted trial keys: the same set of trials, whatever
 * their order, hashes the same. */
static void keys_hash(const keyed_row *o, int n, char out[65])
{
    size_t len = 0;
    for (int i = 0; i < n; i++)
        len += strlen(o[i].key) + 1;
    char *b = xmalloc(len + 1), *p = b;
    for (int i = 0; i < n; i++) {
        size_t l = strlen(o[i].key);
        memcpy(p, o[i].key, l), p += l;
        *p++ = '\n';
    }
    sha256_hex(b, len, out);
    free(b);
}

/* The revision: --revision, else the file's `revision:` key, else git in the
 * experiment file's folder (a run that just finished: the code measured
 * is the checkout's now). */
static void revision_of(const char *run_dir, json_object *meta, const history_record_opts *o,
                        history_revision *r)
{
    memset(r, 0, sizeof *r);
    r->dirty = -1;
    if (o->revision && *o->revision) {
        r->text = xstrdup(o->revision);
        return;
    }
    char note[256];
    experiment *e = rundir_read_experiment(run_dir, note, sizeof note);
    if (e && e->revision && *e->revision) {
        r->text = xstrdup(e->revision);
        experiment_free(e);
        return;
    }
    experiment_free(e);
    const char *path = report_jstr(meta, "experiment.path");
    if (!o->ask_git || !path)
        return;
    char *p = xstrdup(path);
    history_git_revision(dirname(p), r);
    free(p);
}

/* SQLITE_STATIC: every text bound here (the run's cells, its keys, its
 * facts) outlives the statement's step */
static void bind_text(sqlite3_stmt *st, int i, const char *s)
{
    if (s)
        sqlite3_bind_text(st, i, s, -1, SQLITE_STATIC);
    else
        sqlite3_bind_null(st, i);
}

static void bind_num(sqlite3_stmt *st, int i, double v)
{
    if (isfinite(v))
        sqlite3_bind_double(st, i, v);
    else
        sqlite3_bind_null(st, i);
}

static double cell_num(const compare_run *R, int pos, int col)
{
    const char *c = compare_cell(R, pos, col);
    char *end;
    double v = strtod(c, &end);
    return *c && !*end ? v : NAN;
}

/* sql prepared in *st; -1 with sqlite's message in err. */
static int prepare(sqlite3 *db, sqlite3_stmt **st, char *err, size_t len, const char *sql)
{
    if (sqlite3_prepare_v2(db, sql, -1, st, NULL) == SQLITE_OK)
        return 0;
    snprintf(err, len, "%s", sqlite3_errmsg(db));
    return -1;
}

/* One statement run to its end; -1 with sqlite's message in err. */
static int step(sqlite3 *db, sqlite3_stmt *st, char *err, size_t len)
{
    int rc = sqlite3_step(st);
    if (rc != SQLITE_DONE && rc != SQLITE_ROW) {
        snprintf(err, len, "%s", sqlite3_errmsg(db));
        return -1;
    }
    return 0;
}

static int insert_trials(sqlite3 *db, long long run, const compare_run *R,
                         const keyed_row *order, char *err, size_t len)
{
    sqlite3_stmt *st;
    if (prepare(db, &st, err, len,
                "INSERT OR IGNORE INTO trials(run, trial, key, workload, device, status,"
                " median, ci_low, ci_high, samples, device_median, noise, busy,"
                " throttled) VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?)") < 0)
        return -1;
    int c_wl = csv_col(&R->t, "workload"), c_dev = csv_col(&R->t, "device");
    int c_lo = csv_col(&R->t, "median_ci_low"), c_hi = csv_col(&R->t, "median_ci_high");
    int c_n = csv_col(&R->t, "samples"), c_dm = csv_col(&R->t, "device_median");
    int rc = 0;
    for (int i = 0; i < R->nrows && rc == 0; i++) {
        int p = order[i].row, ok = compare_trial_ok(R, p);
        sqlite3_reset(st);
        sqlite3_bind_int64(st, 1, run);
        sqlite3_bind_int64(st, 2, R->id[p]);
        bind_text(st, 3, order[i].key);
        bind_text(st, 4, c_wl >= 0 ? compare_cell(R, p, c_wl) : NULL);
        bind_text(st, 5, c_dev >= 0 ? compare_cell(R, p, c_dev) : NULL);
        bind_text(st, 6, compare_cell(R, p, R->status_col));
        double med = ok ? compare_trial_median(R, p) : NAN;
        bind_num(st, 7, med > 0 ? med : NAN); /* 0: no time to compare (check_medians) */
        bind_num(st, 8, ok && c_lo >= 0 ? cell_num(R, p, c_lo) : NAN);
        bind_num(st, 9, ok && c_hi >= 0 ? cell_num(R, p, c_hi) : NAN);
        bind_num(st, 10, c_n >= 0 ? cell_num(R, p, c_n) : NAN);
        bind_num(st, 11, ok && c_dm >= 0 ? cell_num(R, p, c_dm) : NAN);
        const char *noise = R->noise_col >= 0 ? compare_cell(R, p, R->noise_col) : "";
        bind_text(st, 12, *noise ? noise : NULL);
        sqlite3_bind_int(st, 13, compare_trial_busy(R, p));
        sqlite3_bind_int(st, 14, compare_trial_throttled(R, p));
        rc = step(db, st, err, len);
    }
    sqlite3_finalize(st);
    return rc;
}

/* The run's row, with its machine; *row its id.  -1 with the reason. */
static int insert_run(sqlite3 *db, const char *run_dir, json_object *meta, const char *hash,
                      const history_machine *m, const history_revision *rv, long long *row,
                      char *err, size_t len)
{
    sqlite3_stmt *st;
    if (prepare(db, &st, err, len, "INSERT OR IGNORE INTO machines VALUES(?,?,?,?,?,?,?,?)") < 0)
        return -1;
    bind_text(st, 1, m->id);
    bind_text(st, 2, m->cpu_model);
    sqlite3_bind_int64(st, 3, m->cores);
    bind_text(st, 4, m->gpu);
    bind_text(st, 5, m->gpu_driver);
    bind_text(st, 6, m->blas_core);
    bind_text(st, 7, m->governor);
    bind_text(st, 8, m->facts);
    int rc = step(db, st, err, len);
    sqlite3_finalize(st);
    if (rc < 0)
        return -1;
    if (prepare(db, &st, err, len,
                "INSERT INTO runs(experiment, keys_hash, run_id, run_dir, started,"
                " ended, runner_version, revision, dirty, revision_time, machine,"
                " recorded) VALUES(?,?,?,?,?,?,?,?,?,?,?,"
                " strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))") < 0)
        return -1;
    char *p = xstrdup(run_dir), *abs = realpath(run_dir, NULL);
    bind_text(st, 1, report_jstr(meta, "experiment.name"));
    bind_text(st, 2, hash);
    bind_text(st, 3, basename(p));
    bind_text(st, 4, abs ? abs : run_dir);
    const char *start = report_jstr(meta, "start");
    bind_text(st, 5, start ? start : "");
    bind_text(st, 6, report_jstr(meta, "end"));
    bind_text(st, 7, report_jstr(meta, "runner.version"));
    bind_text(st, 8, rv->text);
    if (rv->dirty >= 0)
        sqlite3_bind_int(st, 9, rv->dirty);
    if (rv->time > 0)
        sqlite3_bind_int64(st, 10, rv->time);
    bind_text(st, 11, m->id);
    rc = step(db, st, err, len);
    sqlite3_finalize(st);
    free(p);
    free(abs);
    *row = sqlite3_last_insert_rowid(db);
    return rc;
}

/* The id of the run already recorded with this machine, experiment, run id
 * and start, or 0. */
static long long find_run(sqlite3 *db, const char *machine, json_object *meta, const char *run_dir)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db,
                           "SELECT id FROM runs WHERE machine = ? AND experiment = ? AND"
                           " run_id = ? AND started = ?",
                           -1, &st, NULL) != SQLITE_OK)
        return 0;
    char *p = xstrdup(run_dir);
    const char *start = report_jstr(meta, "start");
    bind_text(st, 1, machine);
    bind_text(st, 2, report_jstr(meta, "experiment.name"));
    bind_text(st, 3, basename(p));
    bind_text(st, 4, start ? start : "");
    long long id = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int64(st, 0) : 0;
    sqlite3_finalize(st);
    free(p);
    return id;
}

json_object *history_load_run(const char *run_dir, compare_run *R, char *err, size_t len)
{
    int absent;
    char merr[512];
    json_object *meta = rundir_read_meta(run_dir, &absent, merr, sizeof merr);
    if (!meta || !report_jstr(meta, "experiment.name")) {
        snprintf(err, len, "%s: %s", run_dir,
                 meta ? "its meta names no experiment"
                      : absent ? "not a finished run folder (no meta)" : merr);
        json_object_put(meta);
        return NULL;
    }
    if (compare_run_load(R, run_dir, err, len) < 0) {
        json_object_put(meta);
        return NULL;
    }
    return meta;
}

/* Every ok trial's median is a time: a positive number of seconds, or 0
 * (a spawn-corrected trial can read 0: kept without a median, never
 * compared); -1 with file:line in err for one that is not (negative, not a
 * number, infinite: no history should hold it). */
static int check_medians(const compare_run *R, char *err, size_t len)
{
    for (int p = 0; p < R->nrows; p++) {
        if (!compare_trial_ok(R, p))
            continue;
        double m = compare_trial_median(R, p);
        if (isfinite(m) && m >= 0)
            continue;
        char *tp = rundir_path(R->dir, RD_TRIALS);
        snprintf(err, len, "%s:%d: trial %lld is ok but its median '%s' is not a time (a positive "
                           "number of seconds): the run is not recorded",
                 tp, R->row[p] + 1, R->id[p],
                 R->median_col >= 0 ? compare_cell(R, p, R->median_col) : "");
        free(tp);
        return -1;
    }
    return 0;
}

int history_record(sqlite3 *db, const char *run_dir, const history_record_opts *o,
                   long long *run_row, char *err, size_t len)
{
    compare_run R;
    json_object *meta = history_load_run(run_dir, &R, err, len);
    if (!meta)
        return -1;
    if (check_medians(&R, err, len) < 0) {
        compare_run_free(&R);
        json_object_put(meta);
        return -1;
    }
    char **keys = history_trial_keys(&R);
    char hash[65];
    keyed_row *order = key_order(keys, R.nrows);
    keys_hash(order, R.nrows, hash);
    history_machine m;
    history_machine_of(meta, &m);
    history_revision rv;
    revision_of(run_dir, meta, o, &rv); /* before the transaction: git may take a while */
    long long row = 0;
    int rc = history_exec(db, "BEGIN IMMEDIATE", err, len);
    if (rc == 0) {
        long long old = find_run(db, m.id, meta, run_dir);
        if (old && !o->replace) {
            rc = HISTORY_ALREADY;
            row = old;
        } else {
            char *del = sqlite3_mprintf("DELETE FROM runs WHERE id = %lld", old);
            if (old && history_exec(db, del, err, len) < 0)
                rc = -1;
            sqlite3_free(del);
            if (rc == 0 &&
                (insert_run(db, run_dir, meta, hash, &m, &rv, &row, err, len) < 0 ||
                 insert_trials(db, row, &R, order, err, len) < 0))
                rc = -1;
        }
        char e2[256];
        if (rc < 0)
            history_exec(db, "ROLLBACK", e2, sizeof e2);
        else if (history_exec(db, "COMMIT", err, len) < 0) {
            history_exec(db, "ROLLBACK", e2, sizeof e2);
            rc = -1;
        }
    }
    if (run_row)
        *run_row = row;
    history_keys_free(keys, R.nrows);
    free(order);
    history_revision_free(&rv);
    history_machine_free(&m);
    compare_run_free(&R);
    json_object_put(meta);
    return rc;
}
