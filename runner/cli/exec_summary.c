/* exec_summary.c - see exec.h: what `runner exec` prints when its runs end,
 * and its --export-json (doc/own-code.md#one-line-mode), read back from
 * the run folders as any later command would read them. */
#include "cli/exec.h"

#include "base/csv.h"
#include "base/util.h"
#include "results/rundir/rundir.h"

#include <json.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* One trial of one command, as its run folder has it. */
typedef struct row {
    int cmd;
    const csv_table *t;
    int r;
} row;

static const char *cellv(const csv_table *t, int r, const char *col)
{
    int c = csv_col(t, col);
    return c >= 0 && c < t->nfields[r] ? t->rows[r][c] : "";
}

static double num(const csv_table *t, int r, const char *col)
{
    const char *s = cellv(t, r, col);
    char *end;
    double v = strtod(s, &end);
    return *s && !*end ? v : NAN;
}

static const char *row_value(void *ctx, const char *name)
{
    const row *w = ctx;
    return csv_col(w->t, name) >= 0 ? cellv(w->t, w->r, name) : NULL;
}

/* the command as it ran in this trial, its words joined (quoted when they
 * hold a space) */
static char *shown(const exec_spec *s, const row *w)
{
    const exec_cmd *c = &s->cmds[w->cmd];
    strbuf b = {0};
    sb_puts(&b, "");
    for (int i = 0; i < c->nwords; i++) {
        char *x = exec_expand_word(s, c->words[i], row_value, (void *)w);
        sb_puts(&b, i ? " " : "");
        if (!*x || strpbrk(x, " \t\n'\""))
            sh_quote(&b, x);
        else
            sb_puts(&b, x);
        free(x);
    }
    return sanitize_text(sb_take(&b));
}

/* "n=64, k=2": the trial's parameters, the key of a comparison */
static char *params_of(const exec_spec *s, const row *w)
{
    strbuf b = {0};
    sb_puts(&b, "");
    for (int i = 0; i < s->nparams; i++)
        sb_printf(&b, "%s%s=%s", i ? ", " : "", s->params[i].name,
                  cellv(w->t, w->r, s->params[i].name));
    return sb_take(&b);
}

static void fmt_in(char *out, size_t n, double v, double scale, const char *unit)
{
    snprintf(out, n, isnan(v) ? "-" : "%.2f %s", v * scale, unit);
}

static void print_trial(FILE *out, const exec_spec *s, const row *w, int no)
{
    char *cmd = shown(s, w);
    fprintf(out, "Benchmark %d: %s\n", no, cmd);
    free(cmd);
    const char *st = cellv(w->t, w->r, "status");
    if (strcmp(st, "ok")) {
        char *why = sanitize_text(xstrdup(cellv(w->t, w->r, "reason")));
        fprintf(out, "  %s%s%s\n", st, *why ? ": " : "", why);
        free(why);
        return;
    }
    double med = num(w->t, w->r, "median"), scale;
    const char *u = seconds_unit(med, &scale);
    char a[32], b[32], c[32], d[32];
    fmt_in(a, sizeof a, med, scale, u);
    fmt_in(b, sizeof b, num(w->t, w->r, "stddev"), scale, u);
    fmt_in(c, sizeof c, num(w->t, w->r, "median_ci_low"), scale, u);
    fmt_in(d, sizeof d, num(w->t, w->r, "median_ci_high"), scale, u);
    double lvl = num(w->t, w->r, "ci_level");
    fprintf(out, "  Time (median ± σ):   %10s ± %9s    [%.0f%% interval: %s … %s]\n", a, b,
            isnan(lvl) ? 0.0 : 100 * lvl, c, d);
    fmt_in(a, sizeof a, num(w->t, w->r, "min"), scale, u);
    fmt_in(b, sizeof b, num(w->t, w->r, "max"), scale, u);
    const char *batch = cellv(w->t, w->r, "batch_size");
    fprintf(out, "  Range (min … max):   %10s … %9s    %s samples", a, b,
            cellv(w->t, w->r, "samples"));
    if (*batch && strcmp(batch, "1"))
        fprintf(out, " of %s runs each", batch);
    fputc('\n', out);
}

