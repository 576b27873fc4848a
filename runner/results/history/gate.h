/* gate.h - `runner gate RUN_DIR [--window N]` (doc/history.md#runner-gate):
 * each trial of a run judged against the last N runs of the same
 * experiment on the same machine in the history database, with the
 * history's own run-to-run spread as the noise.  Library code: the verdicts
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

enum { GATE_CLEAN = 0, GATE_SLOWER = 1, GATE_INCONCLUSIVE = 3 };

typedef enum gate_kind { GK_SAME, GK_SLOWER, GK_FASTER, GK_NEW, GK_BUSY, GK_THROTTLED, GK_NOT_OK } gate_kind;

typedef struct gate_row {
    char *key;
    int nhist;        /* earlier ok runs used */
    double base;      /* their median */
    double noise;     /* their spread: robust sd of the log medians */
    double median;    /* this run's */
    double ratio;     /* median / base */
    double threshold; /* the ratio beyond which it is slower: exp(z noise) */
    gate_kind kind;
} gate_row;

typedef struct gate_result {
    char *experiment, *machine;
    gate_row *rows;
    int n;
    int verdict; /* GATE_CLEAN, GATE_SLOWER or GATE_INCONCLUSIVE */
    int judged, slower, busy, too_little;
    double z;   /* the noise multiple of the threshold */
    int window; /* the earlier runs looked at, at most */
} gate_result;

/* Judges run_dir against db.  0, or -1 with the reason in err (a folder
 * that is no run, a database that cannot be read). */
int gate_judge(sqlite3 *db, const char *run_dir, int window, gate_result *out, char *err,
               size_t len);
void gate_format(const gate_result *g, strbuf *out);
void gate_free(gate_result *g);
/* The normal quantile function (Acklam's approximation, |error| < 1.2e-9). */
double gate_probit(double p);

#endif
