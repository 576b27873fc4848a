/* export.c - see export.h.
 *
 * json: {"meta": <meta.json or null>, "trials": [{<trials.csv columns>,
 * "samples": [{"sample": N, "seconds": S, "device_seconds": D}, ...]}, ...]}
 * where a cell that parses wholly as a finite number is a number, an empty
 * cell is null, any other cell a string; device_seconds only where measured.
 * csv: trials.csv's columns, then sample,seconds,device_seconds: one row per
 * sample; a trial with no sample has one row with those three empty. */
#include "rundir/export.h"
#include "rundir/rundir.h"

#include "base/csv.h"
#include "base/util.h"

#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *cell(const csv_table *t, int r, int c)
{
    return c >= 0 && c < t->nfields[r] ? t->rows[r][c] : "";
}

/* A cell as JSON: integer, number (keeping its text), null, or string. */
static json_object *value(const char *s)
{
    if (!*s)
        return NULL;
    char *end;
    errno = 0;
    long long i = strtoll(s, &end, 10);
    if (!*end && !errno && s[0] != '+' && !(s[0] == '0' && s[1]) && !(s[0] == '-' && s[1] == '0'))
        return json_object_new_int64(i);
    double d = strtod(s, &end);
    if (!*end && isfinite(d) && !strchr(" \t\n", s[0]) && s[0] != '+' &&
        strspn(s, "0123456789.eE-+") == strlen(s) && s[strspn(s, "-")] != '.' &&
        s[strlen(s) - 1] != '.')
        return json_object_new_double_s(d, s);
    return json_object_new_string(s);
}

static char *to_json(const char *dir, const csv_table *t, const csv_table *s,
                     const rundir_by_trial *g, char *err, size_t errlen)
{
    int absent;
    json_object *meta = rundir_read_meta(dir, &absent, err, errlen);
    if (!meta && !absent)
        return NULL;
    json_object *root = json_object_new_object();
    json_object_object_add(root, "meta", meta);
    json_object *trials = json_object_new_array();
    json_object_object_add(root, "trials", trials);
    int tc = csv_col(t, "trial");
    int sc = s ? csv_col(s, "sample") : -1, secc = s ? csv_col(s, "seconds") : -1,
        dc = s ? csv_col(s, "device_seconds") : -1;
    for (int r = 1; r < t->nrows; r++) {
        json_object *o = json_object_new_object();
        for (int c = 0; c < t->nfields[0]; c++)
            json_object_object_add(o, t->rows[0][c], value(cell(t, r, c)));
        json_object *arr = json_object_new_array();
        long n = rundir_trial_no(cell(t, r, tc));
        for (int k = 0; s && n >= 0 && n < g->ntrials && k < g->n[n]; k++) {
            int sr = g->rows[n][k];
            json_object *x = json_object_new_object();
            json_object_object_add(x, "sample", value(cell(s, sr, sc)));
            json_object_object_add(x, "seconds", value(cell(s, sr, secc)));
            if (*cell(s, sr, dc))
                json_object_object_add(x, "device_seconds", value(cell(s, sr, dc)));
            json_object_array_add(arr, x);
        }
        json_object_object_add(o, "samples", arr);
        json_object_array_add(trials, o);
    }
    char *out = xasprintf(
        "%s\n", json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE));
    json_object_put(root);
    return out;
}

static char *to_csv(const csv_table *t, const csv_table *s, const rundir_by_trial *g)
{
    strbuf b = {0};
    int w = t->nfields[0];
    for (int c = 0; c < w; c++) {
        csv_field(&b, t->rows[0][c]);
        sb_putc(&b, ',');
    }
    sb_puts(&b, "sample,seconds,device_seconds\n");
    int tc = csv_col(t, "trial");
    int sc = s ? csv_col(s, "sample") : -1, secc = s ? csv_col(s, "seconds") : -1,
        dc = s ? csv_col(s, "device_seconds") : -1;
    for (int r = 1; r < t->nrows; r++) {
        long n = rundir_trial_no(cell(t, r, tc));
        int ns = s && n >= 0 && n < g->ntrials ? g->n[n] : 0;
        for (int k = 0; k < (ns ? ns : 1); k++) {
            for (int c = 0; c < w; c++) {
                csv_field(&b, cell(t, r, c));
                sb_putc(&b, ',');
            }
            if (ns) {
                int sr = g->rows[n][k];
                csv_field(&b, cell(s, sr, sc));
                sb_putc(&b, ',');
                csv_field(&b, cell(s, sr, secc));
                sb_putc(&b, ',');
                csv_field(&b, cell(s, sr, dc));
            } else {
                sb_puts(&b, ",,");
            }
            sb_putc(&b, '\n');
        }
    }
    return sb_take(&b);
}

char *export_run(const char *dir, const char *format, char *err, size_t errlen)
{
    if (strcmp(format, "json") && strcmp(format, "csv")) {
        snprintf(err, errlen, "unknown format '%s' (json or csv)", format);
        return NULL;
    }
    csv_table t;
    if (rundir_read_trials(dir, &t, err, errlen) < 0)
        return NULL;
    /* a run with no timed sample may have no samples table: every trial has none */
    csv_table s;
    int have_s = 0;
    if (rundir_read_samples(dir, &s, &have_s, err, errlen) < 0) {
        csv_free(&t);
        return NULL;
    }
    if (!have_s)
        csv_free(&s);
    rundir_by_trial g = {0};
    if (have_s)
        rundir_group_samples(&s, &g);
    char *out = !strcmp(format, "json") ? to_json(dir, &t, have_s ? &s : NULL, &g, err, errlen)
                                        : to_csv(&t, have_s ? &s : NULL, &g);
    rundir_by_trial_free(&g);
    if (have_s)
        csv_free(&s);
    csv_free(&t);
    return out;
}
