/* export.c - see export.h.
 *
 * json: {"meta": <meta.json or null>, "trials": [{<trials.csv columns>,
 * "samples": [{"sample": N, "seconds": S, "device_seconds": D}, ...]}, ...]}
 * where a cell that is a finite number by JSON's grammar is a number, an
 * empty cell is null, any other cell a string; device_seconds only where
 * measured.  A run folder is untrusted input: whatever its files hold, the
 * output is valid JSON (doc/results.md#exporting-a-run).
 * csv: trials.csv's columns, then sample,seconds,device_seconds: one row per
 * sample; a trial with no sample has one row with those three empty.
 * spreadsheet: the same CSV, but a cell that a spreadsheet would run as a
 * formula starts with a ' (doc/results.md#exporting-a-run). */
#include "results/rundir/export.h"
#include "results/rundir/rundir.h"

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

/* 1 when s is a number by JSON's grammar (RFC 8259, section 6):
 * -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?  ("007", "1.", "+1", ".5" are not). */
int export_is_json_number(const char *s)
{
#define DIGIT(c) ((c) >= '0' && (c) <= '9')
    const char *p = s + (*s == '-');
    if (*p == '0')
        p++;
    else if (DIGIT(*p))
        while (DIGIT(*p))
            p++;
    else
        return 0;
    if (*p == '.') {
        if (!DIGIT(p[1]))
            return 0;
        for (p++; DIGIT(*p); p++)
            ;
    }
    if (*p == 'e' || *p == 'E') {
        p += 1 + (p[1] == '+' || p[1] == '-');
        if (!DIGIT(*p))
            return 0;
        while (DIGIT(*p))
            p++;
    }
    return *p == '\0';
#undef DIGIT
}

static json_object *json_text(const char *s)
{
    char *u = utf8_text(s);
    json_object *o = json_object_new_string(u);
    free(u);
    return o;
}

/* A cell as JSON: an integer where its text is one exactly as written, a
 * number keeping its text where the grammar allows it, null, or a string. */
static json_object *value(const char *s)
{
    if (!*s)
        return NULL;
    if (!export_is_json_number(s))
        return json_text(s);
    errno = 0;
    long long i = strtoll(s, NULL, 10);
    char back[32];
    snprintf(back, sizeof back, "%lld", i);
    if (!errno && !strcmp(back, s))
        return json_object_new_int64(i);
    double d = strtod(s, NULL);
    if (isfinite(d))
        return json_object_new_double_s(d, s);
    return json_text(s); /* 1e999: a number to the grammar, infinite to a reader */
}

/* meta.json as valid JSON: json-c reads NaN, Infinity and invalid UTF-8,
 * which JSON has not; they become null and U+FFFD. */
static json_object *valid_json(json_object *o)
{
    switch (json_object_get_type(o)) {
    case json_type_null:
        return NULL;
    case json_type_boolean:
        return json_object_new_boolean(json_object_get_boolean(o));
    case json_type_int:
        return json_object_new_int64(json_object_get_int64(o));
    case json_type_double: {
        double d = json_object_get_double(o);
        return isfinite(d) ? json_object_new_double(d) : NULL;
    }
    case json_type_string:
        return json_text(json_object_get_string(o));
    case json_type_array: {
        json_object *a = json_object_new_array();
        for (size_t i = 0; i < json_object_array_length(o); i++)
            json_object_array_add(a, valid_json(json_object_array_get_idx(o, i)));
        return a;
    }
    case json_type_object: {
        json_object *m = json_object_new_object();
        json_object_object_foreach(o, k, v)
        {
            char *u = utf8_text(k);
            json_object_object_add(m, u, valid_json(v));
            free(u);
        }
        return m;
    }
    }
    return NULL;
}

static char *to_json(const char *dir, const csv_table *t, const csv_table *s,
                     const rundir_by_trial *g, char *err, size_t errlen)
{
    int absent;
    json_object *read = rundir_read_meta(dir, &absent, err, errlen);
    if (!read && !absent)
        return NULL;
    json_object *meta = valid_json(read);
    json_object_put(read);
    json_object *root = json_object_new_object();
    json_object_object_add(root, "meta", meta);
    json_object *trials = json_object_new_array();
    json_object_object_add(root, "trials", trials);
    int tc = csv_col(t, "trial");
    int sc = s ? csv_col(s, "sample") : -1, secc = s ? csv_col(s, "seconds") : -1,
        dc = s ? csv_col(s, "device_seconds") : -1;
    for (int r = 1; r < t->nrows; r++) {
        json_object *o = json_object_new_object();
        for (int c = 0; c < t->nfields[0]; c++) {
            char *k = utf8_text(t->rows[0][c]);
            json_object_object_add(o, k, value(cell(t, r, c)));
            free(k);
        }
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

/* A cell; with `sheet`, one that a spreadsheet would run as a formula (=,
 * +, -, @, a tab or a carriage return first: OWASP's "CSV injection") and
 * that is not a number gets a leading ', which spreadsheets show as text. */
static void field(strbuf *b, const char *s, int sheet)
{
    if (sheet && s[0] && strchr("=+-@\t\r", s[0]) && !export_is_json_number(s)) {
        char *q = xasprintf("'%s", s);
        csv_field(b, q);
        free(q);
    } else {
        csv_field(b, s);
    }
}

static char *to_csv(const csv_table *t, const csv_table *s, const rundir_by_trial *g, int sheet)
{
    strbuf b = {0};
    int w = t->nfields[0];
    for (int c = 0; c < w; c++) {
        field(&b, t->rows[0][c], sheet);
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
                field(&b, cell(t, r, c), sheet);
                sb_putc(&b, ',');
            }
            if (ns) {
                int sr = g->rows[n][k];
                field(&b, cell(s, sr, sc), sheet);
                sb_putc(&b, ',');
                field(&b, cell(s, sr, secc), sheet);
                sb_putc(&b, ',');
                field(&b, cell(s, sr, dc), sheet);
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
    int sheet = !strcmp(format, "spreadsheet");
    if (strcmp(format, "json") && strcmp(format, "csv") && !sheet) {
        snprintf(err, errlen, "unknown format '%s' (json, csv or spreadsheet)", format);
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
                                        : to_csv(&t, have_s ? &s : NULL, &g, sheet);
    rundir_by_trial_free(&g);
    if (have_s)
        csv_free(&s);
    csv_free(&t);
    return out;
}