/* The run folders' trials, in command order. */
static row *rows_of(const exec_spec *s, char *const *run_dirs, csv_table *tabs, int *nrows)
{
    row *rows = NULL;
    *nrows = 0;
    for (int k = 0; k < s->ncmds; k++) {
        char err[512];
        if (!run_dirs[k] || rundir_read_trials(run_dirs[k], &tabs[k], err, sizeof err) < 0) {
            memset(&tabs[k], 0, sizeof tabs[k]);
            continue;
        }
        for (int r = 1; r < tabs[k].nrows; r++) {
            XGROW(rows, *nrows);
            rows[(*nrows)++] = (row){k, &tabs[k], r};
        }
    }
    return rows;
}

static void tables_free(const exec_spec *s, csv_table *tabs)
{
    for (int k = 0; k < s->ncmds; k++)
        if (tabs[k].rows)
            csv_free(&tabs[k]);
    free(tabs);
}

/* With several commands: for each set of parameters, the fastest and its
 * ratio to each other (hyperfine's "Summary": medians here, the spread of
 * the ratio from both standard deviations). */
static void relative(FILE *out, const exec_spec *s, const row *rows, int n)
{
    char **keys = xcalloc((size_t)n + 1, sizeof *keys);
    for (int i = 0; i < n; i++)
        keys[i] = params_of(s, &rows[i]);
    for (int i = 0; i < n; i++) {
        int first = 1, best = -1, count = 0;
        for (int j = 0; j < i; j++)
            first &= strcmp(keys[i], keys[j]) != 0;
        for (int j = i; j < n && first; j++)
            if (!strcmp(keys[i], keys[j]) && !strcmp(cellv(rows[j].t, rows[j].r, "status"), "ok")) {
                count++;
                if (best < 0 || num(rows[j].t, rows[j].r, "median") <
                                    num(rows[best].t, rows[best].r, "median"))
                    best = j;
            }
        if (!first || count < 2)
            continue;
        double mb = num(rows[best].t, rows[best].r, "median"),
               sb = num(rows[best].t, rows[best].r, "stddev");
        char *c = shown(s, &rows[best]);
        fprintf(out, "\nSummary%s%s%s\n  '%s' ran\n", *keys[i] ? " (" : "", keys[i],
                *keys[i] ? ")" : "", c);
        free(c);
        for (int j = i; j < n; j++) {
            if (j == best || strcmp(keys[i], keys[j]) ||
                strcmp(cellv(rows[j].t, rows[j].r, "status"), "ok"))
                continue;
            double m = num(rows[j].t, rows[j].r, "median"), sd = num(rows[j].t, rows[j].r, "stddev");
            double r = m / mb, e = r * sqrt(pow(sb / mb, 2) + pow(sd / m, 2));
            char *o = shown(s, &rows[j]);
            fprintf(out, "    %.2f ± %.2f times faster than '%s'\n", r, isnan(e) ? 0.0 : e, o);
            free(o);
        }
    }
    for (int i = 0; i < n; i++)
        free(keys[i]);
    free(keys);
}

void exec_summary(FILE *out, const exec_spec *s, char *const *run_dirs)
{
    csv_table *tabs = xcalloc((size_t)s->ncmds, sizeof *tabs);
    int n;
    row *rows = rows_of(s, run_dirs, tabs, &n);
    for (int i = 0; i < n; i++) {
        fputs(i ? "\n" : "", out);
        print_trial(out, s, &rows[i], i + 1);
    }
    if (s->ncmds > 1)
        relative(out, s, rows, n);
    free(rows);
    tables_free(s, tabs);
}

