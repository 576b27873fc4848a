/* cmd_compare.c - `runner compare OLD NEW` or `runner compare OLD1 OLD2 ...
 * -- NEW1 NEW2 ...` [--threshold PCT] [--noise-floor PCT] [--ignore KEY]
 * [--format text|md|csv|json]: is the new code faster or slower than the old?
 * README "Measurement quality", "Comparing runs", says what this does; the
 * design in short:
 *
 * Matching.  Trials are matched by the trial key columns of trials.csv (every
 * column between `trial` and `status`) that every run has, compared by name,
 * less the ignored keys: `repeats`, `stop`, `batch` and `order` (they say how
 * a trial was measured, not what it ran: an auto run and a 15-repeat run of
 * the same trials match) and each --ignore KEY.  A key that only some runs
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
 * busy machine (its trials.csv `noise` cell says "busy: ...", README
 * "Measurement quality", Load), whatever the test says; --busy-ok judges
 * them like the others.
 *
 * The median of a side is the median of its ok runs' medians (trials.csv,
 * or computed from samples.csv where the cell is empty).  A side whose trial
 * is ok in no run is listed with its status (`failed in NEW`); trials of one
 * side only as `only in OLD` / `only in NEW`.
 *
 * Exit status: 2 for a bad option, a run folder that cannot be read (the
 * message names the path), or when no trial of OLD matched one of NEW (a
 * regression gate must not pass on an empty comparison); else 1 when some
 * pair is `slower`, else 0.  A run folder may also be an experiment folder
 * (OUTPUT/<name>): its `latest` run is used.  Library code: it prints only
 * to the streams it is given. */
#include "cli/commands.h"
#include "base/csv.h"
#include "stats/mannwhitney.h"
#include "stats/stats.h"
#include "base/util.h"

#include <errno.h>
#include <json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define COMPARE_ALPHA 0.05
#define COMPARE_BLOCKS 10
#define COMPARE_MIN_RUNS 4

/* keys that say how a trial was measured, not what it ran */
static const char *const default_ignored[] = {"repeats", "stop", "batch", "order", NULL};


/* ---- one run --------------------------------------------------------------- */

typedef struct run_data {
    const char *arg; /* the folder as given */
    char *dir;       /* the run folder used (arg, or arg/latest) */
    csv_table t;
    int nkeys;      /* key columns: 1 .. nkeys of the header */
    int status_col, median_col, noise_col;
    int nrows;      /* trials, one row per trial id (the last one wins) */
    int *row;       /* row index in t, by trial order */
    long long *id;
    double **smp;   /* samples (seconds) of each trial */
    int *nsmp, *capsmp;
    char *host, *start; /* from meta.json, or NULL */
} run_data;

static const char *cell(const run_data *R, int pos, int col)
{
    int r = R->row[pos];
    return col >= 0 && col < R->t.nfields[r] ? R->t.rows[r][col] : "";
}

static const char *key_name(const run_data *R, int k) /* k in 0 .. nkeys-1 */
{
    return R->t.rows[0][1 + k];
}

static int is_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

typedef struct id_row {
    long long id;
    int r;
} id_row;

static int cmp_id_row(const void *pa, const void *pb)
{
    const id_row *a = pa, *b = pb;
    if (a->id != b->id)
        return (a->id > b->id) - (a->id < b->id);
    return (a->r > b->r) - (a->r < b->r);
}

