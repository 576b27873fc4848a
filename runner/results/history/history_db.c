/* history_db.c - see history_db.h: where the database is, opening it, and its
 * schema's migrations (doc/history.md#the-database). */
#include "results/history/history_db.h"

#include "base/util.h"
#include "results/rundir/rundir.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Migration k (1-based) takes the schema from version k-1 to k.  A
 * migration, once released, is never edited: a new one is added. */
static const struct migration {
    const char *what, *sql;
} migrations[] = {
    {"runs, trials and machines",
     "CREATE TABLE machines(id TEXT PRIMARY KEY, cpu_model TEXT, cores INTEGER, gpu TEXT,"
     " gpu_driver TEXT, blas_core TEXT, governor TEXT, facts TEXT NOT NULL);"
     "CREATE TABLE runs(id INTEGER PRIMARY KEY, experiment TEXT NOT NULL,"
     " keys_hash TEXT NOT NULL, run_id TEXT NOT NULL, run_dir TEXT NOT NULL,"
     " started TEXT NOT NULL, ended TEXT, runner_version TEXT, revision TEXT, dirty INTEGER,"
     " revision_time INTEGER, machine TEXT NOT NULL REFERENCES machines(id),"
     " recorded TEXT NOT NULL, UNIQUE(machine, experiment, run_id, started));"
     "CREATE TABLE trials(run INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
     " trial INTEGER NOT NULL, key TEXT NOT NULL, workload TEXT, device TEXT,"
     " status TEXT NOT NULL, median REAL, ci_low REAL, ci_high REAL, samples INTEGER,"
     " device_median REAL, noise TEXT, PRIMARY KEY(run, key)) WITHOUT ROWID;"
     "CREATE INDEX runs_experiment ON runs(experiment, machine, started);"},
    {"noise flags of a trial: busy, throttled",
     "ALTER TABLE trials ADD COLUMN busy INTEGER NOT NULL DEFAULT 0;"
     "ALTER TABLE trials ADD COLUMN throttled INTEGER NOT NULL DEFAULT 0;"
     "UPDATE trials SET busy = (noise LIKE 'busy:%'), throttled = (noise LIKE '%throttled:%');"},
};
_Static_assert(sizeof migrations / sizeof *migrations == HISTORY_SCHEMA_VERSION,
               "one migration per schema version");

char *history_default_path_for_run(const char *run_dir)
{
    char *abs = realpath(run_dir, NULL), *name = rundir_meta_experiment(run_dir, "name");
    char *slash = abs ? strrchr(abs, '/') : NULL, *out = NULL;
    if (slash && slash > abs) {
        *slash = 0;
        const char *parent = strrchr(abs, '/');
        if (name && parent && !strcmp(parent + 1, name))
            out = xasprintf("%s/../history.sqlite", abs);
    }
    free(abs);
    free(name);
    return out;
}

char *history_choose_path(const char *given, const char *fallback)
{
    const char *env = getenv("RUNNER_HISTORY");
    if (given && *given)
        return xstrdup(given);
    if (env && *env)
        return xstrdup(env);
    return fallback ? xstrdup(fallback) : NULL;
}

int history_exec(sqlite3 *db, const char *sql, char *err, size_t len)
{
    char *msg = NULL;
    if (sqlite3_exec(db, sql, NULL, NULL, &msg) != SQLITE_OK) {
        snprintf(err, len, "%s", msg ? msg : sqlite3_errmsg(db));
        sqlite3_free(msg);
        return -1;
    }
    return 0;
}

int history_schema_version(sqlite3 *db, char *err, size_t len)
{
    sqlite3_stmt *st;
    /* no migrations table yet: an empty database, version 0 */
    if (sqlite3_prepare_v2(db,
                           "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND "
                           "name = 'migrations'",
                           -1, &st, NULL) != SQLITE_OK) {
        snprintf(err, len, "%s", sqlite3_errmsg(db));
        return -1;
    }
    int rc = sqlite3_step(st), have = rc == SQLITE_ROW && sqlite3_column_int(st, 0) > 0;
    if (rc != SQLITE_ROW)
        snprintf(err, len, "%s", sqlite3_errmsg(db));
    sqlite3_finalize(st);
    if (rc != SQLITE_ROW)
        return -1;
    if (!have)
        return 0;
    if (sqlite3_prepare_v2(db, "SELECT coalesce(max(version), 0) FROM migrations", -1, &st,
                           NULL) != SQLITE_OK) {
        snprintf(err, len, "%s", sqlite3_errmsg(db));
        return -1;
    }
    int v = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int(st, 0) : -1;
    if (v < 0)
        snprintf(err, len, "%s", sqlite3_errmsg(db));
    sqlite3_finalize(st);
    return v;
}

