/* history_db.h - the performance history database (doc/history.md): one
 * SQLite file that holds a machine's runs and their trials.  Opening it
 * brings its schema up to date (a table of migrations), in WAL mode with a
 * busy timeout, so that two runs finishing at once are both recorded.
 * Library code: reasons come back in err; nothing is printed. */
#ifndef RUNNER_HISTORY_DB_H
#define RUNNER_HISTORY_DB_H
/* public header of runner/results/history/ */

#include <sqlite3.h>
#include <stddef.h>

/* The schema version this runner writes (the last migration). */
#define HISTORY_SCHEMA_VERSION 2
/* How long a writer waits for another one, in milliseconds, unless
 * $RUNNER_HISTORY_BUSY_MS says otherwise. */
#define HISTORY_BUSY_MS 10000

/* The database of a run folder's results folder: RUN/../../history.sqlite
 * (results/<name>/<run-id> -> results/history.sqlite); malloc'd.  NULL
 * when the run folder is not in a folder named after its experiment: it
 * is in no results folder. */
char *history_default_path_for_run(const char *run_dir);
/* The database named by `given` (--history), else $RUNNER_HISTORY, else
 * `fallback` (may be NULL); malloc'd or NULL. */
char *history_choose_path(const char *given, const char *fallback);

/* Opens the database at path.  write: create it when absent; otherwise it
 * must exist.  A database that can be written is migrated to
 * HISTORY_SCHEMA_VERSION; one that cannot must have that version.  NULL with the reason in err. */
sqlite3 *history_open(const char *path, int write, char *err, size_t len);
void history_close(sqlite3 *db);
/* The version of the schema (0: none yet), or -1 with the reason in err. */
int history_schema_version(sqlite3 *db, char *err, size_t len);
/* Applies the migrations after the database's version up to `upto` (for
 * tests: an older schema); 0 or -1 with the reason in err. */
int history_migrate(sqlite3 *db, int upto, char *err, size_t len);
/* Runs sql (no result rows); 0 or -1 with sqlite's message in err. */
int history_exec(sqlite3 *db, const char *sql, char *err, size_t len);

#endif