static int find_pos(const run_data *R, long long id)
{
    int lo = 0, hi = R->nrows - 1;
    while (lo <= hi) {
        int mid = lo + (hi - lo) / 2;
        if (R->id[mid] == id)
            return mid;
        if (R->id[mid] < id)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return -1;
}

static int parse_ll(const char *s, long long *v)
{
    char *end;
    errno = 0;
    *v = strtoll(s, &end, 10);
    return *s && !*end && !errno ? 0 : -1;
}

static void run_free(run_data *R)
{
    for (int i = 0; i < R->nrows; i++)
        free(R->smp ? R->smp[i] : NULL);
    free(R->smp);
    free(R->nsmp);
    free(R->capsmp);
    free(R->row);
    free(R->id);
    free(R->dir);
    free(R->host);
    free(R->start);
    csv_free(&R->t);
    memset(R, 0, sizeof *R);
}

static char *json_str(json_object *o, const char *a, const char *b)
{
    json_object *v;
    if (!json_object_object_get_ex(o, a, &v))
        return NULL;
    if (b && !json_object_object_get_ex(v, b, &v))
        return NULL;
    return json_object_is_type(v, json_type_string) ? xstrdup(json_object_get_string(v)) : NULL;
}

static int run_load(run_data *R, const char *arg, FILE *err)
{
    memset(R, 0, sizeof *R);
    R->arg = arg;
    struct stat st;
    if (stat(arg, &st) < 0) {
        fprintf(err, "runner: compare: %s: %s\n", arg, strerror(errno));
        return -1;
    }
    if (!S_ISDIR(st.st_mode)) {
        fprintf(err, "runner: compare: %s: not a run folder\n", arg);
        return -1;
    }
    char *tp = xasprintf("%s/trials.csv", arg);
    if (is_file(tp)) {
        R->dir = xstrdup(arg);
    } else {
        char *lp = xasprintf("%s/latest/trials.csv", arg);
        if (is_file(lp)) {
            /* name the run itself: latest -> <run-id> */
            char target[256];
            R->dir = xasprintf("%s/latest", arg);
            ssize_t n = readlink(R->dir, target, sizeof target - 1);
            if (n > 0 && !memchr(target, '/', (size_t)n)) {
                target[n] = '\0';
                free(R->dir);
                R->dir = xasprintf("%s/%s", arg, target);
            }
        } else {
            fprintf(err, "runner: compare: %s: no trials.csv there (not a run folder)\n", arg);
            free(lp);
            free(tp);
            return -1;
        }
        free(lp);
        free(tp);
        tp = xasprintf("%s/trials.csv", R->dir);
    }
    if (csv_read(tp, &R->t) < 0) {
        fprintf(err, "runner: compare: %s: %s\n", tp, strerror(errno));
        free(tp);
        return -1;
    }
    R->status_col = csv_col(&R->t, "status");
    if (R->t.nrows == 0 || R->t.nfields[0] < 2 || strcmp(R->t.rows[0][0], "trial") ||
        R->status_col < 1) {
        fprintf(err, "runner: compare: %s: not a runner trials.csv (no 'trial' ... 'status' header)\n",
                tp);
        free(tp);
        return -1;
    }
    R->nkeys = R->status_col - 1;
    R->median_col = csv_col(&R->t, "median");
    R->noise_col = csv_col(&R->t, "noise");

    /* one row per trial id, the last one written wins, in trial order */
    int n = R->t.nrows - 1;
    id_row *ir = xmalloc((size_t)(n + 1) * sizeof *ir);
    int k = 0;
    for (int r = 1; r < R->t.nrows; r++) {
        if (R->t.nfields[r] == 1 && !R->t.rows[r][0][0])
            continue; /* blank line */
        long long id;
        if (parse_ll(R->t.rows[r][0], &id) < 0) {
            fprintf(err, "runner: compare: %s: row %d: bad trial number '%s'\n", tp, r + 1,
                    R->t.rows[r][0]);
            free(ir);
            free(tp);
            return -1;
        }
        ir[k++] = (id_row){id, r};
    }
    xqsort(ir, (size_t)k, sizeof *ir, cmp_id_row);
    R->row = xmalloc((size_t)(k + 1) * sizeof *R->row);
    R->id = xmalloc((size_t)(k + 1) * sizeof *R->id);
    for (int i = 0; i < k; i++) {
        if (i + 1 < k && ir[i + 1].id == ir[i].id)
            continue;
        R->row[R->nrows] = ir[i].r;
        R->id[R->nrows++] = ir[i].id;
    }
    free(ir);
    free(tp);

    /* samples.csv: the seconds of each trial; a trial whose sample numbers
     * start again (a re-run after a crash) keeps only its last series */
    char *sp = xasprintf("%s/samples.csv", R->dir);
    csv_table s;
    if (csv_read(sp, &s) < 0) {
        fprintf(err, "runner: compare: %s: %s\n", sp, strerror(errno));
        free(sp);
        return -1;
    }
    int ct = csv_col(&s, "trial"), cs = csv_col(&s, "sample"), cv = csv_col(&s, "seconds");
    if (ct < 0 || cv < 0) {
        fprintf(err, "runner: compare: %s: not a runner samples.csv (no 'trial' and 'seconds' columns)\n",
                sp);
        csv_free(&s);
        free(sp);
        return -1;
    }
    free(sp);
    R->smp = xcalloc((size_t)R->nrows + 1, sizeof *R->smp);
    R->nsmp = xcalloc((size_t)R->nrows + 1, sizeof *R->nsmp);
    R->capsmp = xcalloc((size_t)R->nrows + 1, sizeof *R->capsmp);
    long long *last = xmalloc(((size_t)R->nrows + 1) * sizeof *last);
    for (int i = 0; i < R->nrows; i++)
        last[i] = -1;
    int need = (ct > cv ? ct : cv) + 1;
    for (int r = 1; r < s.nrows; r++) {
        long long id, sn = -1;
        if (s.nfields[r] < need || parse_ll(s.rows[r][ct], &id) < 0)
            continue;
        int pos = find_pos(R, id);
        if (pos < 0)
            continue; /* samples of a trial without a row */
        char *end;
        double v = strtod(s.rows[r][cv], &end);
        if (end == s.rows[r][cv] || *end)
            continue;
        if (cs >= 0 && cs < s.nfields[r] && parse_ll(s.rows[r][cs], &sn) == 0) {
            if (sn <= last[pos])
                R->nsmp[pos] = 0;
            last[pos] = sn;
        }
        if (R->nsmp[pos] == R->capsmp[pos]) {
            R->capsmp[pos] = R->capsmp[pos] ? 2 * R->capsmp[pos] : 8;
            R->smp[pos] = xrealloc(R->smp[pos], (size_t)R->capsmp[pos] * sizeof(double));
        }
        R->smp[pos][R->nsmp[pos]++] = v;
    }
    free(last);
    csv_free(&s);

    char *mp = xasprintf("%s/meta.json", R->dir);
    json_object *m = is_file(mp) ? json_object_from_file(mp) : NULL;
    if (m) {
        R->host = json_str(m, "host", "hostname");
        R->start = json_str(m, "start", NULL);
        json_object_put(m);
    }
    free(mp);
    return 0;
}

/* ---- matching -------------------------------------------------------------- */

typedef struct side {
    int run, pos;       /* the first run of the side that has the trial, its position; -1 */
    const char *status; /* "ok" when ok in some run, else the first run's status */
    int nruns;          /* runs where it is ok */
    int n;              /* samples over those runs */
    double median;      /* median of their per-run medians */
    double spread;      /* max / min - 1 of the per-run medians; NaN with < 2 */
    double drift;       /* upper / lower quartile - 1 of the block medians of a run, the largest */
    int busy;           /* ok runs whose `noise` says the machine was busy */
} side;

typedef struct cmp_row {
    int *pos; /* position in each run, -1: absent */
    int order;
    side o, n;
    double ratio, u, p, q, thr;
    int exact, per_run, nrep_o, nrep_n;
    char verdict[96];
    int kind; /* 0 same, 1 faster, 2 slower, 3 not compared, 4 only OLD, 5 only NEW, 6 busy */
} cmp_row;

typedef struct column {
    const char *name;
    int *col; /* column in each run's trials.csv, -1 when absent */
} column;

typedef struct report {
    run_data *runs;
    int nold, nruns; /* runs 0 .. nold-1 are OLD, the rest NEW */
    column *cols;    /* parameter columns shown */
    int ncols;
    cmp_row *rows;
    int nrows, ntests;
    strbuf notes; /* lines for the text and markdown headers */
    const compare_opts *opt;
} report;

typedef struct item {
    char *s; /* shared-key tuple, then '\1' and the occurrence number */
    int run, pos;
} item;

static int cmp_item(const void *pa, const void *pb)
{
    const item *a = pa, *b = pb;
    int c = strcmp(a->s, b->s);
    if (c)
        return c;
    if (a->run != b->run)
        return (a->run > b->run) - (a->run < b->run);
    return (a->pos > b->pos) - (a->pos < b->pos);
}

/* The shared-key values of a trial, each length-prefixed: unambiguous. */
static char *tuple(const report *R, int run, int pos, int nshared)
{
    strbuf b = {0};
    for (int i = 0; i < nshared; i++) {
        const char *v = cell(&R->runs[run], pos, R->cols[i].col[run]);
        sb_printf(&b, "%zu:%s", strlen(v), v);
    }
    if (!b.s)
        sb_puts(&b, "");
    return sb_take(&b);
}

static int key_col(const run_data *R, const char *name)
{
    for (int k = 0; k < R->nkeys; k++)
        if (!strcmp(key_name(R, k), name))
            return 1 + k;
    return -1;
}

/* Whether column `col` holds one value in every trial; the value in *v. */
static int constant_col(const run_data *R, int col, const char **v)
{
    *v = R->nrows ? cell(R, 0, col) : "";
    for (int i = 1; i < R->nrows; i++)
        if (strcmp(cell(R, i, col), *v))
            return 0;
    return 1;
}

static double median_of(const run_data *R, int pos)
{
    const char *c = cell(R, pos, R->median_col);
    char *end;
    double v = strtod(c, &end);
    if (*c && !*end && !isnan(v))
        return v;
    if (R->nsmp[pos] == 0)
        return NAN;
    double *x = xmalloc((size_t)R->nsmp[pos] * sizeof *x);
    memcpy(x, R->smp[pos], (size_t)R->nsmp[pos] * sizeof *x);
    v = stats_median(x, R->nsmp[pos]);
    free(x);
    return v;
}

static int is_ok(const run_data *D, int pos)
{
    return pos >= 0 && !strcmp(cell(D, pos, D->status_col), "ok");
}

static int cmp_double(const void *pa, const void *pb)
{
    double a = *(const double *)pa, b = *(const double *)pb;
    return (a > b) - (a < b);
}

/* The medians of at most COMPARE_BLOCKS consecutive blocks of a trial's
 * samples, in the order taken (README "Comparing runs"). */
static double *block_medians(const run_data *D, int pos, int *n)
{
    int ns = D->nsmp[pos], nb = ns < COMPARE_BLOCKS ? ns : COMPARE_BLOCKS;
    double *x = xmalloc((size_t)(nb + 1) * sizeof *x);
    double *tmp = xmalloc((size_t)(ns + 1) * sizeof *tmp);
    for (int b = 0; b < nb; b++) {
        int a = (int)((long long)b * ns / nb), e = (int)((long long)(b + 1) * ns / nb);
        memcpy(tmp, D->smp[pos] + a, (size_t)(e - a) * sizeof *tmp);
        x[b] = stats_median(tmp, e - a);
    }
    free(tmp);
    *n = nb;
    return x;
}

static side side_of(const report *R, const cmp_row *c, int lo, int hi)
{
    side s = {-1, -1, NULL, 0, 0, NAN, NAN, 0, 0};
    double *m = xmalloc((size_t)(hi - lo) * sizeof *m);
    for (int r = lo; r < hi; r++) {
        const run_data *D = &R->runs[r];
        int pos = c->pos[r];
        if (pos < 0)
            continue;
        if (s.run < 0) {
            s.run = r;
            s.pos = pos;
            s.status = cell(D, pos, D->status_col);
        }
        if (!is_ok(D, pos))
            continue;
        if (strcmp(s.status, "ok")) {
            s.run = r;
            s.pos = pos;
            s.status = "ok";
        }
        double v = median_of(D, pos);
        if (isfinite(v))
            m[s.nruns++] = v;
        /* run on a busy machine (README "Measurement quality", Load) */
        if (strstr(cell(D, pos, D->noise_col), "busy: "))
            s.busy++;
        s.n += D->nsmp[pos];
        /* the drift: upper / lower quartile of the block medians, less 1; the
         * quartiles, not the extremes: one block with a stall must not hide
         * every verdict of the trial */
        int nb;
        double *b = block_medians(D, pos, &nb);
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

/* The replicates of one side (README "Comparing runs"): per-run medians, or
 * the block medians of every ok run. */
static double *replicates(const report *R, const cmp_row *c, int lo, int hi, int per_run, int *n)
{
    int cap = (hi - lo) * COMPARE_BLOCKS + 1;
    double *x = xmalloc((size_t)cap * sizeof *x);
    *n = 0;
    for (int r = lo; r < hi; r++) {
        const run_data *D = &R->runs[r];
        int pos = c->pos[r];
        if (!is_ok(D, pos))
            continue;
        if (per_run) {
            x[(*n)++] = median_of(D, pos);
            continue;
        }
        int nb;
        double *b = block_medians(D, pos, &nb);
        memcpy(x + *n, b, (size_t)nb * sizeof *x);
        *n += nb;
        free(b);
    }
    return x;
}

static void judge(report *R, cmp_row *c)
{
    c->ratio = c->u = c->p = c->q = c->thr = NAN;
    c->o = side_of(R, c, 0, R->nold);
    c->n = side_of(R, c, R->nold, R->nruns);
    if (c->o.run < 0 || c->n.run < 0) {
        c->kind = c->o.run < 0 ? 5 : 4;
        snprintf(c->verdict, sizeof c->verdict, "only in %s", c->o.run < 0 ? "NEW" : "OLD");
        return;
    }
    int ook = !strcmp(c->o.status, "ok"), nok = !strcmp(c->n.status, "ok");
    if (!ook || !nok) {
        c->kind = 3;
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
    if (isnan(c->p) || isnan(c->ratio)) {
        c->kind = 3;
        snprintf(c->verdict, sizeof c->verdict, "no samples");
        return;
    }
    /* the effect a verdict needs: fixed, measured run-to-run, or the floor */
    if (isfinite(R->opt->threshold))
        c->thr = R->opt->threshold / 100.0;
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
    if (a->p != b->p)
        return (a->p > b->p) - (a->p < b->p);
    return (a->row > b->row) - (a->row < b->row);
}

/* Benjamini-Hochberg: q_(i) = min over j >= i of p_(j) m / j, at most 1,
 * over the m trials tested; then each verdict. */
static void correct_and_decide(report *R)
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
        cmp_row *c = &R->rows[r];
        if (isnan(c->thr))
            continue;
        if (c->q < COMPARE_ALPHA && c->ratio > 1.0 + c->thr)
            c->kind = 2;
        else if (c->q < COMPARE_ALPHA && c->ratio < 1.0 / (1.0 + c->thr))
            c->kind = 1;
        else
            c->kind = 0;
        /* a machine busy with other work in either side's runs: no verdict,
         * whatever the test says (the p- and q-values are still shown) */
        if ((c->o.busy || c->n.busy) && !R->opt->busy_ok)
            c->kind = 6;
        snprintf(c->verdict, sizeof c->verdict, "%s",
                 c->kind == 2   ? "slower"
                 : c->kind == 1 ? "faster"
                 : c->kind == 6 ? "busy"
                                : "same");
    }
}

/* ---- output ---------------------------------------------------------------- */

static const char *param(const report *R, const cmp_row *c, int i)
{
    const column *k = &R->cols[i];
    for (int r = 0; r < R->nruns; r++)
        if (c->pos[r] >= 0 && k->col[r] >= 0)
            return cell(&R->runs[r], c->pos[r], k->col[r]);
    return "";
}

static void fmt_time(char *out, size_t n, double s)
{
    if (isnan(s))
        snprintf(out, n, "-");
    else if (isinf(s))
        snprintf(out, n, "%s", s > 0 ? "inf" : "-inf");
    else if (s == 0)
        snprintf(out, n, "0 s");
    else {
        /* four significant digits, trailing zeros kept: columns line up */
        /* the unit by fmt_seconds' rule (util.c) */
        double scale;
        const char *u = seconds_unit(s, &scale);
        double v = s * scale;
        double a = fabs(v);
        int dec = a >= 1000 ? 0 : a >= 100 ? 1 : a >= 10 ? 2 : 3;
        snprintf(out, n, "%.*f %s", dec, v, u);
    }
}

static void fmt_num(char *out, size_t n, const char *fmt, double v)
{
    if (isnan(v))
        snprintf(out, n, "-");
    else if (isinf(v))
        snprintf(out, n, "%s", v > 0 ? "inf" : "-inf");
    else
        snprintf(out, n, fmt, v);
}

static void median_cell(char *out, size_t n, const side *s)
{
    if (s->run < 0)
        snprintf(out, n, "-");
    else if (strcmp(s->status, "ok"))
        snprintf(out, n, "%.30s", *s->status ? s->status : "?");
    else
        fmt_time(out, n, s->median);
}

static int is_number(const char *s)
{
    if (!*s)
        return 0;
    char *end;
    strtod(s, &end);
    return !*end;
}

/* A table of strings: text aligns it, markdown pipes it. */
typedef struct grid {
    int ncols, nrows;
    char ***cell; /* [row][col], row 0 the header */
    int *right;   /* right-align column */
} grid;

static void build_grid(const report *R, grid *g, int *shown)
{
    static const char *const tail[] = {"old median", "new median", "ratio", "noise",
                                       "p-value",    "q-value",    "verdict"};
    enum { NTAIL = 7 };
    int np = 0;
    for (int i = 0; i < R->ncols; i++)
        if (shown[i])
            np++;
    g->ncols = np + NTAIL;
    g->nrows = R->nrows + 1;
    g->cell = xcalloc((size_t)g->nrows, sizeof *g->cell);
    g->right = xcalloc((size_t)g->ncols, sizeof *g->right);
    for (int r = 0; r < g->nrows; r++)
        g->cell[r] = xcalloc((size_t)g->ncols, sizeof **g->cell);
    int c = 0;
    for (int i = 0; i < R->ncols; i++) {
        if (!shown[i])
            continue;
        g->cell[0][c] = xstrdup(R->cols[i].name);
        int numeric = 1;
        for (int r = 0; r < R->nrows; r++) {
            const char *v = param(R, &R->rows[r], i);
            g->cell[r + 1][c] = xstrdup(v);
            if (*v && !is_number(v))
                numeric = 0;
        }
        g->right[c++] = numeric;
    }
    for (int j = 0; j < NTAIL; j++) {
        g->cell[0][np + j] = xstrdup(tail[j]);
        g->right[np + j] = j < NTAIL - 1;
    }
    for (int r = 0; r < R->nrows; r++) {
        const cmp_row *x = &R->rows[r];
        char buf[64];
        median_cell(buf, sizeof buf, &x->o);
        g->cell[r + 1][np] = xstrdup(buf);
        median_cell(buf, sizeof buf, &x->n);
        g->cell[r + 1][np + 1] = xstrdup(buf);
        fmt_num(buf, sizeof buf, "%.3f", x->ratio);
        g->cell[r + 1][np + 2] = xstrdup(buf);
        if (isnan(x->thr))
            snprintf(buf, sizeof buf, "-");
        else
            snprintf(buf, sizeof buf, x->thr >= 1 ? "%.0f%%" : "%.3g%%", 100 * x->thr);
        g->cell[r + 1][np + 3] = xstrdup(buf);
        fmt_num(buf, sizeof buf, "%.3g", x->p);
        g->cell[r + 1][np + 4] = xstrdup(buf);
        fmt_num(buf, sizeof buf, "%.3g", x->q);
        g->cell[r + 1][np + 5] = xstrdup(buf);
        g->cell[r + 1][np + 6] = xstrdup(x->verdict);
    }
}

static void free_grid(grid *g)
{
    for (int r = 0; r < g->nrows; r++) {
        for (int c = 0; c < g->ncols; c++)
            free(g->cell[r][c]);
        free(g->cell[r]);
    }
    free(g->cell);
    free(g->right);
}

/* Columns with one value in every row go to the header, not the table. */
static void split_constant(const report *R, int *shown, strbuf *common, const char *sep,
                           int md)
{
    for (int i = 0; i < R->ncols; i++) {
        shown[i] = 0;
        const char *v0 = R->nrows ? param(R, &R->rows[0], i) : "";
        for (int r = 1; r < R->nrows && !shown[i]; r++)
            if (strcmp(param(R, &R->rows[r], i), v0))
                shown[i] = 1;
        if (!shown[i]) {
            if (common->len)
                sb_puts(common, sep);
            sb_printf(common, md ? "`%s=%s`" : "%s=%s", R->cols[i].name, v0);
        }
    }
}

static void summary(const report *R, strbuf *b)
{
    int n[7] = {0};
    for (int r = 0; r < R->nrows; r++)
        n[R->rows[r].kind]++;
    sb_printf(b, "%d slower, %d faster, %d same, %d not compared, %d only in OLD, %d only in NEW",
              n[2], n[1], n[0], n[3], n[4], n[5]);
    if (n[6])
        sb_printf(b, ", %d busy (run on a busy machine: inconclusive)", n[6]);
}

static void run_line(strbuf *b, const char *tag, const run_data *D, int md)
{
    if (md)
        sb_printf(b, "- **%s**: `%s`", tag, D->dir);
    else
        sb_printf(b, "%s  %s", tag, D->dir);
    if (D->host || D->start) {
        sb_puts(b, md ? " (" : "  (");
        if (D->host)
            sb_printf(b, "host %s", D->host);
        if (D->start)
            sb_printf(b, "%sstarted %s", D->host ? ", " : "", D->start);
        sb_putc(b, ')');
    }
    sb_putc(b, '\n');
}

/* How the verdicts were reached, in one line (README "Comparing runs"). */
static void method_line(const report *R, strbuf *h)
{
    int per_run = 0, blocks = 0;
    for (int r = 0; r < R->nrows; r++)
        if (!isnan(R->rows[r].thr))
            *(R->rows[r].per_run ? &per_run : &blocks) += 1;
    sb_printf(h, "Mann-Whitney U two-sided over %s, Benjamini-Hochberg q over %d trials; "
                 "faster/slower: q < %.2g and new/old beyond the noise (",
              per_run && blocks ? "per-run or block medians"
              : per_run        ? "per-run medians"
                               : "block medians of each run",
              R->ntests, COMPARE_ALPHA);
    if (isfinite(R->opt->threshold))
        sb_printf(h, "fixed by --threshold: %g %%)\n", R->opt->threshold);
    else if (R->nold > 1 || R->nruns - R->nold > 1)
        sb_printf(h, "measured: the spread of the per-run medians; %g %% where one run per side)\n",
                  R->opt->noise_floor);
    else
        sb_printf(h, "one run per side: the noise floor, %g %%)\n", R->opt->noise_floor);
}

static void put_text(const report *R, FILE *out)
{
    int *shown = xcalloc((size_t)R->ncols + 1, sizeof *shown);
    strbuf common = {0}, h = {0};
    split_constant(R, shown, &common, " ", 0);
    for (int r = 0; r < R->nruns; r++)
        run_line(&h, r < R->nold ? "OLD" : "NEW", &R->runs[r], 0);
    if (common.len && R->nrows)
        sb_printf(&h, "every trial: %s\n", common.s);
    if (R->notes.len)
        sb_puts(&h, R->notes.s);
    method_line(R, &h);
    sb_putc(&h, '\n');
    fputs(h.s, out);
    grid g;
    build_grid(R, &g, shown);
    int *w = xcalloc((size_t)g.ncols, sizeof *w);
    for (int r = 0; r < g.nrows; r++)
        for (int c = 0; c < g.ncols; c++) {
            int l = (int)strlen(g.cell[r][c]);
            if (l > w[c])
                w[c] = l;
        }
    for (int r = 0; r < g.nrows; r++) {
        strbuf line = {0};
        for (int c = 0; c < g.ncols; c++) {
            if (c)
                sb_puts(&line, "  ");
            if (g.right[c])
                sb_printf(&line, "%*s", w[c], g.cell[r][c]);
            else
                sb_printf(&line, "%-*s", w[c], g.cell[r][c]);
        }
        /* no trailing blanks */
        while (line.len && line.s[line.len - 1] == ' ')
            line.s[--line.len] = '\0';
        fprintf(out, "%s\n", line.s ? line.s : "");
        sb_free(&line);
    }
    strbuf s = {0};
    summary(R, &s);
    fprintf(out, "\n%s\n", s.s);
    sb_free(&s);
    free(w);
    free_grid(&g);
    sb_free(&common);
    sb_free(&h);
    free(shown);
}

static void md_cell(FILE *out, const char *s)
{
    for (; *s; s++) {
        if (*s == '|' || *s == '\\' || *s == '`' || *s == '*' || *s == '_')
            fputc('\\', out);
        fputc(*s == '\n' || *s == '\r' ? ' ' : *s, out);
    }
}

static void put_md(const report *R, FILE *out)
{
    int *shown = xcalloc((size_t)R->ncols + 1, sizeof *shown);
    strbuf common = {0}, h = {0};
    split_constant(R, shown, &common, ", ", 1);
    for (int r = 0; r < R->nruns; r++)
        run_line(&h, r < R->nold ? "OLD" : "NEW", &R->runs[r], 1);
    if (common.len && R->nrows)
        sb_printf(&h, "- every trial: %s\n", common.s);
    if (R->notes.len) {
        const char *p = R->notes.s;
        while (*p) {
            size_t l = strcspn(p, "\n");
            sb_printf(&h, "- %.*s\n", (int)l, p);
            p += l + (p[l] == '\n');
        }
    }
    sb_puts(&h, "- ");
    method_line(R, &h);
    sb_putc(&h, '\n');
    fputs(h.s, out);
    grid g;
    build_grid(R, &g, shown);
    for (int r = 0; r < g.nrows; r++) {
        fputc('|', out);
        for (int c = 0; c < g.ncols; c++) {
            fputc(' ', out);
            md_cell(out, g.cell[r][c]);
            fputs(" |", out);
        }
        fputc('\n', out);
        if (r == 0) {
            fputc('|', out);
            for (int c = 0; c < g.ncols; c++)
                fputs(g.right[c] ? " ---: |" : " --- |", out);
            fputc('\n', out);
        }
    }
    strbuf s = {0};
    summary(R, &s);
    fprintf(out, "\n%s\n", s.s);
    sb_free(&s);
    free_grid(&g);
    sb_free(&common);
    sb_free(&h);
    free(shown);
}

static void csv_num(strbuf *b, double v)
{
    sb_putc(b, ',');
    if (isnan(v))
        return;
    if (isinf(v))
        sb_puts(b, v > 0 ? "inf" : "-inf");
    else
        sb_printf(b, "%.9g", v);
}

static void put_csv(const report *R, FILE *out)
{
    strbuf b = {0};
    for (int i = 0; i < R->ncols; i++) {
        csv_field(&b, R->cols[i].name);
        sb_putc(&b, ',');
    }
    sb_puts(&b, "old_trial,new_trial,old_status,new_status,old_runs,new_runs,old_samples,"
                "new_samples,old_median,new_median,ratio,noise,replicates,u,p_value,q_value,"
                "method,verdict\n");
    for (int r = 0; r < R->nrows; r++) {
        const cmp_row *c = &R->rows[r];
        for (int i = 0; i < R->ncols; i++) {
            csv_field(&b, param(R, c, i));
            sb_putc(&b, ',');
        }
        if (c->o.run >= 0)
            sb_printf(&b, "%lld", R->runs[c->o.run].id[c->o.pos]);
        sb_putc(&b, ',');
        if (c->n.run >= 0)
            sb_printf(&b, "%lld", R->runs[c->n.run].id[c->n.pos]);
        sb_putc(&b, ',');
        csv_field(&b, c->o.run >= 0 ? c->o.status : "");
        sb_putc(&b, ',');
        csv_field(&b, c->n.run >= 0 ? c->n.status : "");
        sb_putc(&b, ',');
        if (c->o.run >= 0)
            sb_printf(&b, "%d", c->o.nruns);
        sb_putc(&b, ',');
        if (c->n.run >= 0)
            sb_printf(&b, "%d", c->n.nruns);
        sb_putc(&b, ',');
        if (c->o.run >= 0)
            sb_printf(&b, "%d", c->o.n);
        sb_putc(&b, ',');
        if (c->n.run >= 0)
            sb_printf(&b, "%d", c->n.n);
        csv_num(&b, c->o.median);
        csv_num(&b, c->n.median);
        csv_num(&b, c->ratio);
        csv_num(&b, c->thr);
        sb_puts(&b, isnan(c->p) ? "," : c->per_run ? ",runs" : ",blocks");
        csv_num(&b, c->u);
        csv_num(&b, c->p);
        csv_num(&b, c->q);
        sb_puts(&b, isnan(c->p) ? "," : c->exact ? ",exact" : ",normal");
        sb_putc(&b, ',');
        csv_field(&b, c->verdict);
        sb_putc(&b, '\n');
    }
    fputs(b.s, out);
    sb_free(&b);
}

static json_object *jnum(double v)
{
    if (!isfinite(v))
        return NULL; /* JSON has no NaN or infinity: null */
    char buf[64];
    snprintf(buf, sizeof buf, "%.9g", v);
    return json_object_new_double_s(v, buf);
}

/* A parameter as a JSON integer when it is one, written canonically. */
static json_object *jparam(const char *v)
{
    long long x;
    if (parse_ll(v, &x) == 0) {
        char buf[32];
        snprintf(buf, sizeof buf, "%lld", x);
        if (!strcmp(buf, v))
            return json_object_new_int64(x);
    }
    return json_object_new_string(v);
}

static json_object *jside(const report *R, const side *s)
{
    if (s->run < 0)
        return NULL;
    json_object *o = json_object_new_object();
    json_object_object_add(o, "trial", json_object_new_int64(R->runs[s->run].id[s->pos]));
    json_object_object_add(o, "runs", json_object_new_int(s->nruns));
    json_object_object_add(o, "status", json_object_new_string(s->status));
    json_object_object_add(o, "samples", json_object_new_int(s->n));
    json_object_object_add(o, "median", jnum(s->median));
    return o;
}

static void put_json(const report *R, FILE *out)
{
    json_object *a = json_object_new_array();
    for (int r = 0; r < R->nrows; r++) {
        const cmp_row *c = &R->rows[r];
        json_object *o = json_object_new_object(), *p = json_object_new_object();
        for (int i = 0; i < R->ncols; i++)
            json_object_object_add(p, R->cols[i].name, jparam(param(R, c, i)));
        json_object_object_add(o, "params", p);
        json_object_object_add(o, "old", jside(R, &c->o));
        json_object_object_add(o, "new", jside(R, &c->n));
        json_object_object_add(o, "ratio", jnum(c->ratio));
        json_object_object_add(o, "u", jnum(c->u));
        json_object_object_add(o, "noise", jnum(c->thr));
        json_object_object_add(o, "replicates",
                               isnan(c->p) ? NULL
                                           : json_object_new_string(c->per_run ? "runs" : "blocks"));
        json_object_object_add(o, "p_value", jnum(c->p));
        json_object_object_add(o, "q_value", jnum(c->q));
        json_object_object_add(o, "method",
                               isnan(c->p) ? NULL
                                           : json_object_new_string(c->exact ? "exact" : "normal"));
        json_object_object_add(o, "verdict", json_object_new_string(c->verdict));
        json_object_array_add(a, o);
    }
    fprintf(out, "%s\n",
            json_object_to_json_string_ext(a, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
                                                  JSON_C_TO_STRING_NOSLASHESCAPE));
    json_object_put(a);
}

/* ---- the command ------------------------------------------------------------ */

/* ---- the command ------------------------------------------------------------ */

static int is_ignored(const compare_opts *o, const char *key)
{
    for (int i = 0; default_ignored[i]; i++)
        if (!strcmp(default_ignored[i], key))
            return 1;
    for (int i = 0; i < o->nignore; i++)
        if (!strcmp(o->ignore[i], key))
            return 1;
    return 0;
}

/* Chooses the columns: the keys of every run, not ignored, in the first
 * run's order; returns how many are shared, 0 in *match when a key of some
 * runs only varies. */
static int choose_columns(report *R, int *match)
{
    int nr = R->nruns;
    int cap = 1;
    for (int r = 0; r < nr; r++)
        cap += R->runs[r].nkeys;
    R->cols = xcalloc((size_t)cap, sizeof *R->cols);
    for (int k = 0; k < R->runs[0].nkeys; k++) {
        const char *name = key_name(&R->runs[0], k);
        if (is_ignored(R->opt, name))
            continue;
        int *col = xmalloc((size_t)nr * sizeof *col), all = 1;
        for (int r = 0; r < nr; r++)
            if ((col[r] = key_col(&R->runs[r], name)) < 0)
                all = 0;
        if (all)
            R->cols[R->ncols++] = (column){name, col};
        else
            free(col);
    }
    int nshared = R->ncols;
    *match = 1;
    strbuf ign = {0};
    for (int r = 0; r < nr; r++) {
        const run_data *A = &R->runs[r];
        for (int k = 0; k < A->nkeys; k++) {
            const char *name = key_name(A, k);
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
            const run_data *A = &R->runs[r];
            for (int k = 0; k < A->nkeys; k++) {
                const char *name = key_name(A, k);
                int seen = 0;
                for (int i = 0; i < R->ncols && !seen; i++)
                    seen = !strcmp(R->cols[i].name, name);
                if (seen || is_ignored(R->opt, name))
                    continue;
                int *col = xmalloc((size_t)nr * sizeof *col);
                for (int s = 0; s < nr; s++)
                    col[s] = key_col(&R->runs[s], name);
                R->cols[R->ncols++] = (column){name, col};
            }
        }
    return nshared;
}

/* Groups the trials of every run by shared-key tuple and occurrence: one
 * row each, in the order they first appear (OLD's first run first). */
static void match_rows(report *R, int nshared, int match)
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
        cmp_row *c = &R->rows[R->nrows++];
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
    const cmp_row *a = pa, *b = pb;
    return (a->order > b->order) - (a->order < b->order);
}

int compare_runs(const char *const *old_dirs, int nold, const char *const *new_dirs, int nnew,
                 const compare_opts *opt, FILE *out, FILE *err)
{
    const char *format = opt->format ? opt->format : "text";
    if (strcmp(format, "text") && strcmp(format, "md") && strcmp(format, "csv") &&
        strcmp(format, "json")) {
        fprintf(err, "runner: compare: unknown format '%s' (text, md, csv or json)\n", format);
        return EXIT_INVALID;
    }
    if (!isnan(opt->threshold) && (!(opt->threshold >= 0) || !isfinite(opt->threshold))) {
        fprintf(err, "runner: compare: the threshold must be a percentage >= 0\n");
        return EXIT_INVALID;
    }
    if (!(opt->noise_floor >= 0) || !isfinite(opt->noise_floor)) {
        fprintf(err, "runner: compare: the noise floor must be a percentage >= 0\n");
        return EXIT_INVALID;
    }
    if (nold < 1 || nnew < 1) {
        fprintf(err, "runner: compare: needs at least one OLD and one NEW run\n");
        return EXIT_INVALID;
    }
    report R = {.nold = nold, .nruns = nold + nnew, .opt = opt};
    R.runs = xcalloc((size_t)R.nruns, sizeof *R.runs);
    int rc = EXIT_OK;
    for (int r = 0; r < R.nruns && rc == EXIT_OK; r++)
        if (run_load(&R.runs[r], r < nold ? old_dirs[r] : new_dirs[r - nold], err) < 0)
            rc = EXIT_INVALID;
    /* an --ignore KEY no run has is most likely a typo */
    for (int i = 0; i < opt->nignore && rc == EXIT_OK; i++) {
        int found = 0;
        for (int r = 0; r < R.nruns && !found; r++)
            found = key_col(&R.runs[r], opt->ignore[i]) >= 0;
        if (!found) {
            fprintf(err, "runner: compare: --ignore %s: no run has a key '%s'\n", opt->ignore[i],
                    opt->ignore[i]);
            rc = EXIT_INVALID;
        }
    }
    if (rc != EXIT_OK) {
        for (int r = 0; r < R.nruns; r++)
            run_free(&R.runs[r]);
        free(R.runs);
        return rc;
    }

    int match;
    int nshared = choose_columns(&R, &match);
    match_rows(&R, nshared, match);
    xqsort(R.rows, (size_t)R.nrows, sizeof *R.rows, cmp_row_order);
    for (int r = 0; r < R.nrows; r++)
        judge(&R, &R.rows[r]);
    correct_and_decide(&R);

    if (!strcmp(format, "text"))
        put_text(&R, out);
    else if (!strcmp(format, "md"))
        put_md(&R, out);
    else if (!strcmp(format, "csv"))
        put_csv(&R, out);
    else
        put_json(&R, out);
    fflush(out);

    int matched = 0;
    for (int r = 0; r < R.nrows; r++) {
        if (R.rows[r].kind < 4 || R.rows[r].kind == 6)
            matched++;
        if (R.rows[r].kind == 2)
            rc = EXIT_TRIALS_FAILED;
    }
    if (!matched) {
        fprintf(err, "runner: compare: no trial of OLD matched one of NEW (%d and %d trials); "
                     "see the header for keys that differ, or --ignore KEY\n",
                R.runs[0].nrows, R.runs[nold].nrows);
        rc = EXIT_INVALID;
    }
    for (int r = 0; r < R.nrows; r++)
        free(R.rows[r].pos);
    free(R.rows);
    for (int i = 0; i < R.ncols; i++)
        free(R.cols[i].col);
    free(R.cols);
    sb_free(&R.notes);
    for (int r = 0; r < R.nruns; r++)
        run_free(&R.runs[r]);
    free(R.runs);
    return rc;
}

static void compare_usage(FILE *f)
{
    fputs("usage: runner compare OLD_RUN NEW_RUN [options]\n"
          "       runner compare OLD_RUN... -- NEW_RUN... [options]\n"
          "  matches the trials of the runs by their parameters (not repeats, stop,\n"
          "  batch, order) and tests each pair (Mann-Whitney U over per-run medians\n"
          "  with 4+ runs a side, else over block medians; Benjamini-Hochberg q).\n"
          "  A trial is faster or slower when q < 0.05 and new/old is beyond the\n"
          "  run-to-run noise: measured with 2+ runs a side, else the noise floor.\n"
          "  A trial run on a busy machine (its noise cell says busy) in any run\n"
          "  of either side is `busy`: inconclusive, never faster or slower.\n"
          "  --busy-ok          judge trials run on a busy machine like the others\n"
          "  --threshold PCT    fixed effect threshold instead of the measured noise\n"
          "  --noise-floor PCT  noise assumed with one run per side (default 10)\n"
          "  --ignore KEY       leave KEY out of the matching (repeatable)\n"
          "  --format text|md|csv|json\n"
          "  exit status: 1 when some trial is slower, 0 otherwise, 2 on bad input\n"
          "  or when no trial matched\n",
          f);
}

static int opt_arg(int nargs, char **args, int *i, const char *name, const char **v)
{
    size_t n = strlen(name);
    if (strncmp(args[*i], name, n))
        return 0;
    if (args[*i][n] == '=') {
        *v = args[*i] + n + 1;
        return 1;
    }
    if (args[*i][n])
        return 0;
    if (*i + 1 >= nargs) {
        *v = NULL;
        return 1;
    }
    *v = args[++*i];
    return 1;
}

static int parse_pct(const char *opt, const char *v, double *out)
{
    char *end;
    if (!v || !*v) {
        fprintf(stderr, "runner: compare: %s needs a percentage\n", opt);
        return -1;
    }
    errno = 0;
    double x = strtod(v, &end);
    if (*end == '%')
        end++;
    if (end == v || *end || errno || !isfinite(x) || x < 0) {
        fprintf(stderr, "runner: compare: %s takes a percentage >= 0, not '%s'\n", opt, v);
        return -1;
    }
    *out = x;
    return 0;
}

int cmd_compare_main(int nargs, char **args)
{
    static const char *const opts[] = {"--threshold", "--noise-floor", "--ignore", "--format",
                                       "--busy-ok", "--help", NULL};
    const char **dirs = xcalloc((size_t)nargs + 1, sizeof *dirs);
    const char **ign = xcalloc((size_t)nargs + 1, sizeof *ign);
    compare_opts o = {.threshold = NAN, .noise_floor = COMPARE_NOISE_FLOOR, .format = "text",
                      .ignore = ign};
    const char *v;
    int ndirs = 0, split = -1, rc = -1;
    for (int i = 0; i < nargs && rc < 0; i++) {
        const char *a = args[i];
        if (a[0] != '-' || !strcmp(a, "-")) {
            dirs[ndirs++] = a;
        } else if (!strcmp(a, "--")) {
            if (split >= 0) {
                fprintf(stderr, "runner: compare: '--' given twice\n");
                rc = EXIT_INVALID;
            }
            split = ndirs;
        } else if (!strcmp(a, "--busy-ok")) {
            o.busy_ok = 1;
        } else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            compare_usage(stdout);
            rc = EXIT_OK;
        } else if (opt_arg(nargs, args, &i, "--threshold", &v)) {
            if (parse_pct("--threshold", v, &o.threshold) < 0)
                rc = EXIT_INVALID;
        } else if (opt_arg(nargs, args, &i, "--noise-floor", &v)) {
            if (parse_pct("--noise-floor", v, &o.noise_floor) < 0)
                rc = EXIT_INVALID;
        } else if (opt_arg(nargs, args, &i, "--ignore", &v)) {
            if (!v || !*v) {
                fprintf(stderr, "runner: compare: --ignore needs a key\n");
                rc = EXIT_INVALID;
            } else
                ign[o.nignore++] = v;
        } else if (opt_arg(nargs, args, &i, "--format", &v)) {
            if (!v || (strcmp(v, "text") && strcmp(v, "md") && strcmp(v, "csv") &&
                       strcmp(v, "json"))) {
                fprintf(stderr, "runner: compare: --format takes text, md, csv or json%s%s%s\n",
                        v ? ", not '" : "", v ? v : "", v ? "'" : "");
                rc = EXIT_INVALID;
            } else
                o.format = v;
        } else {
            char name[64];
            snprintf(name, sizeof name, "%.*s", (int)strcspn(a, "="), a);
            const char *s = closest_word(name, opts);
            fprintf(stderr, "runner: compare: unknown option '%s'%s%s%s\n", name,
                    s ? "; did you mean '" : "", s ? s : "", s ? "'?" : "");
            rc = EXIT_INVALID;
        }
    }
    if (rc < 0) {
        if (split < 0 && ndirs != 2) {
            if (ndirs > 2)
                fprintf(stderr, "runner: compare takes two run folders, OLD_RUN and NEW_RUN "
                                "('%s' is one too many), or OLD_RUN... -- NEW_RUN...\n",
                        dirs[2]);
            else
                compare_usage(stderr);
            rc = EXIT_INVALID;
        } else if (split >= 0 && (split == 0 || split == ndirs)) {
            fprintf(stderr, "runner: compare: %s of '--' names no run\n",
                    split == 0 ? "the OLD side" : "the NEW side");
            rc = EXIT_INVALID;
        } else {
            int k = split < 0 ? 1 : split;
            rc = compare_runs(dirs, k, dirs + k, ndirs - k, &o, stdout, stderr);
        }
    }
    free(dirs);
    free(ign);
    return rc;
}
