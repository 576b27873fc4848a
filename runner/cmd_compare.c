/* cmd_compare.c - `runner compare OLD_RUN NEW_RUN [--threshold PCT]
 * [--format text|md|csv|json]`: is the new run faster or slower than the old?
 *
 * Trials are matched by their parameters: the trial key columns of
 * trials.csv (every column between `trial` and `status`), compared by name, so
 * runs whose files order the columns differently still match.  A key that
 * only one run has must hold one value in all of that run's rows (a column
 * added with a default, say); it is then left out of the matching and named
 * in the header.  If it varies, the runs' trials cannot be told apart by the
 * shared keys and none is matched.  Should one run hold two trials with the
 * same parameters, they are paired with the other run's in trial order.
 *
 * For each pair whose status is `ok` in both runs: the medians of trials.csv
 * (computed from samples.csv where the cell is empty), ratio = new / old, and
 * the two-sided Mann-Whitney U test of the two runs' samples.csv `seconds`
 * (mannwhitney.h: exact distribution for n1, n2 <= 10 without ties, else the
 * normal approximation with tie and continuity corrections).  Verdict:
 * `slower` when p < 0.05 and ratio > 1 + PCT/100, `faster` when p < 0.05 and
 * ratio < 1 - PCT/100, else `same` (PCT: --threshold, default 5).  Pairs not
 * `ok` in both are listed with their statuses (`failed in NEW`), trials of one
 * run only as `only in OLD` / `only in NEW`.
 *
 * Exit status: 1 when some pair is `slower`, else 0; 2 for a bad option or a
 * run folder that cannot be read (the message names the path).  A run folder
 * may also be an experiment folder (OUTPUT/<name>): its `latest` run is used.
 * The runs may come from different machines; the text and markdown headers
 * show the host of each from meta.json when it is there. */
#include "commands.h"
#include "commands.h"
#include "csv.h"
#include "mannwhitney.h"
#include "stats.h"
#include "util.h"

#include <errno.h>
#include <json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define COMPARE_ALPHA 0.05


/* ---- one run --------------------------------------------------------------- */

typedef struct run_data {
    const char *arg; /* the folder as given */
    char *dir;       /* the run folder used (arg, or arg/latest) */
    csv_table t;
    int nkeys;      /* key columns: 1 .. nkeys of the header */
    int status_col, median_col;
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
    int pos; /* trial position in its run, -1: absent */
    const char *status;
    double median;
    int n;
} side;

typedef struct cmp_row {
    side o, n;
    double ratio, u, p;
    int exact;
    char verdict[96];
    int kind; /* 0 same, 1 faster, 2 slower, 3 not compared, 4 only OLD, 5 only NEW */
} cmp_row;

typedef struct column {
    const char *name;
    int oc, nc; /* column in OLD / NEW trials.csv, -1 when absent */
} column;

typedef struct tup {
    char *s;
    int pos;
} tup;

static int cmp_tup(const void *pa, const void *pb)
{
    const tup *a = pa, *b = pb;
    int c = strcmp(a->s, b->s);
    return c ? c : (a->pos > b->pos) - (a->pos < b->pos);
}

