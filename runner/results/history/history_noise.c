/* history_noise.c - see history_noise.h.  The spread is the gate's
 * (gate_stats.h): successive differences of the log medians, so that a
 * step in the history (a change since fixed) does not count as noise, at
 * least the floor of the runs' own intervals. */
#include "results/history/history_noise.h"

#include "base/util.h"
#include "results/history/changepoint.h"
#include "results/history/gate_stats.h"
#include "results/history/history_query.h"
#include "results/history/history_record.h"
#include "results/report/report_text.h"

#include <libgen.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* What one NEW run needs looked up once: its series and its trials' keys. */
typedef struct run_lookup {
    int tried, ok;
    history_set h;
    char **keys;
    int nkeys;
} run_lookup;

struct history_noise {
    sqlite3 *db;
    const compare_report *R; /* the comparison looked up for (it may be gone by the free) */
    int nruns;
    run_lookup *runs; /* one per run of R */
    char **ids;       /* the compared runs' folder names: not earlier runs */
};

history_noise *history_noise_new(sqlite3 *db)
{
    history_noise *h = xcalloc(1, sizeof *h);
    h->db = db;
    return h;
}

static void forget(history_noise *h)
{
    if (!h->runs)
        return;
    for (int r = 0; r < h->nruns; r++) {
        run_lookup *L = &h->runs[r];
        if (L->ok)
            history_set_free(&L->h);
        history_keys_free(L->keys, L->nkeys);
        free(h->ids[r]);
    }
    free(h->runs);
    free(h->ids);
    h->runs = NULL;
    h->ids = NULL;
    h->R = NULL;
    h->nruns = 0;
}

void history_noise_free(history_noise *h)
{
    if (!h)
        return;
    forget(h);
    free(h);
}

/* Run r's experiment and machine looked up in the database. */
static void look_up(history_noise *h, int r)
{
    run_lookup *L = &h->runs[r];
    L->tried = 1;
    const compare_run *D = &h->R->runs[r];
    compare_run again;
    char err[512];
    json_object *meta = history_load_run(D->dir, &again, err, sizeof err);
    if (!meta)
        return;
    const char *name = report_jstr(meta, "experiment.name");
    history_machine m;
    history_machine_of(meta, &m);
    history_query q = {.experiment = name, .machine = m.id};
    if (name && history_load(h->db, &q, &L->h, err, sizeof err) == 0) {
        L->ok = 1;
        L->keys = history_trial_keys(D);
        L->nkeys = D->nrows;
    }
    history_machine_free(&m);
    compare_run_free(&again);
    json_object_put(meta);
}

/* Whether p is one of the compared runs (ctx: the history_noise). */
static int compared(const history_point *p, const void *ctx)
{
    const history_noise *h = ctx;
    for (int r = 0; r < h->nruns; r++)
        if (h->ids[r] && !strcmp(h->ids[r], p->run_id))
            return 1;
    return 0;
}

int history_noise_of(void *ctx, const struct compare_report *R, const struct compare_row *c,
                     double *sd, double *df, int *n)
{
    history_noise *h = ctx;
    if (h->R != R) {
        forget(h);
        h->R = R;
        h->nruns = R->nruns;
        h->runs = xcalloc((size_t)R->nruns + 1, sizeof *h->runs);
        h->ids = xcalloc((size_t)R->nruns + 1, sizeof *h->ids);
        for (int r = 0; r < R->nruns; r++) {
            char *d = xstrdup(R->runs[r].dir);
            h->ids[r] = xstrdup(basename(d));
            free(d);
        }
    }
    int r = c->n.run, pos = c->n.pos;
    if (r < 0 || r >= R->nruns || pos < 0)
        return -1;
    run_lookup *L = &h->runs[r];
    if (!L->tried)
        look_up(h, r);
    if (!L->ok || pos >= L->nkeys)
        return -1;
    const history_series *s = NULL;
    for (int i = 0; i < L->h.n && !s; i++)
        if (!strcmp(L->h.s[i].key, L->keys[pos]))
            s = &L->h.s[i];
    if (!s)
        return -1;
    /* the last HISTORY_NOISE_WINDOW quiet ok runs, oldest first */
    double med[HISTORY_NOISE_WINDOW], lo[HISTORY_NOISE_WINDOW], hi[HISTORY_NOISE_WINDOW];
    int k = history_series_window(s, HISTORY_NOISE_WINDOW, compared, h, med, lo, hi);
    if (k < HISTORY_NOISE_MIN)
        return -1;
    gate_stat g;
    gate_stat_compute(med, k, 1, 0.05, changepoint_interval_floor(lo, hi, k), &g);
    if (!(g.noise > 0) || !isfinite(g.noise) || !(g.df > 0))
        return -1;
    *sd = g.noise;
    *df = g.df;
    *n = k;
    return 0;
}
