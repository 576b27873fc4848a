/* compare.c - see compare.h: matching and judging.
 * doc/compare.md#comparing-runs, says what this does; the design
 * in short:
 *
 * Matching.  Trials are matched by the trial key columns of the trials table
 * (doc/results.md#results: every column between `trial` and `status`) that every
 * run has, compared by name, less the ignored keys: `repeats`, `stop`,
 * `batch` and `order` (they say how a trial was measured, not what it ran:
 * an auto run and a 15-repeat run of the same trials match) and each
 * --ignore KEY.  A key that only some runs
 * have must hold one value in all of their rows (a column added with a
 * default); it is then left out of the matching and named in the header.  If
 * it varies, no trial can be matched.  Two trials of one run with the same
 * parameters are paired with the other runs' in trial order.
 *
 * Replication at the right level (issue 16: samples of one run are not
 * independent replicates; the machine moves 10-30 % between runs while the
 * samples of one run agree within 1 %).  The U test (mannwhitney.h) compares
 * replicates: the per-run medians when both sides have at least
 * COMPARE_MIN_RUNS ok runs (the exact test can reach p < 0.05 only from 4
 * against 4), else block medians: each run's samples, in the order taken, cut
 * into at most COMPARE_BLOCKS consecutive blocks (under `order: interleaved`
 * a block is a few consecutive rounds), pooled over the side's runs.  Block
 * medians see the drift inside a run, not the run-to-run noise, so the
 * effect must also exceed the noise threshold: the run-to-run spread measured
 * (max / min - 1 of the per-run medians of a side with two or more ok runs,
 * the larger of the two sides), or with one run per side the noise floor
 * (--noise-floor, default COMPARE_NOISE_FLOOR %, calibrated with bench/aa.sh);
 * --threshold PCT fixes it instead.  p-values are corrected for testing many
 * trials at once with Benjamini-Hochberg (q-values; with every trial
 * unchanged, as in an A/A run, this bounds the chance of any false verdict
 * by alpha).  Verdict: `slower` when q < 0.05 and new/old > 1 + t, `faster`
 * when q < 0.05 and new/old < 1 / (1 + t), else `same`; but `busy` (no
 * verdict: inconclusive) when an ok run of either side ran the trial on a
 * busy machine (its `noise` cell in the trials table says "busy: ...",
 * doc/timing.md#load), else `throttled` when one ran it on a throttled CPU
 * or GPU (compare_trial.h), unless the effect is beyond what that machine
 * could explain (compare_trial_explains: a slower NEW beyond (1 + t) times
 * the most NEW's state could slow it, a faster one beyond what OLD's could
 * slow OLD); --busy-ok judges both like the others.
 *
 * The median of a side is the median of its ok runs' medians (the trials
 * table's, or computed from the samples where the cell is empty).  A side
 * whose trial is ok in no run is listed with its status (`failed in NEW`);
 * trials of one side only as `only in OLD` / `only in NEW`.
 *
 * A run folder may also be an experiment folder (OUTPUT/<name>): its
 * `latest` run is used.  The exit status (cli/cmd_compare.c): 2 for a bad
 * option, a run folder that cannot be read (the message names the path), or
 * when no trial of OLD matched one of NEW (a regression gate must not pass
 * on an empty comparison); else 1 when some pair is `slower`, else 3 when
 * some pair is `busy` or `throttled` (a gate must not pass on trials it
 * could not judge), else 0. */
#include "results/report/compare.h"

#include "base/util.h"
#include "results/report/compare_noise.h"
#include "results/report/compare_trial.h"
#include "stats/mannwhitney.h"
#include "stats/stats.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define COMPARE_MIN_RUNS 4

/* keys that say how a trial was measured, not what it ran */
static const char *const default_ignored[] = {"repeats", "stop", "batch", "order", "workers",
                                              NULL};

int compare_key_measured_how(const char *key)
{
    for (int i = 0; default_ignored[i]; i++)
        if (!strcmp(default_ignored[i], key))
            return 1;
    return 0;
}

/* ---- matching -------------------------------------------------------------- */

typedef struct item {
    char *s; /* shared-key tuple, then '\1' and the occurrence number */
    int run, pos;
} item;

