/* compare_format.c - see compare_format.h. */
#include "results/report/compare_format.h"

#include "base/csv.h"
#include "base/util.h"
#include "results/report/compare_noise.h"

#include <errno.h>
#include <json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int parse_ll(const char *s, long long *v)
{
    char *end;
    errno = 0;
    *v = strtoll(s, &end, 10);
    return *s && !*end && !errno ? 0 : -1;
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

static void median_cell(char *out, size_t n, const compare_side *s)
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

/* The smallest change a row could have detected
 * (doc/compare.md#what-one-run-can-show): "±12%", "none" when no noise
 * was measured, "-" when the row was not compared. */
static void detectable_cell(char *buf, size_t len, double d)
{
    if (isnan(d))
        snprintf(buf, len, "-");
    else if (isinf(d))
        snprintf(buf, len, "none");
    else
        snprintf(buf, len, d >= 0.1 ? "\u00b1%.0f%%" : "\u00b1%.1f%%", 100 * d);
}

/* A table of strings: text aligns it, markdown pipes it. */
typedef struct grid {
    int ncols, nrows;
    char ***cell; /* [row][col], row 0 the header */
    int *right;   /* right-align column */
} grid;

static void build_grid(const compare_report *R, grid *g, int *shown)
{
    static const char *const tail[] = {"old median", "new median", "ratio",   "noise",
                                       "detectable", "p-value",    "q-value", "verdict"};
    enum { NTAIL = 8 };
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
            const char *v = compare_param(R, &R->rows[r], i);
            g->cell[r + 1][c] = xstrdup(v);
            if (*v && !is_number(v))
                numeric = 0;
        }
        g->right[c++] = numeric;
    }
    /* a label may hold a newline or an escape sequence: cells are one line
     * of plain text, as in the run summary (doc/compare.md) */
    for (int r = 0; r < g->nrows; r++)
        for (int k = 0; k < np; k++)
            sanitize_text(g->cell[r][k]);
    for (int j = 0; j < NTAIL; j++) {
        g->cell[0][np + j] = xstrdup(tail[j]);
        g->right[np + j] = j < NTAIL - 1;
    }
    for (int r = 0; r < R->nrows; r++) {
        const compare_row *x = &R->rows[r];
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
        detectable_cell(buf, sizeof buf, x->detectable);
        g->cell[r + 1][np + 4] = xstrdup(buf);
        fmt_num(buf, sizeof buf, "%.3g", x->p);
        g->cell[r + 1][np + 5] = xstrdup(buf);
        fmt_num(buf, sizeof buf, "%.3g", x->q);
        g->cell[r + 1][np + 6] = xstrdup(buf);
        g->cell[r + 1][np + 7] = x->why[0] ? xasprintf("%s (%s)", x->verdict, x->why)
                                           : xstrdup(x->verdict);
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
static void split_constant(const compare_report *R, int *shown, strbuf *common, const char *sep,
                           int md)
{
    for (int i = 0; i < R->ncols; i++) {
        shown[i] = 0;
        const char *v0 = R->nrows ? compare_param(R, &R->rows[0], i) : "";
        for (int r = 1; r < R->nrows && !shown[i]; r++)
            if (strcmp(compare_param(R, &R->rows[r], i), v0))
                shown[i] = 1;
        if (!shown[i]) {
            if (common->len)
                sb_puts(common, sep);
            sb_printf(common, md ? "`%s=%s`" : "%s=%s", R->cols[i].name, v0);
        }
    }
    sanitize_text(common->s); /* one line, whatever a label holds */
}

static void summary(const compare_report *R, strbuf *b)
{
    int n[CMP_NKINDS] = {0};
    for (int r = 0; r < R->nrows; r++)
        n[R->rows[r].kind]++;
    sb_printf(b, "%d slower, %d faster, %d same, %d not compared, %d only in OLD, %d only in NEW",
              n[CMP_SLOWER], n[CMP_FASTER], n[CMP_SAME], n[CMP_NOT_COMPARED], n[CMP_ONLY_OLD],
              n[CMP_ONLY_NEW]);
    if (n[CMP_BUSY])
        sb_printf(b, ", %d busy (run on a busy machine: inconclusive)", n[CMP_BUSY]);
    if (n[CMP_THROTTLED])
        sb_printf(b, ", %d throttled (run on a throttled CPU or GPU: inconclusive)",
                  n[CMP_THROTTLED]);
    if (n[CMP_INCONCLUSIVE])
        sb_printf(b, ", %d inconclusive (no change seen, but none as small as the threshold "
                     "could be)",
                  n[CMP_INCONCLUSIVE]);
}

static void run_line(strbuf *b, const char *tag, const compare_run *D, int md)
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

/* How the verdicts were reached, in one line (doc/compare.md#comparing-runs). */
static void method_line(const compare_report *R, strbuf *h)
{
    int per_run = 0, blocks = 0, workers = 0, hist = 0, modes = 0;
    for (int r = 0; r < R->nrows; r++)
        modes += !isnan(R->rows[r].thr) && !strcmp(R->rows[r].basis, "modes");
    for (int r = 0; r < R->nrows; r++)
        if (!isnan(R->rows[r].thr))
            *(compare_row_by_workers(&R->rows[r]) ? &workers
              : R->rows[r].per_run ? &per_run
                                   : &blocks) += 1;
    for (int r = 0; r < R->nrows; r++)
        hist = R->rows[r].nhist > hist ? R->rows[r].nhist : hist;
    char hs[96] = "";
    if (hist)
        snprintf(hs, sizeof hs, "; the spread of up to %d earlier runs in the history, where larger",
                 hist);
    if (workers) /* doc/compare.md#what-one-run-can-show */
        sb_printf(h, "t test over the worker blocks' log medians (by CPU; the runs' spread "
                     "where they disagree beyond their blocks%s%s)%s; ",
                  hs, modes ? "; mode by mode where both sides' workers ran at two speeds" : "",
                  per_run || blocks ? ", older runs: Mann-Whitney U" : "");
    if (!workers)
        sb_printf(h, "Mann-Whitney U two-sided over %s, ", per_run && blocks ? "per-run or block medians"
                                                          : per_run        ? "per-run medians"
                                                                           : "block medians of each run");
    sb_printf(h, "Benjamini-Hochberg q over %d trials; "
                 "faster/slower: q < %.2g and new/old beyond the noise (",
              R->ntests, COMPARE_ALPHA);
    if (isfinite(R->opt->threshold))
        sb_printf(h, "fixed by --threshold: %g %%)\n", R->opt->threshold);
    else if (R->nold > 1 || R->nruns - R->nold > 1)
        sb_printf(h, "measured: the spread of the per-run medians; %g %% where one run per side)\n",
                  R->opt->noise_floor);
    else
        sb_printf(h, "one run per side: the noise floor, %g %%)\n", R->opt->noise_floor);
}

/* The head of the text and Markdown forms: a line per run, then what every
 * trial has in common; the columns left to show in *shown (malloc'd). */
static void runs_head(const compare_report *R, int md, strbuf *h, int **shown)
{
    strbuf common = {0};
    *shown = xcalloc((size_t)R->ncols + 1, sizeof **shown);
    split_constant(R, *shown, &common, md ? ", " : " ", md);
    for (int r = 0; r < R->nruns; r++)
        run_line(h, r < R->nold ? "OLD" : "NEW", &R->runs[r], md);
    if (common.len && R->nrows)
        sb_printf(h, "%severy trial: %s\n", md ? "- " : "", common.s);
    sb_free(&common);
}

static void put_text(const compare_report *R, strbuf *out)
{
    int *shown;
    strbuf h = {0};
    runs_head(R, 0, &h, &shown);
    if (R->notes.len)
        sb_puts(&h, R->notes.s);
    method_line(R, &h);
    sb_putc(&h, '\n');
    sb_puts(out, h.s);
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
        sb_printf(out, "%s\n", line.s ? line.s : "");
        sb_free(&line);
    }
    strbuf s = {0};
    summary(R, &s);
    sb_printf(out, "\n%s\n", s.s);
    sb_free(&s);
    free(w);
    free_grid(&g);
    sb_free(&h);
    free(shown);
}

