/* warmup_curve.h - `warmup_curve: K` (doc/timing.md#the-warmup-curve): the time
 * of each of the first K calls of a trial in a fresh worker, kept as the
 * trials table's column `first_calls`, the K times in seconds separated by
 * spaces, first call first. */
#ifndef RUNNER_WARMUP_CURVE_H
#define RUNNER_WARMUP_CURVE_H
/* internal header of runner/run/exec/: other folders may not include it */

typedef struct wcurve {
    double *t;
    int n, k; /* recorded, wanted */
} wcurve;

void wcurve_init(wcurve *c, int k);
/* Records call n+1's time while fewer than K are recorded; 1 when it did. */
int wcurve_add(wcurve *c, double seconds);
/* The column's text (malloc'd), or NULL when nothing was recorded. */
char *wcurve_text(const wcurve *c);
void wcurve_free(wcurve *c);

#endif