static int cmp_item(const void *pa, const void *pb)
{
    const item *a = pa, *b = pb;
    int c = strcmp(a->s, b->s);
    return c ? c : a->run != b->run ? CMP_NUM(a->run, b->run) : CMP_NUM(a->pos, b->pos);
}

/* The shared-key values of a trial, each length-prefixed: unambiguous. */
static char *tuple(const compare_report *R, int run, int pos, int nshared)
{
    strbuf b = {0};
    for (int i = 0; i < nshared; i++) {
        const char *v = compare_cell(&R->runs[run], pos, R->cols[i].col[run]);
        sb_printf(&b, "%zu:%s", strlen(v), v);
    }
    if (!b.s)
        sb_puts(&b, "");
    return sb_take(&b);
}

static int key_col(const compare_run *R, const char *name)
{
    for (int k = 0; k < R->nkeys; k++)
        if (!strcmp(compare_key(R, k), name))
            return 1 + k;
    return -1;
}

/* Whether column `col` holds one value in every trial; the value in *v. */
static int constant_col(const compare_run *R, int col, const char **v)
{
    *v = R->nrows ? compare_cell(R, 0, col) : "";
    for (int i = 1; i < R->nrows; i++)
        if (strcmp(compare_cell(R, i, col), *v))
            return 0;
    return 1;
}

static int cmp_double(const void *pa, const void *pb)
{
    double a = *(const double *)pa, b = *(const double *)pb;
    return (a > b) - (a < b);
}

static compare_side side_of(const compare_report *R, const compare_row *c, int lo, int hi)
{
    compare_side s = {-1, -1, NULL, 0, 0, NAN, NAN, 0, 0, 0, 1.0, NAN, 0};
    double *m = xmalloc((size_t)(hi - lo) * sizeof *m);
    for (int r = lo; r < hi; r++) {
        const compare_run *D = &R->runs[r];
        int pos = c->pos[r];
        if (pos < 0)
            continue;
        if (s.run < 0) {
            s.run = r;
            s.pos = pos;
            s.status = compare_cell(D, pos, D->status_col);
        }
        if (!compare_trial_ok(D, pos))
            continue;
        if (strcmp(s.status, "ok")) {
            s.run = r;
            s.pos = pos;
            s.status = "ok";
        }
        double v = compare_trial_median(D, pos);
        if (isfinite(v))
            m[s.nruns++] = v;
        /* run on a busy machine, or a throttled CPU or GPU
         * (doc/timing.md#measurement-quality) */
        s.busy += compare_trial_busy(D, pos);
        s.throttled += compare_trial_throttled(D, pos);
        s.explains = fmax(s.explains, compare_trial_explains(D, pos));
        s.n += D->nsmp[pos];
        /* the drift: upper / lower quartile of the block medians, less 1; the
         * quartiles, not the extremes: one block with a stall must not hide
         * every verdict of the trial */
        int nb;
        double *b = compare_trial_blocks(D, pos, &nb);
        xqsort(b, (size_t)nb, sizeof *b, cmp_double);
        if (nb >= 4 && b[nb / 4] > 0 && b[nb - 1 - nb / 4] / b[nb / 4] - 1.0 > s.drift)
            s.drift = b[nb - 1 - nb / 4] / b[nb / 4] - 1.0;
        free(b);
    }
    if (s.nruns) {
        double lo_v = m[0], hi_v = m[0];
        for (int i = 1; i < s.nruns; i++) {
            lo_v = fmin(lo_v, m[i]);
            hi_v = fmax(hi_v, m[i]);
        }
        if (s.nruns >= 2 && lo_v > 0)
            s.spread = hi_v / lo_v - 1.0;
        s.median = stats_median(m, s.nruns);
    }
    free(m);
    return s;
}

/* The replicates of one side (doc/compare.md#comparing-runs): per-run medians, or
 * the block medians of every ok run. */
static double *replicates(const compare_report *R, const compare_row *c, int lo, int hi, int per_run, int *n)
{
    int cap = (hi - lo) * COMPARE_BLOCKS + 1;
    double *x = xmalloc((size_t)cap * sizeof *x);
    *n = 0;
    for (int r = lo; r < hi; r++) {
        const compare_run *D = &R->runs[r];
        int pos = c->pos[r];
        if (!compare_trial_ok(D, pos))
            continue;
        if (per_run) {
            x[(*n)++] = compare_trial_median(D, pos);
            continue;
        }
        int nb;
        double *b = compare_trial_blocks(D, pos, &nb);
        memcpy(x + *n, b, (size_t)nb * sizeof *x);
        *n += nb;
        free(b);
    }
    return x;
}

