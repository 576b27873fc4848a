/* gate.h - `runner gate RUN_DIR [--window N]` (doc/history.md#runner-gate):
 * each trial of a run judged against the last N runs of the same
 * experiment on the same machine in the history database, with the
 * history's own run-to-run spread as the noise (gate_stats.h); a trial
 * that failed or went missing is judged too.  Library code: the verdicts
 * come back in a gate_result; nothing is printed. */
#ifndef RUNNER_GATE_H
#define RUNNER_GATE_H
/* public header of runner/results/history/ */

#include "base/util.h"

#include <sqlite3.h>
#include <stddef.h>

#define GATE_WINDOW 10     /* the default --window */
#define GATE_MIN_HISTORY 3 /* the fewest earlier ok runs a trial is judged against */
#define GATE_ALPHA 0.05    /* the chance of any false `slower`, over all judged trials */
#define GATE_THRESHOLD 0.10 /* the default --threshold: the largest detectable change that
                             * lets a trial with no change found pass */

enum { GATE_CLEAN = 0, GATE_SLOWER = 1, GATE_INCONCLUSIVE = 3 };

/* GK_FAILED: not ok now, ok in its history (exit 1); GK_MISSING: ok in the
 * last earlier run, absent from this one (3); GK_BLIND: no change found, but
 * the detectable change is over the threshold (3); GK_UNTIMED: ok, but its
 * median is no positive time (3). */
typedef enum gate_kind {
    GK_SAME, GK_SLOWER, GK_FASTER, GK_NEW, GK_BUSY, GK_THROTTLED, GK_NOT_OK, GK_FAILED,
    GK_MISSING, GK_BLIND, GK_UNTIMED
} gate_kind;

typedef struct gate_row {
    char *key;
    int nhist;        /* earlier ok runs used */
    double base;      /* their median */
    double noise;     /* their run-to-run spread: sd of the log medians */
    double median;    /* this run's */
    double ratio;     /* median / base */
    double threshold; /* the ratio beyond which it is slower (gate_stats.h) */
    double detectable; /* the smallest change it could have seen: threshold - 1 */
    gate_kind kind;
} gate_row;

typedef struct gate_result {
    char *experiment, *machine;
    gate_row *rows;
    int n;
    int verdict; /* GATE_CLEAN, GATE_SLOWER or GATE_INCONCLUSIVE */
    int judged, slower, busy, too_little, failed, missing, blind, untimed;
    int window; /* the earlier runs looked at, at most */
    double threshold; /* --threshold: the largest detectable change that passes */
    int bad_rows;     /* rows of the database left out: not readable as a run's trial */
} gate_result;

/* Judges run_dir against db.  0, or -1 with the reason in err (a folder
 * that is no run, a database that cannot be read). */
int gate_judge(sqlite3 *db, const char *run_dir, int window, double threshold, gate_result *out,
               char *err, size_t len);
void gate_format(const gate_result *g, strbuf *out);
/* A verdict in words: "slower", "blind (inconclusive)", ... */
const char *gate_kind_word(gate_kind k);
void gate_free(gate_result *g);

#endif