/* a number as the run folder has it written (no digits added), or null */
static void put_num(json_object *o, const row *w, const char *key, const char *col)
{
    double v = num(w->t, w->r, col);
    json_object_object_add(o, key, isnan(v) ? NULL
                                            : json_object_new_double_s(v, cellv(w->t, w->r, col)));
}

/* the per-run times of trial w: each sample's seconds (per run, as in the
 * samples table) */
static json_object *times_of(const row *w, const char *dir)
{
    json_object *a = json_object_new_array();
    csv_table t;
    int present;
    char err[512];
    if (rundir_read_samples(dir, &t, &present, err, sizeof err) < 0)
        return a;
    rundir_by_trial g;
    rundir_group_samples(&t, &g);
    long no = rundir_trial_no(cellv(w->t, w->r, "trial"));
    int n = 0, sc = csv_col(&t, "seconds");
    const int *rs = no >= 0 && sc >= 0 ? rundir_last_series(&t, &g, no, &n) : NULL;
    for (int i = 0; rs && i < n; i++) {
        if (sc < t.nfields[rs[i]])
            json_object_array_add(a, json_object_new_double_s(strtod(t.rows[rs[i]][sc], NULL),
                                                              t.rows[rs[i]][sc]));
    }
    rundir_by_trial_free(&g);
    csv_free(&t);
    return a;
}

int exec_export_json(const char *path, const exec_spec *s, char *const *run_dirs, char *err,
                     size_t errlen)
{
    csv_table *tabs = xcalloc((size_t)s->ncmds, sizeof *tabs);
    int n;
    row *rows = rows_of(s, run_dirs, tabs, &n);
    json_object *results = json_object_new_array();
    for (int i = 0; i < n; i++) {
        const row *w = &rows[i];
        json_object *o = json_object_new_object();
        char *c = shown(s, w);
        json_object_object_add(o, "command", json_object_new_string(c));
        free(c);
        json_object_object_add(o, "name", json_object_new_string(s->cmds[w->cmd].name));
        json_object_object_add(o, "run_dir", json_object_new_string(run_dirs[w->cmd]));
        json_object_object_add(o, "status", json_object_new_string(cellv(w->t, w->r, "status")));
        if (*cellv(w->t, w->r, "reason"))
            json_object_object_add(o, "reason",
                                   json_object_new_string(cellv(w->t, w->r, "reason")));
        static const char *const stats[] = {"median", "mean", "stddev", "min", "max",
                                            "median_ci_low", "median_ci_high", "ci_level", NULL};
        for (int k = 0; stats[k]; k++)
            put_num(o, w, stats[k], stats[k]);
        put_num(o, w, "batch", "batch_size");
        if (!*cellv(w->t, w->r, "batch_size") && !strcmp(cellv(w->t, w->r, "status"), "ok"))
            json_object_object_add(o, "batch", json_object_new_int(1)); /* not batched */
        json_object_object_add(o, "times", times_of(w, run_dirs[w->cmd]));
        json_object *p = json_object_new_object();
        for (int k = 0; k < s->nparams; k++)
            json_object_object_add(p, s->params[k].name,
                                   json_object_new_string(cellv(w->t, w->r, s->params[k].name)));
        json_object_object_add(o, "parameters", p);
        json_object_array_add(results, o);
    }
    json_object *doc = json_object_new_object();
    json_object_object_add(doc, "results", results);
    const char *text = json_object_to_json_string_ext(doc, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
                                                               JSON_C_TO_STRING_NOSLASHESCAPE);
    char *data = xasprintf("%s\n", text);
    int rc = write_file_atomic(path, data, strlen(data));
    if (rc < 0)
        snprintf(err, errlen, "cannot write %s", path);
    free(data);
    json_object_put(doc);
    free(rows);
    tables_free(s, tabs);
    return rc < 0 ? -1 : 0;
}