static void judge(compare_report *R, compare_row *c)
{
    c->ratio = c->u = c->p = c->q = c->thr = NAN;
    c->detectable = NAN;
    c->basis = "";
    c->o = side_of(R, c, 0, R->nold);
    c->n = side_of(R, c, R->nold, R->nruns);
    if (c->o.run < 0 || c->n.run < 0) {
        c->kind = c->o.run < 0 ? CMP_ONLY_NEW : CMP_ONLY_OLD;
        snprintf(c->verdict, sizeof c->verdict, "only in %s", c->o.run < 0 ? "NEW" : "OLD");
        return;
    }
    int ook = !strcmp(c->o.status, "ok"), nok = !strcmp(c->n.status, "ok");
    if (!ook || !nok) {
        c->kind = CMP_NOT_COMPARED;
        const char *os = *c->o.status ? c->o.status : "no status";
        const char *ns = *c->n.status ? c->n.status : "no status";
        if (!ook && !nok && !strcmp(os, ns))
            snprintf(c->verdict, sizeof c->verdict, "%.40s in both", os);
        else if (!ook && !nok)
            snprintf(c->verdict, sizeof c->verdict, "%.30s in OLD, %.30s in NEW", os, ns);
        else
            snprintf(c->verdict, sizeof c->verdict, "%.40s in %s", ook ? ns : os,
                     ook ? "NEW" : "OLD");
        return;
    }
    double a = c->o.median, b = c->n.median;
    if (isfinite(a) && isfinite(b))
        c->ratio = a > 0 ? b / a : b > 0 ? INFINITY : 1.0;
    c->per_run = c->o.nruns >= COMPARE_MIN_RUNS && c->n.nruns >= COMPARE_MIN_RUNS;
    double *x = replicates(R, c, 0, R->nold, c->per_run, &c->nrep_o);
    double *y = replicates(R, c, R->nold, R->nruns, c->per_run, &c->nrep_n);
    mw_result mw;
    if (mann_whitney(x, c->nrep_o, y, c->nrep_n, MW_AUTO, &mw) == 0) {
        c->u = mw.u;
        c->p = mw.p;
        c->exact = mw.exact;
    }
    free(x);
    free(y);
    compare_row_noise(R, c); /* the detectable change; with worker blocks, the test */
    if (isnan(c->p) || isnan(c->ratio)) {
        c->kind = CMP_NOT_COMPARED;
        snprintf(c->verdict, sizeof c->verdict, "no samples");
        return;
    }
    /* the effect a verdict needs: fixed, measured run-to-run, or the floor */
    int blocks = compare_row_by_workers(c);
    if (isfinite(R->opt->threshold))
        c->thr = R->opt->threshold / 100.0;
    else if (blocks) /* the runs' spread is in the test's noise already */
        c->thr = R->opt->noise_floor / 100.0;
    else if (isfinite(c->o.spread) || isfinite(c->n.spread))
        c->thr = fmax(isfinite(c->o.spread) ? c->o.spread : 0, isfinite(c->n.spread) ? c->n.spread : 0);
    else /* one run a side: the floor, or the drift seen inside a run when larger */
        c->thr = fmax(R->opt->noise_floor / 100.0, fmax(c->o.drift, c->n.drift));
    R->ntests++;
}

typedef struct pq {
    double p;
    int row;
} pq;

static int cmp_pq(const void *pa, const void *pb)
{
    const pq *a = pa, *b = pb;
    return a->p != b->p ? CMP_NUM(a->p, b->p) : CMP_NUM(a->row, b->row);
}

/* Benjamini-Hochberg: q_(i) = min over j >= i of p_(j) m / j, at most 1,
 * over the m trials tested; then each verdict. */
