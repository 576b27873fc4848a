/* trial_checks.c - see trial_checks.h. */
#include "experiment/trial_checks.h"


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
    int seen[16][2], nseen = 0;
    for (long long t = 0; t < e->ntrials && nseen < 16; t++) {
        if (!trial_interleaved(e, t) || trial_value(e, t, rc).kind != VAL_STR)
            continue;
        int line, col, dup = 0;
        trial_value_where(e, t, at, &line, &col);
        for (int i = 0; i < nseen; i++)
            dup |= seen[i][0] == line && seen[i][1] == col;
        if (dup)
            continue;
        seen[nseen][0] = line;
        seen[nseen++][1] = col;
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
    int seen[16][2], nseen = 0;
    for (long long t = 0; t < e->ntrials && nseen < 16; t++) {
        value w = trial_value(e, t, wc), r = rc >= 0 ? trial_value(e, t, rc) : (value){0};
        long long repeats = r.kind == VAL_INT ? r.i : r.kind == VAL_NONE ? 5 : -1;
        if (w.kind != VAL_INT || (repeats >= w.i))
            continue;
        int line, col, dup = 0;
        trial_value_where(e, t, at, &line, &col);
        for (int i = 0; i < nseen; i++)
            dup |= seen[i][0] == line && seen[i][1] == col;
        if (dup)
            continue;
        seen[nseen][0] = line;
        seen[nseen++][1] = col;
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
