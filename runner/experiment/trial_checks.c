/* trial_checks.c - see trial_checks.h. */
#include "experiment/trial_checks.h"

/* The places a check has reported, so that each is said once; a check
 * says at most PLACES_MOST of them. */
#define PLACES_MOST 16
typedef struct places {
    int at[PLACES_MOST][2], n;
} places;

/* Where column c of trial t is set, in *line and *col; 1 the first time
 * that place comes up. */
static int first_time(places *p, const experiment *e, long long t, int c, int *line, int *col)
{
    trial_value_where(e, t, c, line, col);
    for (int i = 0; i < p->n; i++)
        if (p->at[i][0] == *line && p->at[i][1] == *col)
            return 0;
    p->at[p->n][0] = *line;
    p->at[p->n++][1] = *col;
    return 1;
}

/* `order: interleaved` needs a number of repeats (doc/experiment-file.md#top-level-keys),
 * trial by trial.  The conflict is reported where the trial's `order` value
 * is set, or where its `repeats: auto` is when only that one is swept; each
 * place once. */
static void check_interleaved_repeats(const experiment *e, diags *d)
{
    int oc = experiment_column(e, "order"), rc = experiment_column(e, "repeats");
    if (oc < 0 || rc < 0)
        return;
    int at = e->cols[rc].axis >= 0 && e->cols[oc].axis < 0 ? rc : oc;
    places seen = {0};
    for (long long t = 0; t < e->ntrials && seen.n < PLACES_MOST; t++) {
        int line, col;
        if (!trial_interleaved(e, t) || trial_value(e, t, rc).kind != VAL_STR ||
            !first_time(&seen, e, t, at, &line, &col))
            continue;
        diag_add(d, line, col, "order: interleaved needs a number of repeats, not 'auto'");
    }
}

/* `workers: N` needs N samples at least: a number of repeats, N or more
 * (doc/timing.md#blocks-across-processes-and-cpus); reported where the
 * trial's `workers` is set, or where its repeats are when only they are
 * swept, each place once. */
static void check_workers_repeats(const experiment *e, diags *d)
{
    int wc = experiment_column(e, "workers"), rc = experiment_column(e, "repeats");
    if (wc < 0)
        return;
    int at = rc >= 0 && e->cols[rc].axis >= 0 && e->cols[wc].axis < 0 ? rc : wc;
    places seen = {0};
    for (long long t = 0; t < e->ntrials && seen.n < PLACES_MOST; t++) {
        value w = trial_value(e, t, wc), r = rc >= 0 ? trial_value(e, t, rc) : (value){0};
        /* absent: the default 5 (experiment/keys.c) */
        long long repeats = r.kind == VAL_INT ? r.i : r.kind == VAL_NONE ? 5 : -1;
        int line, col;
        if (w.kind != VAL_INT || repeats >= w.i || !first_time(&seen, e, t, at, &line, &col))
            continue;
        if (repeats < 0)
            diag_add(d, line, col, "workers: %lld needs a number of repeats, not 'auto'", w.i);
        else
            diag_add(d, line, col, "workers: %lld needs at least %lld repeats, not %lld", w.i,
                     w.i, repeats);
    }
}

void trial_checks(const experiment *e, diags *d)
{
    check_interleaved_repeats(e, d);
    check_workers_repeats(e, d);
}