static void correct_and_decide(compare_report *R)
{
    pq *v = xmalloc(((size_t)R->ntests + 1) * sizeof *v);
    int m = 0;
    for (int r = 0; r < R->nrows; r++)
        if (!isnan(R->rows[r].thr))
            v[m++] = (pq){R->rows[r].p, r};
    xqsort(v, (size_t)m, sizeof *v, cmp_pq);
    double run_min = 1.0;
    for (int i = m - 1; i >= 0; i--) {
        double q = v[i].p * m / (i + 1);
        if (q < run_min)
            run_min = q;
        R->rows[v[i].row].q = run_min;
    }
    free(v);
    for (int r = 0; r < R->nrows; r++) {
        compare_row *c = &R->rows[r];
        if (isnan(c->thr))
            continue;
        if (c->q < COMPARE_ALPHA && c->ratio > 1.0 + c->thr)
            c->kind = CMP_SLOWER;
        else if (c->q < COMPARE_ALPHA && c->ratio < 1.0 / (1.0 + c->thr))
            c->kind = CMP_FASTER;
        else
            c->kind = CMP_SAME;
        /* a machine busy with other work, or a throttled CPU or GPU, in
         * either side's runs: no verdict (the p- and q-values are still
         * shown; busy first when both), unless the effect is beyond what
         * that could explain: NEW slower by more than its own runs' state
         * could slow it, or faster by more than OLD's could slow OLD
         * (compare_trial_explains), times the noise threshold */
        int busy = c->o.busy || c->n.busy, thr = c->o.throttled || c->n.throttled;
        if ((busy || thr) && !R->opt->busy_ok &&
            !(c->kind == CMP_SLOWER && c->ratio > (1.0 + c->thr) * c->n.explains) &&
            !(c->kind == CMP_FASTER && c->ratio < 1.0 / ((1.0 + c->thr) * c->o.explains)))
            c->kind = busy ? CMP_BUSY : CMP_THROTTLED;
        compare_row_settle(R, c); /* inconclusive: too noisy, or the clocks apart */
        snprintf(c->verdict, sizeof c->verdict, "%s",
                 c->kind == CMP_SLOWER         ? "slower"
                 : c->kind == CMP_FASTER       ? "faster"
                 : c->kind == CMP_BUSY         ? "busy"
                 : c->kind == CMP_THROTTLED    ? "throttled"
                 : c->kind == CMP_INCONCLUSIVE ? "inconclusive"
                                               : "same");
    }
}

const char *compare_param(const compare_report *R, const compare_row *c, int i)
{
    const compare_column *k = &R->cols[i];
    for (int r = 0; r < R->nruns; r++)
        if (c->pos[r] >= 0 && k->col[r] >= 0)
            return compare_cell(&R->runs[r], c->pos[r], k->col[r]);
    return "";
}


static int is_ignored(const compare_opts *o, const char *key)
{
    if (compare_key_measured_how(key))
        return 1;
    for (int i = 0; i < o->nignore; i++)
        if (!strcmp(o->ignore[i], key))
            return 1;
    return 0;
}

/* Chooses the columns: the keys of every run, not ignored, in the first
 * run's order; returns how many are shared, 0 in *match when a key of some
 * runs only varies. */