int history_migrate(sqlite3 *db, int upto, char *err, size_t len)
{
    /* IMMEDIATE: two runners opening a new database at once migrate it once */
    if (history_exec(db, "BEGIN IMMEDIATE", err, len) < 0)
        return -1;
    int v = history_schema_version(db, err, len);
    if (v >= 0 && v > HISTORY_SCHEMA_VERSION) {
        snprintf(err, len, "its schema is version %d, newer than this runner's %d", v,
                 HISTORY_SCHEMA_VERSION);
        v = -1;
    }
    if (v == 0 && history_exec(db,
                               "CREATE TABLE migrations(version INTEGER PRIMARY KEY,"
                               " applied TEXT NOT NULL, what TEXT NOT NULL)",
                               err, len) < 0)
        v = -1;
    for (int k = v < 0 ? upto : v; k < upto; k++) {
        char *mark = sqlite3_mprintf("INSERT INTO migrations VALUES(%d, "
                                     "strftime('%%Y-%%m-%%dT%%H:%%M:%%SZ', 'now'), %Q)",
                                     k + 1, migrations[k].what);
        int bad = history_exec(db, migrations[k].sql, err, len) < 0 ||
                  history_exec(db, mark, err, len) < 0;
        sqlite3_free(mark);
        if (bad) {
            v = -1;
            break;
        }
    }
    if (v < 0) {
        char ignore[64];
        history_exec(db, "ROLLBACK", ignore, sizeof ignore);
        return -1;
    }
    return history_exec(db, "COMMIT", err, len);
}

static int busy_ms(void)
{
    const char *s = getenv("RUNNER_HISTORY_BUSY_MS");
    char *end;
    long v = s && *s ? strtol(s, &end, 10) : -1;
    return s && *s && !*end && v >= 0 && v <= 3600000 ? (int)v : HISTORY_BUSY_MS;
}

sqlite3 *history_open(const char *path, int write, char *err, size_t len)
{
    sqlite3 *db = NULL;
    if (!write && access(path, F_OK) != 0) {
        snprintf(err, len, "%s: no history database there", path);
        return NULL;
    }
    /* a reader that may write brings an older schema up to date too */
    if (!write && access(path, W_OK) == 0)
        write = 1;
    int flags = write ? SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE : SQLITE_OPEN_READONLY;
    if (sqlite3_open_v2(path, &db, flags, NULL) != SQLITE_OK) {
        snprintf(err, len, "%s: %s", path, db ? sqlite3_errmsg(db) : "out of memory");
        sqlite3_close(db);
        return NULL;
    }
    sqlite3_busy_timeout(db, busy_ms());
    char e[512] = "";
    int v = 0;
    /* WAL: readers never block the writer, and a writer waits (the busy
     * timeout) rather than fails while another one commits */
    /* a 32 MiB page cache (2 MiB by default): a run of 100,000 trials is
     * recorded without spilling pages mid-transaction (bench/runner.sh) */
    if ((write && (history_exec(db, "PRAGMA journal_mode = WAL", e, sizeof e) < 0 ||
                   history_exec(db, "PRAGMA synchronous = NORMAL", e, sizeof e) < 0 ||
                   history_exec(db, "PRAGMA cache_size = -32768", e, sizeof e) < 0)) ||
        history_exec(db, "PRAGMA foreign_keys = ON", e, sizeof e) < 0 ||
        (v = history_schema_version(db, e, sizeof e)) < 0 ||
        (write && v < HISTORY_SCHEMA_VERSION &&
         history_migrate(db, HISTORY_SCHEMA_VERSION, e, sizeof e) < 0)) {
        snprintf(err, len, "%s: %s", path, e);
        sqlite3_close(db);
        return NULL;
    }
    if (v > HISTORY_SCHEMA_VERSION || (!write && v < HISTORY_SCHEMA_VERSION)) {
        snprintf(err, len, "%s: its schema is version %d, %s this runner's %d%s", path, v,
                 v < HISTORY_SCHEMA_VERSION ? "older than" : "newer than", HISTORY_SCHEMA_VERSION,
                 v < HISTORY_SCHEMA_VERSION ? " (recording a run into it migrates it)" : "");
        sqlite3_close(db);
        return NULL;
    }
    return db;
}

void history_close(sqlite3 *db)
{
    sqlite3_close(db);
}