/* The shared-key values of a trial, each length-prefixed: unambiguous. */
static char *tuple(const run_data *R, int pos, const column *cols, int ncols, int old)
{
    strbuf b = {0};
    for (int i = 0; i < ncols; i++) {
        const char *v = cell(R, pos, old ? cols[i].oc : cols[i].nc);
        sb_printf(&b, "%zu:%s", strlen(v), v);
    }
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

static side side_of(const run_data *R, int pos)
{
    side s = {pos, NULL, NAN, 0};
    if (pos >= 0) {
        s.status = cell(R, pos, R->status_col);
        s.median = median_of(R, pos);
        s.n = R->nsmp[pos];
    }
    return s;
}

static void judge(cmp_row *c, const run_data *O, const run_data *N, double threshold)
{
    c->ratio = c->u = c->p = NAN;
    if (c->o.pos < 0 || c->n.pos < 0) {
        c->kind = c->o.pos < 0 ? 5 : 4;
        snprintf(c->verdict, sizeof c->verdict, "only in %s", c->o.pos < 0 ? "NEW" : "OLD");
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
    mw_result mw;
    if (mann_whitney(O->smp[c->o.pos], O->nsmp[c->o.pos], N->smp[c->n.pos], N->nsmp[c->n.pos],
                     MW_AUTO, &mw) == 0) {
        c->u = mw.u;
        c->p = mw.p;
        c->exact = mw.exact;
    }
    if (isnan(c->p) || isnan(c->ratio)) {
        c->kind = 3;
        snprintf(c->verdict, sizeof c->verdict, "no samples");
        return;
    }
    double t = threshold / 100.0;
    if (c->p < COMPARE_ALPHA && c->ratio > 1.0 + t)
        c->kind = 2;
    else if (c->p < COMPARE_ALPHA && c->ratio < 1.0 - t)
        c->kind = 1;
    else
        c->kind = 0;
    snprintf(c->verdict, sizeof c->verdict, "%s",
             c->kind == 2 ? "slower" : c->kind == 1 ? "faster" : "same");
}

/* ---- output ---------------------------------------------------------------- */

typedef struct report {
    const run_data *O, *N;
    column *cols; /* parameter columns shown */
    int ncols;
    cmp_row *rows;
    int nrows;
    strbuf notes; /* lines for the text and markdown headers */
    double threshold;
} report;

static const char *param(const report *R, const cmp_row *c, int i)
{
    const column *k = &R->cols[i];
    if (c->o.pos >= 0 && k->oc >= 0)
        return cell(R->O, c->o.pos, k->oc);
    if (c->n.pos >= 0 && k->nc >= 0)
        return cell(R->N, c->n.pos, k->nc);
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
    if (s->pos < 0)
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
    static const char *const tail[] = {"old median", "new median", "ratio", "p-value", "verdict"};
    int np = 0;
    for (int i = 0; i < R->ncols; i++)
        if (shown[i])
            np++;
    g->ncols = np + 5;
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
    for (int j = 0; j < 5; j++) {
        g->cell[0][np + j] = xstrdup(tail[j]);
        g->right[np + j] = j < 4;
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
        fmt_num(buf, sizeof buf, "%.3g", x->p);
        g->cell[r + 1][np + 3] = xstrdup(buf);
        g->cell[r + 1][np + 4] = xstrdup(x->verdict);
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
    int n[6] = {0};
    for (int r = 0; r < R->nrows; r++)
        n[R->rows[r].kind]++;
    sb_printf(b, "%d slower, %d faster, %d same, %d not compared, %d only in OLD, %d only in NEW",
              n[2], n[1], n[0], n[3], n[4], n[5]);
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

static void put_text(const report *R, FILE *out)
{
    int *shown = xcalloc((size_t)R->ncols + 1, sizeof *shown);
    strbuf common = {0}, h = {0};
    split_constant(R, shown, &common, " ", 0);
    run_line(&h, "OLD", R->O, 0);
    run_line(&h, "NEW", R->N, 0);
    if (common.len && R->nrows)
        sb_printf(&h, "every trial: %s\n", common.s);
    if (R->notes.len)
        sb_puts(&h, R->notes.s);
    sb_printf(&h, "Mann-Whitney U two-sided; faster/slower: p < %.2g and new/old beyond 1 +/- %g%%\n\n",
              COMPARE_ALPHA, R->threshold);
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
    run_line(&h, "OLD", R->O, 1);
    run_line(&h, "NEW", R->N, 1);
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
    sb_printf(&h, "- Mann-Whitney U two-sided; faster/slower: p < %.2g and new/old beyond 1 +/- %g %%\n\n",
              COMPARE_ALPHA, R->threshold);
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
    sb_puts(&b, "old_trial,new_trial,old_status,new_status,old_samples,new_samples,old_median,"
                "new_median,ratio,u,p_value,method,verdict\n");
    for (int r = 0; r < R->nrows; r++) {
        const cmp_row *c = &R->rows[r];
        for (int i = 0; i < R->ncols; i++) {
            csv_field(&b, param(R, c, i));
            sb_putc(&b, ',');
        }
        if (c->o.pos >= 0)
            sb_printf(&b, "%lld", R->O->id[c->o.pos]);
        sb_putc(&b, ',');
        if (c->n.pos >= 0)
            sb_printf(&b, "%lld", R->N->id[c->n.pos]);
        sb_putc(&b, ',');
        csv_field(&b, c->o.pos >= 0 ? c->o.status : "");
        sb_putc(&b, ',');
        csv_field(&b, c->n.pos >= 0 ? c->n.status : "");
        sb_putc(&b, ',');
        if (c->o.pos >= 0)
            sb_printf(&b, "%d", c->o.n);
        sb_putc(&b, ',');
        if (c->n.pos >= 0)
            sb_printf(&b, "%d", c->n.n);
        csv_num(&b, c->o.median);
        csv_num(&b, c->n.median);
        csv_num(&b, c->ratio);
        csv_num(&b, c->u);
        csv_num(&b, c->p);
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

static json_object *jside(const run_data *D, const side *s)
{
    if (s->pos < 0)
        return NULL;
    json_object *o = json_object_new_object();
    json_object_object_add(o, "trial", json_object_new_int64(D->id[s->pos]));
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
        json_object_object_add(o, "old", jside(R->O, &c->o));
        json_object_object_add(o, "new", jside(R->N, &c->n));
        json_object_object_add(o, "ratio", jnum(c->ratio));
        json_object_object_add(o, "u", jnum(c->u));
        json_object_object_add(o, "p_value", jnum(c->p));
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

int compare_runs(const char *old_dir, const char *new_dir, double threshold, const char *format,
                 FILE *out, FILE *err)
{
    if (!format)
        format = "text";
    if (strcmp(format, "text") && strcmp(format, "md") && strcmp(format, "csv") &&
        strcmp(format, "json")) {
        fprintf(err, "runner: compare: unknown format '%s' (text, md, csv or json)\n", format);
        return EXIT_INVALID;
    }
    if (!(threshold >= 0) || !isfinite(threshold)) {
        fprintf(err, "runner: compare: the threshold must be a percentage >= 0\n");
        return EXIT_INVALID;
    }
    run_data O, N;
    if (run_load(&O, old_dir, err) < 0) {
        run_free(&O);
        return EXIT_INVALID;
    }
    if (run_load(&N, new_dir, err) < 0) {
        run_free(&O);
        run_free(&N);
        return EXIT_INVALID;
    }

    report R = {.O = &O, .N = &N, .threshold = threshold};
    R.cols = xcalloc((size_t)(O.nkeys + N.nkeys) + 1, sizeof *R.cols);
    /* shared keys in OLD's order; keys of one run only must be constant */
    int match = 1;
    for (int k = 0; k < O.nkeys; k++) {
        int nc = key_col(&N, key_name(&O, k));
        if (nc >= 0)
            R.cols[R.ncols++] = (column){key_name(&O, k), 1 + k, nc};
    }
    int nshared = R.ncols;
    for (int sd = 0; sd < 2; sd++) {
        const run_data *A = sd ? &N : &O, *B = sd ? &O : &N;
        for (int k = 0; k < A->nkeys; k++) {
            if (key_col(B, key_name(A, k)) >= 0)
                continue;
            const char *v;
            if (constant_col(A, 1 + k, &v)) {
                sb_printf(&R.notes, "key '%s' only in %s (%s%s%s): not used to match\n",
                          key_name(A, k), sd ? "NEW" : "OLD", A->nrows ? "'" : "no trials",
                          A->nrows ? v : "", A->nrows ? "' in every trial" : "");
            } else {
                sb_printf(&R.notes, "key '%s' only in %s varies: the runs' trials cannot be matched\n",
                          key_name(A, k), sd ? "NEW" : "OLD");
                match = 0;
            }
        }
    }
    if (!match) /* show every key, so that each trial can be told apart */
        for (int sd = 0; sd < 2; sd++) {
            const run_data *A = sd ? &N : &O, *B = sd ? &O : &N;
            for (int k = 0; k < A->nkeys; k++)
                if (key_col(B, key_name(A, k)) < 0)
                    R.cols[R.ncols++] = (column){key_name(A, k), sd ? -1 : 1 + k, sd ? 1 + k : -1};
        }

    /* pair OLD's trials with NEW's through the sorted shared-key tuples */
    R.rows = xcalloc((size_t)(O.nrows + N.nrows) + 1, sizeof *R.rows);
    tup *nt = xmalloc(((size_t)N.nrows + 1) * sizeof *nt);
    for (int i = 0; i < N.nrows; i++)
        nt[i] = (tup){tuple(&N, i, R.cols, nshared, 0), i};
    xqsort(nt, (size_t)N.nrows, sizeof *nt, cmp_tup);
    unsigned char *used = xcalloc((size_t)N.nrows + 1, 1);
    for (int i = 0; i < O.nrows; i++) {
        int np = -1;
        if (match && N.nrows) {
            char *s = tuple(&O, i, R.cols, nshared, 1);
            int lo = 0, hi = N.nrows; /* first tuple >= s */
            while (lo < hi) {
                int mid = lo + (hi - lo) / 2;
                if (strcmp(nt[mid].s, s) < 0)
                    lo = mid + 1;
                else
                    hi = mid;
            }
            for (; lo < N.nrows && !strcmp(nt[lo].s, s); lo++)
                if (!used[nt[lo].pos]) {
                    np = nt[lo].pos;
                    used[np] = 1;
                    break;
                }
            free(s);
        }
        cmp_row *c = &R.rows[R.nrows++];
        c->o = side_of(&O, i);
        c->n = side_of(&N, np);
        judge(c, &O, &N, threshold);
    }
    for (int i = 0; i < N.nrows; i++)
        if (!used[i]) {
            cmp_row *c = &R.rows[R.nrows++];
            c->o = side_of(&O, -1);
            c->n = side_of(&N, i);
            judge(c, &O, &N, threshold);
        }
    for (int i = 0; i < N.nrows; i++)
        free(nt[i].s);
    free(nt);
    free(used);

    if (!strcmp(format, "text"))
        put_text(&R, out);
    else if (!strcmp(format, "md"))
        put_md(&R, out);
    else if (!strcmp(format, "csv"))
        put_csv(&R, out);
    else
        put_json(&R, out);
    fflush(out);

    int rc = EXIT_OK;
    for (int r = 0; r < R.nrows; r++)
        if (R.rows[r].kind == 2)
            rc = EXIT_TRIALS_FAILED;
    free(R.rows);
    free(R.cols);
    sb_free(&R.notes);
    run_free(&O);
    run_free(&N);
    return rc;
}

static void compare_usage(FILE *f)
{
    fputs("usage: runner compare OLD_RUN NEW_RUN [--threshold PCT] [--format text|md|csv|json]\n"
          "  matches the trials of two runs by their parameters and tests each pair's\n"
          "  samples (Mann-Whitney U, two-sided); a pair is faster or slower when\n"
          "  p < 0.05 and new/old median differs from 1 by more than PCT % (default 5).\n"
          "  exit status: 1 when some trial is slower, 0 otherwise, 2 on bad input\n",
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

int cmd_compare_main(int nargs, char **args)
{
    static const char *const opts[] = {"--threshold", "--format", "--help", NULL};
    const char *dirs[2] = {NULL, NULL};
    const char *format = "text", *v;
    double threshold = 5.0;
    int ndirs = 0, only_args = 0;
    for (int i = 0; i < nargs; i++) {
        const char *a = args[i];
        if (only_args || a[0] != '-' || !strcmp(a, "-")) {
            if (ndirs == 2) {
                fprintf(stderr, "runner: compare takes two run folders, OLD_RUN and NEW_RUN; "
                                "'%s' is one too many\n", a);
                return EXIT_INVALID;
            }
            dirs[ndirs++] = a;
        } else if (!strcmp(a, "--")) {
            only_args = 1;
        } else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            compare_usage(stdout);
            return EXIT_OK;
        } else if (opt_arg(nargs, args, &i, "--threshold", &v)) {
            char *end;
            if (!v || !*v) {
                fprintf(stderr, "runner: compare: --threshold needs a percentage\n");
                return EXIT_INVALID;
            }
            errno = 0;
            threshold = strtod(v, &end);
            if (*end == '%')
                end++;
            if (end == v || *end || errno || !isfinite(threshold) || threshold < 0) {
                fprintf(stderr, "runner: compare: --threshold takes a percentage >= 0, not '%s'\n",
                        v);
                return EXIT_INVALID;
            }
        } else if (opt_arg(nargs, args, &i, "--format", &v)) {
            if (!v || (strcmp(v, "text") && strcmp(v, "md") && strcmp(v, "csv") &&
                       strcmp(v, "json"))) {
                fprintf(stderr, "runner: compare: --format takes text, md, csv or json%s%s%s\n",
                        v ? ", not '" : "", v ? v : "", v ? "'" : "");
                return EXIT_INVALID;
            }
            format = v;
        } else {
            char name[64];
            snprintf(name, sizeof name, "%.*s", (int)strcspn(a, "="), a);
            const char *s = closest_word(name, opts);
            fprintf(stderr, "runner: compare: unknown option '%s'%s%s%s\n", name,
                    s ? "; did you mean '" : "", s ? s : "", s ? "'?" : "");
            return EXIT_INVALID;
        }
    }
    if (ndirs != 2) {
        compare_usage(stderr);
        return EXIT_INVALID;
    }
    return compare_runs(dirs[0], dirs[1], threshold, format, stdout, stderr);
}