static int choose_columns(compare_report *R, int *match)
{
    int nr = R->nruns;
    int cap = 1;
    for (int r = 0; r < nr; r++)
        cap += R->runs[r].nkeys;
    R->cols = xcalloc((size_t)cap, sizeof *R->cols);
    for (int k = 0; k < R->runs[0].nkeys; k++) {
        const char *name = compare_key(&R->runs[0], k);
        if (is_ignored(R->opt, name))
            continue;
        int *col = xmalloc((size_t)nr * sizeof *col), all = 1;
        for (int r = 0; r < nr; r++)
            if ((col[r] = key_col(&R->runs[r], name)) < 0)
                all = 0;
        if (all)
            R->cols[R->ncols++] = (compare_column){name, col};
        else
            free(col);
    }
    int nshared = R->ncols;
    *match = 1;
    strbuf ign = {0};
    for (int r = 0; r < nr; r++) {
        const compare_run *A = &R->runs[r];
        for (int k = 0; k < A->nkeys; k++) {
            const char *name = compare_key(A, k);
            int first = 1, in_all = 1, sides = 0;
            for (int s = 0; s < nr; s++) {
                int c = key_col(&R->runs[s], name);
                if (c >= 0 && s < r)
                    first = 0; /* named once, by the first run that has it */
                if (c < 0)
                    in_all = 0;
                else
                    sides |= s < R->nold ? 1 : 2;
            }
            if (!first)
                continue;
            if (is_ignored(R->opt, name)) {
                sb_printf(&ign, "%s%s", ign.len ? ", " : "", name);
                continue;
            }
            if (in_all)
                continue;
            /* a key some runs lack: each run that has it must hold one value */
            const char *v = NULL;
            int constant = 1, any = 0;
            for (int s = 0; s < nr && constant; s++) {
                int c = key_col(&R->runs[s], name);
                const char *w;
                if (c < 0)
                    continue;
                if (!constant_col(&R->runs[s], c, &w))
                    constant = 0;
                else if (R->runs[s].nrows && v && strcmp(v, w))
                    constant = 0;
                else if (R->runs[s].nrows) {
                    v = w;
                    any = 1;
                }
            }
            const char *where = sides == 1 ? "only in OLD" : sides == 2 ? "only in NEW"
                                                                        : "not in every run";
            if (constant) {
                sb_printf(&R->notes, "key '%s' %s (%s%s%s): not used to match\n", name, where,
                          any ? "'" : "no trials", any ? v : "", any ? "' in every trial" : "");
            } else {
                sb_printf(&R->notes, "key '%s' %s varies: the runs' trials cannot be matched\n",
                          name, where);
                *match = 0;
            }
        }
    }
    if (ign.len)
        sb_printf(&R->notes, "not used to match: %s (repeats, stop, batch and order say how a "
                             "trial was measured; --ignore KEY adds keys)\n",
                  ign.s);
    sb_free(&ign);
    if (!*match) /* show every key, so that each trial can be told apart */
        for (int r = 0; r < nr; r++) {
            const compare_run *A = &R->runs[r];
            for (int k = 0; k < A->nkeys; k++) {
                const char *name = compare_key(A, k);
                int seen = 0;
                for (int i = 0; i < R->ncols && !seen; i++)
                    seen = !strcmp(R->cols[i].name, name);
                if (seen || is_ignored(R->opt, name))
                    continue;
                int *col = xmalloc((size_t)nr * sizeof *col);
                for (int s = 0; s < nr; s++)
                    col[s] = key_col(&R->runs[s], name);
                R->cols[R->ncols++] = (compare_column){name, col};
            }
        }
    return nshared;
}

/* Groups the trials of every run by shared-key tuple and occurrence: one
 * row each, in the order they first appear (OLD's first run first). */
static void match_rows(compare_report *R, int nshared, int match)
{
    int nr = R->nruns, total = 0;
    for (int r = 0; r < nr; r++)
        total += R->runs[r].nrows;
    item *it = xmalloc(((size_t)total + 1) * sizeof *it);
    int n = 0;
    for (int r = 0; r < nr; r++) {
        /* the occurrence number: how many earlier trials of this run share the tuple */
        int m = R->runs[r].nrows;
        item *own = xmalloc(((size_t)m + 1) * sizeof *own);
        for (int i = 0; i < m; i++)
            own[i] = (item){match ? tuple(R, r, i, nshared) : xasprintf("%d/%d", r, i), r, i};
        xqsort(own, (size_t)m, sizeof *own, cmp_item);
        int occ = 0;
        for (int i = 0; i < m; i++) {
            occ = i && !strcmp(own[i].s, own[i - 1].s) ? occ + 1 : 0;
            it[n++] = (item){xasprintf("%s\001%d", own[i].s, occ), r, own[i].pos};
        }
        for (int i = 0; i < m; i++)
            free(own[i].s);
        free(own);
    }
    xqsort(it, (size_t)n, sizeof *it, cmp_item);
    R->rows = xcalloc((size_t)n + 1, sizeof *R->rows);
    for (int i = 0; i < n;) {
        int j = i;
        compare_row *c = &R->rows[R->nrows++];
        c->pos = xmalloc((size_t)nr * sizeof *c->pos);
        for (int r = 0; r < nr; r++)
            c->pos[r] = -1;
        c->order = -1;
        for (; j < n && !strcmp(it[j].s, it[i].s); j++) {
            if (c->pos[it[j].run] < 0)
                c->pos[it[j].run] = it[j].pos;
            int ord = it[j].run * (total + 1) + it[j].pos;
            if (c->order < 0 || ord < c->order)
                c->order = ord;
        }
        i = j;
    }
    for (int i = 0; i < n; i++)
        free(it[i].s);
    free(it);
}