static void md_cell(strbuf *out, const char *s)
{
    for (; *s; s++) {
        if (*s == '|' || *s == '\\' || *s == '`' || *s == '*' || *s == '_')
            sb_putc(out, '\\');
        sb_putc(out, *s == '\n' || *s == '\r' ? ' ' : *s);
    }
}

static void put_md(const compare_report *R, strbuf *out)
{
    int *shown;
    strbuf h = {0};
    runs_head(R, 1, &h, &shown);
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
    sb_puts(out, h.s);
    grid g;
    build_grid(R, &g, shown);
    for (int r = 0; r < g.nrows; r++) {
        sb_putc(out, '|');
        for (int c = 0; c < g.ncols; c++) {
            sb_putc(out, ' ');
            md_cell(out, g.cell[r][c]);
            sb_puts(out, " |");
        }
        sb_putc(out, '\n');
        if (r == 0) {
            sb_putc(out, '|');
            for (int c = 0; c < g.ncols; c++)
                sb_puts(out, g.right[c] ? " ---: |" : " --- |");
            sb_putc(out, '\n');
        }
    }
    strbuf s = {0};
    summary(R, &s);
    sb_printf(out, "\n%s\n", s.s);
    sb_free(&s);
    free_grid(&g);
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

static void put_csv(const compare_report *R, strbuf *out)
{
    strbuf b = {0};
    for (int i = 0; i < R->ncols; i++) {
        csv_field(&b, R->cols[i].name);
        sb_putc(&b, ',');
    }
    sb_puts(&b, "old_trial,new_trial,old_status,new_status,old_runs,new_runs,old_samples,"
                "new_samples,old_median,new_median,ratio,noise,replicates,u,p_value,q_value,"
                "method,verdict,detectable,basis,why\n");
    for (int r = 0; r < R->nrows; r++) {
        const compare_row *c = &R->rows[r];
        for (int i = 0; i < R->ncols; i++) {
            csv_field(&b, compare_param(R, c, i));
            sb_putc(&b, ',');
        }
        /* old_trial,new_trial,old_status,...,new_samples: empty where a side has none */
        const compare_side *side[2] = {&c->o, &c->n};
        for (int k = 0; k < 2; k++)
            if (side[k]->run >= 0)
                sb_printf(&b, "%lld,", R->runs[side[k]->run].id[side[k]->pos]);
            else
                sb_putc(&b, ',');
        for (int k = 0; k < 2; k++) {
            csv_field(&b, side[k]->run >= 0 ? side[k]->status : "");
            sb_putc(&b, ',');
        }
        for (int k = 0; k < 4; k++) {
            const compare_side *x = side[k % 2];
            if (x->run >= 0)
                sb_printf(&b, "%d", k < 2 ? x->nruns : x->n);
            if (k < 3)
                sb_putc(&b, ',');
        }
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
        csv_num(&b, c->detectable);
        sb_putc(&b, ',');
        csv_field(&b, c->basis ? c->basis : "");
        sb_putc(&b, ',');
        csv_field(&b, c->why);
        sb_putc(&b, '\n');
    }
    sb_puts(out, b.s);
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

static json_object *jside(const compare_report *R, const compare_side *s)
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

static void put_json(const compare_report *R, strbuf *out)
{
    json_object *a = json_object_new_array();
    for (int r = 0; r < R->nrows; r++) {
        const compare_row *c = &R->rows[r];
        json_object *o = json_object_new_object(), *p = json_object_new_object();
        for (int i = 0; i < R->ncols; i++)
            json_object_object_add(p, R->cols[i].name, jparam(compare_param(R, c, i)));
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
        json_object_object_add(o, "detectable", jnum(c->detectable));
        json_object_object_add(o, "basis", json_object_new_string(c->basis ? c->basis : ""));
        if (c->why[0])
            json_object_object_add(o, "why", json_object_new_string(c->why));
        json_object_array_add(a, o);
    }
    sb_printf(out, "%s\n",
              json_object_to_json_string_ext(a, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
                                                  JSON_C_TO_STRING_NOSLASHESCAPE));
    json_object_put(a);
}


void compare_format(const compare_report *R, strbuf *out)
{
    const char *format = R->opt->format ? R->opt->format : "text";
    size_t from = out->len;
    if (!strcmp(format, "md"))
        put_md(R, out);
    else if (!strcmp(format, "csv"))
        put_csv(R, out);
    else if (!strcmp(format, "json"))
        put_json(R, out);
    else
        put_text(R, out);
    /* text and Markdown are read on a terminal: no escape sequence from a
     * run folder (its path, host, labels) reaches it; CSV and JSON keep the
     * values exact */
    if (out->s && strcmp(format, "csv") && strcmp(format, "json"))
        sanitize_lines(out->s + from);
}