static int cmp_row_order(const void *pa, const void *pb)
{
    const compare_row *a = pa, *b = pb;
    return (a->order > b->order) - (a->order < b->order);
}

int compare_build(const char *const *old_dirs, int nold, const char *const *new_dirs, int nnew,
                  const compare_opts *opt, compare_report *R, char *err, size_t errlen)
{
    memset(R, 0, sizeof *R);
    const char *format = opt->format ? opt->format : "text";
    if (strcmp(format, "text") && strcmp(format, "md") && strcmp(format, "csv") &&
        strcmp(format, "json")) {
        snprintf(err, errlen, "unknown format '%s' (text, md, csv or json)", format);
        return -1;
    }
    if (!isnan(opt->threshold) && (!(opt->threshold >= 0) || !isfinite(opt->threshold))) {
        snprintf(err, errlen, "%s", "the threshold must be a percentage >= 0");
        return -1;
    }
    if (!(opt->noise_floor >= 0) || !isfinite(opt->noise_floor)) {
        snprintf(err, errlen, "%s", "the noise floor must be a percentage >= 0");
        return -1;
    }
    if (nold < 1 || nnew < 1) {
        snprintf(err, errlen, "%s", "needs at least one OLD and one NEW run");
        return -1;
    }
    R->nold = nold;
    R->nruns = nold + nnew;
    R->opt = opt;
    R->runs = xcalloc((size_t)R->nruns, sizeof *R->runs);
    int rc = 0;
    for (int r = 0; r < R->nruns && rc == 0; r++)
        if (compare_run_load(&R->runs[r], r < nold ? old_dirs[r] : new_dirs[r - nold], err,
                             errlen) < 0)
            rc = -1;
    /* an --ignore KEY no run has is most likely a typo */
    for (int i = 0; i < opt->nignore && rc == 0; i++) {
        int found = 0;
        for (int r = 0; r < R->nruns && !found; r++)
            found = key_col(&R->runs[r], opt->ignore[i]) >= 0;
        if (!found) {
            snprintf(err, errlen, "--ignore %s: no run has a key '%s'", opt->ignore[i], opt->ignore[i]);
            rc = -1;
        }
    }
    if (rc < 0) {
        compare_free(R);
        return -1;
    }
    int match;
    int nshared = choose_columns(R, &match);
    match_rows(R, nshared, match);
    xqsort(R->rows, (size_t)R->nrows, sizeof *R->rows, cmp_row_order);
    for (int r = 0; r < R->nrows; r++)
        judge(R, &R->rows[r]);
    correct_and_decide(R);
    compare_common_shift(R); /* the machine moved every trial alike */
    return 0;
}

void compare_count(const compare_report *R, int *matched, int *slower)
{
    *matched = *slower = 0;
    for (int r = 0; r < R->nrows; r++) {
        compare_kind k = R->rows[r].kind;
        if (k < CMP_ONLY_OLD || k == CMP_BUSY || k == CMP_THROTTLED || k == CMP_INCONCLUSIVE)
            ++*matched;
        if (R->rows[r].kind == CMP_SLOWER)
            ++*slower;
    }
}

int compare_inconclusive(const compare_report *R)
{
    int n = 0;
    for (int r = 0; r < R->nrows; r++)
        n += R->rows[r].kind == CMP_BUSY || R->rows[r].kind == CMP_THROTTLED ||
             R->rows[r].kind == CMP_INCONCLUSIVE;
    return n;
}

void compare_free(compare_report *R)
{
    for (int r = 0; r < R->nrows; r++)
        free(R->rows[r].pos);
    free(R->rows);
    for (int i = 0; i < R->ncols; i++)
        free(R->cols[i].col);
    free(R->cols);
    sb_free(&R->notes);
    for (int r = 0; r < R->nruns; r++)
        compare_run_free(&R->runs[r]);
    free(R->runs);
    memset(R, 0, sizeof *R);
}
